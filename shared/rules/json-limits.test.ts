import { describe, expect, it } from 'vitest';
import { jsonValueIssue, jsonValueProblem, MAX_JSON_DEPTH, textProblem } from './json-limits.js';

const nested = (levels: number) => JSON.parse('['.repeat(levels) + ']'.repeat(levels)) as unknown;

describe('RULES 14.15: what a JSON document sent to the server may hold', () => {
  it('takes text with emoji, controls a line may hold and every plane, and refuses a NUL or a lone surrogate', () => {
    for (const fine of ['', 'plain', '🎸 Tour', 'tab\there\nnewline', '\u{10FFFF}', 'Ünïcödé']) {
      expect(textProblem(fine), JSON.stringify(fine)).toBeUndefined();
    }
    expect(textProblem('a\u0000b')).toMatch(/NUL/);
    for (const lone of ['\ud800', 'x\udfff', '\udc00\ud800', '🎸'.slice(0, 1)]) {
      expect(textProblem(lone), JSON.stringify(lone)).toMatch(/surrogate/);
    }
  });

  it('takes values nesting as deep as the limit and refuses one level more, naming where', () => {
    expect(jsonValueProblem(nested(MAX_JSON_DEPTH))).toBeUndefined();
    expect(jsonValueProblem(nested(MAX_JSON_DEPTH + 1))).toMatch(new RegExp(`nests deeper than ${MAX_JSON_DEPTH}`));
    // Far past any stack: walked without recursion.
    expect(jsonValueProblem(nested(100_000))).toMatch(/nests deeper/);
    expect(jsonValueProblem({ a: { b: [1, { c: nested(MAX_JSON_DEPTH) }] } })).toBe(
      `a.b[1].c${'[0]'.repeat(MAX_JSON_DEPTH - 4)} nests deeper than ${MAX_JSON_DEPTH} levels`,
    );
  });

  it('names the member whose text cannot be kept, keys included', () => {
    expect(jsonValueProblem({ listingId: 1, billing: { name: 'A\u0000' } })).toBe(
      'billing.name holds a NUL character (\\u0000), which no text kept here may hold',
    );
    expect(jsonValueProblem({ 'odd key': ['ok', '\ud800'] })).toBe(
      '["odd key"][1] holds half of a surrogate pair, alone, which no text kept here may hold',
    );
    expect(jsonValueProblem({ ['k\u0000']: 1 }, 'the document')).toMatch(
      /^the document has a member name that holds a NUL/,
    );
    expect(jsonValueIssue({ billing: { name: 'A\u0000' } })).toEqual({
      path: 'billing.name',
      problem: 'holds a NUL character (\\u0000), which no text kept here may hold',
    });
    expect(jsonValueProblem({ a: 1, b: [true, null, 2.5, 'text'] })).toBeUndefined();
    expect(jsonValueProblem('a\u0000')).toBe(
      'the body holds a NUL character (\\u0000), which no text kept here may hold',
    );
  });

  it('walks a large value to its last member, and names where the one problem in it is', () => {
    const large = Array.from({ length: 50_000 }, (_, i) => ({ id: i, name: `n${i}`, tags: ['a', 'b'] }));
    expect(jsonValueProblem(large)).toBeUndefined();
    large[49_999]!.tags[1] = 'b\u0000';
    expect(jsonValueProblem(large)).toBe(
      '[49999].tags[1] holds a NUL character (\\u0000), which no text kept here may hold',
    );
  });
});
