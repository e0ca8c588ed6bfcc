import { describe, expect, it } from 'vitest';
import { HEAP_GROWTH_LEAST_BYTES, heapGrowthPercent } from './heap.js';

const MiB = 1024 * 1024;

describe('heapGrowthPercent (RULES 13.12)', () => {
  it('lets a large heap grow by the percent asked', () => {
    expect(heapGrowthPercent(20, 400 * MiB)).toBe(20);
    expect(heapGrowthPercent(20, 1024 * MiB)).toBe(20);
  });

  it('lets a small heap grow by at least the least growth', () => {
    expect(heapGrowthPercent(20, 60 * MiB)).toBe(80);
    expect((heapGrowthPercent(20, 100 * MiB) / 100) * 100 * MiB).toBeGreaterThanOrEqual(HEAP_GROWTH_LEAST_BYTES);
    expect(heapGrowthPercent(20, 0)).toBeGreaterThan(1000);
  });
});
