import { MAX_TICKETS_PER_EVENT } from './constants.js';

/**
 * RULES 3.9, 8.1: what a shopper can buy of a listing now: the quantities its seller sells from what is left
 * (`splits`, already recomputed from the seats left) that one shopper may take of an event.
 */
export function buyableQuantities(splits: readonly number[], limit = MAX_TICKETS_PER_EVENT): number[] {
  return splits.filter((q) => q >= 1 && q <= limit);
}

/** The cheapest listing a shopper can buy now, its price and the quantities it sells. */
export interface Offer<L> {
  listing: L;
  price: number;
  quantities: number[];
}

/**
 * RULES 3.9: the listing every "From" price names (a card's, the event page's button, the JSON-LD offer's
 * `lowPrice`): the cheapest one with a quantity a shopper may buy (`buyableQuantities`), or undefined when none
 * has. Ties go to the lower id, so every reader names the same listing.
 */
export function cheapestOffer<L extends { id: number; splits: readonly number[] }>(
  listings: readonly L[],
  price: (listing: L) => number,
): Offer<L> | undefined {
  let best: Offer<L> | undefined;
  for (const listing of listings) {
    const quantities = buyableQuantities(listing.splits);
    if (quantities.length === 0) continue;
    const p = price(listing);
    if (!best || p < best.price || (p === best.price && listing.id < best.listing.id))
      best = { listing, price: p, quantities };
  }
  return best;
}

/**
 * The quantity at which an offer is shown to a shopper who asked for `wanted`: `wanted` itself when the listing
 * sells it, else the nearest it sells (the smaller of two as near).
 */
export function offerQuantity(quantities: readonly number[], wanted: number): number {
  let best = quantities[0]!;
  for (const q of quantities) {
    const d = Math.abs(q - wanted);
    const bestD = Math.abs(best - wanted);
    if (d < bestD || (d === bestD && q < best)) best = q;
  }
  return best;
}
