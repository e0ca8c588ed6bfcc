import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { popularPerformers, rankTrending, trendingRatio } from './ranking.js';

const p = (t12: number, d7 = 0, name = '') => ({ performer_orders_t12: t12, performer_orders_d7: d7, name });

describe('popularPerformers (RULES 7.13: at most 3, each ≥ 10% of the combined twelve-month orders)', () => {
  it('keeps those at or above 10% in hit order, at most 3', () => {
    const hits = [p(50, 0, 'a'), p(5, 0, 'b'), p(10, 0, 'c'), p(20, 0, 'd'), p(15, 0, 'e')];
    // total 100: a (50), c (10, exactly 10%), d (20), e (15) qualify; b (5) does not
    expect(popularPerformers(hits).map((x) => x.name)).toEqual(['a', 'c', 'd']);
  });

  it('returns nothing when there are no orders', () => {
    expect(popularPerformers([p(0), p(0)])).toEqual([]);
  });

  it('never returns more than 3 nor one under the share', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 10_000 }), { maxLength: 30 }), (orders) => {
        const hits = orders.map((o) => p(o));
        const total = orders.reduce((a, b) => a + b, 0);
        const kept = popularPerformers(hits);
        expect(kept.length).toBeLessThanOrEqual(3);
        for (const k of kept) expect(k.performer_orders_t12).toBeGreaterThanOrEqual(total * 0.1);
      }),
    );
  });
});

describe('trending (RULES 7.12: ratio of 7-day to 12-month orders, top 9)', () => {
  it('ranks by the ratio and keeps 9', () => {
    const pool = Array.from({ length: 12 }, (_, i) => p(100, i, `p${i}`));
    pool.push(p(0, 50, 'no-history'));
    const ranked = rankTrending(pool);
    expect(ranked).toHaveLength(9);
    expect(ranked[0]!.name).toBe('p11');
    expect(ranked.map((x) => x.name)).not.toContain('no-history');
  });

  it('treats no twelve-month orders as ratio 0', () => {
    expect(trendingRatio(p(0, 10))).toBe(0);
    expect(trendingRatio(p(200, 50))).toBe(0.25);
  });
});
