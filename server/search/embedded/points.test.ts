import { describe, expect, it } from 'vitest';
import { haversineMiles } from './geo.js';
import { PointIndex } from './points.js';

/** What `within` visits, as slot → least distance, and how many visits each slot got. */
function visits(index: PointIndex, geo: { lat: number; lng: number; radiusMiles: number }) {
  const nearest = new Map<number, number>();
  const seen = new Map<number, number>();
  index.within({ field: 'p', ...geo }, (slots, length, miles) => {
    for (let i = 0; i < length; i++) {
      const slot = slots[i]!;
      nearest.set(slot, Math.min(nearest.get(slot) ?? Infinity, miles));
      seen.set(slot, (seen.get(slot) ?? 0) + 1);
    }
  });
  return { nearest, seen };
}

describe('PointIndex', () => {
  const garden: [number, number] = [40.7505, -73.9934];
  const barclays: [number, number] = [40.6826, -73.9754];
  const fenway: [number, number] = [42.3467, -71.0972];

  it("visits each slot once per point in range, with that point's distance, and no point out of range", () => {
    const index = new PointIndex();
    index.add(1, [garden, barclays, fenway]);
    index.add(2, [barclays]);
    index.add(3, [fenway]);
    const { nearest, seen } = visits(index, { lat: garden[0], lng: garden[1], radiusMiles: 10 });
    expect([...nearest.keys()].sort()).toEqual([1, 2]);
    expect(nearest.get(1)).toBe(0);
    expect(nearest.get(2)).toBe(haversineMiles(garden[0], garden[1], barclays[0], barclays[1]));
    expect(seen.get(1)).toBe(2);
  });

  it('files a point named twice once, and forgets a point when its last slot leaves', () => {
    const index = new PointIndex();
    index.add(7, [garden, garden]);
    expect(visits(index, { lat: garden[0], lng: garden[1], radiusMiles: 1 }).seen.get(7)).toBe(1);
    index.remove(7, [garden, garden]);
    expect(visits(index, { lat: garden[0], lng: garden[1], radiusMiles: 1 }).seen.size).toBe(0);
    // A radius spanning every longitude walks all points rather than the grid.
    index.add(8, [fenway]);
    expect(visits(index, { lat: 0, lng: 0, radiusMiles: 12_000 }).nearest.has(8)).toBe(true);
  });
});
