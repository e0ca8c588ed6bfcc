import { describe, expect, it } from 'vitest';
import { TermDictionary } from './term-dictionary.js';

describe('TermDictionary', () => {
  const dict = new TermDictionary();
  dict.addDocument(['dallas', 'cowboys', 'dallas']);
  dict.addDocument(['dallas', 'mavericks']);
  dict.addDocument(['denver', 'nuggets']);
  dict.addDocument(['detroit', 'pistons']);
  dict.addDocument(['da']);
  dict.addDocument(['dance', 'dance']);
  dict.seal();

  it('expands a prefix to its most frequent words, counting a word once per document', () => {
    expect(dict.expand('d', 3)).toEqual(['dallas', 'da', 'dance']);
  });

  it('puts the prefix first when it is a word itself', () => {
    expect(dict.expand('da', 2)).toEqual(['da', 'dallas']);
  });

  it('finds nothing for an unknown prefix', () => {
    expect(dict.expand('zz', 4)).toEqual([]);
  });
});
