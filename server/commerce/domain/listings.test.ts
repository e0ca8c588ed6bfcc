import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DELIVERY_METHODS, ListingSchema } from '../../../shared/schemas/commerce.js';
import type { EventDocument } from '../../../shared/schemas/documents.js';
import { eventDocument } from '../../test/documents.js';
import {
  MAX_LISTINGS_PER_EVENT,
  MAX_TICKETS_PER_LISTING,
  availableSplits,
  canBuyQuantity,
  eventIdOfListing,
  generatedCompanionSeats,
  isPairsOnly,
  listingId,
  listingIndexOf,
  listingsForEvent,
  quantityRefusal,
  splitsFor,
  type GeneratedListing,
} from './listings.js';
import { layoutFor } from './venue-layouts.js';
import { perTicketPrices } from '../../../shared/rules/pricing.js';
import { termsFromNotes } from '../../../shared/rules/disclosures.js';
import { LAYOUT_NAMES } from '../../../shared/schemas/seating.js';
import { seatMapTemplate } from '../../../shared/schemas/seat-maps.js';

/** The no-single-seat-left rule, checked from scratch for one listing. */
function splitsRuleHolds(l: GeneratedListing): boolean {
  const pairs = isPairsOnly(l.splits);
  const expected: number[] = [];
  for (let q = 1; q <= l.quantity; q++) {
    const rest = l.quantity - q;
    if ((rest === 0 || rest >= 2) && (!pairs || q % 2 === 0)) expected.push(q);
  }
  return l.splits.length > 0 && l.splits.includes(l.quantity) && JSON.stringify(l.splits) === JSON.stringify(expected);
}

const CATEGORIES: Pick<EventDocument, 'category' | 'major_category' | 'venue_name'>[] = [
  { category: 'nfl', major_category: 'SPORTS', venue_name: 'State Farm Stadium' },
  { category: 'nhl', major_category: 'SPORTS', venue_name: 'TD Garden' },
  { category: 'broadway', major_category: 'THEATRE', venue_name: 'Gershwin Theatre' },
  { category: 'pop', major_category: 'CONCERTS', venue_name: 'Bowery Ballroom' },
  { category: 'pop', major_category: 'CONCERTS', venue_name: 'Red Rocks Amphitheatre' },
  { category: 'rap-hip-hop', major_category: 'CONCERTS', venue_name: 'Barclays Center' },
  { category: 'golf', major_category: 'OTHER', venue_name: 'TPC Scottsdale' },
  { category: 'racing', major_category: 'OTHER', venue_name: 'Daytona International Speedway' },
  { category: 'mma', major_category: 'OTHER', venue_name: 'T-Mobile Arena' },
  { category: 'festivals', major_category: 'CONCERTS', venue_name: 'Empire Polo Club' },
  { category: 'mlb', major_category: 'SPORTS', venue_name: 'Fenway Park' },
  { category: 'nba', major_category: 'SPORTS', venue_name: 'Chase Center' },
  { category: 'pop', major_category: 'CONCERTS', venue_name: 'MetLife Stadium' },
];

const eventArb = fc
  .record({
    event_id: fc.integer({ min: 1, max: 9_000_000 }),
    tickets_available: fc.integer({ min: 0, max: 6000 }),
    ticket_groups_available: fc.integer({ min: 0, max: 2000 }),
    minCents: fc.integer({ min: 1, max: 500_000 }),
    kind: fc.constantFrom(...CATEGORIES),
    timestamp: fc.option(
      fc.date({ min: new Date('2025-01-01T00:00:00Z'), max: new Date('2035-12-31T00:00:00Z'), noInvalidDate: true }),
      { nil: null },
    ),
  })
  .map(({ minCents, kind, timestamp, ...r }) =>
    eventDocument({
      ...r,
      ...kind,
      id: String(r.event_id),
      min_ticket_price: minCents / 100,
      event_local_timestamp: timestamp ? timestamp.toISOString().slice(0, 19) : null,
    }),
  );

describe('splitsFor: no single seat left behind', () => {
  it.each<[number, boolean, number[]]>([
    [1, false, [1]],
    [2, false, [2]],
    [3, false, [1, 3]],
    [4, false, [1, 2, 4]],
    [5, false, [1, 2, 3, 5]],
    [6, false, [1, 2, 3, 4, 6]],
    [4, true, [2, 4]],
    [6, true, [2, 4, 6]],
    [0, false, []],
  ])('%d seats (pairs only: %s) → %j', (quantity, pairs, splits) => {
    expect(splitsFor(quantity, pairs)).toEqual(splits);
  });

  it('recomputes what is left after a sale, keeping pairs-only', () => {
    expect(availableSplits(splitsFor(5), 4)).toEqual([1, 2, 4]);
    expect(availableSplits(splitsFor(8, true), 6)).toEqual([2, 4, 6]);
    expect(availableSplits(splitsFor(5), 0)).toEqual([]);
    expect(canBuyQuantity(splitsFor(6), 6, 5)).toBe(false);
    expect(canBuyQuantity(splitsFor(6), 6, 4)).toBe(true);
    expect(canBuyQuantity(splitsFor(6, true), 6, 3)).toBe(false);
  });
});

describe('listing ids', () => {
  it('encode the event id and the index', () => {
    expect(listingId(100_001, 7)).toBe(100_001_007);
    expect(eventIdOfListing(100_001_007)).toBe(100_001);
    expect(listingIndexOf(100_001_007)).toBe(7);
  });

  it('refuse an index of 1000 or more', () => {
    expect(() => listingId(1, 1000)).toThrow(RangeError);
    expect(() => listingId(1, -1)).toThrow(RangeError);
  });
});

describe('listingsForEvent', () => {
  const event = eventDocument({
    event_id: 100_001,
    tickets_available: 582,
    ticket_groups_available: 97,
    min_ticket_price: 129.98,
  });

  it('is deterministic: the same event gives the same listings', () => {
    expect(listingsForEvent(event)).toEqual(listingsForEvent(structuredClone(event)));
    expect(listingsForEvent({ ...event, event_id: 100_002 })).not.toEqual(listingsForEvent(event));
  });

  it('shows at most 40 groups, ids unique and decodable', () => {
    const listings = listingsForEvent(event);
    expect(listings).toHaveLength(MAX_LISTINGS_PER_EVENT);
    expect(new Set(listings.map((l) => l.id)).size).toBe(listings.length);
    listings.forEach((l, i) => {
      expect(eventIdOfListing(l.id)).toBe(event.event_id);
      expect(listingIndexOf(l.id)).toBe(i);
      expect(l.eventId).toBe(event.event_id);
    });
  });

  it('lists every ticket when the groups all fit', () => {
    const small = eventDocument({ tickets_available: 43, ticket_groups_available: 9 });
    const listings = listingsForEvent(small);
    expect(listings).toHaveLength(9);
    expect(listings.reduce((s, l) => s + l.quantity, 0)).toBe(43);
  });

  it('has no listings for a sold-out event, one without groups, or one without a price', () => {
    expect(listingsForEvent(eventDocument({ tickets_available: 0, ticket_groups_available: 0 }))).toEqual([]);
    expect(listingsForEvent(eventDocument({ tickets_available: 0, ticket_groups_available: 12 }))).toEqual([]);
    expect(listingsForEvent(eventDocument({ tickets_available: 50, ticket_groups_available: 0 }))).toEqual([]);
    expect(listingsForEvent(eventDocument({ min_ticket_price: 0 }))).toEqual([]);
  });

  it('prices the cheapest listing at the event minimum and none below', () => {
    const prices = listingsForEvent(event).map((l) => l.pricePerTicket);
    expect(Math.min(...prices)).toBe(129.98);
    expect(prices.filter((p) => p === 129.98).length).toBeGreaterThanOrEqual(1);
  });

  it('prices better sections higher on the whole', () => {
    const nfl = eventDocument({
      event_id: 4242,
      category: 'nfl',
      venue_name: 'State Farm Stadium',
      tickets_available: 5000,
      ticket_groups_available: 400,
    });
    const listings = listingsForEvent(nfl);
    const avg = (re: RegExp) => {
      const ps = listings.filter((l) => re.test(l.section)).map((l) => l.pricePerTicket);
      return ps.reduce((a, b) => a + b, 0) / ps.length;
    };
    expect(avg(/^Section 1/)).toBeGreaterThan(avg(/^Upper Level/));
  });

  it.each<[string, Partial<EventDocument>, RegExp, RegExp]>([
    [
      'stadium',
      { category: 'nfl', venue_name: 'State Farm Stadium' },
      /^(Section 1\d\d|Upper Level 3\d\d|Mezzanine 2\d\d|Club 2\d\d)$/,
      /^\d+$/,
    ],
    [
      'basketball arena',
      { category: 'nba', venue_name: 'Chase Center' },
      /^(Section [12]\d\d|Courtside|Club Level)$/,
      /^\d+$/,
    ],
    [
      'hockey arena',
      { category: 'nhl', venue_name: 'TD Garden' },
      /^(Section [12]\d\d|Club Level|Lower Level Club)$/,
      /^\d+$/,
    ],
    [
      'arena concert',
      { category: 'pop', major_category: 'CONCERTS', venue_name: 'Barclays Center' },
      /^(Section [12]\d\d|Floor [A-D])$/,
      /^\d+$/,
    ],
    [
      'theater',
      { category: 'broadway', major_category: 'THEATRE', venue_name: 'Gershwin Theatre' },
      /^(Orchestra( Left| Center| Right)?|(Front |Rear )?Mezzanine|Balcony)$/,
      /^[A-Z]$/,
    ],
    [
      'club',
      { category: 'pop', major_category: 'CONCERTS', venue_name: 'Bowery Ballroom' },
      /^(General Admission|VIP Balcony|VIP Mezzanine)$/,
      /^GA$/,
    ],
  ])('%s sections and rows', (_, kind, section, row) => {
    const listings = listingsForEvent(eventDocument({ ...kind, tickets_available: 400, ticket_groups_available: 40 }));
    expect(listings.length).toBe(40);
    for (const l of listings) {
      expect(l.section).toMatch(section);
      expect(l.row).toMatch(row);
    }
  });

  it('weights delivery toward eTicket and mobile transfer', () => {
    const counts = new Map<string, number>();
    for (let id = 1; id <= 50; id++) {
      for (const l of listingsForEvent(eventDocument({ event_id: id })))
        counts.set(l.deliveryMethod, (counts.get(l.deliveryMethod) ?? 0) + 1);
    }
    const digital = (counts.get('eticket') ?? 0) + (counts.get('mobile_transfer') ?? 0);
    expect(digital / 2000).toBeGreaterThan(0.7);
    expect([...counts.keys()].every((m) => (DELIVERY_METHODS as readonly string[]).includes(m))).toBe(true);
  });

  it('has tickets in hand on or before the event date, and none dated while the date is TBD', () => {
    for (const l of listingsForEvent(event))
      expect(l.inHandDate <= event.event_local_timestamp!.slice(0, 10)).toBe(true);
    for (const l of listingsForEvent(eventDocument({ event_local_timestamp: null, event_timestamp: null })))
      expect(l.inHandDate).toBe('');
  });

  it('meets every rule for any event (property)', () => {
    fc.assert(
      fc.property(eventArb, (ev) => {
        const listings = listingsForEvent(ev);
        const expectedCount = Math.min(ev.ticket_groups_available, MAX_LISTINGS_PER_EVENT, ev.tickets_available);
        expect(listings).toHaveLength(expectedCount);
        if (listings.length === 0) return;
        expect(listings.reduce((s, l) => s + l.quantity, 0)).toBeLessThanOrEqual(ev.tickets_available);
        expect(Math.min(...listings.map((l) => l.pricePerTicket))).toBe(ev.min_ticket_price);
        expect(new Set(listings.map((l) => l.id)).size).toBe(listings.length);
        const day = ev.event_local_timestamp?.slice(0, 10);
        for (const l of listings) {
          expect(eventIdOfListing(l.id)).toBe(ev.event_id);
          expect(l.quantity).toBeGreaterThanOrEqual(1);
          expect(l.quantity).toBeLessThanOrEqual(MAX_TICKETS_PER_LISTING);
          expect(splitsRuleHolds(l)).toBe(true);
          expect(l.pricePerTicket).toBeGreaterThanOrEqual(ev.min_ticket_price);
          expect(Math.round(l.pricePerTicket * 100) / 100).toBe(l.pricePerTicket);
          expect(day === undefined ? l.inHandDate === '' : l.inHandDate <= day).toBe(true);
          const { quantity, ...rest } = l;
          ListingSchema.parse({
            ...rest,
            quantityAvailable: quantity,
            ...perTicketPrices(l),
            dealRating: { rating: 'fair', median: 1, comparedWith: 'the whole event', comparables: 1 },
          });
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('listings on the seat map', () => {
  it("sells only sections of the event's seat map, for many random events of every layout (property)", () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(eventArb, (ev) => {
        const layout = layoutFor(ev);
        seen.add(layout);
        const onMap = new Set(seatMapTemplate(layout).sections.map((s) => s.name));
        for (const l of listingsForEvent(ev))
          expect(onMap.has(l.section), `${l.section} on the ${layout} map`).toBe(true);
      }),
      { numRuns: 400 },
    );
    expect([...seen].sort()).toEqual([...LAYOUT_NAMES].sort());
  });

  it.each<[Partial<EventDocument>, string]>([
    [{ category: 'nfl', venue_name: 'State Farm Stadium' }, 'stadium'],
    [{ category: 'mlb', venue_name: 'Fenway Park' }, 'ballpark'],
    [{ category: 'nba', venue_name: 'Chase Center' }, 'court'],
    [{ category: 'nhl', venue_name: 'TD Garden' }, 'arena-sports'],
    [{ category: 'nhl', venue_name: 'Wrigley Field' }, 'stadium'],
    [{ category: 'mma', venue_name: 'T-Mobile Arena' }, 'fight'],
    [{ category: 'pop', major_category: 'CONCERTS', venue_name: 'MetLife Stadium' }, 'stadium-concert'],
    [{ category: 'pop', major_category: 'CONCERTS', venue_name: 'Barclays Center' }, 'arena-concert'],
    [{ category: 'pop', major_category: 'CONCERTS', venue_name: 'Red Rocks Amphitheatre' }, 'amphitheater'],
    [{ category: 'pop', major_category: 'CONCERTS', venue_name: 'Bowery Ballroom' }, 'club'],
    [{ category: 'broadway', major_category: 'THEATRE', venue_name: 'Gershwin Theatre' }, 'theater'],
    [{ category: 'festivals', major_category: 'CONCERTS', venue_name: 'Empire Polo Club' }, 'festival'],
    [{ category: 'racing', major_category: 'OTHER', venue_name: 'Daytona International Speedway' }, 'speedway'],
    [{ category: 'golf', major_category: 'OTHER', venue_name: 'TPC Scottsdale' }, 'grounds'],
  ])('%j is drawn as a %s', (kind, layout) => {
    expect(layoutFor(eventDocument(kind))).toBe(layout);
  });

  it('marks accessible seating, obstructed views and age limits as the seller notes say them', () => {
    expect(termsFromNotes('Wheelchair accessible')).toEqual({
      accessible: true,
      obstructedView: false,
      ageRestriction: null,
    });
    expect(termsFromNotes('Obstructed view')).toMatchObject({ accessible: false, obstructedView: true });
    expect(termsFromNotes('Limited view')).toMatchObject({ accessible: false, obstructedView: true });
    expect(termsFromNotes('Aisle seats')).toEqual({ accessible: false, obstructedView: false, ageRestriction: null });
    expect(termsFromNotes('18+ only, valid photo ID required').ageRestriction).toBe(
      '18+ only, valid photo ID required',
    );
    expect(termsFromNotes('Under 21 must be accompanied by an adult').ageRestriction).toBe(
      'Under 21 must be accompanied by an adult',
    );
    const listings = Array.from({ length: 30 }, (_, i) =>
      listingsForEvent(eventDocument({ event_id: 7000 + i, tickets_available: 400, ticket_groups_available: 40 })),
    ).flat();
    for (const l of listings)
      expect({ accessible: l.accessible, obstructedView: l.obstructedView, ageRestriction: l.ageRestriction }).toEqual(
        termsFromNotes(l.sellerNotes),
      );
    expect(listings.some((l) => l.accessible)).toBe(true);
    expect(listings.some((l) => l.obstructedView)).toBe(true);
  });

  it('gives a face value for most listings and says when a seller does not hold the tickets (RULES 20.2, 20.3)', () => {
    const listings = Array.from({ length: 30 }, (_, i) =>
      listingsForEvent(eventDocument({ event_id: 7100 + i, tickets_available: 400, ticket_groups_available: 40 })),
    ).flat();
    const withFace = listings.filter((l) => l.faceValue !== null);
    expect(withFace.length / listings.length).toBeGreaterThan(0.5);
    expect(withFace.length / listings.length).toBeLessThan(0.8);
    for (const l of withFace) {
      expect(l.faceValue).toBeGreaterThan(0);
      // Resale runs from a little below face value to well above it.
      expect(l.pricePerTicket / l.faceValue!).toBeGreaterThan(0.74);
      expect(l.pricePerTicket / l.faceValue!).toBeLessThan(2.41);
    }
    const notHeld = listings.filter((l) => !l.ticketsHeld).length / listings.length;
    expect(notHeld).toBeGreaterThan(0.03);
    expect(notHeld).toBeLessThan(0.15);
    // The same listings on every call.
    expect(
      listingsForEvent(eventDocument({ event_id: 7100, tickets_available: 400, ticket_groups_available: 40 })),
    ).toEqual(listings.filter((l) => l.eventId === 7100));
  });
});

describe('quantityRefusal', () => {
  it('allows what the splits allow from what is left, and names the quantities otherwise', () => {
    expect(quantityRefusal(splitsFor(4), 4, 2)).toBeNull();
    expect(quantityRefusal(splitsFor(4), 2, 1)).toMatchObject({
      status: 400,
      code: 'invalid_quantity',
      message: 'This seller sells these tickets in quantities of 2',
    });
    expect(quantityRefusal(splitsFor(4), 1, 2)).toMatchObject({
      status: 409,
      code: 'not_enough_tickets',
      message: 'Only 1 ticket left in this listing',
    });
    expect(quantityRefusal(splitsFor(4), 0, 1)).toMatchObject({
      status: 409,
      code: 'not_enough_tickets',
      message: expect.stringMatching(/just taken/),
    });
  });

  it(
    'treats a seat no quantity can take (one seat of a pairs-only seller) as ' +
      'gone, never as "quantities of" nothing',
    () => {
      const pairs = splitsFor(4, true);
      expect(quantityRefusal(pairs, 1, 1)).toMatchObject({ status: 409, code: 'not_enough_tickets' });
    },
  );
});

describe('companion seats of generated listings (RULES 10.16)', () => {
  const events = Array.from({ length: 400 }, (_, i) =>
    eventDocument({ event_id: 9000 + i, tickets_available: 200, ticket_groups_available: 40, min_ticket_price: 30 }),
  );
  const all = events.flatMap((e) => listingsForEvent(e));

  it('come only with accessible listings, at most one per space, the same on every call', () => {
    const accessible = all.filter((l) => l.accessible);
    expect(accessible.length).toBeGreaterThan(50);
    for (const l of all) {
      if (!l.accessible) expect(l.companionSeats).toBe(0);
      expect(l.companionSeats).toBeGreaterThanOrEqual(0);
      expect(l.companionSeats).toBeLessThanOrEqual(l.quantity);
      expect(generatedCompanionSeats(l)).toBe(l.companionSeats);
    }
    // Most accessible listings have one per space; some fewer, some none.
    const onePerSpace = accessible.filter((l) => l.companionSeats === l.quantity).length / accessible.length;
    expect(onePerSpace).toBeGreaterThan(0.55);
    expect(accessible.some((l) => l.companionSeats === 0)).toBe(true);
    expect(accessible.some((l) => l.companionSeats > 0 && l.companionSeats < l.quantity)).toBe(true);
  });

  it('are drawn apart from the event: the same listing id gives the same count, whatever else is listed', () => {
    expect(generatedCompanionSeats({ id: 123_004, quantity: 4, accessible: true })).toBe(
      generatedCompanionSeats({ id: 123_004, quantity: 4, accessible: true }),
    );
    expect(generatedCompanionSeats({ id: 123_004, quantity: 4, accessible: false })).toBe(0);
  });
});
