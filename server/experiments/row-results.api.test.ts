import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MAX_ROW_RESULTS,
  RowResultsSchema,
  type RowResult,
  type RowResults,
} from '../../shared/schemas/row-results.js';
import { EventLog, type EventRecord } from '../analytics/event-log.js';
import { parseEnv } from '../config/env.js';
import type { Sql } from '../store/sql.js';
import { TEST_STORES } from '../store/test-stores.js';
import { testAppWithSegments } from '../test/test-app.js';

const STUDIO_KEY = 'studio-key-for-row-results-tests';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Well inside the last 30 days (the default range) and the event retention, at a whole hour. */
const T = Math.floor((Date.now() - 20 * DAY) / HOUR) * HOUR;
const at = (ms: number) => new Date(T + ms);
const iso = (ms: number) => at(ms).toISOString();
/** A range around every event of the test but the old one. */
const AROUND = { since: iso(-DAY), until: iso(5 * DAY) };

/**
 * The events of the test, as the event log writes them. Rows `popular` and `venues` of base's home page are for
 * the counts; each attribution case has a row of its own, so its purchases are that case's alone.
 */
function events(): EventRecord[] {
  const records: EventRecord[] = [];
  let n = 0;
  const row = (
    name: 'row_impression' | 'row_click',
    guest: string,
    rowId: string,
    when: number,
    more: Partial<EventRecord> = {},
  ) =>
    records.push({
      name,
      at: at(when),
      guest,
      brand: 'base',
      device: 'desktop',
      page: '/',
      pageView: `pv-${n}`,
      variation: 'base',
      segmentFile: 'base/explore.json',
      segmentVersion: 2,
      rowId,
      position: 1,
      ...(name === 'row_click' ? { itemPosition: 1, item: 'event:1' } : {}),
      once: `e:${n++}`,
      ...more,
    });
  const seen = (guest: string, rowId: string, when: number, more: Partial<EventRecord> = {}) =>
    row('row_impression', guest, rowId, when, more);
  const click = (guest: string, rowId: string, when: number, more: Partial<EventRecord> = {}) =>
    row('row_click', guest, rowId, when, more);
  const purchase = (guest: string, when: number, dollars: number, brand = 'base') =>
    records.push({
      name: 'purchase',
      at: at(when),
      guest,
      brand,
      device: 'desktop',
      page: '/checkout',
      orderId: `order-${n}`,
      revenue: dollars,
      once: `o:${n++}`,
    });

  // Counts: `popular` at place 2, in versions 1 and 2, variations base and promos.
  const popular = { position: 2 };
  seen('g1', 'popular', 0, { ...popular, segmentVersion: 1 });
  seen('g1', 'popular', HOUR, { ...popular, segmentVersion: 1 });
  click('g1', 'popular', HOUR, { ...popular, segmentVersion: 1 });
  seen('g2', 'popular', 2 * HOUR, { ...popular, variation: 'promos', segmentFile: 'base/explore~promos.json' });
  seen('g3', 'popular', 2 * HOUR, popular);
  click('g3', 'popular', 2 * HOUR, popular);
  seen('g8', 'popular', 3 * HOUR, { ...popular, variation: 'promos', segmentFile: 'base/explore~promos.json' });
  // `venues` at place 5: once from a set never published, once with no variation named (the base page).
  seen('g1', 'venues', 3 * HOUR, { position: 5, segmentVersion: null });
  seen('g2', 'venues', 3 * HOUR, { position: 5, variation: null });
  // Not base's home page in the range: another brand, a category page (with the trailing slash), too old.
  seen('g4', 'popular', HOUR, { brand: 'encore', segmentFile: 'encore/explore.json' });
  seen('g5', 'popular', HOUR, { page: '/category/nfl/', segmentFile: 'base/category.json' });
  seen('g6', 'popular', -3 * DAY);
  seen('g7', 'sports-row', HOUR, { page: '/category/sports', segmentFile: 'base/sports.json' });
  seen('g9', 'popular', 20 * DAY - 45 * DAY, popular);

  // More rows than are answered on base's nba page: the two least seen are left out.
  for (let i = 0; i < MAX_ROW_RESULTS + 2; i++) {
    const crowd = { page: '/category/nba', position: 1 + (i % 50), segmentFile: 'base/category.json' };
    seen(`crowd-${i}`, `crowd-row-${i}`, HOUR, crowd);
    if (i < MAX_ROW_RESULTS) seen(`crowd-${i}-again`, `crowd-row-${i}`, HOUR, crowd);
  }

  // Attribution (RULES 18.1), each case at places 10 and on.
  const late = { position: 10 };
  click('h1', 'click-23h-before', 10 * HOUR, late);
  purchase('h1', 33 * HOUR, 100);
  click('h2', 'click-25h-before', 10 * HOUR, late);
  purchase('h2', 35 * HOUR, 70);
  click('h3', 'first-click', 10 * HOUR, late);
  click('h3', 'last-click', 12 * HOUR, { ...late, segmentVersion: 3, variation: 'promos' });
  purchase('h3', 13 * HOUR, 50);
  purchase('h4', 10 * HOUR, 30);
  click('h4', 'click-after-purchase', 11 * HOUR, late);
  click('h5', 'other-brand-click', 10 * HOUR, { ...late, brand: 'encore' });
  purchase('h5', 11 * HOUR, 20);
  click('h6', 'before-other-page', 10 * HOUR, late);
  click('h6', 'nfl-row', 11 * HOUR, { ...late, page: '/category/nfl' });
  purchase('h6', 12 * HOUR, 40);
  click('h7', 'before-other-brand', 10 * HOUR, late);
  click('h7', 'encore-row', 11 * HOUR, { ...late, brand: 'encore' });
  purchase('h7', 12 * HOUR, 60);
  // Two clicks at the same instant: the one recorded last earns it.
  click('h9', 'same-instant-first', 10 * HOUR, late);
  click('h9', 'same-instant-last', 10 * HOUR, late);
  purchase('h9', 11 * HOUR, 10);
  // A purchase just inside a range whose earning click is just before it.
  click('h8', 'click-before-range', 3 * DAY - HOUR, late);
  purchase('h8', 3 * DAY + HOUR, 25);
  return records;
}

const metrics = (
  impressions: number,
  viewers: number,
  clicks: number,
  ctr: number | null,
  purchases = 0,
  revenue = 0,
) => ({ impressions, viewers, clicks, ctr, purchases, revenue });

describe.each(TEST_STORES)('GET /api/studio/rows ($name)', ({ open }) => {
  let sql: Sql;
  let app: Awaited<ReturnType<typeof testAppWithSegments>>['app'];

  beforeAll(async () => {
    sql = await open();
    const log = new EventLog(sql);
    const records = events();
    log.record(...records);
    await log.close();
    expect(log.stats()).toMatchObject({ written: records.length, dropped: 0 });
    ({ app } = await testAppWithSegments({ sql, env: parseEnv({ NODE_ENV: 'test', STUDIO_KEY }) }));
  }, 60_000);
  afterAll(() => sql.close());

  async function rows(query: Record<string, string>): Promise<RowResults> {
    const res = await request(app).get('/api/studio/rows').query(query).set('X-Studio-Key', STUDIO_KEY);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    return RowResultsSchema.parse(res.body);
  }
  const byId = (results: RowResults) => new Map(results.rows.map((r) => [r.rowId, r]));
  const row = (results: RowResults, id: string): RowResult => {
    const found = byId(results).get(id);
    if (!found) throw new Error(`no row ${id} among ${results.rows.map((r) => r.rowId).join(', ')}`);
    return found;
  };

  it('counts impressions, unique viewers, clicks and click-through per row, in total', async () => {
    const home = await rows({ brand: 'base', page: 'home', ...AROUND });
    expect(home).toMatchObject({ brand: 'base', page: 'home', paths: ['/'], ...AROUND, rowsLeftOut: 0 });
    expect(row(home, 'popular')).toMatchObject({
      position: 2,
      files: ['base/explore.json', 'base/explore~promos.json'],
      total: metrics(5, 4, 2, 0.4),
    });
    expect(row(home, 'venues').total).toEqual(metrics(2, 2, 0, 0));
    // Highest on the page first.
    expect(home.rows.slice(0, 2).map((r) => r.rowId)).toEqual(['popular', 'venues']);
    // A row only clicked has clicks and no rate.
    expect(row(home, 'click-after-purchase').total).toEqual(metrics(0, 0, 1, null));
  });

  it('splits each row per published version (newest first) and per variation (base first)', async () => {
    const home = await rows({ brand: 'base', page: 'home', ...AROUND });
    expect(row(home, 'popular').versions).toEqual([
      { version: 2, ...metrics(3, 3, 1, 0.333333) },
      { version: 1, ...metrics(2, 1, 1, 0.5) },
    ]);
    expect(row(home, 'popular').variations).toEqual([
      { variation: 'base', ...metrics(3, 2, 2, 0.666667) },
      { variation: 'promos', ...metrics(2, 2, 0, 0) },
    ]);
    // A set never published is its own line, last; an event naming no variation is the base page's.
    expect(row(home, 'venues').versions).toEqual([
      { version: 2, ...metrics(1, 1, 0, 0) },
      { version: null, ...metrics(1, 1, 0, 0) },
    ]);
    expect(row(home, 'venues').variations).toEqual([{ variation: 'base', ...metrics(2, 2, 0, 0) }]);
  });

  it('attributes a purchase to the last row click of the brand in the 24 hours before it', async () => {
    const home = await rows({ brand: 'base', page: 'home', ...AROUND });
    const earned = (id: string) => ({ purchases: row(home, id).total.purchases, revenue: row(home, id).total.revenue });
    // 23 hours before: earned; 25 hours before: not.
    expect(earned('click-23h-before')).toEqual({ purchases: 1, revenue: 100 });
    expect(earned('click-25h-before')).toEqual({ purchases: 0, revenue: 0 });
    // Two clicks: the last one earns it, in its own version and variation.
    expect(earned('first-click')).toEqual({ purchases: 0, revenue: 0 });
    expect(row(home, 'last-click')).toMatchObject({
      total: { purchases: 1, revenue: 50 },
      versions: [{ version: 3, purchases: 1, revenue: 50 }],
      variations: [{ variation: 'promos', purchases: 1, revenue: 50 }],
    });
    expect(earned('same-instant-first')).toEqual({ purchases: 0, revenue: 0 });
    expect(earned('same-instant-last')).toEqual({ purchases: 1, revenue: 10 });
    // A click after the purchase earns nothing.
    expect(earned('click-after-purchase')).toEqual({ purchases: 0, revenue: 0 });
    // A later click on another page of the brand takes the purchase there.
    expect(earned('before-other-page')).toEqual({ purchases: 0, revenue: 0 });
    const nfl = await rows({ brand: 'base', page: 'nfl', ...AROUND });
    expect(row(nfl, 'nfl-row').total).toMatchObject({ clicks: 1, purchases: 1, revenue: 40 });
    // A later click on another brand does not: it is not the brand's.
    expect(earned('before-other-brand')).toEqual({ purchases: 1, revenue: 60 });
    // A click on another brand earns nothing of base's purchases, there or here.
    const encore = await rows({ brand: 'encore', page: 'home', ...AROUND });
    expect(row(encore, 'other-brand-click').total).toMatchObject({ clicks: 1, purchases: 0, revenue: 0 });
    expect(row(encore, 'encore-row').total).toMatchObject({ clicks: 1, purchases: 0, revenue: 0 });
    expect(byId(home).has('other-brand-click')).toBe(false);
    // Every purchase counts once at most: 100 + 50 + 10 + 60 + 25 of base's home, 40 of its nfl page.
    const sum = (r: RowResults) => r.rows.reduce((s, x) => s + x.total.revenue, 0);
    expect([sum(home), sum(nfl), sum(encore)]).toEqual([245, 40, 0]);
  });

  it('reads a date range: events in it, and purchases in it earned by a click up to 24 hours before it', async () => {
    const middle = await rows({ brand: 'base', page: 'home', since: iso(90 * 60_000), until: iso(150 * 60_000) });
    expect(row(middle, 'popular').total).toEqual(metrics(2, 2, 1, 0.5));
    expect(byId(middle).has('venues')).toBe(false);
    const later = await rows({ brand: 'base', page: 'home', since: iso(3 * DAY) });
    expect(later.rows.map((r) => r.rowId)).toEqual(['click-before-range']);
    expect(row(later, 'click-before-range').total).toEqual(metrics(0, 0, 0, null, 1, 25));
    // A date alone: from the start of `since`'s day to the end of `until`'s (UTC).
    const day = iso(0).slice(0, 10);
    const whole = await rows({ brand: 'base', page: 'home', since: day, until: day });
    expect(whole).toMatchObject({ since: `${day}T00:00:00.000Z`, until: iso(DAY - (T % DAY)) });
  });

  it('reads the last 30 days by default', async () => {
    const recent = await rows({ brand: 'base', page: 'home' });
    // g9's impression, 45 days old, is out; every other is in.
    expect(row(recent, 'popular').total.impressions).toBe(6);
    const wider = await rows({ brand: 'base', page: 'home', since: new Date(Date.now() - 50 * DAY).toISOString() });
    expect(row(wider, 'popular').total.impressions).toBe(7);
  });

  it('maps group and category pages to their addresses', async () => {
    const sports = await rows({ brand: 'base', page: 'sports', ...AROUND });
    expect(sports.paths).toEqual(['/category/sports', '/category/sports/']);
    expect(sports.rows.map((r) => [r.rowId, r.total.impressions])).toEqual([['sports-row', 1]]);
    const nfl = await rows({ brand: 'base', page: 'nfl', ...AROUND });
    expect(row(nfl, 'popular').total.impressions).toBe(1);
  });

  it('answers the most seen rows when a page has more than it answers, and says how many are left out', async () => {
    const nba = await rows({ brand: 'base', page: 'nba', ...AROUND });
    expect(nba.rows).toHaveLength(MAX_ROW_RESULTS);
    expect(nba.rowsLeftOut).toBe(2);
    const left = [`crowd-row-${MAX_ROW_RESULTS}`, `crowd-row-${MAX_ROW_RESULTS + 1}`];
    expect(nba.rows.filter((r) => left.includes(r.rowId))).toEqual([]);
    expect(nba.rows.every((r) => r.total.impressions === 2 && r.total.viewers === 2)).toBe(true);
  });

  it.each([
    ['no brand', { page: 'home' }, /brand is required/],
    ['a malformed brand', { brand: 'Base!', page: 'home' }, /brand must be a brand id/],
    [
      'an unknown brand',
      { brand: 'bse', page: 'home' },
      /No brand "bse" \(brands: base, encore\)\. Did you mean "base"\?/,
    ],
    ['no page', { brand: 'base' }, /page is required/],
    ['an unknown page', { brand: 'base', page: 'nfll' }, /No page "nfll".*Did you mean "nfl"\?/],
    ['a since that is no date', { brand: 'base', page: 'home', since: 'yesterday' }, /since must be an ISO date/],
    ['a day that does not exist', { brand: 'base', page: 'home', since: '2026-02-30' }, /since must be an ISO date/],
    ['an until that is no date', { brand: 'base', page: 'home', until: '2026-11-01T25:00Z' }, /until must be/],
    [
      'an until before since',
      { brand: 'base', page: 'home', since: '2026-11-02', until: '2026-11-01' },
      /until must be after since/,
    ],
    ['a since after now', { brand: 'base', page: 'home', since: '2999-01-01' }, /must be before until .*now/],
  ])('answers %s with a 400 naming it', async (_what, query, message) => {
    const res = await request(app).get('/api/studio/rows').query(query).set('X-Studio-Key', STUDIO_KEY);
    expect(res.status).toBe(400);
    const error = res.body.error as { message: string; details?: { message: string }[] };
    expect([error.message, ...(error.details ?? []).map((d) => d.message)].join(' | ')).toMatch(message);
  });

  it('asks for the studio key', async () => {
    const res = await request(app).get('/api/studio/rows').query({ brand: 'base', page: 'home' });
    expect(res.status).toBe(401);
  });
});
