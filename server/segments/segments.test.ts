import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PageFile } from '../../shared/schemas/segments.js';
import type { RowSpec } from '../../shared/schemas/segment-rows.js';
import { applyOverride, MergeError } from './merge.js';
import { compileSegments, readSegmentDir } from './segment-set.js';

const row = (id: string): RowSpec => ({ id, kind: 'venues', title: id, size: 8, empty: 'hide' });
const base = () => {
  const page: PageFile = { title: 'Explore', rows: [row('a'), row('b'), row('c')] };
  return { page, origins: page.rows.map((r) => ({ id: r.id, file: 'base/explore.json', via: 'base' as const })) };
};
const ids = (p: { page: PageFile }) => p.page.rows.map((r) => r.id);

describe('applyOverride (a brand changes the base page by row id)', () => {
  it('replaces, removes, inserts before and after, and appends', () => {
    const merged = applyOverride(
      base(),
      {
        extends: 'base',
        operations: [
          { op: 'replace', id: 'b', row: row('b2') },
          { op: 'remove', id: 'c' },
          { op: 'insertBefore', id: 'a', row: row('first') },
          { op: 'insertAfter', id: 'a', row: row('after-a') },
          { op: 'append', row: row('last') },
        ],
      },
      'encore/explore.json',
    );
    expect(ids(merged)).toEqual(['first', 'a', 'after-a', 'b2', 'last']);
    expect(merged.origins.map((o) => `${o.id}:${o.via}`)).toEqual([
      'first:insertBefore',
      'a:base',
      'after-a:insertAfter',
      'b2:replace',
      'last:append',
    ]);
  });

  it('fails naming the operation when a row id is missing or taken', () => {
    const missing = () => applyOverride(base(), { extends: 'base', operations: [{ op: 'remove', id: 'zz' }] }, 'x');
    expect(missing).toThrow(MergeError);
    expect(missing).toThrow(
      expect.objectContaining({
        path: ['operations', 0, 'id'],
        message: 'there is no row "zz" on the page this extends. Rows: a, b, c',
      }),
    );
    expect(() => applyOverride(base(), { extends: 'base', operations: [{ op: 'remove', id: 'bb' }] }, 'x')).toThrow(
      'there is no row "bb" on the page this extends. Did you mean "b"? Rows: a, b, c',
    );
    const taken = () => applyOverride(base(), { extends: 'base', operations: [{ op: 'append', row: row('a') }] }, 'x');
    expect(taken).toThrow(MergeError);
    expect(taken).toThrow(
      expect.objectContaining({
        path: ['operations', 0, 'row', 'id'],
        message: 'row id "a" is already on the page: give the new row an id of its own',
      }),
    );
  });
});

describe('compileSegments: one problem per mistake', () => {
  const shipped = async () => readSegmentDir(path.resolve('segments'));
  const replace = (files: Map<string, string>, file: string, from: string, to: string) =>
    new Map(files).set(file, files.get(file)!.replace(from, to));

  it('lists pages extending a broken file as skipped because of it, with no problem of their own', async () => {
    const { problems, skipped, pages } = compileSegments(
      replace(await shipped(), 'base/explore.json', '"kind": "venues"', '"kind": "venue"'),
    );
    expect(problems.map((p) => `${p.file}:${p.line}:${p.column}`)).toEqual(['base/explore.json:42:15']);
    expect(skipped).toEqual([
      { file: 'encore/explore.json', page: 'encore/explore', because: 'base/explore.json' },
      { file: 'base/explore~promos.json', page: 'base/explore~promos', because: 'base/explore.json' },
    ]);
    expect(pages.has('encore/sports')).toBe(true);
    expect(pages.has('encore/explore')).toBe(false);
  });

  it('names the root file through a chain of overrides', async () => {
    const files = await shipped();
    files.set(
      'encore/sports.json',
      JSON.stringify({ extends: 'base', operations: [{ op: 'remove', id: 'popular-local-sports' }] }),
    );
    files.set('base/sports.json', files.get('base/sports.json')!.replace('"title"', '"titel"'));
    const { problems, skipped } = compileSegments(files);
    expect(problems.map((p) => p.file)).toEqual(['base/sports.json']);
    expect(skipped).toEqual([{ file: 'encore/sports.json', page: 'encore/sports', because: 'base/sports.json' }]);
  });

  it('still reports a base page with no file at all, and an override of a page no brand has', async () => {
    const files = await shipped();
    files.delete('base/sports.json');
    files.set('encore/sports.json', JSON.stringify({ extends: 'base', operations: [{ op: 'remove', id: 'x' }] }));
    const { problems, skipped } = compileSegments(files);
    expect(problems.map((p) => `${p.file}:${p.path}: ${p.message}`)).toEqual([
      'base/sports.json:: there is no base/sports.json: the default brand, ' +
        'base, must define every page (explore, theater, concerts, sports, ' +
        'category)',
      'encore/sports.json:extends: brand "base" has no sports page to extend: there is no base/sports.json',
    ]);
    expect(skipped).toEqual([]);
  });

  it('places a problem of the merged page at the operation that brought the row', async () => {
    const files = await shipped();
    const rows = Array.from({ length: 25 }, (_, i) => ({
      op: 'append',
      row: { id: `extra-${i}`, kind: 'promos', title: 'Promos', size: 4 },
    }));
    files.set('encore/explore.json', JSON.stringify({ extends: 'base', operations: rows }, null, 2));
    const { problems } = compileSegments(files);
    expect(problems).toEqual([
      expect.objectContaining({
        file: 'encore/explore.json',
        line: 3,
        column: 17,
        path: 'operations',
        message: 'with the operations applied, rows has 31 items; the most is 30',
      }),
    ]);
  });
});
