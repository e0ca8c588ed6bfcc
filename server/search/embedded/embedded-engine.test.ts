import { describe, expect, it } from 'vitest';
import { describeSearchContract } from '../contract/search-contract.js';
import { EmbeddedEngine, typoBudget } from './embedded-engine.js';

describeSearchContract('embedded', (catalog) => EmbeddedEngine.build(catalog));

describe('typoBudget (Typesense defaults)', () => {
  it.each([
    ['abc', false],
    ['abcd', 1],
    ['abcdef', 1],
    ['abcdefg', 2],
    ['abcdefghij', 2],
  ] as const)('%s → %s', (term, budget) => {
    expect(typoBudget(term)).toBe(budget);
  });
});

describe('topK', () => {
  it('returns the same first k as a full sort, stable on ties', async () => {
    const { topK } = await import('./embedded-engine.js');
    const fc = (await import('fast-check')).default;
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 20 })), fc.integer({ min: 0, max: 12 }), (values, k) => {
        const items = values.map((v, i) => ({ v, i }));
        const compare = (a: { v: number; i: number }, b: { v: number; i: number }) => a.v - b.v || a.i - b.i;
        expect(topK(items, k, compare)).toEqual([...items].sort(compare).slice(0, k));
      }),
    );
  });
});
