import { AppError } from '../../http/errors.js';
import { DELIVERY_METHODS, type Listing } from '../../../shared/schemas/commerce.js';
import type { EventDocument } from '../../../shared/schemas/documents.js';
import { Random } from '../../catalog/generate/random.js';
import { addDays, parseLocalTimestamp } from '../../../shared/rules/local-time.js';
import type { LayoutName } from '../../../shared/schemas/seating.js';
import { zoneSections } from '../../../shared/schemas/seat-maps.js';

/** A seller's ticket group as listed, before holds and sales, and before fees. */
export type GeneratedListing = Omit<
  Listing,
  'quantityAvailable' | 'allInPricePerTicket' | 'serviceFeePerTicket' | 'shippingPerTicket' | 'dealRating'
> & {
  /** Tickets the seller listed. */
  quantity: number;
};

type DeliveryMethod = (typeof DELIVERY_METHODS)[number];

/** Product decision: an event page shows at most this many ticket groups, however many the feed counts. */
export const MAX_LISTINGS_PER_EVENT = 40;
/** Product decision: one ticket group holds 1 to 12 seats. */
export const MAX_TICKETS_PER_LISTING = 12;
/** Listing ids are `event_id * LISTING_ID_FACTOR + index`, so an id alone finds its event. */
export const LISTING_ID_FACTOR = 1000;

/** Product decision: most resale tickets move digitally; mail and will call are the exception. */
export const DELIVERY_METHOD_WEIGHTS: Readonly<Record<DeliveryMethod, number>> = {
  eticket: 45,
  mobile_transfer: 40,
  will_call: 5,
  physical_mail: 10,
};

/** Product decision: share of listings whose seller sells in pairs only (even quantities). */
export const PAIRS_ONLY_SHARE = 0.12;

export function listingId(eventId: number, index: number): number {
  if (!Number.isInteger(index) || index < 0 || index >= LISTING_ID_FACTOR)
    throw new RangeError(`listing index must be 0–${LISTING_ID_FACTOR - 1}, got ${index}`);
  const id = eventId * LISTING_ID_FACTOR + index;
  if (!Number.isSafeInteger(id) || eventId <= 0 || !Number.isInteger(eventId))
    throw new RangeError(`event id ${eventId} cannot carry listing ids`);
  return id;
}

export function eventIdOfListing(id: number): number {
  return Math.floor(id / LISTING_ID_FACTOR);
}

export function listingIndexOf(id: number): number {
  return id % LISTING_ID_FACTOR;
}

/**
 * The quantities a buyer may take from `quantity` seats: all of them, or any number that leaves at least two
 * behind, because a single leftover seat is nearly unsellable. A pairs-only seller allows even numbers only.
 */
export function splitsFor(quantity: number, pairsOnly = false): number[] {
  const splits: number[] = [];
  for (let q = 1; q <= quantity; q++) {
    const rest = quantity - q;
    if (rest !== 0 && rest < 2) continue;
    if (pairsOnly && q % 2 !== 0) continue;
    splits.push(q);
  }
  return splits;
}

/** Whether a listing's splits are those of a pairs-only seller (every split even). */
export function isPairsOnly(splits: readonly number[]): boolean {
  return splits.length > 0 && splits.every((q) => q % 2 === 0);
}

/**
 * The splits still on offer once some seats are held or sold: recomputed from what is left, keeping a
 * pairs-only seller's rule.
 */
export function availableSplits(splits: readonly number[], quantityAvailable: number): number[] {
  return splitsFor(Math.max(0, Math.floor(quantityAvailable)), isPairsOnly(splits));
}

/** Whether a buyer may take `quantity` seats of a listing with these splits and this many left. */
export function canBuyQuantity(splits: readonly number[], quantityAvailable: number, quantity: number): boolean {
  return availableSplits(splits, quantityAvailable).includes(quantity);
}

/**
 * Why `quantity` seats cannot be taken from a listing with `quantityAvailable` left, or null when they can:
 * too few left (409), or a quantity the seller's splits do not allow from what is left (400).
 */
export function quantityRefusal(
  splits: readonly number[],
  quantityAvailable: number,
  quantity: number,
): AppError | null {
  if (quantityAvailable < quantity) {
    return new AppError(
      409,
      'not_enough_tickets',
      quantityAvailable <= 0
        ? 'Those tickets were just taken; choose another listing'
        : `Only ${quantityAvailable} ticket${quantityAvailable === 1 ? '' : 's'} left in this listing`,
      { available: Math.max(0, quantityAvailable) },
    );
  }
  if (canBuyQuantity(splits, quantityAvailable, quantity)) return null;
  const allowed = availableSplits(splits, quantityAvailable);
  // What is left is no quantity the seller sells (one seat of a pairs-only seller): as good as gone.
  if (allowed.length === 0)
    return new AppError(409, 'not_enough_tickets', 'These tickets are no longer available; choose another listing', {
      available: 0,
    });
  return new AppError(
    400,
    'invalid_quantity',
    `This seller sells these tickets in quantities of ${allowed.join(', ')}`,
    [{ path: 'quantity', message: `choose ${allowed.join(', ')}` }],
  );
}

interface Zone {
  /** Price multiple of the cheapest zone (1). */
  factor: readonly [number, number];
  weight: number;
  /** The seat map zone (`shared/schemas/seating.ts`) whose sections it sells, so every section sold is on the map. */
  zone: string;
  /** Row label and how far forward it is (1 front … 0 back). */
  row(rng: Random): { label: string; front: number };
  notes?: readonly string[];
}

// Theaters skip I and O, which read as 1 and 0.
const ROW_LETTERS = 'ABCDEFGHJKLMNPQRSTUVWXYZ';

const numbered = (max: number) => (rng: Random) => {
  const n = rng.int(1, max);
  return { label: String(n), front: 1 - (n - 1) / max };
};
const lettered = (max: number) => (rng: Random) => {
  const n = rng.int(1, Math.min(max, ROW_LETTERS.length));
  return { label: ROW_LETTERS[n - 1]!, front: 1 - (n - 1) / max };
};
const generalAdmission = () => ({ label: 'GA', front: 0 });

const STADIUM_ZONES: readonly Zone[] = [
  { factor: [1, 1.3], weight: 40, zone: 'upper', row: numbered(30) },
  { factor: [1.5, 2.1], weight: 20, zone: 'mezzanine', row: numbered(20) },
  { factor: [1.9, 2.8], weight: 30, zone: 'lower', row: numbered(40) },
  { factor: [3, 4.5], weight: 10, zone: 'club', row: numbered(15), notes: ['Includes club lounge access'] },
];

const LAYOUTS: Record<LayoutName, readonly Zone[]> = {
  stadium: STADIUM_ZONES,
  ballpark: STADIUM_ZONES,
  'stadium-concert': [
    { factor: [1, 1.3], weight: 35, zone: 'upper', row: numbered(30) },
    { factor: [1.6, 2.4], weight: 35, zone: 'lower', row: numbered(40) },
    { factor: [2.8, 4.2], weight: 20, zone: 'floor', row: numbered(40) },
    { factor: [4.5, 6.5], weight: 10, zone: 'pit', row: generalAdmission, notes: ['Standing room only'] },
  ],
  'arena-sports': [
    { factor: [1, 1.4], weight: 45, zone: 'upper', row: numbered(20) },
    { factor: [1.8, 2.8], weight: 45, zone: 'lower', row: numbered(25) },
    { factor: [3.5, 5], weight: 10, zone: 'club', row: numbered(6), notes: ['Includes club lounge access'] },
  ],
  court: [
    { factor: [1, 1.4], weight: 45, zone: 'upper', row: numbered(20) },
    { factor: [1.8, 2.8], weight: 40, zone: 'lower', row: numbered(25) },
    { factor: [3.5, 5], weight: 10, zone: 'club', row: numbered(6), notes: ['Includes club lounge access'] },
    { factor: [8, 12], weight: 5, zone: 'courtside', row: numbered(2), notes: ['Includes club lounge access'] },
  ],
  'arena-concert': [
    { factor: [1, 1.4], weight: 40, zone: 'upper', row: numbered(20) },
    { factor: [1.6, 2.3], weight: 35, zone: 'lower', row: numbered(25) },
    { factor: [2.5, 3.8], weight: 25, zone: 'floor', row: numbered(30) },
  ],
  fight: [
    { factor: [1, 1.4], weight: 45, zone: 'upper', row: numbered(20) },
    { factor: [1.8, 2.8], weight: 40, zone: 'lower', row: numbered(25) },
    { factor: [5, 8], weight: 15, zone: 'ringside', row: numbered(8) },
  ],
  theater: [
    { factor: [1, 1.3], weight: 25, zone: 'balcony', row: lettered(12), notes: ['Steep incline', 'Obstructed view'] },
    { factor: [1.3, 1.8], weight: 30, zone: 'mezzanine', row: lettered(14) },
    { factor: [1.9, 2.5], weight: 15, zone: 'front-mezzanine', row: lettered(6) },
    { factor: [1.8, 2.8], weight: 30, zone: 'orchestra', row: lettered(24) },
  ],
  amphitheater: [
    {
      factor: [1, 1.2],
      weight: 35,
      zone: 'lawn',
      row: generalAdmission,
      notes: ['Lawn seating: bring a blanket, no chairs'],
    },
    { factor: [1.5, 2.2], weight: 35, zone: 'upper', row: numbered(30) },
    { factor: [2.2, 3.2], weight: 20, zone: 'lower', row: numbered(25) },
    { factor: [3.2, 4.8], weight: 10, zone: 'pit', row: generalAdmission, notes: ['Standing room only'] },
  ],
  club: [
    { factor: [1, 1.25], weight: 80, zone: 'ga', row: generalAdmission, notes: ['Standing room only'] },
    { factor: [1.6, 2.4], weight: 20, zone: 'vip', row: generalAdmission, notes: ['Includes VIP bar access'] },
  ],
  festival: [
    { factor: [1, 1.2], weight: 70, zone: 'ga', row: generalAdmission },
    { factor: [1.8, 2.6], weight: 25, zone: 'ga-plus', row: generalAdmission },
    { factor: [3.5, 5], weight: 5, zone: 'vip', row: generalAdmission, notes: ['Includes VIP lounge access'] },
  ],
  speedway: [
    { factor: [1, 1.3], weight: 40, zone: 'backstretch', row: numbered(40) },
    { factor: [1.4, 2], weight: 40, zone: 'frontstretch', row: numbered(50) },
    { factor: [2.5, 3.5], weight: 20, zone: 'infield', row: generalAdmission, notes: ['Includes pit pass'] },
  ],
  grounds: [
    { factor: [1, 1.2], weight: 80, zone: 'grounds', row: generalAdmission },
    { factor: [2.5, 4], weight: 20, zone: 'hospitality', row: generalAdmission, notes: ['Includes food and drink'] },
  ],
};

const LAYOUT_BY_CATEGORY: Readonly<Record<string, LayoutName>> = {
  nfl: 'stadium',
  mlb: 'ballpark',
  soccer: 'stadium',
  nba: 'court',
  nhl: 'arena-sports',
  tennis: 'court',
  rodeo: 'arena-sports',
  wwe: 'fight',
  boxing: 'fight',
  mma: 'fight',
  racing: 'speedway',
  golf: 'grounds',
  festivals: 'festival',
};

const STADIUM_NAME = /stadium|field\b|park\b|speedway/i;
const AMPHITHEATER_NAME = /amphithea|bowl\b|pavilion|shell\b/i;
const THEATER_NAME = /theat|opera|hall\b|auditorium|performing arts|symphony|playhouse|academy/i;
const ARENA_NAME = /arena|garden|forum|dome|fieldhouse|center|centre|coliseum|colosseum/i;
// "Center" alone names as many performing-arts halls as arenas; a stage show needs a plainer arena name.
const STRICT_ARENA_NAME = /arena|garden|forum|dome|fieldhouse|coliseum/i;

/**
 * The seating layout of the event's venue (and so its seat map), read from its category and, for touring acts,
 * the venue name: a league's category fixes the layout (a baseball game: a ballpark; an NBA game: a court),
 * except that an arena sport played in a stadium is drawn as a stadium; otherwise the venue's name says
 * stadium, amphitheater, theater or arena, and a concert anywhere else is in a club.
 */
export function layoutFor(event: EventDocument): LayoutName {
  const byCategory = LAYOUT_BY_CATEGORY[event.category];
  const name = event.venue_name;
  if ((byCategory === 'arena-sports' || byCategory === 'court') && STADIUM_NAME.test(name)) return 'stadium';
  if (byCategory) return byCategory;
  switch (event.major_category) {
    case 'SPORTS':
      return STADIUM_NAME.test(name) ? 'stadium' : 'arena-sports';
    case 'THEATRE':
      return STRICT_ARENA_NAME.test(name) && !THEATER_NAME.test(name) ? 'arena-concert' : 'theater';
    default:
      if (STADIUM_NAME.test(name)) return 'stadium-concert';
      if (AMPHITHEATER_NAME.test(name)) return 'amphitheater';
      if (THEATER_NAME.test(name)) return 'theater';
      if (ARENA_NAME.test(name)) return 'arena-concert';
      return event.major_category === 'CONCERTS' ? 'club' : 'arena-concert';
  }
}

/** Product decision: most sellers write nothing; the rest say what a buyer should know about the seats. */
const COMMON_NOTES = [
  'Aisle seats',
  'Seats are together',
  'Side view',
  'Limited view',
  'Obstructed view',
  'Wheelchair accessible',
];
const VENUE_NOTES: Partial<Record<LayoutName, readonly string[]>> = {
  stadium: ['Includes parking pass', 'Covered seats', 'Alcohol-free section'],
  'stadium-concert': ['Includes parking pass', 'Under 21 must be accompanied by an adult'],
  'arena-concert': ['Under 21 must be accompanied by an adult'],
  'arena-sports': ['Includes parking pass'],
  court: ['Includes parking pass'],
  amphitheater: ['Includes parking pass', 'Under 21 must be accompanied by an adult'],
  club: ['Under 21 must be accompanied by an adult', '18+ only, valid photo ID required'],
  speedway: ['Includes parking pass', 'Includes scanner rental'],
};
const NO_NOTES_SHARE = 0.55;

function sellerNotes(rng: Random, layout: LayoutName, zone: Zone): string {
  if (rng.chance(NO_NOTES_SHARE)) return '';
  const pool = [
    ...(zone.notes ?? []),
    ...(VENUE_NOTES[layout] ?? []),
    ...(zone.row === generalAdmission ? [] : COMMON_NOTES),
  ];
  return pool.length === 0 ? '' : rng.pick(pool);
}

const ACCESSIBLE_NOTE = /wheelchair|accessible seat/i;
const OBSTRUCTED_NOTE = /obstructed|limited view/i;

/**
 * Accessible seating and an obstructed view, as a seller's notes say them ("Wheelchair accessible",
 * "Obstructed view", "Limited view"): generated listings carry what their notes say, and an operator's
 * listing that does not state them is read the same way.
 */
export function seatingFromNotes(notes: string): { accessible: boolean; obstructedView: boolean } {
  return { accessible: ACCESSIBLE_NOTE.test(notes), obstructedView: OBSTRUCTED_NOTE.test(notes) };
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/**
 * When the seller has the tickets: before the event, by how the tickets travel. Mail needs a week or more,
 * will call is collected on the day, transfers often arrive a few days ahead. Empty while the date is not set.
 */
function inHandDate(rng: Random, event: EventDocument, method: DeliveryMethod): string {
  const local = parseLocalTimestamp(event.event_local_timestamp);
  if (!local) return '';
  const daysBefore = {
    eticket: rng.int(1, 21),
    mobile_transfer: rng.int(0, 3),
    will_call: 0,
    physical_mail: rng.int(7, 21),
  }[method];
  const d = addDays(local, -daysBefore);
  return `${String(d.year).padStart(4, '0')}-${pad2(d.month)}-${pad2(d.day)}`;
}

/** Seats per listing, each 1–12, summing to the event's share of tickets for the groups shown. */
function quantities(rng: Random, count: number, event: EventDocument): number[] {
  const groups = Math.max(event.ticket_groups_available, count);
  // With the group count capped, the shown listings carry their share of the event's tickets.
  const share = Math.round((event.tickets_available * count) / groups);
  const target = Math.min(event.tickets_available, MAX_TICKETS_PER_LISTING * count, Math.max(count, share));
  const qty = new Array<number>(count).fill(1);
  const open = Array.from({ length: count }, (_, i) => i);
  for (let left = target - count; left > 0 && open.length > 0; left--) {
    const at = rng.int(0, open.length - 1);
    const i = open[at]!;
    qty[i] = qty[i]! + 1;
    if (qty[i] === MAX_TICKETS_PER_LISTING) open.splice(at, 1);
  }
  return qty;
}

const toCents = (dollars: number) => Math.round(dollars * 100);

/** An event's availability and lowest price as it was listed, before shoppers held and bought from it. */
export interface ListedAvailability {
  tickets_available: number;
  ticket_groups_available: number;
  /** The cheapest listing's price as listed (absent in baselines kept before it was). */
  min_ticket_price?: number;
}

/**
 * The event as its listings are generated from: with its availability and lowest price as listed when they are
 * known (demand signals lower the document's availability and raise its lowest price as tickets are held and
 * sold, and the listings must stay the same ones).
 */
export function asListed(event: EventDocument, listed: ListedAvailability | undefined): EventDocument {
  if (!listed) return event;
  const asWas = {
    ...event,
    tickets_available: listed.tickets_available,
    ticket_groups_available: listed.ticket_groups_available,
  };
  return listed.min_ticket_price === undefined ? asWas : { ...asWas, min_ticket_price: listed.min_ticket_price };
}

/**
 * The ticket groups of an event, the same on every call and machine (seeded by the event id). None when the
 * event is sold out, has no groups, or has no price: a listing must have one. Give it the event as listed
 * (`asListed`), not as its availability stands now.
 */
export function listingsForEvent(event: EventDocument): GeneratedListing[] {
  const floorCents = toCents(event.min_ticket_price);
  const count = Math.min(event.ticket_groups_available, MAX_LISTINGS_PER_EVENT, event.tickets_available);
  if (count <= 0 || floorCents <= 0) return [];

  const rng = new Random(Math.imul(event.event_id, 0x9e3779b1) ^ 0x5eed1157);
  const layout = layoutFor(event);
  const zones = LAYOUTS[layout];
  const sizes = quantities(rng, count, event);

  const listings = sizes.map((quantity, index): GeneratedListing => {
    const zone = rng.weighted(zones, (z) => z.weight);
    const section = rng.pick(zoneSections(layout, zone.zone));
    const row = zone.row(rng);
    const [lo, hi] = zone.factor;
    const factor = (lo + (hi - lo) * rng.next()) * (1 + 0.3 * row.front) * (1 + 0.08 * rng.next());
    const deliveryMethod = rng.weighted(DELIVERY_METHODS, (m) => DELIVERY_METHOD_WEIGHTS[m]);
    const pairsOnly = quantity % 2 === 0 && quantity > 2 && rng.chance(PAIRS_ONLY_SHARE);
    const notes = sellerNotes(rng, layout, zone);
    return {
      id: listingId(event.event_id, index),
      eventId: event.event_id,
      section,
      row: row.label,
      quantity,
      splits: splitsFor(quantity, pairsOnly),
      pricePerTicket: Math.max(floorCents, Math.round(floorCents * factor)) / 100,
      deliveryMethod,
      sellerNotes: notes,
      ...seatingFromNotes(notes),
      inHandDate: inHandDate(rng, event, deliveryMethod),
    };
  });

  // The event's advertised "from" price must be a real listing.
  let cheapest = listings[0]!;
  for (const l of listings) if (l.pricePerTicket < cheapest.pricePerTicket) cheapest = l;
  cheapest.pricePerTicket = floorCents / 100;
  return listings;
}
