import { cp, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileRecordStores, sqlRecordStores, type RecordStores } from '../store/record-collections.js';
import type { Sql } from '../store/sql.js';
import { TEST_STORES } from '../store/test-stores.js';
import { SegmentAudit } from './segment-audit.js';
import { SegmentPublisher } from './segment-publisher.js';
import { SegmentRepository } from './segment-repository.js';
import { applySchedule, scheduleSummary, SegmentSchedule, type ScheduledVersion } from './segment-schedule.js';
import { FileVersionStore, SqlVersionStore, type SegmentVersionStore } from './segment-versions.js';

let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'segment-schedule-'));
});
afterAll(() => rm(tmp, { recursive: true, force: true }));

let dirs = 0;
/** Each backend opened once for the file (a store is slow to open); `fresh` gives a test empty stores. */
const STORES: {
  name: string;
  open: () => Promise<{
    fresh: () => Promise<{ versions: SegmentVersionStore; records: RecordStores }>;
    close: () => Promise<void>;
  }>;
}[] = [
  {
    name: 'files',
    open: async () => ({
      fresh: async () => ({
        versions: new FileVersionStore(path.join(tmp, `versions-${++dirs}`)),
        records: fileRecordStores(path.join(tmp, `records-${dirs}`)),
      }),
      close: async () => {},
    }),
  },
  ...TEST_STORES.map(({ name, open }) => ({
    name,
    open: async () => {
      const sql: Sql = await open();
      return {
        fresh: async () => {
          await sql.query('TRUNCATE segment_versions, records, record_log');
          return { versions: new SqlVersionStore(sql), records: sqlRecordStores(sql) };
        },
        close: () => sql.close(),
      };
    },
  })),
];

const ANA = { id: 'u1', name: 'Ana' };

/** A node: its own live folder (a copy of the shipped files), the shared stores, and a clock the test moves. */
async function node(stores: { versions: SegmentVersionStore; records: RecordStores }, clock: { now: number }) {
  const dir = path.join(tmp, `live-${++dirs}`);
  await cp(path.resolve('segments'), dir, { recursive: true });
  const live = new SegmentRepository(dir);
  await live.load();
  const publisher = new SegmentPublisher({ versions: stores.versions, live, liveDir: dir });
  await publisher.sync();
  const audit = new SegmentAudit(stores.records);
  const schedule = new SegmentSchedule({ records: stores.records, publisher, audit, now: () => clock.now });
  return { live, publisher, schedule, audit };
}

const title = (repo: SegmentRepository) =>
  repo.page('base', 'explore')!.rows.find((r) => r.id === 'local-venues')!.title;
const withTitle = (files: ReadonlyMap<string, string>, text: string) => {
  const next = new Map(files);
  const page = JSON.parse(next.get('base/explore.json')!);
  page.rows.find((r: { id: string }) => r.id === 'local-venues').title = text;
  next.set('base/explore.json', `${JSON.stringify(page, null, 2)}\n`);
  return next;
};

const HOUR = 3_600_000;

describe.each(STORES)('scheduled segment versions ($name)', ({ open }) => {
  let backend: Awaited<ReturnType<(typeof STORES)[number]['open']>>;
  beforeAll(async () => {
    backend = await open();
  });
  afterAll(() => backend.close());

  it('publishes a version when it is due, once, however many nodes look; the others serve it', async () => {
    const stores = await backend.fresh();
    {
      const clock = { now: Date.now() };
      const [a, b, c] = await Promise.all([node(stores, clock), node(stores, clock), node(stores, clock)]);
      const at = new Date(clock.now + HOUR);
      const { files: base } = await a.schedule.asOf(at);
      const scheduled = await a.schedule.schedule({
        files: withTitle(base, 'Friday Venues'),
        base,
        at,
        note: 'Friday promotion',
        author: ANA,
      });
      expect(scheduled).toMatchObject({ id: '1', status: 'scheduled', brands: ['base'], at: at.toISOString() });
      // Not due yet: nothing happens.
      await Promise.all([a.schedule.runDue(), b.schedule.runDue(), c.schedule.runDue()]);
      expect(title(a.live)).not.toBe('Friday Venues');
      // The preview as of the time shows it; as of before, not.
      const asOf = await b.schedule.asOf(new Date(at.getTime() + 1));
      expect(asOf.applied.map((s) => s.id)).toEqual(['1']);
      expect((await b.schedule.asOf(new Date(at.getTime() - 1))).applied).toEqual([]);

      clock.now = at.getTime() + 10;
      await Promise.all([a.schedule.runDue(), b.schedule.runDue(), c.schedule.runDue()]);
      await Promise.all([a.publisher.sync(), b.publisher.sync(), c.publisher.sync()]);
      // One version, whichever node made it; every node serves it.
      const history = await a.publisher.history();
      expect(history.versions.filter((v) => v.note === 'Friday promotion')).toHaveLength(1);
      for (const n of [a, b, c]) expect(title(n.live)).toBe('Friday Venues');
      const [settled] = await a.schedule.list();
      expect(settled).toMatchObject({ id: '1', status: 'published', version: history.live });
      expect(history.versions[0]).toMatchObject({ author: 'Ana', note: 'Friday promotion' });
      // The audit log says so once, in the name of who scheduled it.
      const entries = (await a.audit.recent()).filter((e) => e.action === 'scheduled-publish');
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({ actor: ANA, version: history.live, brands: ['base'] });
      // Settled, it keeps what it changed and lets its files go: every node reads the schedules each second.
      const kept = await stores.records.collection<ScheduledVersion>('segment-schedules').get('1');
      expect(kept).toMatchObject({ files: {}, base: {} });
      expect(scheduleSummary(kept!).changes).toEqual({ added: [], changed: ['base/explore.json'], removed: [] });
      // Settled: it cannot be cancelled any more.
      await expect(a.schedule.cancel('1', ANA)).rejects.toMatchObject({ status: 409 });
    }
  });

  it('a version due while no node runs is published by the first node that comes back', async () => {
    const stores = await backend.fresh();
    {
      const clock = { now: Date.now() };
      const first = await node(stores, clock);
      const at = new Date(clock.now + HOUR);
      const { files: base } = await first.schedule.asOf(at);
      await first.schedule.schedule({ files: withTitle(base, 'While Away'), base, at, note: 'away', author: ANA });
      // Every node is down at the due time; a day later a new one starts.
      clock.now += 24 * HOUR;
      const back = await node(stores, clock);
      expect(title(back.live)).not.toBe('While Away');
      await back.schedule.runDue();
      expect(title(back.live)).toBe('While Away');
    }
  });

  it('checks a version again when due: one with a conflict or that no longer builds is not published', async () => {
    const stores = await backend.fresh();
    const clock = { now: Date.now() };
    const n = await node(stores, clock);
    const at = new Date(clock.now + HOUR);
    const { files: base } = await n.schedule.asOf(at);
    await n.schedule.schedule({ files: withTitle(base, 'Scheduled'), base, at, note: 'scheduled', author: ANA });
    // A second one, of another brand's file, that takes away a row of the base page.
    const later = new Date(clock.now + 2 * HOUR);
    const { files: base2 } = await n.schedule.asOf(later);
    const encore = JSON.parse(base2.get('encore/explore.json')!);
    encore.operations.push({ op: 'remove', id: 'local-venues' });
    const second = new Map(base2).set('encore/explore.json', JSON.stringify(encore, null, 2));
    await n.schedule.schedule({ files: second, base: base2, at: later, note: 'no venues', author: ANA });
    // Meanwhile someone publishes the base page without that row: the first schedule's file changed under it, and
    // the second no longer builds (it removes a row that is gone).
    const page = JSON.parse(n.live.current.files.get('base/explore.json')!);
    page.rows = page.rows.filter((r: { id: string }) => r.id !== 'local-venues');
    const byHand = new Map(n.live.current.files).set('base/explore.json', JSON.stringify(page, null, 2));
    const published = await n.publisher.publish(byHand, { note: 'by hand' });

    clock.now += 3 * HOUR;
    await n.schedule.runDue();
    expect(n.publisher.live).toBe(published.version);
    const list = await n.schedule.list();
    expect(list.find((s) => s.id === '1')).toMatchObject({
      status: 'failed',
      reason: expect.stringContaining('base/explore.json changed after it was scheduled'),
    });
    expect(list.find((s) => s.id === '2')).toMatchObject({
      status: 'failed',
      reason: expect.stringMatching(/^it no longer builds: 1 problem, the first encore\/explore\.json:/),
    });
    const failed = (await n.audit.recent()).filter((e) => e.action === 'scheduled-failed');
    expect(failed.map((e) => e.summary)).toEqual([
      expect.stringContaining('scheduled version 2 was not published'),
      expect.stringContaining('scheduled version 1 was not published'),
    ]);
  });

  it('refuses a time passed, a set with problems, one that changes nothing; cancels a pending one', async () => {
    const stores = await backend.fresh();
    {
      const clock = { now: Date.now() };
      const n = await node(stores, clock);
      const at = new Date(clock.now + HOUR);
      const { files: base } = await n.schedule.asOf(at);
      await expect(
        n.schedule.schedule({ files: withTitle(base, 'x'), base, at: new Date(clock.now - 1), note: 'n', author: ANA }),
      ).rejects.toMatchObject({ status: 400, code: 'time_passed' });
      const broken = new Map(base);
      broken.set('base/explore.json', '{ "rows": [ { "kind": "venus" } ] }');
      await expect(n.schedule.schedule({ files: broken, base, at, note: 'n', author: ANA })).rejects.toMatchObject({
        status: 422,
      });
      await expect(n.schedule.schedule({ files: base, base, at, note: 'n', author: ANA })).rejects.toMatchObject({
        status: 409,
      });
      const s = await n.schedule.schedule({ files: withTitle(base, 'Never'), base, at, note: 'n', author: ANA });
      expect((await n.schedule.cancel(s.id, ANA)).status).toBe('cancelled');
      clock.now += 2 * HOUR;
      await n.schedule.runDue();
      expect(title(n.live)).not.toBe('Never');
      await expect(n.schedule.cancel('99', ANA)).rejects.toMatchObject({ status: 404 });
      // Only what was scheduled and cancelled is in the audit log, in the name of who did it; refusals are not.
      expect((await n.audit.recent()).map((e) => [e.action, e.actor.name, e.summary])).toEqual([
        ['unschedule', 'Ana', `cancelled scheduled version ${s.id} (due ${s.at}): n`],
        ['schedule', 'Ana', `scheduled version ${s.id} for ${s.at}: n`],
      ]);
    }
  });
});

describe('applySchedule', () => {
  it('puts a schedule’s changes onto the live set and names the files changed since it was made', () => {
    const base = { 'a.json': '1', 'b.json': '1', 'c.json': '1' };
    const files = { 'a.json': '2', 'c.json': '1', 'd.json': 'new' };
    const live = new Map(Object.entries({ 'a.json': '1', 'b.json': '1', 'c.json': 'changed', 'e.json': 'live' }));
    const out = applySchedule(live, { base, files });
    expect(out.conflicts).toEqual([]);
    expect(Object.fromEntries(out.files)).toEqual({
      'a.json': '2',
      'c.json': 'changed',
      'd.json': 'new',
      'e.json': 'live',
    });
    expect(applySchedule(new Map(Object.entries({ ...base, 'a.json': 'other' })), { base, files }).conflicts).toEqual([
      'a.json',
    ]);
  });
});
