import { describe, expect, it } from 'vitest';
import { formatProblem, jsonTextDepth, lineColumn, SegmentSource, shortValue } from './segment-problems.js';

describe('lineColumn: an offset as the 1-based line and column an editor shows', () => {
  it('counts lines by newline and columns from the line start', () => {
    const text = '{\n  "a": 1,\n  "b": x\n}';
    expect(lineColumn(text, 0)).toEqual({ line: 1, column: 1 });
    expect(lineColumn(text, text.indexOf('"a"'))).toEqual({ line: 2, column: 3 });
    expect(lineColumn(text, text.indexOf('x'))).toEqual({ line: 3, column: 8 });
    expect(lineColumn(text, text.length)).toEqual({ line: 4, column: 2 });
  });

  it('treats CRLF line ends like LF ones', () => {
    expect(lineColumn('{\r\n  "a": 1\r\n}', 7)).toEqual({ line: 2, column: 5 });
  });
});

describe('SegmentSource: placing problems in a file', () => {
  const source = new SegmentSource('base/x.json', '{\n  "rows": [\n    { "kind": "venue", "size": 5 }\n  ]\n}\n');

  it('points at a value, at an unknown field name, or at the object missing a field', () => {
    expect(source.place({ at: ['rows', 0, 'kind'], message: 'm' })).toEqual({
      file: 'base/x.json',
      line: 3,
      column: 15,
      path: 'rows[0].kind',
      value: '"venue"',
      message: 'm',
    });
    expect(source.place({ at: ['rows', 0, 'size'], anchor: 'key', value: '"size"', message: 'm' })).toMatchObject({
      line: 3,
      column: 24,
      value: '"size"',
    });
    const missing = source.place({ at: ['rows', 0, 'title'], message: 'm' });
    expect(missing).toMatchObject({ line: 3, column: 5, path: 'rows[0].title' });
    expect(missing).not.toHaveProperty('value');
  });

  it('gives the first syntax error as one sentence at its place', () => {
    const broken = new SegmentSource('base/x.json', '{\n  "a": 1\n  "b": 2\n}');
    expect(broken.parse()).toEqual({
      problem: {
        file: 'base/x.json',
        line: 3,
        column: 3,
        path: '',
        value: '"\\"b\\""',
        message: 'not valid JSON: a comma (or a closing bracket) is missing before this',
      },
    });
    expect(new SegmentSource('x.json', '{"a": 1} // note').parse()).toMatchObject({
      problem: { line: 1, column: 10, message: 'not valid JSON: JSON has no comments: remove this one' },
    });
  });

  it('counts the depth of a text as its parser reads it: not brackets in strings or comments', () => {
    expect(jsonTextDepth('{}')).toBe(1);
    expect(jsonTextDepth('{"a":[{"b":[]}]}')).toBe(4);
    expect(jsonTextDepth('{"a":"[[[[{{{{\\"[[["}')).toBe(1);
    expect(jsonTextDepth('// [[[[\n{ /* {{{{ */ "a": [1] }')).toBe(2);
    expect(jsonTextDepth('['.repeat(5000))).toBe(5000);
    expect(jsonTextDepth('not json at all')).toBe(0);
    // Where the parser ends a string or a comment early, so does the count: at a line break, at a lone \r.
    expect(jsonTextDepth('["x\n' + '['.repeat(100))).toBe(101);
    expect(jsonTextDepth('// c\r' + '['.repeat(100))).toBe(100);
  });

  it('refuses a file nesting deeper than any segment file as a problem of the whole file, never walking it', () => {
    for (const text of [
      '['.repeat(5000) + ']'.repeat(5000),
      '{"rows":' + '['.repeat(40) + ']'.repeat(40) + '}',
      '["x\n' + '['.repeat(20_000),
      '// c\r' + '['.repeat(20_000),
    ]) {
      const deep = new SegmentSource('base/x.json', text);
      expect(deep.parse()).toEqual({
        problem: {
          file: 'base/x.json',
          line: 1,
          column: 1,
          path: '',
          message: 'brackets nest deeper than 32 levels: no segment file needs as many',
        },
      });
      expect(deep.place({ at: ['rows', 0], message: 'x' })).toMatchObject({ line: 1, column: 1 });
    }
  });

  it('shortens long values and formats a problem for a terminal', () => {
    expect(shortValue('x'.repeat(100))).toBe(`"${'x'.repeat(38)}…`);
    expect(
      formatProblem({
        file: 'a.json',
        line: 2,
        column: 3,
        path: 'size',
        value: '40',
        message: 'size 40 is more than 24, the most allowed',
      }),
    ).toBe('a.json:2:3: size 40 is more than 24, the most allowed');
    expect(
      formatProblem({
        file: 'a.json',
        line: 2,
        column: 3,
        path: 'size',
        value: '"5"',
        message: 'size must be a whole number from 1 to 24, not text',
      }),
    ).toBe('a.json:2:3: size must be a whole number from 1 to 24, not text (found "5")');
  });
});
