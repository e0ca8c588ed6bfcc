import { describe, expect, it } from 'vitest';
import { decimalNumber } from '../../../../shared/rules/decimal.js';
import { resultsPage, schedulePage } from './entity-pages.js';

describe('decimal numbers in an address', () => {
  it('reads decimal text as its number, and no other text as any number', () => {
    expect(['12', '-3.5', '.5', '0', '7.'].map(decimalNumber)).toEqual([12, -3.5, 0.5, 0, 7]);
    for (const text of ['', ' ', '0x10', '1e1', 'Infinity', 'NaN', '1,5', ' 1', '+1', '--1'])
      expect(decimalNumber(text), JSON.stringify(text)).toBeUndefined();
  });

  it('gives a page its number from `?page=` only when written as one, else the first page', () => {
    const page = (query: string) => [schedulePage(new URLSearchParams(query)), resultsPage(new URLSearchParams(query))];
    expect(page('page=3')).toEqual([3, 3]);
    for (const query of ['', 'page=', 'page=0x2', 'page=1e1', 'page=abc', 'page=0', 'page=-2'])
      expect(page(query), query).toEqual([1, 1]);
  });
});
