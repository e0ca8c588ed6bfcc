import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScannerKeys } from '../commerce/scanner-keys.js';
import { parseEnv } from '../config/env.js';
import { recordStoresFor } from '../store/record-collections.js';
import { runScannersCli } from './scanners.js';

let tmp: string;
let runs = 0;
beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'scanners-cli-'));
});
afterAll(() => rm(tmp, { recursive: true, force: true }));

/** An empty DATA_DIR, the command line on it, and its keys as a running node reads them. */
function scanners() {
  const { DATABASE_URL: _db, ...rest } = process.env;
  const processEnv = { ...rest, DATA_DIR: path.join(tmp, `data-${++runs}`) };
  const keys = new ScannerKeys(
    recordStoresFor(null, parseEnv({ ...processEnv, LOG_LEVEL: 'silent' }).scannerRecordsDir),
  );
  const cli = async (...argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runScannersCli(argv, processEnv, { out: (l) => out.push(l), err: (l) => err.push(l) });
    return { code, out: out.join('\n'), err: err.join('\n') };
  };
  return { cli, keys };
}

const KEY_LINE = /^key \(shown once; the scanner sends it as X-Scanner-Key\): (scn_[A-Za-z0-9_-]{43})$/m;

describe('npm run scanners', () => {
  it('adds a venue’s key, printed once; a node reads it with its scope', async () => {
    const { cli, keys } = scanners();
    const added = await cli('add', '--venue', '4021', '--label', 'North gate');
    expect(added).toMatchObject({ code: 0, err: '' });
    const key = KEY_LINE.exec(added.out)![1]!;
    const record = await keys.identify(key);
    expect(record).toMatchObject({ label: 'North gate', scope: { venueId: 4021 } });
    expect(added.out.split('\n')[0]).toBe(`added ${record!.id}  ${'North gate'.padEnd(24)} venue 4021`);
    expect(await keys.identify(`${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`)).toBeNull();
    const listed = await cli('list');
    expect(listed.out).toBe(`${record!.id}  ${'North gate'.padEnd(24)} venue 4021`);
    expect(listed.out).not.toContain(key);
  });

  it('adds a key for a list of events, each once', async () => {
    const { cli, keys } = scanners();
    const added = await cli('add', '--events', '300,100, 200,100');
    expect(added.code).toBe(0);
    expect(await keys.identify(KEY_LINE.exec(added.out)![1]!)).toMatchObject({
      label: 'events 100, 200, 300',
      scope: { eventIds: [100, 200, 300] },
    });
  });

  it('removes a key by its id: it admits nothing after', async () => {
    const { cli, keys } = scanners();
    const key = KEY_LINE.exec((await cli('add', '--venue', '7')).out)![1]!;
    const { id } = (await keys.identify(key))!;
    const removed = await cli('remove', id);
    expect(removed.code).toBe(0);
    expect(removed.out).toMatch(new RegExp(`^removed ${id} `));
    expect(await keys.identify(key)).toBeNull();
    expect((await cli('list')).out).toBe('no scanner keys: every scan is refused until one is added');
    expect(await cli('remove', id)).toMatchObject({ code: 1, err: `There is no scanner key with id "${id}"` });
  });

  it('says what is wrong with a command, and changes nothing', async () => {
    const { cli, keys } = scanners();
    for (const [argv, code, err] of [
      [['add'], 1, 'add needs one of --venue ID or --events ID,ID…'],
      [['add', '--venue', '1', '--events', '2'], 1, 'add needs one of --venue ID or --events ID,ID…'],
      [['add', '--venue', 'north'], 1, '--venue takes event or venue ids, whole numbers from 1, not "north"'],
      [['add', '--events', '1,,2'], 1, '--events takes event or venue ids, whole numbers from 1, not ""'],
      [['add', '--venue', '0'], 1, '--venue takes event or venue ids, whole numbers from 1, not "0"'],
      [['add', '--venue', '1', '--label', ' '], 1, 'label is empty'],
      [['remove'], 1, 'remove takes one key id (see list)'],
      [['rename'], 2, 'unknown command: rename'],
      [['add', '--colour', 'red'], 2, "Unknown option '--colour'"],
    ] as const) {
      const run = await cli(...argv);
      expect(run.code, argv.join(' ')).toBe(code);
      expect(run.err.split('\n')[0], argv.join(' ')).toContain(err);
    }
    expect(await keys.list()).toEqual([]);
    const help = await cli();
    expect(help.code).toBe(0);
    expect(help.out).toContain('npm run scanners -- add --venue ID [--label TEXT]');
  });
});
