import { describe, expect, it } from 'vitest';
import { idFromText, pageFromText, z } from './zod.js';

/** Each failed check of `schema` on `value`, as `path | message`. */
function told(schema: z.ZodType, value: unknown): string[] {
  const parsed = schema.safeParse(value);
  if (parsed.success) return [];
  return parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'} | ${issue.message}`);
}

describe('a check whose schema names no message (RULES 14.14)', () => {
  it('is told in our words, never zod’s', () => {
    const schema = z
      .object({
        name: z.string().min(2).max(5),
        code: z.string().min(1),
        kind: z.enum(['a', 'b']),
        exact: z.literal('x'),
        year: z.number().int().min(2000),
        count: z.number().positive(),
        email: z.email(),
        pattern: z.string().regex(/^\d+$/),
        tags: z.array(z.string()).min(1).max(2),
        missing: z.string(),
        flag: z.boolean(),
        pay: z.discriminatedUnion('method', [
          z.object({ method: z.literal('card') }),
          z.object({ method: z.literal('applepay') }),
        ]),
      })
      .strict();
    expect(
      told(schema, {
        name: 'x',
        code: '',
        kind: 'c',
        exact: 'y',
        year: 1.5,
        count: 0,
        email: 'nope',
        pattern: 'abc',
        tags: [],
        flag: 'yes',
        pay: { method: 'cash' },
        extra: 1,
      }),
    ).toEqual([
      'name | must be at least 2 characters',
      'code | must not be empty',
      'kind | must be one of "a", "b"',
      'exact | must be "x"',
      'year | must be a whole number',
      'count | must be more than 0',
      'email | must be an email address',
      'pattern | is not in the form expected here',
      'tags | must list at least one item',
      'missing | is required',
      'flag | must be true or false, not text',
      'pay.method | must be one of "card", "applepay"',
      '(root) | The value has a field not known here: "extra"',
    ]);
    expect(told(schema.shape.name, 'abcdef')).toEqual(['(root) | The value must be at most 5 characters']);
    expect(told(schema.shape.tags, ['a', 'b', 'c'])).toEqual(['(root) | The value must be at most 2 items']);
    expect(told(z.object({}), [])).toEqual(['(root) | The value must be an object, not a list']);
    expect(told(z.number(), Number.NaN)).toEqual(['(root) | The value must be a number, not NaN']);
    expect(told(z.int(), 1e20)).toEqual(['(root) | The value is too large']);
    expect(told(z.string().length(2), 'CAL')).toEqual(['(root) | The value must be exactly 2 characters']);
    expect(told(z.date().min(new Date('2026-01-01T00:00:00Z')), new Date('2025-01-01T00:00:00Z'))).toEqual([
      '(root) | The value must be on or after 2026-01-01T00:00:00.000Z',
    ]);
    expect(told(z.object({ at: z.tuple([z.number(), z.number()]) }), { at: 'x' })).toEqual([
      'at | must be a list, not text',
    ]);
    expect(told(z.object({ n: z.number(), m: z.record(z.string(), z.number()) }), { n: true, m: [] })).toEqual([
      'n | must be a number, not true',
      'm | must be an object, not a list',
    ]);
    const keyed = z.record(z.string().regex(/^[a-z]+$/, 'a key uses lower-case letters'), z.number());
    expect(told(keyed, { 'bad key!': 1 })).toEqual([
      'bad key! | has a key that is not valid: a key uses lower-case letters',
    ]);
  });

  it('says a query parameter given twice is given twice, not that it is of the wrong kind', () => {
    const query = z.object({ q: z.string(), page: pageFromText(10), id: idFromText('the event id') });
    expect(told(z.object({ sort: z.enum(['a', 'b']) }), { sort: ['a', 'b'] })).toEqual([
      'sort | must be one value, not a list',
    ]);
    expect(told(query, { q: ['a', 'b'], page: ['1', '2'], id: ['3', '4'] })).toEqual([
      'q | must be one value, not a list',
      'page | must be one value, not a list (is it given more than once?)',
      'id | must be one value, not a list (is it given more than once?)',
    ]);
    // A list in a JSON body is named as what it is.
    expect(told(z.object({ q: z.string() }), { q: [1, 2] })).toEqual(['q | must be text, not a list']);
  });

  it('leaves a schema’s own message alone, and names a number too large for an id once, as too large', () => {
    const query = z.object({ page: pageFromText(10), id: idFromText('the event id') });
    expect(told(query, { page: 'abc', id: '1.5' })).toEqual([
      'page | page must be a number',
      'id | the event id must be a whole number',
    ]);
    expect(told(query, { page: '99999999999999999999', id: '99999999999999999999' })).toEqual([
      'page | page must be at most 10',
      'id | the event id is too large to be an id',
    ]);
    expect(told(query, { page: '-99999999999999999999', id: '-99999999999999999999' })).toEqual([
      'page | page starts at 1',
      'id | the event id must be 1 or more',
    ]);
  });

  it('quotes at most a short part of what was sent', () => {
    const long = 'k'.repeat(200);
    const [message] = told(z.object({}).strict(), { [long]: 1 });
    expect(message!.length).toBeLessThan(120);
    expect(message).toContain('…');
  });
});
