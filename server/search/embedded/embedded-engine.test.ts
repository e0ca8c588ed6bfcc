import { describe, expect, it } from 'vitest';
import { describeSearchContract } from '../contract/search-contract.js';
import { EmbeddedEngine } from './embedded-engine.js';
import { MAX_PREFIX_CANDIDATES } from '../../../shared/rules/constants.js';
import { TextIndex, typoBudget } from './text-index.js';

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

describe('prefix expansion (Typesense max_candidates)', () => {
  it('lets the last word stand for its 4 most frequent completions, the word itself first', () => {
    expect(MAX_PREFIX_CANDIDATES).toBe(4);
    const index = new TextIndex(['name']);
    const texts = [
      'jazz',
      'jazzy',
      'jazzy',
      'jazzy',
      'jazzfest',
      'jazzfest',
      'jazzmen',
      'jazzmen',
      'jazzmen',
      'jazzmen',
      'jazzband',
    ];
    texts.forEach((text, slot) => index.add(slot, [text]));
    expect(index.expand('jazz', MAX_PREFIX_CANDIDATES)).toEqual(['jazz', 'jazzmen', 'jazzy', 'jazzfest']);
    const found = index.match(['jazz'], ['name'], [1], texts.length);
    // jazzband (one document, the least frequent) is not among the completions.
    expect([...found.slots]).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });
});

describe('queries in slices of the event loop', () => {
  it('answers concurrent queries in a task of their own, after what was queued before them', async () => {
    const engine = new EmbeddedEngine();
    const request = { collection: 'Venue' as const, q: '*', queryBy: ['venue_name'] };
    const seen: string[] = [];
    setImmediate(() => seen.push('a task queued before them'));
    const queries = ['first', 'second'].map((name) => engine.search(request).then(() => seen.push(name)));
    setImmediate(() => seen.push('a task queued after them'));
    expect(seen).toEqual([]);
    await Promise.all(queries);
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual(['a task queued before them', 'first', 'second', 'a task queued after them']);
  });
});
