/**
 * The catalog change log under a day of event page views (`node --import tsx bench/change-log.ts`).
 *
 * Views arrive at 50 a second, spread over the catalog's events as page views are (a few events draw most of them:
 * Zipf, s = 1). Every demand period (5 s, `DEMAND_INTERVAL_MS`) each event viewed in it gets its new view count
 * written through the live catalog, as the demand signals write it (`event_mpv_d1`, one update per viewed event;
 * the counts are kept in memory here, the writes are the real ones). Two nodes share the log, each with its own
 * engine, applying it every period; time is a fake clock, so a simulated day takes minutes.
 *
 *   - before (the log as it was: demand written as any change, never pruned): the log's rows after
 *     `--before-hours` (1 by default; rows grow linearly, so a day is that times 24);
 *   - after (pruned every 30 s behind the nodes, demand replacing the document's previous demand change): the
 *     log's rows at their largest over `--hours` (24), and the folded rows. Halfway through, a third node stops for
 *     10 minutes: for the first 5 (`NODE_STALE_MS`) it holds the log back, then it no longer does; back, it catches
 *     up from the folded changes and must end with the same documents as the others.
 *
 * Options: --hours 24, --before-hours 1, --events 2000 (the generated catalog), --only before|after, --store:
 *
 *   - pglite (the default): an in-memory PGlite per run;
 *   - postgres: a fresh database per run (dropped after it) on the PostgreSQL server `DATABASE_URL` names, or
 *     without it on a throwaway cluster started as the tests start one (`scripts/postgres.mjs`) and stopped at the
 *     end, also when the run fails or is interrupted. The nodes open it through the server's own adapter.
 *
 * Each run also says how large the bench process grew (its peak resident memory), and each simulated hour (on
 * stderr) how large the log, the database and its write-ahead log are.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { EventDocument } from '../shared/schemas/documents.js';
import { DEMAND_INTERVAL_MS } from '../server/live-catalog/demand.js';
import { NODE_STALE_MS, PRUNE_INTERVAL_MS } from '../server/live-catalog/live-catalog.js';
import { migrate } from '../server/store/migrations.js';
import { openPglite } from '../server/store/pglite-sql.js';
import { openPostgres } from '../server/store/postgres-sql.js';
import type { Sql } from '../server/store/sql.js';
import { catalogFixture, type CatalogFixture } from '../server/test/catalog-fixture.js';
import { logNodeOver } from '../server/test/live-catalog.js';
import { createDatabase, startPostgres, type PostgresCluster } from '../server/test/postgres.js';
import { n } from './format.js';

const VIEWS_PER_SECOND = 50;
const HOUR = 3_600_000;
/** The third node's pause in the after run: halfway through it, for this long. */
const PAUSE_MS = 10 * 60_000;

const { values } = parseArgs({
  options: {
    hours: { type: 'string', default: '24' },
    'before-hours': { type: 'string', default: '1' },
    events: { type: 'string', default: '2000' },
    only: { type: 'string' },
    store: { type: 'string', default: 'pglite' },
  },
});
const hours = Number(values.hours);
const beforeHours = Number(values['before-hours']);
const eventCount = Number(values.events);
const STORES = ['pglite', 'postgres'] as const;
const storeKind = STORES.find((k) => k === values.store);
if (!storeKind) {
  console.error(`--store ${values.store}: expected one of ${STORES.join(', ')}`);
  process.exit(2);
}

/** A small seeded generator (mulberry32), so every run views the same events. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Picks event indexes with Zipf weights (s = 1): the first events are viewed most. */
function zipf(count: number, next: () => number): () => number {
  const cumulative: number[] = [];
  let sum = 0;
  for (let i = 0; i < count; i++) cumulative.push((sum += 1 / (i + 1)));
  return () => {
    const x = next() * sum;
    let lo = 0;
    let hi = count - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

const node = (fixture: CatalogFixture, sql: Sql, name: string, clock: { now: number }) =>
  logNodeOver(fixture, sql, name, { clock });

const count = async (sql: Sql, table: string) =>
  Number((await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0]!.n);
/** The table's size in the store, with its indexes and out-of-line values (MiB). */
const mebibytes = async (sql: Sql, table: string) =>
  Number((await sql.query<{ n: string }>(`SELECT pg_total_relation_size('${table}') AS n`))[0]!.n) / 2 ** 20;

/**
 * A line each simulated hour (on stderr): the log's rows, the database's and its write-ahead log's size, and this
 * process's memory, so that growth shows while a long run goes on.
 */
async function progress(sql: Sql, elapsed: number, rows: number): Promise<void> {
  const [size] = await sql.query<{ db: string; listable: boolean }>(
    `SELECT pg_database_size(current_database()) AS db,
       has_function_privilege('pg_ls_waldir()', 'EXECUTE') AS listable`,
  );
  // Listing the write-ahead log takes pg_monitor, which a `DATABASE_URL` user may not have.
  const [listed] = size?.listable
    ? await sql.query<{ wal: string }>('SELECT sum(size) AS wal FROM pg_ls_waldir()')
    : [];
  const wal = listed ? `${n(Number(listed.wal) / 2 ** 20)} MiB` : 'not readable';
  console.error(
    `  [${(elapsed / HOUR).toFixed(0)} h] log ${n(rows)} rows; database ${n(Number(size?.db) / 2 ** 20)} MiB, ` +
      `write-ahead log ${wal}; this process ` +
      `${n(process.memoryUsage().rss / 2 ** 20)} MiB resident`,
  );
}

interface Outcome {
  hours: number;
  views: number;
  writes: number;
  peakRows: number;
  endRows: number;
  folded: number;
  /** The log's table and the folded one, in the store at the end (MiB). */
  logMib: number;
  foldedMib: number;
  peakWhilePaused?: number;
  peakLive?: number;
  same?: boolean;
  seconds: number;
}

/** Where a run's log lives: a fresh, migrated store per run, gone after `close`. */
interface BenchStore {
  /** What the results call it. */
  describe: string;
  open(): Promise<{ sql: Sql; close(): Promise<void> }>;
}

const pgliteStore: BenchStore = {
  describe: 'in-memory PGlite',
  open: async () => {
    const sql = await openPglite(null);
    await migrate(sql);
    return { sql, close: () => sql.close() };
  },
};

/** A database of its own per run on the server at `adminUrl`, opened as a node opens `DATABASE_URL`. */
async function postgresStore(adminUrl: string, where: string): Promise<BenchStore> {
  const probe = await createDatabase(adminUrl);
  const [row] = await probe.query<{ v: string; nap: string }>(
    "SELECT current_setting('server_version') AS v, current_setting('autovacuum_naptime') AS nap",
  );
  await probe.drop();
  return {
    describe: `PostgreSQL ${row?.v ?? '?'} (${where}; autovacuum_naptime ${row?.nap ?? '?'})`,
    open: async () => {
      const db = await createDatabase(adminUrl);
      const sql = await openPostgres(db.url).catch(async (err: unknown) => {
        await db.drop();
        throw err;
      });
      await migrate(sql);
      return { sql, close: () => sql.close().finally(() => db.drop()) };
    },
  };
}

/**
 * The simulated clock runs about 60 times faster than the wall clock, and autovacuum wakes by the wall clock
 * (every minute by default): at its default it would vacuum the log once an hour of simulated time, and the tables
 * would grow as they never do on a server. Waking every second, it visits the tables about as often per simulated
 * minute as a server's does per real minute.
 */
const AUTOVACUUM_NAPTIME = '1s';

async function keepAutovacuumPace(url: string): Promise<void> {
  const admin = await openPostgres(url, 1);
  try {
    await admin.query(`ALTER SYSTEM SET autovacuum_naptime = '${AUTOVACUUM_NAPTIME}'`);
    await admin.query('SELECT pg_reload_conf()');
  } finally {
    await admin.close();
  }
}

/**
 * A throwaway cluster, stopped by its postmaster's process id when the bench ends: at the end, on failure (the
 * script's own `exit` listener) and on Ctrl-C or SIGTERM, which would otherwise end the process without it.
 */
async function throwawayCluster(): Promise<PostgresCluster> {
  const cluster = await startPostgres();
  await keepAutovacuumPace(cluster.url);
  const stopOn = (signal: NodeJS.Signals, code: number) =>
    process.once(signal, () => {
      cluster.stop();
      process.exit(code);
    });
  stopOn('SIGINT', 130);
  stopOn('SIGTERM', 143);
  return cluster;
}

/** Stops the cluster and says so, by the postmaster's process id, and whether that process is gone. */
function stopCluster(cluster: PostgresCluster): void {
  const pid = cluster.pid();
  cluster.stop();
  const gone = pid === null || !running(pid);
  console.log(`PostgreSQL (postmaster ${pid ?? '?'}) ${gone ? 'stopped' : 'STILL RUNNING'}`);
  if (!gone) process.exitCode = 1;
}

/** Whether the process runs: a stopped postmaster stays a zombie until this process, its parent, reaps it. */
const running = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z';
  } catch {
    return false;
  }
};

async function simulate(
  fixture: CatalogFixture,
  store: BenchStore,
  after: boolean,
  simulatedHours: number,
): Promise<Outcome> {
  const began = performance.now();
  const { sql, close } = await store.open();
  const clock = { now: Date.parse('2030-03-01T00:00:00Z') };
  const nodes = [await node(fixture, sql, 'a', clock), await node(fixture, sql, 'b', clock)];
  const paused = after ? await node(fixture, sql, 'c', clock) : undefined;
  for (const x of [...nodes, ...(paused ? [paused] : [])]) await x.live.sync();
  const events = fixture.catalog.collections.Event as EventDocument[];
  const pick = zipf(events.length, random(36));
  const views = new Map<number, number>();
  const periods = Math.round((simulatedHours * HOUR) / DEMAND_INTERVAL_MS);
  const perPeriod = (VIEWS_PER_SECOND * DEMAND_INTERVAL_MS) / 1000;
  const pruneEvery = PRUNE_INTERVAL_MS / DEMAND_INTERVAL_MS;
  const pauseFrom = (simulatedHours * HOUR) / 2;
  const start = clock.now;
  let writes = 0;
  let peakRows = 0;
  let peakWhilePaused = 0;
  /** The largest the log was while every node applied it (outside the pause). */
  let peakLive = 0;
  for (let period = 1; period <= periods; period++) {
    clock.now += DEMAND_INTERVAL_MS;
    const viewed = new Set<number>();
    for (let i = 0; i < perPeriod; i++) {
      const at = pick();
      views.set(at, (views.get(at) ?? 0) + 1);
      viewed.add(at);
    }
    // The period's demand write: the new figures of every event viewed in it, on the node that claimed the period.
    const updates = [...viewed].map((at) => ({ id: events[at]!.id, event_mpv_d1: views.get(at)! }));
    const outcomes = await nodes[period % 2]!.live.write(
      'Event',
      'update',
      updates.map((u) => ({ text: JSON.stringify(u), value: u })),
      undefined,
      { demand: after },
    );
    writes += outcomes.filter((o) => o.ok).length;
    for (const x of nodes) await x.live.sync();
    const elapsed = clock.now - start;
    const pausing = elapsed > pauseFrom && elapsed <= pauseFrom + PAUSE_MS;
    if (paused && !pausing) await paused.live.sync();
    if (after && period % pruneEvery === 0) await nodes[0]!.live.prune();
    const rows = await count(sql, 'catalog_changes');
    if ((period * DEMAND_INTERVAL_MS) % HOUR === 0) await progress(sql, clock.now - start, rows);
    peakRows = Math.max(peakRows, rows);
    if (pausing) peakWhilePaused = Math.max(peakWhilePaused, rows);
    else peakLive = Math.max(peakLive, rows);
  }
  const outcome: Outcome = {
    hours: simulatedHours,
    views: periods * perPeriod,
    writes,
    peakRows,
    endRows: await count(sql, 'catalog_changes'),
    folded: await count(sql, 'catalog_folded'),
    logMib: await mebibytes(sql, 'catalog_changes'),
    foldedMib: await mebibytes(sql, 'catalog_folded'),
    seconds: 0,
  };
  if (paused) {
    // Every node holds the same documents (the paused one caught up through the folded changes).
    await paused.live.sync();
    outcome.same = events.every(
      (e) =>
        JSON.stringify(paused.embedded.document('Event', e.id)) ===
        JSON.stringify(nodes[0]!.embedded.document('Event', e.id)),
    );
    outcome.peakWhilePaused = peakWhilePaused;
    outcome.peakLive = peakLive;
  }
  const memory = process.memoryUsage();
  console.log(
    `  (${after ? 'after' : 'before'}: this process ${n(memory.rss / 2 ** 20)} MiB resident, at most ` +
      `${n(process.resourceUsage().maxRSS / 2 ** 10)} MiB so far; ${n(memory.heapUsed / 2 ** 20)} MiB of ` +
      `JavaScript heap, the rest mostly the embedded store's memory when it is PGlite)`,
  );
  await close();
  outcome.seconds = (performance.now() - began) / 1000;
  return outcome;
}

const cluster = storeKind === 'postgres' && !process.env.DATABASE_URL ? await throwawayCluster() : undefined;
const fixture = await catalogFixture(eventCount, 36);
try {
  const store =
    storeKind === 'pglite'
      ? pgliteStore
      : cluster
        ? await postgresStore(cluster.url, 'a throwaway cluster, scripts/postgres.mjs')
        : await postgresStore(process.env.DATABASE_URL!, '`DATABASE_URL`');
  console.log(
    `catalog: ${n(eventCount)} events; ${VIEWS_PER_SECOND} views/s; demand period ${DEMAND_INTERVAL_MS / 1000} s; ` +
      `pruned every ${PRUNE_INTERVAL_MS / 1000} s; a node stale after ${NODE_STALE_MS / 60_000} min; ` +
      `the log on ${store.describe}`,
  );
  if (values.only !== 'after') {
    const before = await simulate(fixture, store, false, beforeHours);
    const perDay = (before.endRows / before.hours) * 24;
    console.log(
      `before: ${n(before.views)} views in ${before.hours} h, ${n(before.writes)} demand writes: ` +
        `${n(before.endRows)} log rows, ${before.logMib.toFixed(1)} MiB (growing: about ${n(perDay)} rows a ` +
        `day) [${before.seconds.toFixed(0)} s]`,
    );
  }
  if (values.only !== 'before') {
    const after = await simulate(fixture, store, true, hours);
    console.log(
      `after: ${n(after.views)} views in ${after.hours} h, ${n(after.writes)} demand writes: log at most ` +
        `${n(after.peakRows)} rows (${n(after.peakLive ?? 0)} while every node applied it, ` +
        `${n(after.peakWhilePaused ?? 0)} while a node was paused), ` +
        `${n(after.endRows)} at the end (${after.logMib.toFixed(1)} MiB); ${n(after.folded)} folded rows, one ` +
        `per document changed (${after.foldedMib.toFixed(1)} MiB); ` +
        `the paused node ${after.same ? 'ends with the same documents' : 'DIFFERS'} [${after.seconds.toFixed(0)} s]`,
    );
    if (!after.same) process.exitCode = 1;
  }
} finally {
  await fixture.cleanup();
  if (cluster) stopCluster(cluster);
}
