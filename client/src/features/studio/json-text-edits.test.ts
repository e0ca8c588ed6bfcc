import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { insertItem, moveItem, oneLine, removeItem, setValue, styleOf } from './json-text-edits.js';

const explore = readFileSync(path.resolve('segments/base/explore.json'), 'utf8');
const promos = readFileSync(path.resolve('segments/base/explore~promos.json'), 'utf8');

/** `text` with `insert` put in just before the first `before` (which must be there once). */
function insertedBefore(text: string, before: string, insert: string): string {
  expect(text.split(before)).toHaveLength(2);
  return text.replace(before, () => insert + before);
}

const rowIds = (text: string) => (JSON.parse(text) as { rows: { id: string }[] }).rows.map((r) => r.id);

describe('editing a segment file at a path', () => {
  it('replaces a value and nothing else', () => {
    expect(setValue(explore, ['rows', 3, 'title'], 'Venues Near You')).toBe(
      explore.replace('"title": "Local Venues"', '"title": "Venues Near You"'),
    );
    expect(setValue(explore, ['rows', 0, 'size'], 9)).toBe(explore.replace('"size": 4', '"size": 9'));
  });

  it('removes a field with its comma and line break, leaving the lines around it as they were', () => {
    const after = setValue(explore, ['rows', 0, 'radiusMiles'], undefined);
    expect(after).toBe(explore.replace('"size": 4,\n      "radiusMiles": 50,', '"size": 4,'));
    // Inside a one-line object too, without spreading it.
    const tab = setValue(explore, ['rows', 1, 'tabs', 1, 'filter', 'dateFilter'], undefined);
    expect(tab).toBe(
      explore.replace(
        '{ "id": "this-week", "title": "This Week", "filter": { "dateFilter": "this_week" } }',
        '{ "id": "this-week", "title": "This Week", "filter": {} }',
      ),
    );
  });

  it('adds a missing field, and the fields above it, in the style of the object that holds it', () => {
    expect(setValue(explore, ['rows', 0, 'filter', 'dateFilter'], 'this_week')).toBe(
      explore.replace('"empty": "widen"', '"empty": "widen",\n      "filter": { "dateFilter": "this_week" }'),
    );
    expect(setValue(explore, ['rows', 1, 'tabs', 0, 'filter', 'parents'], ['CONCERTS', 'SPORTS'])).toBe(
      explore.replace('{ "dateFilter": "all" }', '{ "dateFilter": "all", "parents": ["CONCERTS", "SPORTS"] }'),
    );
    const empty = setValue(
      setValue(explore, ['rows', 1, 'tabs', 0, 'filter', 'dateFilter'], undefined),
      ['rows', 1, 'tabs', 0, 'filter', 'parents'],
      ['OTHER'],
    );
    expect(empty).toContain('{ "id": "all-events", "title": "All Events", "filter": { "parents": ["OTHER"] } }');
  });

  it('adds a row among rows spread over lines, its short lists kept on one line', () => {
    const row = { id: 'promos', kind: 'promos', title: 'Promos', size: 6, empty: 'hide' };
    const after = insertItem(explore, ['rows'], 1, row);
    expect(rowIds(after)).toEqual([
      'popular-local-performers',
      'promos',
      'local-events',
      'local-performers-this-week',
      'local-venues',
      'national-trending-events',
      'browse-by-category',
    ]);
    expect(after).toBe(
      insertedBefore(
        explore,
        '{\n      "id": "local-events"',
        '{\n      "id": "promos",\n      "kind": "promos",\n      "title": "Promos",\n      "size": 6,\n' +
          '      "empty": "hide"\n    },\n    ',
      ),
    );
    const last = insertItem(explore, ['rows'], 99, { ...row, tiles: [{ slug: 'nfl', title: 'NFL' }] });
    expect(rowIds(last).at(-1)).toBe('promos');
    expect(last).toContain('      "tiles": [{ "slug": "nfl", "title": "NFL" }]\n    }\n  ]\n}\n');
    // A tab among one-line tabs is one line too.
    const tab = insertItem(explore, ['rows', 1, 'tabs'], 5, { id: 'later', title: 'Later', filter: {} });
    expect(tab).toBe(
      insertedBefore(
        explore,
        '\n      ]\n    },\n    {\n      "id": "local-performers-this-week"',
        ',\n        { "id": "later", "title": "Later", "filter": {} }',
      ),
    );
  });

  it('removes a row with what separated it, and only that', () => {
    const first = removeItem(explore, ['rows'], 0);
    expect(rowIds(first)[0]).toBe('local-events');
    expect(first.startsWith(explore.slice(0, explore.indexOf('    {\n      "id": "popular')))).toBe(true);
    const venues = explore.slice(explore.indexOf('"id": "local-venues"'));
    const row = ',\n    {\n      ' + venues.slice(0, venues.indexOf('}') + 1);
    expect(row).toMatch(/^,\n {4}\{\n {6}"id": "local-venues",[^{}]*"empty": "hide"\n {4}\}$/);
    expect(removeItem(explore, ['rows'], 3)).toBe(explore.replace(row, ''));
  });

  it('moves a row keeping every row’s own text and the separators where they were', () => {
    const after = moveItem(explore, ['rows'], 3, 1);
    expect(rowIds(after)).toEqual([
      'popular-local-performers',
      'local-venues',
      'local-events',
      'local-performers-this-week',
      'national-trending-events',
      'browse-by-category',
    ]);
    // The same characters, rearranged: nothing reformatted, the text before and after the moved rows untouched.
    expect([...after].sort().join('')).toBe([...explore].sort().join(''));
    const head = explore.indexOf('    {\n      "id": "local-events"');
    const tail = explore.indexOf(',\n    {\n      "id": "national-trending-events"');
    expect(after.slice(0, head)).toBe(explore.slice(0, head));
    expect(after.slice(tail)).toBe(explore.slice(tail));
    expect(moveItem(after, ['rows'], 1, 3)).toBe(explore);
    // Operations of an override move the same way.
    const ops = moveItem(promos, ['operations'], 2, 0);
    expect((JSON.parse(ops) as { operations: { op: string }[] }).operations.map((o) => o.op)).toEqual([
      'remove',
      'insertBefore',
      'insertAfter',
    ]);
  });

  it('reads the file’s own indentation and writes one-line values as a formatter does', () => {
    expect(styleOf(explore)).toEqual({ unit: '  ', eol: '\n' });
    expect(styleOf('{\r\n    "a": 1\r\n}')).toEqual({ unit: '    ', eol: '\r\n' });
    const four = setValue('{\r\n    "title": "A",\r\n    "rows": []\r\n}', ['rows'], [{ id: 'x' }]);
    expect(four).toBe('{\r\n    "title": "A",\r\n    "rows": [{ "id": "x" }]\r\n}');
    expect(insertItem('{\n    "rows": [\n        { "id": "a" }\n    ]\n}', ['rows'], 0, { id: 'b' })).toBe(
      '{\n    "rows": [\n        { "id": "b" },\n        { "id": "a" }\n    ]\n}',
    );
    expect(oneLine({ a: 1, b: ['x', 'y'], c: {} })).toBe('{ "a": 1, "b": ["x", "y"], "c": {} }');
  });
});
