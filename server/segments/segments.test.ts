import { spawnSync } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { PageFile, RowSpec } from '../../schemas/segments.js';
import { applyOverride, MergeError } from './merge.js';

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
    expect(merged.origins.map((o) => `${o.id}:${o.via}`)).toEqual(['first:insertBefore', 'a:base', 'after-a:insertAfter', 'b2:replace', 'last:append']);
  });

  it('fails naming the operation when a row id is missing or taken', () => {
    const missing = () => applyOverride(base(), { extends: 'base', operations: [{ op: 'remove', id: 'zz' }] }, 'x');
    expect(missing).toThrow(MergeError);
    expect(missing).toThrow(expect.objectContaining({ path: ['operations', 0, 'id'], message: 'no row "zz" to change (rows: a, b, c)' }));
    const taken = () => applyOverride(base(), { extends: 'base', operations: [{ op: 'append', row: row('a') }] }, 'x');
    expect(taken).toThrow(MergeError);
    expect(taken).toThrow(expect.objectContaining({ path: ['operations', 0, 'row', 'id'], message: 'row id "a" is already on the page' }));
  });
});

describe('npm run segments -- check', () => {
  let tmp: string | undefined;
  afterAll(() => (tmp ? rm(tmp, { recursive: true, force: true }) : undefined));
  const check = (dir: string) =>
    spawnSync(path.resolve('node_modules/.bin/tsx'), ['server/segments/cli.ts', 'check'], { env: { ...process.env, SEGMENTS_DIR: dir }, encoding: 'utf8' });

  it('passes on the shipped files and fails with file: path: message lines on a broken one', async () => {
    expect(check(path.resolve('segments')).status).toBe(0);
    tmp = await mkdtemp(path.join(os.tmpdir(), 'segments-cli-'));
    await cp(path.resolve('segments'), tmp, { recursive: true });
    const file = path.join(tmp, 'base', 'theater.json');
    const page = JSON.parse(await readFile(file, 'utf8'));
    page.rows[1].tabs[0].filter.categories = ['kids'];
    page.rows[0].radiusMiles = -5;
    await writeFile(file, JSON.stringify(page));
    const out = check(tmp);
    expect(out.status).toBe(1);
    expect(out.stdout).toContain('base/theater.json: rows[0].radiusMiles:');
    const semantic = JSON.parse(await readFile(file, 'utf8'));
    semantic.rows[0].radiusMiles = 50;
    await writeFile(file, JSON.stringify(semantic));
    expect(check(tmp).stdout).toContain('base/theater.json: rows[1].tabs[0].filter.categories[0]: unknown category "kids"');
  });
});
