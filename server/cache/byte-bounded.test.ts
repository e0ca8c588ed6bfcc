import { describe, expect, it } from 'vitest';
import { answerBytes, byteBounded, CACHE_BYTES, entryBytes, roughBytes } from './byte-bounded.js';

describe('roughBytes', () => {
  it('grows with the strings, numbers, elements and properties a value holds', () => {
    expect(roughBytes('abc')).toBe(roughBytes('') + 3);
    expect(roughBytes([1, 2, 3])).toBeGreaterThan(roughBytes([1]));
    expect(roughBytes({ a: 'x'.repeat(1000) })).toBeGreaterThan(1000);
    expect(roughBytes({ a: 1, b: 2 })).toBeGreaterThan(roughBytes({ a: 1 }));
  });

  it('counts a value met twice once, and a cycle ends', () => {
    const shared = { text: 'y'.repeat(500) };
    const twice = [shared, shared];
    expect(roughBytes(twice)).toBeLessThan(roughBytes([shared, { text: 'y'.repeat(500) }]));
    const cycle: Record<string, unknown> = { name: 'loop' };
    cycle.self = cycle;
    expect(roughBytes(cycle)).toBeGreaterThan(0);
  });
});

describe('byteBounded', () => {
  it('pushes out the least recently used entries once their bytes pass the bound', () => {
    const cache = byteBounded<string, string>(20_000, (body) => answerBytes(body));
    for (let i = 0; i < 50; i++) cache.set(`page ${i}`, 'x'.repeat(400));
    expect(cache.calculatedSize).toBeLessThanOrEqual(20_000);
    expect(cache.size).toBeGreaterThan(0);
    expect(cache.size).toBeLessThan(50);
    expect(cache.has('page 49')).toBe(true);
    expect(cache.has('page 0')).toBe(false);
  });

  it('keeps no entry over a tenth of its bound, and drops what the key held', () => {
    const cache = byteBounded<string, string>(10_000, (body) => body.length);
    cache.set('big', 'small');
    expect(cache.set('big', 'x'.repeat(1_500)).has('big')).toBe(false);
    expect(cache.has('big')).toBe(false);
  });

  it('counts an entry with its key and bookkeeping, as a set naming its own size may too', () => {
    const cache = byteBounded<string, string>(100_000, (value) => value.length);
    cache.set('key', 'x'.repeat(100));
    expect(cache.calculatedSize).toBe(entryBytes('key', 100));
    expect(entryBytes('key', 100)).toBeGreaterThan(100 + 'key'.length);
  });

  it('counts an entry as its set names it, when it does', () => {
    const cache = byteBounded<string, string>(10_000, () => 1);
    cache.set('a', 'v', { size: 900 });
    cache.set('b', 'v', { size: 900 });
    expect(cache.calculatedSize).toBe(1_800);
  });
});

describe('CACHE_BYTES (RULES 13.12)', () => {
  it('holds the budgets the rules name, in MiB', () => {
    const mib = Object.fromEntries(Object.entries(CACHE_BYTES).map(([name, bytes]) => [name, bytes / 1024 / 1024]));
    expect(mib).toEqual({
      rows: 16,
      layoutAnswers: 12,
      assignments: 4,
      apiLane: 24,
      pages: 24,
      fragments: 8,
      inlineStyles: 2,
      searchResults: 24,
      sitemaps: 64,
      laneReads: 8,
      verifiedTokens: 4,
      partitionKeys: 1,
    });
  });
});
