import { describe, expect, it } from 'vitest';
import { describeSearchContract } from '../contract/search-contract.js';
import { EmbeddedEngine } from './embedded-engine.js';
import { typoBudget } from './text-index.js';

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
