import { describe, expect, it } from 'vitest';
import { z } from '../../shared/schemas/zod.js';
import { describeIssues } from './issue-sentences.js';

/** The sentences a merchandiser reads for `raw` checked against `schema`. */
function sentences(schema: z.ZodType, raw: unknown): string[] {
  const parsed = schema.safeParse(raw);
  return parsed.success ? [] : describeIssues(parsed.error.issues, raw, schema, 'a page file').map((p) => p.message);
}

describe('a value that does not match its pattern', () => {
  it('is told the pattern’s own words when it has some, else the pattern itself', () => {
    expect(sentences(z.object({ id: z.string().regex(/^[a-z]+$/, 'use lower-case letters') }), { id: 'A1' })).toEqual([
      '"A1" is not a valid id: use lower-case letters',
    ]);
    expect(sentences(z.object({ id: z.string().regex(/^[a-z]+$/) }), { id: 'A1' })).toEqual([
      '"A1" is not a valid id: it must match /^[a-z]+$/',
    ]);
  });
});
