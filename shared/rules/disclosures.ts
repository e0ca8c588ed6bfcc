import { DELIVERY_LABELS } from '../schemas/commerce-terms.js';
import type { ListingTerms } from '../schemas/commerce.js';

/**
 * What a listing tells a shopper before they pay (RULES 20.1–20.4): the same lines, in the same order, on every page
 * that shows the listing (the event page, the ticket page, the checkout and the order), so that no page drops one and
 * none says one twice.
 */

export { GUARANTEE_PATH } from './site-paths.js';
/** Product decision (RULES 20.4): a guarantee claim is made within this many days after the event date. */
export const CLAIM_WINDOW_DAYS = 7;
/**
 * RULES 19.2: how long a buyer may ask for a full refund after being told that their event moved (postponed, or a
 * new date). Thirty days from the notice, the window the largest primary seller has given for rescheduled events
 * since 2020; New York's §25.07 asks for a refund of a cancelled event and leaves a moved one to the seller. The
 * guarantee page states it too.
 */
export const REFUND_WINDOW_DAYS = 30;

const ACCESSIBLE_NOTE = /wheelchair|accessible seat/i;
const OBSTRUCTED_NOTE = /obstructed|limited view/i;
const AGE_NOTE = /\b(under|over|ages?)\s+\d{1,2}\b|\b\d{1,2}\+/i;

/**
 * Accessible seating, an obstructed view and an age limit, as a seller's notes say them ("Wheelchair accessible",
 * "Obstructed view", "Limited view", "18+ only, valid photo ID required"): generated listings carry what their notes
 * say, and an operator's listing that does not state them is read the same way.
 */
export function termsFromNotes(notes: string): {
  accessible: boolean;
  obstructedView: boolean;
  ageRestriction: string | null;
} {
  const trimmed = notes.trim();
  return {
    accessible: ACCESSIBLE_NOTE.test(notes),
    obstructedView: OBSTRUCTED_NOTE.test(notes),
    ageRestriction: AGE_NOTE.test(trimmed) ? trimmed : null,
  };
}

/** A listing's terms alone (RULES 20.1), as an order keeps them. */
export function listingTerms(listing: ListingTerms): ListingTerms {
  return {
    section: listing.section,
    row: listing.row,
    deliveryMethod: listing.deliveryMethod,
    inHandDate: listing.inHandDate,
    sellerNotes: listing.sellerNotes,
    accessible: listing.accessible,
    obstructedView: listing.obstructedView,
    faceValue: listing.faceValue,
    ticketsHeld: listing.ticketsHeld,
    ageRestriction: listing.ageRestriction,
  };
}

/** The row of a general-admission listing: no assigned seat. */
export const GENERAL_ADMISSION_ROW = 'GA';

export function isGeneralAdmission(row: string): boolean {
  return row.trim().toUpperCase() === GENERAL_ADMISSION_ROW;
}

/** "Section 112, Row F"; a section already named in words ("Upper Level 338") is kept; "Pit, general admission". */
export function seatLocation(terms: Pick<ListingTerms, 'section' | 'row'>): string {
  const name = terms.section.trim();
  const section = /^[A-Za-z]?\d+[A-Za-z]?$/.test(name) ? `Section ${name}` : name;
  return isGeneralAdmission(terms.row) ? `${section}, general admission` : `${section}, Row ${terms.row.trim()}`;
}

/**
 * RULES 20.3, in plain words: New York's resale law (Arts and Cultural Affairs Law §25.10(1)(c)) asks for this notice
 * when the seller neither holds the tickets nor has a contract to get them at a set price, shown where the tickets
 * are offered and again before the purchase, and confirmed by the buyer.
 */
export const NOT_HELD_NOTICE =
  'The seller does not have these tickets yet and has no contract to get them at a set price, so they may not be ' +
  'able to supply them at this price. If they cannot, you get a full refund.';
/** The same notice as an order keeps it, once bought (RULES 20.3). */
export const NOT_HELD_ORDER_NOTE =
  'When you bought these tickets, the seller did not have them yet and had no contract to get them at a set price. ' +
  'If they cannot supply them, you get a full refund.';
/** What the buyer ticks at checkout (RULES 20.3). */
export const NOT_HELD_CONFIRMATION = 'I have read that the seller does not have these tickets yet';

export type DisclosureKind =
  'seats' | 'accessible' | 'restriction' | 'face_value' | 'delivery' | 'not_held' | 'seller_note';

export interface Disclosure {
  kind: DisclosureKind;
  text: string;
}

const normalized = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9+]+/g, ' ')
    .trim();

/** Phrases a seller's note may consist of that a line of its own already says (RULES 20.1: each said once). */
const RESTATED = [/^(wheelchair accessible|accessible seat(s|ing)?)$/, /^(obstructed|limited|partial) view$/];

/**
 * The lines a listing discloses, in order: where the seats are, accessible seating, restrictions (an obstructed view,
 * an age limit), the face value where the seller gives it, delivery and when the tickets are in hand, the notice when
 * the seller does not have them yet, and the seller's own note when it says something no other line says.
 * `money` formats an amount as the page does; `inHand` is the in-hand date as the page shows it.
 */
export function listingDisclosures(
  terms: ListingTerms,
  format: { money: (dollars: number) => string; date: (isoDate: string) => string },
): Disclosure[] {
  const lines: Disclosure[] = [{ kind: 'seats', text: seatLocation(terms) }];
  if (terms.accessible) lines.push({ kind: 'accessible', text: 'Wheelchair-accessible seating' });
  if (terms.obstructedView) lines.push({ kind: 'restriction', text: 'Obstructed or limited view' });
  if (terms.ageRestriction) lines.push({ kind: 'restriction', text: terms.ageRestriction });
  if (terms.faceValue !== null)
    lines.push({ kind: 'face_value', text: `Face value ${format.money(terms.faceValue)} per ticket` });
  const delivery = DELIVERY_LABELS[terms.deliveryMethod];
  lines.push({
    kind: 'delivery',
    text: terms.inHandDate ? `${delivery} · In hand by ${format.date(terms.inHandDate)}` : delivery,
  });
  if (!terms.ticketsHeld) lines.push({ kind: 'not_held', text: NOT_HELD_NOTICE });
  const note = terms.sellerNotes.trim();
  const said = new Set(lines.map((l) => normalized(l.text)));
  const key = normalized(note);
  if (note !== '' && !said.has(key) && !RESTATED.some((r) => r.test(key)))
    lines.push({ kind: 'seller_note', text: note });
  return lines;
}

/**
 * The lines besides where the seats are and how they come (restrictions, face value, the notice, the seller's note):
 * what an order's "Important Notes" and its confirmation email say, each once.
 */
export function listingNotes(terms: ListingTerms, money: (dollars: number) => string): Disclosure[] {
  // No note carries a date (the in-hand date is the delivery line's).
  return listingDisclosures(terms, { money, date: (isoDate) => isoDate }).filter(
    (l) => l.kind !== 'seats' && l.kind !== 'delivery',
  );
}
