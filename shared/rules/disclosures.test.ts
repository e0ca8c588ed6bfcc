import { describe, expect, it } from 'vitest';
import type { ListingTerms } from '../schemas/commerce.js';
import { NOT_HELD_NOTICE, listingDisclosures, seatLocation, termsFromNotes } from './disclosures.js';

const terms = (extra: Partial<ListingTerms> = {}): ListingTerms => ({
  section: '112',
  row: 'F',
  deliveryMethod: 'eticket',
  inHandDate: '2026-12-20',
  sellerNotes: '',
  accessible: false,
  obstructedView: false,
  faceValue: null,
  ticketsHeld: true,
  ageRestriction: null,
  ...extra,
});
const format = { money: (n: number) => `$${n.toFixed(2)}`, date: (d: string) => `on ${d}` };
const lines = (t: ListingTerms) => listingDisclosures(t, format).map((l) => `${l.kind}: ${l.text}`);

describe('listing disclosures (RULES 20.1–20.3)', () => {
  it('says where the seats are, or that they are general admission', () => {
    expect(seatLocation({ section: '112', row: 'F' })).toBe('Section 112, Row F');
    expect(seatLocation({ section: 'Upper Level 338', row: '4' })).toBe('Upper Level 338, Row 4');
    expect(seatLocation({ section: 'Pit', row: 'GA' })).toBe('Pit, general admission');
  });

  it('lists every term in one order: seats, accessibility, restrictions, face value, delivery, notice, note', () => {
    expect(
      lines(
        terms({
          accessible: true,
          obstructedView: true,
          ageRestriction: '18+ only, valid photo ID required',
          faceValue: 89.5,
          ticketsHeld: false,
          sellerNotes: 'Includes parking pass',
        }),
      ),
    ).toEqual([
      'seats: Section 112, Row F',
      'accessible: Wheelchair-accessible seating',
      'restriction: Obstructed or limited view',
      'restriction: 18+ only, valid photo ID required',
      'face_value: Face value $89.50 per ticket',
      'delivery: eTicket · In hand by on 2026-12-20',
      `not_held: ${NOT_HELD_NOTICE}`,
      'seller_note: Includes parking pass',
    ]);
  });

  it('says each note once: a seller note that only restates a line of its own is not repeated', () => {
    for (const note of [
      'Obstructed view',
      'Limited view',
      'Wheelchair accessible',
      '18+ only, valid photo ID required',
    ]) {
      const t = terms({ sellerNotes: note, ...termsFromNotes(note) });
      const shown = listingDisclosures(t, format);
      expect(
        shown.filter((l) => l.kind === 'seller_note'),
        note,
      ).toEqual([]);
      expect(shown.filter((l) => l.kind === 'accessible' || l.kind === 'restriction')).toHaveLength(1);
    }
    // A note that says more than the line is kept.
    const aisle = terms({ sellerNotes: 'Aisle seats' });
    expect(listingDisclosures(aisle, format).at(-1)).toEqual({ kind: 'seller_note', text: 'Aisle seats' });
  });

  it('leaves out what the seller did not give: no face value line, no in-hand date while the date is not set', () => {
    expect(lines(terms({ inHandDate: '' }))).toEqual(['seats: Section 112, Row F', 'delivery: eTicket']);
  });
});
