import { describe, expect, it } from 'vitest';
import brandsSchema from '../../../../shared/schemas/json/brands.schema.json' with { type: 'json' };
import overrideSchema from '../../../../shared/schemas/json/segment-override.schema.json' with { type: 'json' };
import pageSchema from '../../../../shared/schemas/json/segment-page.schema.json' with { type: 'json' };
import { hoverAt, parsePath, problemRange, suggest, suggestedFix, type JsonSchema } from './schema-assist.js';

const page = pageSchema as unknown as JsonSchema;
const override = overrideSchema as unknown as JsonSchema;
const brands = brandsSchema as unknown as JsonSchema;

/** The text with `|` removed, and the offset where it was. */
function at(marked: string): [string, number] {
  const offset = marked.indexOf('|');
  return [marked.slice(0, offset) + marked.slice(offset + 1), offset];
}

describe('completion from the segment JSON Schema', () => {
  it('offers the fields of the row kind the row names, without those it already has', () => {
    const [text, offset] = at('{ "title": "Explore", "rows": [ { "id": "x", "kind": "venues", | } ] }');
    const labels = suggest(page, text, offset).map((s) => s.label);
    expect(labels).toEqual(expect.arrayContaining(['title', 'size', 'radiusMiles', 'empty']));
    expect(labels).not.toContain('id');
    expect(labels).not.toContain('kind');
    // An events row's own fields belong to events rows only.
    expect(labels).not.toContain('tabs');
    expect(labels).not.toContain('tiles');
  });

  it('inserts a field with the start of its value, and says what it does', () => {
    const [text, offset] = at('{ "title": "Explore", "rows": [ { "id": "x", "kind": "events", "t| } ] }');
    const tabs = suggest(page, text, offset).find((s) => s.label === 'tabs')!;
    expect(tabs.insert).toBe('"tabs": []');
    expect(text.slice(tabs.from, tabs.to)).toBe('"t');
    expect(tabs.info).toMatch(/\w+/);
    // With the quote already closed (as the editor closes it), the closing quote is replaced too.
    const [closed, closedAt] = at('{ "title": "Explore", "rows": [ { "id": "x", "kind": "events", "t|" } ] }');
    const again = suggest(page, closed, closedAt).find((s) => s.label === 'tabs')!;
    expect(closed.slice(again.from, again.to)).toBe('"t"');
  });

  it('offers the allowed values of a field: every row kind, a sort, an operation', () => {
    const [kindText, kindAt] = at('{ "title": "Explore", "rows": [ { "id": "x", "kind": "|" } ] }');
    expect(suggest(page, kindText, kindAt).map((s) => s.label)).toEqual([
      '"performers"',
      '"events"',
      '"venues"',
      '"categories"',
      '"promos"',
    ]);
    const [sortText, sortAt] = at('{ "title": "Explore", "rows": [ { "id": "x", "kind": "events", "sort": | } ] }');
    expect(suggest(page, sortText, sortAt).map((s) => s.label)).toEqual(['"soonest"', '"popular"', '"trending"']);
    const [opText, opAt] = at('{ "extends": "base", "operations": [ { "op": "|" } ] }');
    expect(suggest(override, opText, opAt).map((s) => s.label)).toEqual(
      expect.arrayContaining(['"replace"', '"remove"', '"append"']),
    );
  });

  it('completes the brand registry too, down to a theme', () => {
    const [text, offset] = at('{ "defaultBrand": "base", "brands": [ { "theme": { | } } ] }');
    expect(suggest(brands, text, offset).map((s) => s.label)).toEqual(
      expect.arrayContaining(['primary', 'primaryContrast', 'ink', 'surface', 'accent', 'logo']),
    );
  });
});

describe('hover documentation', () => {
  it('describes the field under the pointer, with an example, for a key or its value', () => {
    const text = '{ "title": "Explore", "rows": [ { "id": "x", "kind": "events", "size": 5 } ] }';
    const onKey = hoverAt(page, text, text.indexOf('"size"') + 2)!;
    expect(onKey.text).toMatch(/^size\n/);
    expect(onKey.text).toMatch(/Example: \d+/);
    const onValue = hoverAt(page, text, text.indexOf('"events"') + 2)!;
    expect(onValue.text).toMatch(/^kind\nevents: /);
    expect(hoverAt(page, text, 0)).toBeNull();
  });
});

describe('where a problem is marked', () => {
  const text = '{\n  "rows": [\n    { "kind": "venue" }\n  ]\n}\n';

  it('marks the whole value at the line and column the server gives', () => {
    const { from, to } = problemRange(text, { line: 3, column: 15, path: 'rows[0].kind' });
    expect(text.slice(from, to)).toBe('"venue"');
  });

  it('falls back to the value at the JSON path, and to its nearest parent that exists', () => {
    const kind = problemRange(text, { path: 'rows[0].kind' } as never);
    expect(text.slice(kind.from, kind.to)).toBe('"venue"');
    const missing = problemRange(text, { path: '(merged) rows[0].size' } as never);
    expect(text.slice(missing.from, missing.to)).toBe('{ "kind": "venue" }');
  });

  it('reads JSON paths and the fix in a sentence', () => {
    expect(parsePath('rows[2].filter.categories[0]')).toEqual(['rows', 2, 'filter', 'categories', 0]);
    expect(suggestedFix('"venue" is not a row kind. Did you mean "venues"?')).toBe('venues');
    expect(suggestedFix('size must be at most 24')).toBeNull();
  });
});
