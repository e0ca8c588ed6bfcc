import { AppError } from '../../http/errors.js';
import { DELIVERY_METHODS, type Listing } from '../../../shared/schemas/commerce.js';
import type { EventDocument } from '../../../shared/schemas/documents.js';
import { Random } from '../../catalog/generate/random.js';
import { termsFromNotes } from '../../../shared/rules/disclosures.js';
import { addDays, parseLocalTimestamp } from '../../../shared/rules/local-time.js';
import type { LayoutName } from '../../../shared/schemas/seating.js';
import { zoneSections } from '../../../shared/schemas/seat-maps.js';
import { LAYOUTS, generalAdmission, layoutFor, type Zone } from './venue-layouts.js';

/** A seller's ticket group as listed, before holds and sales, and before fees. */
export type GeneratedListing = Omit<
  Listing,
  'quantityAvailable' | 'allInPricePerTicket' | 'serviceFeePerTicket' | 'shippingPerTicket' | 'dealRating'
> & {
  /** Tickets the seller listed. */
  quantity: number;
  /** Companion seats the seller listed beside the wheelchair spaces (accessible listings only; RULES 10.16). */
  companionSeats: number;
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

/**
 * Product decision: the share of generated sellers who give their tickets' face value (RULES 20.2), and how far from
 * it they price (resale runs below and above face value).
 */
export const FACE_VALUE_SHARE = 0.65;
const FACE_VALUE_MARKUP: readonly [number, number] = [0.75, 2.4];
/** Product decision: the share of generated listings whose seller does not have the tickets yet (RULES 20.3). */
export const NOT_HELD_SHARE = 0.08;

/**
 * The terms a generated seller states besides the seats: a face value, whether they hold the tickets. Drawn from the
 * listing's own seed, apart from the event's sequence, so the event's listings stay the ones they were.
 */
function sellerTerms(id: number, pricePerTicket: number): { faceValue: number | null; ticketsHeld: boolean } {
  const rng = new Random(Math.imul(id, 0x85ebca6b) ^ 0x2c1b3c6d);
  const [lo, hi] = FACE_VALUE_MARKUP;
  const markup = lo + (hi - lo) * rng.next();
  const faceValue = rng.chance(FACE_VALUE_SHARE)
    ? Math.max(1, Math.round((pricePerTicket * 100) / markup)) / 100
    : null;
  return { faceValue, ticketsHeld: !rng.chance(NOT_HELD_SHARE) };
}

/**
 * Product decision (RULES 10.16): most sellers of wheelchair spaces list a companion seat beside each space, some
 * fewer, and the rest none.
 */
export const COMPANION_SEATS_SHARES = { onePerSpace: 0.7, fewer: 0.2 } as const;

/**
 * The companion seats a generated accessible listing offers (see COMPANION_SEATS_SHARES). Drawn from the listing's
 * own sequence (seeded by its id), so the event's other listings stay as they were.
 */
export function generatedCompanionSeats(listing: { id: number; quantity: number; accessible: boolean }): number {
  if (!listing.accessible) return 0;
  const rng = new Random(Math.imul(listing.id, 0x2c1b3c6d) ^ 0xc0ffee);
  const draw = rng.next();
  if (draw < COMPANION_SEATS_SHARES.onePerSpace) return listing.quantity;
  if (draw < COMPANION_SEATS_SHARES.onePerSpace + COMPANION_SEATS_SHARES.fewer)
    return listing.quantity > 1 ? rng.int(1, listing.quantity - 1) : 1;
  return 0;
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
    const id = listingId(event.event_id, index);
    const zone = rng.weighted(zones, (z) => z.weight);
    const section = rng.pick(zoneSections(layout, zone.zone));
    const row = zone.row(rng);
    const [lo, hi] = zone.factor;
    const factor = (lo + (hi - lo) * rng.next()) * (1 + 0.3 * row.front) * (1 + 0.08 * rng.next());
    const deliveryMethod = rng.weighted(DELIVERY_METHODS, (m) => DELIVERY_METHOD_WEIGHTS[m]);
    const pairsOnly = quantity % 2 === 0 && quantity > 2 && rng.chance(PAIRS_ONLY_SHARE);
    const notes = sellerNotes(rng, layout, zone);
    const seating = termsFromNotes(notes);
    return {
      id,
      eventId: event.event_id,
      section,
      row: row.label,
      quantity,
      splits: splitsFor(quantity, pairsOnly),
      pricePerTicket: Math.max(floorCents, Math.round(floorCents * factor)) / 100,
      deliveryMethod,
      sellerNotes: notes,
      ...seating,
      companionSeats: generatedCompanionSeats({ id, quantity, accessible: seating.accessible }),
      inHandDate: inHandDate(rng, event, deliveryMethod),
      faceValue: null,
      ticketsHeld: true,
    };
  });

  // The event's advertised "from" price must be a real listing.
  let cheapest = listings[0]!;
  for (const l of listings) if (l.pricePerTicket < cheapest.pricePerTicket) cheapest = l;
  cheapest.pricePerTicket = floorCents / 100;
  for (const l of listings) Object.assign(l, sellerTerms(l.id, l.pricePerTicket));
  return listings;
}
