import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ColumnStore } from './columns.js';
import { StringDictionary } from './string-dictionary.js';
import { SnapshotReader, SnapshotWriter } from './snapshot.js';

const shape = {
  id: z.string(),
  score: z.number().nullable(),
  name: z.string().nullable(),
  at: z.tuple([z.number(), z.number()]),
  tags: z.array(z.string()),
  counts: z.array(z.number()),
  nested: z.array(z.object({ a: z.number(), b: z.string().nullable() })),
  points: z.array(z.tuple([z.number(), z.number()])),
  grid: z.array(z.array(z.number())),
};
type Doc = {
  id: string;
  score: number | null;
  name: string | null;
  at: [number, number];
  tags: string[];
  counts: number[];
  nested: { a: number; b: string | null }[];
  points: [number, number][];
  grid: number[][];
};

const doc = (id: number): fc.Arbitrary<Doc> =>
  fc.record({
    id: fc.constant(String(id)),
    score: fc.option(fc.double({ noNaN: true })),
    name: fc.option(fc.constantFrom('Garden', 'Arena', 'Hall', '')),
    at: fc.tuple(fc.double({ min: -90, max: 90, noNaN: true }), fc.double({ min: -180, max: 180, noNaN: true })),
    tags: fc.array(fc.constantFrom('rock', 'jazz', 'pop', 'folk'), { maxLength: 12, size: 'max' }),
    counts: fc.array(fc.integer(), { maxLength: 12, size: 'max' }),
    nested: fc.array(fc.record({ a: fc.integer(), b: fc.option(fc.constantFrom('x', 'y')) }), {
      maxLength: 5,
      size: 'max',
    }),
    points: fc.array(fc.tuple(fc.integer({ min: -90, max: 90 }), fc.integer({ min: -180, max: 180 })), {
      maxLength: 4,
    }),
    grid: fc.array(fc.array(fc.integer(), { maxLength: 2 }), { maxLength: 2 }),
  });

describe('ColumnStore', () => {
  it('keeps lists of scalars, points and flat records in pools, and anything else as it is', () => {
    const layout = JSON.parse(new ColumnStore(shape as never).layout) as [string, { kind: string; element?: string }][];
    expect(
      Object.fromEntries(layout.map(([f, spec]) => [f, spec.element ? `${spec.kind} of ${spec.element}` : spec.kind])),
    ).toEqual({
      id: 'string',
      score: 'number',
      name: 'string',
      at: 'point',
      tags: 'list of string',
      counts: 'list of number',
      nested: 'list of record',
      points: 'list of point',
      grid: 'value',
    });
  });

  it('gives back every document as last written, through rewrites of every length, deletes and pool compaction', () => {
    const write = fc.oneof(
      { weight: 4, arbitrary: fc.integer({ min: 0, max: 60 }).chain((id) => doc(id).map((d) => ({ put: d }))) },
      { weight: 1, arbitrary: fc.integer({ min: 0, max: 60 }).map((id) => ({ kill: String(id) })) },
    );
    fc.assert(
      fc.property(fc.array(write, { minLength: 300, maxLength: 800 }), (writes) => {
        const store = new ColumnStore(shape as never);
        const model = new Map<string, { doc: Doc; live: boolean }>();
        for (const w of writes) {
          if ('put' in w) {
            store.put(w.put);
            model.set(w.put.id, { doc: w.put, live: true });
          } else {
            const slot = store.slotOf(w.kill);
            if (slot !== undefined) store.kill(slot);
            const known = model.get(w.kill);
            if (known) known.live = false;
          }
        }
        expect(store.liveCount).toBe([...model.values()].filter((m) => m.live).length);
        for (const [id, { doc: expected, live }] of model) {
          const slot = store.slotOf(id)!;
          expect(Boolean(store.live[slot])).toBe(live);
          expect(store.document(slot)).toEqual(expected);
        }
      }),
      { numRuns: 60, endOnFailure: true },
    );
  });
});

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
