import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ColumnStore } from './columns.js';

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
