import { describe, expect, it } from 'vitest';
import { keptReads } from './kept-reads.js';

describe('keptReads', () => {
  it('reads a value once while there is room, and every time beyond it or past the longest kept', () => {
    const seen: string[] = [];
    const read = keptReads(
      (v: string) => {
        seen.push(v);
        return v.length === 0 ? undefined : v.toUpperCase();
      },
      2,
      5,
    );
    expect([read('ab'), read('ab'), read(''), read('')]).toEqual(['AB', 'AB', undefined, undefined]);
    // The room (2) is taken: a third value is read on each call.
    expect([read('cd'), read('cd')]).toEqual(['CD', 'CD']);
    expect(seen).toEqual(['ab', '', 'cd', 'cd']);
    const long = keptReads((v: string) => v.length, 10, 3);
    expect([long('abcd'), long('abcd')]).toEqual([4, 4]);
  });
});
