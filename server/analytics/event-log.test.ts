import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Sql } from '../store/sql.js';
import { StoreUnavailableError } from '../store/store-errors.js';
import { TEST_STORES } from '../store/test-stores.js';
import { EventLog, type EventRecord } from './event-log.js';

const view = (guest: string, at = new Date()): EventRecord => ({
  name: 'page_view',
  at,
  guest,
  brand: 'base',
  device: 'desktop',
  pageView: `pv-${guest}`,
  once: `p:${guest}`,
});

/** A store that is away until `back()`, then the real one. */
function flakyStore(real: Sql) {
  let away = true;
  let refused = 0;
  const sql: Sql = {
    ...real,
    kind: real.kind,
    query: (text, params) => {
      if (away) {
        refused++;
        return Promise.reject(new StoreUnavailableError(new Error('connection refused')));
      }
      return real.query(text, params);
    },
    transaction: (fn) => real.transaction(fn),
    close: () => real.close(),
  };
  return { sql, back: () => (away = false), refused: () => refused };
}

describe.each(TEST_STORES)('EventLog on $name', ({ open }) => {
  let real: Sql;
  beforeAll(async () => {
    real = await open();
  });
  beforeEach(() => real.query('DELETE FROM analytics_events'));
  afterAll(() => real.close());

  it('keeps events queued while the store is away and writes them once it is back', async () => {
    const store = flakyStore(real);
    const log = new EventLog(store.sql, { flushEveryMs: 5 });
    log.record(view('a'), view('b'));
    await log.flush();
    expect(store.refused()).toBeGreaterThan(0);
    expect(log.stats()).toMatchObject({ queued: 2, written: 0 });
    store.back();
    await log.flush();
    expect(log.stats()).toMatchObject({ queued: 0, written: 2 });
    // Written again by another node (retrying after a lost answer): still once.
    const other = new EventLog(real);
    other.record(view('a'));
    await other.close();
    await log.close();
    expect((await real.query('SELECT count(*)::int AS n FROM analytics_events'))[0]).toEqual({ n: 2 });
  });

  it('does not queue again what it has queued lately, but takes again what it dropped unwritten', async () => {
    const log = new EventLog(real, { flushEveryMs: 60_000, maxQueued: 2 });
    log.record(view('a'), view('a'), view('b'));
    log.record(view('b'));
    expect(log.stats()).toMatchObject({ queued: 2, dropped: 0 });
    // Beyond its room the oldest goes unwritten, and a repeat of it is queued afresh.
    log.record(view('c'));
    expect(log.stats()).toMatchObject({ queued: 2, dropped: 1 });
    log.record(view('a'));
    expect(log.stats()).toMatchObject({ queued: 2, dropped: 2 });
    await log.close();
    const rows = await real.query<{ anonymous_id: string }>('SELECT anonymous_id FROM analytics_events ORDER BY id');
    expect(rows.map((r) => r.anonymous_id)).toEqual(['c', 'a']);
  });

  it('skips a repeat of what it wrote, but takes again what the store did not take (an opted-out guest)', async () => {
    await real.query('DELETE FROM guest_privacy');
    await real.query(
      `INSERT INTO guest_privacy (guest_id, do_not_sell_or_share, erased_at) VALUES ('back', true, NULL)`,
    );
    const log = new EventLog(real, { flushEveryMs: 60_000 });
    log.record(view('a'), view('back'));
    await log.flush();
    log.record(view('a'), view('back'));
    expect(log.stats()).toMatchObject({ queued: 1 });
    // The guest opts back in: the event the store refused before is written now.
    await real.query('DELETE FROM guest_privacy');
    await log.close();
    const rows = await real.query<{ anonymous_id: string }>('SELECT anonymous_id FROM analytics_events ORDER BY id');
    expect(rows.map((r) => r.anonymous_id)).toEqual(['a', 'back']);
  });

  it('writes each field of an event to its column, in the order queued, nothing of a guest who opted out', async () => {
    await real.query('DELETE FROM guest_privacy');
    await real.query(
      `INSERT INTO guest_privacy (guest_id, do_not_sell_or_share, erased_at) VALUES ('opted', true, NULL), ` +
        `('erased', false, now())`,
    );
    const at = new Date('2026-11-27T10:00:00.123Z');
    const full: EventRecord = {
      name: 'row_click',
      at,
      guest: 'full',
      brand: 'tix',
      device: 'mobile',
      page: '/',
      pageView: 'pv-full',
      variation: 'rows-b',
      segmentFile: 'home.jsonc',
      segmentVersion: 7,
      rowId: 'row-1',
      position: 2,
      itemPosition: 3,
      item: 'Event:101',
      experimentId: 'home-rows',
      variationId: '1',
      reason: 'quote "it" \\ and ünïcode',
      orderId: 'ord-1',
      revenue: 123.45,
      once: 'b:full:1',
    };
    const log = new EventLog(real, { flushEveryMs: 60_000 });
    log.record(view('opted'), full, view('erased'), view('a'), view('b'));
    await log.close();
    const rows = await real.query<Record<string, unknown>>('SELECT * FROM analytics_events ORDER BY id');
    expect(rows.map((r) => r.anonymous_id)).toEqual(['full', 'a', 'b']);
    const { id: _id, occurred_at, revenue, ...columns } = rows[0]!;
    expect(new Date(occurred_at as string).toISOString()).toBe(at.toISOString());
    expect(Number(revenue)).toBe(123.45);
    expect(columns).toEqual({
      name: 'row_click',
      anonymous_id: 'full',
      brand: 'tix',
      device: 'mobile',
      page: '/',
      page_view: 'pv-full',
      variation: 'rows-b',
      segment_file: 'home.jsonc',
      segment_version: 7,
      row_id: 'row-1',
      position: 2,
      item_position: 3,
      item: 'Event:101',
      experiment_id: 'home-rows',
      variation_id: '1',
      reason: 'quote "it" \\ and ünïcode',
      order_id: 'ord-1',
      once: 'b:full:1',
    });
    // A field left out is null.
    expect(rows[1]).toMatchObject({ page: null, variation: null, segment_version: null, revenue: null });
    await real.query('DELETE FROM guest_privacy');
  });

  it('drops only the event the store refuses, never the others written with it, nor logs what it held', async () => {
    const logged: unknown[][] = [];
    const logger = { error: (...args: unknown[]) => logged.push(args), warn: () => {} };
    const log = new EventLog(real, { flushEveryMs: 5, logger: logger as never });
    const purchase: EventRecord = { ...view('buyer'), name: 'purchase', orderId: 'ORD-1', revenue: 10, once: 'o:1' };
    // Past the browser's checks (RULES 14.15), this is the store's last word: it cannot keep a NUL.
    log.record(view('before'), { ...view('bad'), page: '/secret\u0000' }, purchase, view('after'));
    await log.close();
    expect(log.stats()).toMatchObject({ queued: 0, written: 3, dropped: 1 });
    const rows = await real.query<{ anonymous_id: string }>('SELECT anonymous_id FROM analytics_events ORDER BY id');
    expect(rows.map((r) => r.anonymous_id)).toEqual(['before', 'buyer', 'after']);
    expect(logged).toHaveLength(1);
    expect(JSON.stringify(logged)).not.toContain('secret');
  });

  it('drops the oldest events beyond its bound, counting them', async () => {
    const store = flakyStore(real);
    const log = new EventLog(store.sql, { flushEveryMs: 60_000, maxQueued: 3 });
    log.record(view('a'), view('b'), view('c'), view('d'), view('e'));
    expect(log.stats()).toMatchObject({ queued: 3, dropped: 2 });
    store.back();
    await log.close();
    const guests = await real.query<{ anonymous_id: string }>('SELECT anonymous_id FROM analytics_events ORDER BY 1');
    expect(guests.map((g) => g.anonymous_id)).toEqual(['c', 'd', 'e']);
  });

  it('sweeps events older than the retention period and keeps the rest', async () => {
    const sql = real;
    const log = new EventLog(sql, { retentionDays: 30 });
    const day = 86_400_000;
    for (const [guest, age] of [
      ['old', 31],
      ['recent', 29],
    ] as const)
      await sql.query(
        `INSERT INTO analytics_events (name, occurred_at, anonymous_id, brand, device) ` +
          `VALUES ('page_view', $1, $2, 'base', 'desktop')`,
        [new Date(Date.now() - age * day).toISOString(), guest],
      );
    expect(await log.sweep()).toBe(1);
    const left = await sql.query<{ anonymous_id: string }>('SELECT anonymous_id FROM analytics_events');
    expect(left.map((r) => r.anonymous_id)).toEqual(['recent']);
    await log.close();
  });
});
