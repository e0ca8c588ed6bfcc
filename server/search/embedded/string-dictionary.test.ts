import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SnapshotReader, SnapshotWriter } from './snapshot.js';
import { StringDictionary } from './string-dictionary.js';

describe('StringDictionary', () => {
  // Whole code points (emoji, accents, CJK), some repeated, some empty.
  const text = fc.oneof(
    fc.string({ unit: 'grapheme', maxLength: 12 }),
    fc.constantFrom('', 'Madison Square Garden', 'Beyoncé', '東京ドーム', '🎟️'),
  );

  it('gives each distinct string one id, finds it and reads it back, before and after a snapshot', () => {
    fc.assert(
      fc.property(
        fc.array(text, { minLength: 1, maxLength: 300 }),
        fc.array(text, { maxLength: 100 }),
        (first, later) => {
          const dictionary = new StringDictionary();
          const expected = new Map<string, number>();
          const check = (d: StringDictionary, values: string[]) => {
            for (const v of values) {
              const id = d.intern(v);
              if (!expected.has(v)) expected.set(v, expected.size);
              expect(id).toBe(expected.get(v));
            }
            for (const [v, id] of expected) {
              expect(d.idOf(v)).toBe(id);
              expect(d.get(id)).toBe(v);
            }
            expect(d.size).toBe(expected.size);
          };
          check(dictionary, first);
          expect(dictionary.idOf('\u0000not in it')).toBeUndefined();
          const writer = new SnapshotWriter();
          const tree = JSON.parse(JSON.stringify(dictionary.snapshot(writer)));
          const restored = StringDictionary.restore(tree, new SnapshotReader(writer.arrays.map((a) => a.slice())));
          // The restored one grows out of the snapshot's arrays as new strings come.
          check(restored, [...later, ...first]);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('keeps a hundred thousand strings findable through its hash table', () => {
    const dictionary = new StringDictionary();
    for (let i = 0; i < 100_000; i++) expect(dictionary.intern(`event-${i}`)).toBe(i);
    for (let i = 0; i < 100_000; i += 997) expect(dictionary.idOf(`event-${i}`)).toBe(i);
    expect(dictionary.idOf('event-100000')).toBeUndefined();
    // Read back twice over, past what it keeps made at once.
    for (let round = 0; round < 2; round++)
      for (let i = 0; i < 100_000; i += 3) expect(dictionary.get(i)).toBe(`event-${i}`);
  });
});
