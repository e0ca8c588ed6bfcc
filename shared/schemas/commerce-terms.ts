/*
 * Listings, carts and orders: the words, limits and product decisions the pages show and apply, kept apart from
 * the schemas (`commerce.ts`, which re-exports them) so that a page can use them without loading zod.
 */

export const DELIVERY_METHODS = ['eticket', 'mobile_transfer', 'will_call', 'physical_mail'] as const;

export const DELIVERY_LABELS: Record<(typeof DELIVERY_METHODS)[number], string> = {
  eticket: 'eTicket',
  mobile_transfer: 'Mobile transfer',
  will_call: 'Will call',
  physical_mail: 'Shipped by mail',
};

export const DEAL_RATINGS = ['great', 'good', 'fair', 'high'] as const;
export type DealRatingName = (typeof DEAL_RATINGS)[number];
export const DEAL_RATING_LABELS: Readonly<Record<DealRatingName, string>> = {
  great: 'Great deal',
  good: 'Good deal',
  fair: 'Fair price',
  high: 'Priced high',
};
/**
 * Product decision: a listing's deal rating is its all-in price per ticket as a share of the median all-in
 * price of the event's listings in the same level (zone of the seat map); at most `great` of it is a great
 * deal, at most `good` a good one, at most `fair` a fair price, and above that priced high.
 */
export const DEAL_RATING_LIMITS = { great: 0.85, good: 0.95, fair: 1.1 } as const;
/** Product decision: a level with fewer listings than this is compared with the whole event instead. */
export const DEAL_MIN_COMPARABLE = 3;

/**
 * Product decision (RULES 10.16): an accessible listing's seats are wheelchair spaces, and its seller may
 * list companion seats beside them. A companion seat is sold only together with a wheelchair space of the same
 * listing, in the same cart, at most one per space, at the listing's price per ticket, and it counts towards the
 * per-event purchase limit like any ticket.
 */
export const COMPANIONS_PER_SPACE = 1;

/** RULES 10.16: the most companion seats `spaces` wheelchair spaces may come with: one per space, as many as left. */
export function companionsAllowed(
  listing: { accessible: boolean; companionSeats: number },
  spaces: number | null,
): number {
  if (!listing.accessible || listing.companionSeats <= 0 || spaces === null) return 0;
  return Math.min(spaces * COMPANIONS_PER_SPACE, listing.companionSeats);
}

/**
 * Listings change as shoppers buy: how long an answer counts as fresh, in the client's cache and in a rendered
 * event page replayed by the server.
 */
export const LISTINGS_FRESH_MS = 15_000;

/**
 * The header a checkout's retries repeat, so the server answers them as one request (IETF httpapi draft, as Stripe).
 */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
/** Sent on an answer replayed for a repeated key, as Stripe does. */
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';
