import {
  DEAL_MIN_COMPARABLE,
  DEAL_RATING_LIMITS,
  type DealRating,
  type DealRatingName,
} from '../../../shared/schemas/commerce.js';

/** The whole event, as what a listing was compared with. */
export const WHOLE_EVENT = 'the whole event';

function median(sorted: readonly number[]): number {
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** The rating of an all-in price that is `ratio` times the median of its comparables (`DEAL_RATING_LIMITS`). */
export function ratingForRatio(ratio: number): DealRatingName {
  if (ratio <= DEAL_RATING_LIMITS.great) return 'great';
  if (ratio <= DEAL_RATING_LIMITS.good) return 'good';
  if (ratio <= DEAL_RATING_LIMITS.fair) return 'fair';
  return 'high';
}

/**
 * Product decision (`DEAL_RATING_LIMITS`): each listing's all-in price per ticket against the median all-in
 * price of the event's listings in the same level (`group`); a level with fewer than `DEAL_MIN_COMPARABLE`
 * listings is compared with every listing of the event. Answers one rating per listing, in order.
 */
export function dealRatings<T extends { allInPricePerTicket: number }>(
  listings: readonly T[],
  group: (listing: T) => string | undefined,
): DealRating[] {
  if (listings.length === 0) return [];
  const byGroup = new Map<string, number[]>();
  for (const l of listings) {
    const g = group(l);
    if (g === undefined) continue;
    const prices = byGroup.get(g) ?? [];
    prices.push(l.allInPricePerTicket);
    byGroup.set(g, prices);
  }
  const medians = new Map<string, { median: number; count: number }>();
  for (const [g, prices] of byGroup) {
    if (prices.length >= DEAL_MIN_COMPARABLE)
      medians.set(g, { median: median(prices.sort((a, b) => a - b)), count: prices.length });
  }
  const all = {
    median: median(listings.map((l) => l.allInPricePerTicket).sort((a, b) => a - b)),
    count: listings.length,
  };
  return listings.map((l) => {
    const g = group(l);
    const basis = (g !== undefined ? medians.get(g) : undefined) ?? all;
    return {
      rating: ratingForRatio(l.allInPricePerTicket / basis.median),
      median: round2(basis.median),
      comparedWith: basis === all ? WHOLE_EVENT : g!,
      comparables: basis.count,
    };
  });
}
