import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Filter } from '../../../shared/schemas/search.js';
import { compileDocumentTest } from '../filter-match.js';
import { ColumnStore } from './columns.js';
import { compileFilter } from './filters.js';

const shape = {
  id: z.string(),
  score: z.number().nullable(),
  name: z.string().nullable(),
  kind: z.enum(['a', 'b']),
  at: z.tuple([z.number(), z.number()]),
  tags: z.array(z.string()),
  counts: z.array(z.number()),
  venues: z.array(z.object({ venue_id: z.number(), city: z.string().nullable() })),
  points: z.array(z.tuple([z.number(), z.number()])),
  meta: z.object({ level: z.number(), label: z.string() }).nullable(),
};

const small = fc.integer({ min: -3, max: 3 });
const word = fc.constantFrom('rock', 'jazz', 'pop', 'a', 'b');
const doc = fc.record({
  score: fc.option(small),
  name: fc.option(word),
  kind: fc.constantFrom('a', 'b'),
  at: fc.tuple(small, small),
  tags: fc.array(word, { maxLength: 4 }),
  counts: fc.array(small, { maxLength: 4 }),
  venues: fc.array(fc.record({ venue_id: small, city: fc.option(word) }), { maxLength: 3 }),
  points: fc.array(fc.tuple(small, small), { maxLength: 3 }),
  meta: fc.option(fc.record({ level: small, label: word })),
});

const FIELDS = [
  'score',
  'name',
  'kind',
  'at',
  'tags',
  'counts',
  'venues',
  'venues.venue_id',
  'venues.city',
  'points',
  'meta.level',
  'meta.label',
  'absent',
] as const;
const scalar = fc.oneof(small, word, fc.boolean());
const filter: fc.Arbitrary<Filter> = fc.constantFrom(...FIELDS).chain((field) =>
  fc.oneof(
    fc.record({ op: fc.constantFrom('eq' as const, 'neq' as const), field: fc.constant(field), value: scalar }),
    fc.record({
      op: fc.constantFrom('in' as const, 'nin' as const),
      field: fc.constant(field),
      values: fc.array(scalar, { minLength: 1, maxLength: 3 }),
    }),
    fc.record({
      op: fc.constantFrom('gt' as const, 'gte' as const, 'lt' as const, 'lte' as const),
      field: fc.constant(field),
      value: small,
    }),
    fc.record({ op: fc.constant('between' as const), field: fc.constant(field), min: small, max: small }),
  ),
);

describe('compileFilter', () => {
  it('passes over the columns exactly the documents the rules of filter-match pass', () => {
    fc.assert(
      fc.property(
        fc.array(doc, { minLength: 1, maxLength: 12 }),
        fc.array(filter, { maxLength: 6 }),
        (bodies, filters) => {
          const docs = bodies.map((body, i) => ({ id: String(i), ...body }));
          const store = new ColumnStore(shape as never);
          const slots = docs.map((d) => store.put(d));
          for (const f of filters) {
            const test = compileFilter(store, f);
            const reference = compileDocumentTest(f);
            docs.forEach((d, i) => expect(test(slots[i]!), JSON.stringify({ f, d })).toBe(reference(d)));
          }
        },
      ),
    );
  });
});
