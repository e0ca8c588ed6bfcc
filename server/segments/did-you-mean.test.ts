import { describe, expect, it } from 'vitest';
import { closest, editDistance } from './did-you-mean.js';

describe('closest: the allowed spelling a merchandiser probably meant', () => {
  it('suggests a candidate one small slip away, ignoring case', () => {
    expect(closest('venue', ['performers', 'events', 'venues', 'categories', 'promos'])).toBe('venues');
    expect(closest('sizee', ['id', 'title', 'size', 'sort'])).toBe('size');
    expect(closest('Broadway', ['broadway', 'off-broadway'])).toBe('broadway');
    // A word far longer or shorter than every candidate is no misspelling of one (and is never compared).
    expect(closest('b'.repeat(200_000), ['broadway', 'nfl'])).toBeUndefined();
    expect(closest('v', ['venues'])).toBeUndefined();
    expect(closest('popular-local-performer', ['popular-local-performers', 'local-events'])).toBe(
      'popular-local-performers',
    );
  });

  it('suggests nothing when no candidate is close enough', () => {
    expect(closest('delete', ['replace', 'remove', 'insertBefore', 'insertAfter', 'append'])).toBeUndefined();
    expect(closest('xyzzy', ['nfl', 'nba', 'broadway'])).toBeUndefined();
    expect(closest('anything', [])).toBeUndefined();
  });

  it('counts insertions, deletions, substitutions and swapped neighbours', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('same', 'SAME')).toBe(0);
    expect(editDistance('titel', 'title')).toBe(1);
  });
});
