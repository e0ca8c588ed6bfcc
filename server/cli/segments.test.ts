import { spawnSync } from 'node:child_process';
import { cp, mkdtemp, rm, unlink, writeFile, mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureOutput } from '../test/capture-output.js';
import { itemLines, main } from './segments.js';
import { PROBLEM_CASES, type ProblemCase } from '../segments/segment-problems.cases.js';

let tmp: string;
let runs = 0;
beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'segments-cli-'));
});
afterAll(() => rm(tmp, { recursive: true, force: true }));

/** A copy of the shipped segment folder with the case's files changed. */
async function segmentDir(files: ProblemCase['files'] = {}): Promise<string> {
  const dir = path.join(tmp, `segments-${++runs}`);
  await cp(path.resolve('segments'), dir, { recursive: true });
  for (const [file, text] of Object.entries(files)) {
    const target = path.join(dir, file);
    if (text === null) await unlink(target);
    else await mkdir(path.dirname(target), { recursive: true }).then(() => writeFile(target, text));
  }
  return dir;
}

const cli = (dir: string, ...args: string[]) => {
  const { DATABASE_URL: _db, ...env } = process.env;
  return captureOutput(() => main(args, { ...env, SEGMENTS_DIR: dir, DATA_DIR: path.join(tmp, 'data') }));
};
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('npm run segments -- check', () => {
  it('passes on the shipped files', async () => {
    const out = await cli(path.resolve('segments'), 'check');
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/^all segment files are valid/);
  });

  it('runs as a script, with its exit code', async () => {
    const dir = await segmentDir(PROBLEM_CASES[0]!.files);
    const out = spawnSync(path.resolve('node_modules/.bin/tsx'), ['server/cli/segments.ts', 'check'], {
      env: { ...process.env, SEGMENTS_DIR: dir },
      encoding: 'utf8',
    });
    expect(out.status).toBe(1);
    expect(out.stdout.split('\n')[0]).toBe(
      'base/explore.json:42:15: "venue" is not a row kind. Allowed kinds: ' +
        'performers, events, venues, categories, promos. Did you mean "venues"?',
    );
  });

  it.each(PROBLEM_CASES.map((c) => [c.name, c] as const))(
    '%s: one file:line:column line per mistake, then the skipped pages',
    async (_name, c) => {
      const out = await cli(await segmentDir(c.files), 'check');
      expect(out.code).toBe(1);
      const lines = out.stdout.trimEnd().split('\n');
      const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
      expect(lines).toEqual([
        ...c.problems.map((p) =>
          expect.stringMatching(
            new RegExp(
              `^${escape(`${p.file}:${p.line}:${p.column}: `)}(?=.*${escape(p.message)})(?=.*${escape(p.value ?? '')})`,
            ),
          ),
        ),
        ...c.skipped.map((s) => `skipped ${s.file}: because ${s.because} has errors`),
        `${plural(c.problems.length, 'problem')}${
          c.skipped.length
            ? `; ${plural(c.skipped.length, 'file')} skipped until ${c.problems.length === 1 ? 'it is' : 'they are'} ` +
              `fixed`
            : ''
        }`,
      ]);
      expect(out.stdout).not.toMatch(/Invalid|Unrecognized|Expected|received/);
    },
  );
});

describe('npm run segments -- preview | explain', () => {
  it('print the root problem of a broken set, not that a page is missing, and exit 1', async () => {
    const dir = await segmentDir(PROBLEM_CASES[0]!.files);
    for (const args of [
      ['preview', '--brand', 'encore', '--page', 'home'],
      ['explain', '--brand', 'encore', '--page', 'home'],
    ]) {
      const out = await cli(dir, ...args);
      expect(out.code).toBe(1);
      expect(out.stdout).toContain('base/explore.json:42:15: "venue" is not a row kind.');
      expect(out.stdout).toContain('skipped encore/explore.json: because base/explore.json has errors');
      expect(out.stdout + out.stderr).not.toMatch(/has no explore page/);
    }
  });

  it('explain takes home, group pages and category slugs as preview does', async () => {
    const dir = path.resolve('segments');
    const nfl = await cli(dir, 'explain', '--brand', 'encore', '--page', 'nfl');
    expect(nfl.code).toBe(0);
    expect(nfl.stdout.split('\n')[0]).toBe('encore / category (nfl): "NFL Football"');
    expect(nfl.stdout).toContain('base/category.json');
    expect((await cli(dir, 'explain', '--page', 'sports')).stdout).toMatch(/^base \/ sports: /);
    const home = await cli(dir, 'explain', '--brand', 'encore', '--page', 'home');
    expect(home.stdout).toMatch(/^encore \/ explore: "Explore"\n +1\. promos +insertBefore +encore\/explore\.json/);
    const wrong = await cli(dir, 'explain', '--page', 'nfll');
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain(
      '--page "nfll" is not a page: use home, theater, concerts, sports or a ' +
        'category slug such as nfl. Did you mean "nfl"?',
    );
    expect((await cli(dir, 'preview', '--page', 'nfll')).stderr).toContain('Did you mean "nfl"?');
    expect((await cli(dir, 'explain', '--brand', 'encor')).stderr).toContain(
      '--brand "encor" is not a brand: base, encore. Did you mean "encore"?',
    );
  });

  it('preview --items lists what each card shows', () => {
    const event = {
      id: 1,
      name: 'Chicago Bears vs Detroit Lions',
      badges: [],
      address: 'Soldier Field, Chicago, IL',
      day: 'SUN',
      date: 'Jan 5',
      time: '12:00 PM',
      year: '2027',
      url: '/e/1',
    };
    expect(itemLines({ id: 'e', title: 'E', status: 'ok', type: 'events', items: [event] })).toEqual([
      'Chicago Bears vs Detroit Lions · SUN Jan 5 2027 12:00 PM · Soldier Field, Chicago, IL',
    ]);
    expect(
      itemLines({
        id: 'e',
        title: 'E',
        status: 'ok',
        type: 'events',
        items: [event],
        tabs: [{ id: 'all', title: 'All', status: 'ok', items: [event] }],
      }),
    ).toEqual(['[all] All', '  Chicago Bears vs Detroit Lions · SUN Jan 5 2027 12:00 PM · Soldier Field, Chicago, IL']);
    expect(
      itemLines({
        id: 'p',
        title: 'P',
        status: 'ok',
        type: 'performers',
        items: [{ id: 2, name: 'Taylor Swift', eventCount: '3 Events', pathPicture: '', minPrice: 0, url: '/p/2' }],
      }),
    ).toEqual(['Taylor Swift']);
    expect(
      itemLines({
        id: 'v',
        title: 'V',
        status: 'ok',
        type: 'venues',
        items: [{ id: 3, name: 'United Center', address: 'Chicago, IL', url: '/v/3' }],
      }),
    ).toEqual(['United Center · Chicago, IL']);
    expect(
      itemLines({
        id: 'c',
        title: 'C',
        status: 'ok',
        type: 'categories',
        items: [{ slug: 'nfl', title: 'NFL', url: '/category/nfl', image: null, eventCount: 4 }],
      }),
    ).toEqual(['NFL']);
    expect(
      itemLines({
        id: 'x',
        title: 'X',
        status: 'ok',
        type: 'promos',
        items: [{ id: 5, title: 'Half-price Tuesdays', subtitle: '', image: '', url: '/' }],
      }),
    ).toEqual(['Half-price Tuesdays']);
  });
});
