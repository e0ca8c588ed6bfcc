import { readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExperimentResults } from '../../shared/schemas/experiment-results.js';
import { EventLog, type EventRecord } from '../analytics/event-log.js';
import type { FlagPayload } from '../flags/flags-file.js';
import { migrate } from '../store/migrations.js';
import { openPostgres } from '../store/postgres-sql.js';
import type { Sql } from '../store/sql.js';
import { HOME_EXPERIMENT, seededGuestIds, seededUnit } from '../test/experiment-simulation.js';
import { createDatabase, havePostgres, startPostgres, type Database, type PostgresCluster } from '../test/postgres.js';
import { ExperimentReadout, experimentDefinitions } from './readout.js';
import { relativeLift, revenuePerUserMoments } from './statistics.js';

/**
 * docs/growthbook.md's SQL, as GrowthBook runs it. GrowthBook never runs an assignment or metric query as it is:
 * it wraps them (packages/back-end/src/integrations/SqlIntegration.ts, `getExperimentUnitsQuery` and the metric
 * analysis around it) into one query per metric that keeps each unit's first exposure in the analysis window, puts
 * a unit seen in several variations in `__multiple__` (or, with the first-exposure rule of its bandits, in the
 * variation of its first exposure, read to the second), and aggregates the metric's rows from that first exposure
 * to the end of the analysis: `1` per converted unit for a binomial metric, the sum of `value` otherwise. Per
 * variation it returns the units, and the sum and sum of squares of their values.
 */
function growthbookAnalysis(
  assignmentSql: string,
  metricSql: string,
  metric: 'binomial' | 'revenue',
  units: 'multiple-apart' | 'first-exposure',
): string {
  const variation =
    units === 'first-exposure'
      ? `substring(min(concat(to_char(timestamp AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS'), variation)), 20)`
      : `CASE WHEN count(DISTINCT variation) > 1 THEN '__multiple__' ELSE max(variation) END`;
  return `
    WITH __rawExperiment AS (
      ${assignmentSql}
    ),
    __experimentExposures AS (
      SELECT anonymous_id, variation_id AS variation, timestamp
      FROM __rawExperiment
      WHERE experiment_id = $1 AND timestamp >= $2::timestamptz AND timestamp <= $3::timestamptz
    ),
    __experimentUnits AS (
      SELECT anonymous_id, ${variation} AS variation, min(timestamp) AS first_exposure_timestamp
      FROM __experimentExposures
      GROUP BY anonymous_id
    ),
    __metric AS (
      ${metricSql}
    ),
    __userMetric AS (
      SELECT u.anonymous_id, ${metric === 'binomial' ? 'max(1)' : 'sum(m.value)'} AS value
      FROM __experimentUnits u
      JOIN __metric m ON m.anonymous_id = u.anonymous_id
      WHERE m.timestamp >= u.first_exposure_timestamp AND m.timestamp <= $3::timestamptz
      GROUP BY u.anonymous_id
    )
    SELECT u.variation,
           count(*) AS users,
           count(um.anonymous_id) AS converted,
           coalesce(sum(um.value), 0) AS main_sum,
           coalesce(sum(um.value * um.value), 0) AS main_sum_squares
    FROM __experimentUnits u
    LEFT JOIN __userMetric um ON um.anonymous_id = u.anonymous_id
    GROUP BY u.variation`;
}

/** The ```sql blocks of docs/growthbook.md, keyed by the comment on their first line. */
function docsSql(): Record<string, string> {
  const text = readFileSync(path.resolve('docs/growthbook.md'), 'utf8');
  const blocks: Record<string, string> = {};
  for (const [, body] of text.matchAll(/```sql\n([\s\S]*?)```/g)) {
    const title = /^-- (.+)\n/.exec(body!)?.[1];
    if (title) blocks[title.trim()] = body!.trim();
  }
  return blocks;
}

const ROLE_BLOCK = 'Read-only role for GrowthBook';
const ASSIGNMENT_BLOCK = 'Experiment assignment query: anonymous_id';
const PURCHASED_BLOCK = 'Metric: Purchased (binomial)';
const REVENUE_BLOCK = 'Metric: Revenue (revenue)';
const ROLE_PASSWORD = 'growthbook-test-password';
const FLAGS = JSON.parse(readFileSync(path.resolve('segments/flags.json'), 'utf8')) as FlagPayload;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const SEED = 7;
/** Seeded guests on top of the hand-made ones. */
const GUESTS = 400;
/** Well inside the event retention, which the event log sweeps after writing. */
const START = new Date(Date.now() - 20 * DAY);

/**
 * The events of the test: hand-made guests for each case (a purchase before the exposure, one at the very instant
 * of it, repeated exposures, two variations, another experiment, a purchase with no exposure), then seeded ones.
 * Known: the guests exposed to two variations of the home layout.
 */
function events(): { records: EventRecord[]; twoVariations: number } {
  const records: EventRecord[] = [];
  let n = 0;
  const at = (ms: number) => new Date(START.getTime() + ms);
  const exposure = (guest: string, variation: string, when: number, experiment = HOME_EXPERIMENT) =>
    records.push({
      name: 'experiment_viewed',
      at: at(when),
      guest,
      brand: n % 3 === 0 ? 'base' : 'encore',
      device: n % 4 === 0 ? 'mobile' : 'desktop',
      page: '/',
      pageView: `pv-${n}`,
      experimentId: experiment,
      variationId: variation,
      once: `x:${n++}`,
    });
  const purchase = (guest: string, when: number, dollars: number) =>
    records.push({
      name: 'purchase',
      at: at(when),
      guest,
      brand: 'base',
      device: 'desktop',
      page: '/checkout',
      orderId: `order-${n}`,
      revenue: dollars,
      once: `o:${n++}`,
    });
  const ids = seededGuestIds(SEED);
  const [bought, boughtFirst, twice, sameInstant, both, elsewhere, never] = Array.from({ length: 7 }, ids);
  exposure(bought!, '0', DAY);
  purchase(bought!, DAY + HOUR, 50);
  purchase(boughtFirst!, DAY - HOUR, 30);
  exposure(boughtFirst!, '1', DAY);
  exposure(twice!, '1', DAY);
  purchase(twice!, DAY + HOUR, 20);
  exposure(twice!, '1', DAY + 2 * HOUR);
  purchase(twice!, DAY + 3 * HOUR, 25.5);
  exposure(sameInstant!, '0', 2 * DAY);
  purchase(sameInstant!, 2 * DAY, 99.99);
  exposure(both!, '0', DAY);
  exposure(both!, '1', DAY + 5 * HOUR);
  purchase(both!, DAY + 6 * HOUR, 75);
  exposure(elsewhere!, '1', DAY, 'other-test');
  purchase(elsewhere!, DAY + HOUR, 10);
  purchase(never!, DAY, 40);
  let twoVariations = 1;
  for (let i = 0; i < GUESTS; i++) {
    const guest = ids();
    const draw = (what: string) => seededUnit(SEED, `${what}:${guest}`);
    const variation = draw('variation') < 0.5 ? '0' : '1';
    const first = draw('first') * 10 * DAY;
    const times = 1 + Math.floor(draw('times') * 3);
    for (let k = 0; k < times; k++) exposure(guest, variation, first + k * draw(`gap${k}`) * DAY);
    if (draw('switch') < 0.03) {
      exposure(guest, variation === '0' ? '1' : '0', first + 4 * DAY);
      twoVariations++;
    }
    const orders = draw('buys') < 0.35 ? 1 + Math.floor(draw('orders') * 2) : 0;
    for (let k = 0; k < orders; k++)
      purchase(guest, first + (draw(`when${k}`) * 6 - 2) * DAY, Math.round(1_000 + draw(`cents${k}`) * 39_000) / 100);
  }
  return { records, twoVariations };
}

interface GrowthbookRow extends Record<string, unknown> {
  variation: string;
  users: string;
  converted: string;
  main_sum: string;
  main_sum_squares: string;
}

describe.skipIf(!havePostgres())('the GrowthBook SQL of docs/growthbook.md on PostgreSQL', () => {
  let cluster: PostgresCluster | undefined;
  let db: Database | undefined;
  let sql: Sql | undefined;
  let asGrowthbook: pg.Client | undefined;
  let twoVariations = 0;
  const blocks = docsSql();
  const block = (title: string) => {
    const found = blocks[title];
    if (!found) throw new Error(`docs/growthbook.md has no sql block starting "-- ${title}"`);
    return found;
  };
  const readout = (since?: Date) =>
    new ExperimentReadout(sql!, () => experimentDefinitions(FLAGS.features)).results(HOME_EXPERIMENT, since);

  beforeAll(async () => {
    cluster = await startPostgres();
    db = await createDatabase(cluster.url);
    sql = await openPostgres(db.url);
    await migrate(sql);
    const log = new EventLog(sql);
    const made = events();
    twoVariations = made.twoVariations;
    log.record(...made.records);
    await log.close();
    expect(log.stats()).toMatchObject({ written: made.records.length, dropped: 0 });
    // The statistics autovacuum keeps on a live database: without them the planner takes the new table for empty
    // and joins GrowthBook's per-guest metric back to the guests in a nested loop over every pair.
    await sql.query('ANALYZE analytics_events');
    const database = new URL(db.url).pathname.slice(1);
    const grants = block(ROLE_BLOCK).replaceAll('<database>', database).replaceAll('<password>', ROLE_PASSWORD);
    for (const statement of grants.split(';').map((s) => s.trim()))
      if (statement.replace(/--.*$/gm, '').trim()) await sql.query(statement);
    const url = new URL(db.url);
    url.username = 'growthbook';
    url.password = ROLE_PASSWORD;
    asGrowthbook = new pg.Client({ connectionString: url.toString() });
    await asGrowthbook.connect();
  }, 120_000);

  afterAll(async () => {
    await asGrowthbook?.end();
    await sql?.close();
    await db?.drop();
    cluster?.stop();
  });

  /** GrowthBook's analysis of one metric, run as the read-only role, by variation. */
  async function analysis(
    metric: 'binomial' | 'revenue',
    units: 'multiple-apart' | 'first-exposure',
    since = new Date(0),
  ): Promise<Map<string, { users: number; converted: number; sum: number; sumSquares: number }>> {
    const metricSql = block(metric === 'binomial' ? PURCHASED_BLOCK : REVENUE_BLOCK);
    const { rows } = await asGrowthbook!.query<GrowthbookRow>(
      growthbookAnalysis(block(ASSIGNMENT_BLOCK), metricSql, metric, units),
      [HOME_EXPERIMENT, since.toISOString(), new Date(Date.now() + DAY).toISOString()],
    );
    return new Map(
      rows.map((r) => [
        r.variation,
        {
          users: Number(r.users),
          converted: Number(r.converted),
          sum: Number(r.main_sum),
          sumSquares: Number(r.main_sum_squares),
        },
      ]),
    );
  }

  /** Every variation's users, purchasers, revenue and revenue lift as the readout and as GrowthBook compute them. */
  async function bothSides(since?: Date) {
    const results: ExperimentResults = await readout(since);
    const purchased = await analysis('binomial', 'first-exposure', since);
    const revenue = await analysis('revenue', 'first-exposure', since);
    const control = revenue.get('0')!;
    const growthbook = results.variations.map((v) => {
      const money = revenue.get(v.id)!;
      const lift = relativeLift(
        revenuePerUserMoments(control.users, control.sum, control.sumSquares),
        revenuePerUserMoments(money.users, money.sum, money.sumSquares),
      );
      return {
        id: v.id,
        users: purchased.get(v.id)!.users,
        purchasers: purchased.get(v.id)!.converted,
        revenue: Math.round(money.sum * 100) / 100,
        revenueLift: v.id === '0' || !lift ? null : Number(lift.lift.toFixed(6)),
      };
    });
    const ours = results.variations.map((v) => ({
      id: v.id,
      users: v.users,
      purchasers: v.purchasers,
      revenue: v.revenue,
      revenueLift: v.revenueLift?.relative ?? null,
    }));
    return { ours, growthbook, results };
  }

  it('finds the four blocks in docs/growthbook.md', () => {
    expect(Object.keys(blocks)).toEqual([ROLE_BLOCK, ASSIGNMENT_BLOCK, PURCHASED_BLOCK, REVENUE_BLOCK]);
  });

  it('lets the read-only role read both views and refuses it the table under them and any write', async () => {
    const viewed = await asGrowthbook!.query('SELECT count(*) AS n FROM experiment_viewed');
    expect(Number(viewed.rows[0].n)).toBeGreaterThan(GUESTS);
    await expect(asGrowthbook!.query('SELECT count(*) FROM analytics_events')).rejects.toMatchObject({
      code: '42501',
    });
    await expect(asGrowthbook!.query(`DELETE FROM purchases WHERE order_id = 'order-1'`)).rejects.toMatchObject({
      code: '42501',
    });
  });

  it('counts per variation the users, purchasers and revenue the readout counts (first-exposure rule)', async () => {
    const { ours, growthbook, results } = await bothSides();
    expect(growthbook).toEqual(ours);
    expect(results.variations.every((v) => v.users > 100 && v.purchasers > 20)).toBe(true);
  });

  it('agrees again from a start date that leaves earlier exposures out', async () => {
    const since = new Date(START.getTime() + 5 * DAY);
    const { ours, growthbook, results } = await bothSides(since);
    expect(growthbook).toEqual(ours);
    const all = await readout();
    expect(results.variations[0]!.users).toBeLessThan(all.variations[0]!.users);
  });

  it('sets apart as __multiple__ the guests the readout counts as multiple exposures', async () => {
    const apart = await analysis('binomial', 'multiple-apart');
    const first = await analysis('binomial', 'first-exposure');
    const results = await readout();
    expect(apart.get('__multiple__')?.users).toBe(twoVariations);
    expect(results.multipleExposures).toBe(twoVariations);
    const total = (m: Map<string, { users: number }>) => [...m.values()].reduce((s, v) => s + v.users, 0);
    expect(total(apart)).toBe(total(first));
    for (const id of ['0', '1']) expect(apart.get(id)!.users).toBeLessThan(first.get(id)!.users);
  });
});
