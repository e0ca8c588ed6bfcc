import { cp, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEnv } from '../config/env.js';
import { SegmentAudit } from '../segments/segment-audit.js';
import { SegmentPublisher } from '../segments/segment-publisher.js';
import { SegmentRepository } from '../segments/segment-repository.js';
import { SegmentSchedule } from '../segments/segment-schedule.js';
import { FileVersionStore } from '../segments/segment-versions.js';
import { recordStoresFor } from '../store/record-collections.js';
import { captureOutput } from '../test/capture-output.js';
import { main } from './segments.js';

let tmp: string;
let runs = 0;
beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'segments-schedule-cli-'));
});
afterAll(() => rm(tmp, { recursive: true, force: true }));

/** A fresh site: the shipped segments live, drafts copied from them, and an empty DATA_DIR. */
async function site() {
  const root = path.join(tmp, `site-${++runs}`);
  await cp(path.resolve('segments'), path.join(root, 'segments'), { recursive: true });
  await cp(path.resolve('segments'), path.join(root, 'segment-drafts'), { recursive: true });
  const { DATABASE_URL: _db, ...rest } = process.env;
  const processEnv = { ...rest, SEGMENTS_DIR: path.join(root, 'segments'), DATA_DIR: path.join(root, 'data') };
  const env = parseEnv({ ...processEnv, LOG_LEVEL: 'silent' });
  const cli = (...args: string[]) => captureOutput(() => main(args, processEnv));
  /** Replaces `from` with `to` in a draft file (which must contain it). */
  const edit = async (file: string, from: string, to: string) => {
    const target = path.join(env.segmentDraftsDir, file);
    const text = await readFile(target, 'utf8');
    expect(text).toContain(from);
    await writeFile(target, text.replace(from, to));
  };
  const live = (file: string) => readFile(path.join(env.segmentsDir, file), 'utf8');
  const records = recordStoresFor(null, env.studioRecordsDir);
  /** Publishes what is due at `now`, as a node's scheduler would, on the same stores the command line uses. */
  const runDue = async (now: number) => {
    const repository = new SegmentRepository(env.segmentsDir);
    await repository.load();
    const publisher = new SegmentPublisher({
      versions: new FileVersionStore(env.segmentVersionsDir),
      live: repository,
      liveDir: env.segmentsDir,
    });
    await publisher.sync();
    await new SegmentSchedule({ records, publisher, audit: new SegmentAudit(records), now: () => now }).runDue();
  };
  return { env, cli, edit, live, records, runDue };
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** A time `ms` from now as New York winter time gives it, whole seconds: 2026-12-04T09:00:00-05:00. */
const zoned = (ms: number) =>
  `${new Date(Math.floor((Date.now() + ms) / 1000) * 1000 - 5 * HOUR).toISOString().slice(0, 19)}-05:00`;
const utc = (time: string) => new Date(time).toISOString();

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A line of `audit`: when, who, what, on which brands, and its summary. */
const auditLine = (who: string, action: string, brands: string, summary: string) =>
  expect.stringMatching(
    new RegExp(
      `^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC  ${escape(who.padEnd(12))}  ${action.padEnd(17)}  ` +
        `${brands.padEnd(8)}  ${escape(summary)}$`,
    ),
  );

/** Who the command line names without --author: the login name, or "command line" when the system has none. */
function loginName(): string {
  try {
    return os.userInfo().username || 'command line';
  } catch {
    return 'command line';
  }
}

describe('npm run segments -- publish --at', () => {
  it('refuses a time without a zone, one it cannot read, one past and one over a year ahead', async () => {
    const { cli, edit } = await site();
    await edit('base/explore.json', '"Local Venues"', '"Venues Here"');
    for (const at of ['2026-12-04T09:00:00', 'next tuesday', '2026-02-30T09:00:00-05:00', '2026-12-04 09:00-05:00']) {
      const out = await cli('publish', '--note', 'Rename the venues row', '--at', at);
      expect(out.code).toBe(1);
      expect(out.stderr).toBe(`--at must be a time with its zone, such as 2026-12-04T09:00:00-05:00, not "${at}"\n`);
    }
    const past = zoned(-HOUR);
    const passed = await cli('publish', '--note', 'Rename the venues row', '--at', past);
    expect(passed.code).toBe(1);
    expect(passed.stderr).toBe(`${utc(past)} has passed: a version is scheduled ahead\n`);
    const far = await cli('publish', '--note', 'Rename the venues row', '--at', zoned(400 * DAY));
    expect(far.code).toBe(1);
    expect(far.stderr).toBe('A version is scheduled at most a year ahead\n');
    const noNote = await cli('publish', '--at', zoned(DAY));
    expect(noNote.code).toBe(1);
    expect(noNote.stderr).toMatch(/^publish needs --note/);

    const list = await cli('scheduled');
    expect(list).toEqual({ code: 0, stdout: 'nothing is scheduled\n', stderr: '' });
    expect((await cli('audit')).stdout).toBe('the audit log is empty\n');
  });

  it('refuses drafts with problems, printing each at file:line:column', async () => {
    const { cli, edit } = await site();
    await edit('base/explore.json', '"kind": "venues"', '"kind": "venus"');
    const out = await cli('publish', '--note', 'broken', '--at', zoned(DAY));
    expect(out.code).toBe(1);
    expect(out.stdout).toBe('');
    expect(out.stderr.split('\n')).toEqual([
      '1 problem in the segment files: fix it before scheduling',
      '  base/explore.json:42:15: "venus" is not a row kind. Allowed kinds: ' +
        'performers, events, venues, categories, promos. Did you mean "venues"?',
      '',
    ]);
    expect((await cli('scheduled')).stdout).toBe('nothing is scheduled\n');
  });

  it('refuses drafts that are what shoppers will see at that time already', async () => {
    const { cli, edit } = await site();
    const unchanged = zoned(DAY);
    const same = await cli('publish', '--note', 'nothing', '--at', unchanged);
    expect(same.code).toBe(1);
    expect(same.stderr).toBe(`The set is what shoppers will see at ${utc(unchanged)} already\n`);

    await edit('base/explore.json', '"Local Venues"', '"Venues Here"');
    const first = zoned(2 * DAY);
    expect((await cli('publish', '--note', 'Rename the venues row', '--at', first)).code).toBe(0);
    // After the first is due the site already shows these drafts; before it, they still change it.
    const later = zoned(3 * DAY);
    const again = await cli('publish', '--note', 'Rename it again', '--at', later);
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(`The set is what shoppers will see at ${utc(later)} already\n`);
    const earlier = await cli('publish', '--note', 'Rename it sooner', '--at', zoned(DAY));
    expect(earlier.code).toBe(0);
    expect(earlier.stdout).toMatch(/^scheduled version 2 for /);
  });
});

describe('npm run segments -- scheduled | unschedule | audit', () => {
  it('lists, cancels and, once published when due, shows the version that published it', async () => {
    const { env, cli, edit, live, runDue } = await site();
    await edit('base/explore.json', '"Local Venues"', '"Venues Here"');
    const first = zoned(2 * DAY);
    const scheduled = await cli('publish', '--note', 'Rename the venues row', '--author', 'ana', '--at', first);
    expect(scheduled.code).toBe(0);
    expect(scheduled.stderr).toBe('');
    expect(scheduled.stdout).toMatch(
      new RegExp(
        `^scheduled version 1 for ${escape(utc(first))} from .*segment-drafts: Rename the venues row ` +
          '\\(checked again when due; `npm run segments -- unschedule 1` cancels\\)\\n$',
      ),
    );
    // Scheduling publishes nothing now.
    expect(await live('base/explore.json')).toContain('"Local Venues"');
    expect((await cli('history')).stdout.trimEnd().split('\n')).toHaveLength(1);

    // The second, later, on top of the first: renames encore's promos row and moves a base file.
    await edit('encore/explore.json', '"title": "Promos"', '"title": "Deals"');
    const drafts = env.segmentDraftsDir;
    await rename(path.join(drafts, 'base/explore~promos.json'), path.join(drafts, 'base/explore~deals.json'));
    const second = zoned(3 * DAY);
    expect((await cli('publish', '--note', 'Deals for encore', '--author', 'ben', '--at', second)).code).toBe(0);

    const list = (await cli('scheduled')).stdout.split('\n');
    expect(list).toEqual([
      `   1  ${utc(first)}  ana           scheduled   Rename the venues row`,
      '        ~base/explore.json',
      `   2  ${utc(second)}  ben           scheduled   Deals for encore`,
      '        +base/explore~deals.json ~encore/explore.json -base/explore~promos.json',
      '',
    ]);

    const cancelled = await cli('unschedule', '2', '--author', 'carl');
    expect(cancelled).toEqual({
      code: 0,
      stdout: `cancelled scheduled version 2 (was due ${utc(second)})\n`,
      stderr: '',
    });
    const twice = await cli('unschedule', '2');
    expect(twice.code).toBe(1);
    expect(twice.stderr).toBe('Scheduled version 2 is cancelled: it cannot be cancelled\n');
    const unknown = await cli('unschedule', '9');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe('There is no scheduled version 9\n');
    for (const arg of ['x', '0', '-1']) {
      const usage = await cli('unschedule', '--', arg);
      expect(usage.code).toBe(1);
      expect(usage.stderr).toBe(`unschedule N must be a version number (1, 2…), not "${arg}"\n`);
    }
    expect((await cli('unschedule')).stderr).toBe('unschedule N must be a version number (1, 2…), not ""\n');

    // Nothing is due yet; then the first is.
    await runDue(Date.now());
    expect((await cli('scheduled')).stdout.split('\n')[0]).toMatch(/ scheduled +Rename the venues row$/);
    await runDue(Date.parse(first) + 60_000);
    expect(await live('base/explore.json')).toContain('"Venues Here"');
    expect((await cli('scheduled')).stdout.split('\n')).toEqual([
      `   1  ${utc(first)}  ana           published as version 2  Rename the venues row`,
      '        ~base/explore.json',
      `   2  ${utc(second)}  ben           cancelled   Deals for encore`,
      '        +base/explore~deals.json ~encore/explore.json -base/explore~promos.json',
      '',
    ]);
    expect((await cli('history')).stdout.split('\n')[0]).toMatch(/^\* +2 .* ana +Rename the venues row$/);
    const settled = await cli('unschedule', '1');
    expect(settled.code).toBe(1);
    expect(settled.stderr).toBe('Scheduled version 1 is published: it cannot be cancelled\n');

    // The audit log, newest first, and by brand (an entry touching base or encore only).
    const audit = (await cli('audit')).stdout.trimEnd().split('\n');
    expect(audit).toEqual([
      auditLine(
        'ana',
        'scheduled-publish',
        'base',
        'published scheduled version 1 as version 2: Rename the venues row',
      ),
      auditLine(
        'carl',
        'unschedule',
        'base,encore',
        `cancelled scheduled version 2 (due ${utc(second)}): Deals for encore`,
      ),
      auditLine('ben', 'schedule', 'base,encore', `scheduled version 2 for ${utc(second)}: Deals for encore`),
      auditLine('ana', 'schedule', 'base', `scheduled version 1 for ${utc(first)}: Rename the venues row`),
    ]);
    const encore = (await cli('audit', '--brand', 'encore')).stdout.trimEnd().split('\n');
    expect(encore).toEqual([audit[1], audit[2]]);
    expect((await cli('audit', '--brand', 'base')).stdout.trimEnd().split('\n')).toEqual(audit);
  });

  it('lists a schedule that could not be published when due with why', async () => {
    const { cli, edit, live, runDue } = await site();
    await edit('base/explore.json', '"Local Venues"', '"Venues Here"');
    const due = zoned(DAY);
    expect((await cli('publish', '--note', 'Rename the venues row', '--author', 'ana', '--at', due)).code).toBe(0);
    // Someone publishes another change to the same file before it is due.
    await edit('base/explore.json', '"Venues Here"', '"Venues Near You"');
    expect((await cli('publish', '--note', 'Another name', '--author', 'ben')).code).toBe(0);

    await runDue(Date.parse(due) + 60_000);
    expect(await live('base/explore.json')).toContain('"Venues Near You"');
    const why = 'base/explore.json changed after it was scheduled: publishing it would undo that change';
    expect((await cli('scheduled')).stdout.split('\n')).toEqual([
      `   1  ${utc(due)}  ana           not published: ${why}  Rename the venues row`,
      '        ~base/explore.json',
      '',
    ]);
    expect((await cli('audit')).stdout.split('\n')[0]).toEqual(
      auditLine('ana', 'scheduled-failed', 'base', `scheduled version 1 was not published: ${why}`),
    );
    expect((await cli('unschedule', '1')).stderr).toBe('Scheduled version 1 is failed: it cannot be cancelled\n');
  });

  it('publish and rollback write audit entries with the author given or the login name', async () => {
    const { cli, edit, records } = await site();
    await edit('base/explore.json', '"Local Venues"', '"Venues Here"');
    expect((await cli('publish', '--note', 'Rename the venues row', '--author', 'ana')).code).toBe(0);
    expect((await cli('rollback', '1', '--note', 'Back to the old title')).code).toBe(0);

    const entries = await new SegmentAudit(records).recent();
    expect(entries).toEqual([
      expect.objectContaining({
        action: 'rollback',
        actor: { id: 'cli', name: loginName() },
        brands: ['base'],
        version: 3,
        summary: 'published version 3: the files of version 1 (Back to the old title)',
        diff: expect.stringContaining('-      "title": "Venues Here",\n+      "title": "Local Venues",'),
      }),
      expect.objectContaining({
        action: 'publish',
        actor: { id: 'cli', name: 'ana' },
        brands: ['base'],
        version: 2,
        summary: 'published version 2: Rename the venues row',
        diff: expect.stringContaining('-      "title": "Local Venues",\n+      "title": "Venues Here",'),
      }),
    ]);
    const audit = (await cli('audit', '--brand', 'base')).stdout.trimEnd().split('\n');
    expect(audit).toEqual([
      auditLine(loginName(), 'rollback', 'base', 'published version 3: the files of version 1 (Back to the old title)'),
      auditLine('ana', 'publish', 'base', 'published version 2: Rename the venues row'),
    ]);
    expect((await cli('audit', '--brand', 'encore')).stdout).toBe('the audit log is empty\n');
  });
});
