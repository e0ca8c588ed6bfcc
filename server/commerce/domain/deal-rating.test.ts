import { describe, expect, it } from 'vitest';
import { DEAL_MIN_COMPARABLE, DEAL_RATING_LIMITS } from '../../../shared/schemas/commerce.js';
import { dealRatings, ratingForRatio, WHOLE_EVENT } from './deal-rating.js';

const at = (allInPricePerTicket: number, level?: string) => ({ allInPricePerTicket, level });
const byLevel = (l: { level?: string }) => l.level;

describe('ratingForRatio: the all-in price against the median of comparable listings', () => {
  it.each([
    [0.5, 'great'],
    [DEAL_RATING_LIMITS.great, 'great'],
    [0.9, 'good'],
    [DEAL_RATING_LIMITS.good, 'good'],
    [1, 'fair'],
    [DEAL_RATING_LIMITS.fair, 'fair'],
    [1.11, 'high'],
    [3, 'high'],
  ])('%d times the median is %s', (ratio, rating) => {
    expect(ratingForRatio(ratio)).toBe(rating);
  });
});

describe('dealRatings', () => {
  it('compares each listing with the median of its own level', () => {
    const listings = [
      at(80, 'Upper'),
      at(100, 'Upper'),
      at(120, 'Upper'),
      at(300, 'Floor'),
      at(400, 'Floor'),
      at(500, 'Floor'),
      at(600, 'Floor'),
    ];
    const ratings = dealRatings(listings, byLevel);
    expect(ratings.map((r) => r.rating)).toEqual(['great', 'fair', 'high', 'great', 'good', 'high', 'high']);
    expect(ratings[0]).toEqual({ rating: 'great', median: 100, comparedWith: 'Upper', comparables: 3 });
    // An even count's median is the mean of the middle two.
    expect(ratings[3]).toEqual({ rating: 'great', median: 450, comparedWith: 'Floor', comparables: 4 });
  });

  it(
    `compares a level of fewer than ${DEAL_MIN_COMPARABLE} listings, and ` +
      `sections off the map, with the whole event`,
    () => {
      const listings = [at(100, 'Upper'), at(100, 'Upper'), at(100, 'Upper'), at(1000, 'Pit'), at(90)];
      const ratings = dealRatings(listings, byLevel);
      expect(ratings[3]).toEqual({ rating: 'high', median: 100, comparedWith: WHOLE_EVENT, comparables: 5 });
      expect(ratings[4]).toEqual({ rating: 'good', median: 100, comparedWith: WHOLE_EVENT, comparables: 5 });
      expect(ratings[0]!.comparedWith).toBe('Upper');
    },
  );

  it('rates nothing when there is nothing to rate, and a lone listing fair', () => {
    expect(dealRatings([], byLevel)).toEqual([]);
    expect(dealRatings([at(55.5, 'Lawn')], byLevel)).toEqual([
      { rating: 'fair', median: 55.5, comparedWith: WHOLE_EVENT, comparables: 1 },
    ]);
  });
});
