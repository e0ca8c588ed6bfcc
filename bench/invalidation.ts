/**
 * What invalidation holds the event loop for when the live catalog applies an import chunk
 * (`node --import tsx bench/invalidation.ts [--events N] [--rows 4000,40000] [--rounds R] [--modes old,new]`).
 *
 * In process, as the server wires it: the embedded engine behind the result cache, the live catalog over an
 * in-memory store, the app's layout answers and fast lane. For each target of cached layout rows, layout pages are
 * asked at distinct places (the home page and a few category pages per 0.1° cell) until the row cache holds about
 * that many rows (its bound raised to fit), then a chunk of 250 changed events is written through the live catalog,
 * once per mode in alternation, the rows refilled before each:
 *   - `old`: everything dropped at once, in the turn that applied the chunk (the former `invalidateCaches`, over
 *     `LayoutService.invalidate`);
 *   - `new`: the `Invalidator`: the engine's results expired in that turn, the stale rows searched for and dropped
 *     in slices.
 * Reported per mode (medians over the rounds): the longest single hold of the loop by invalidation (wall time, and
 * whether a garbage collection fell in it), the most CPU time one hold used (what a busy machine cannot stretch),
 * the total invalidation time per chunk, the time from the write until every stale row was gone, the rows dropped.
 * `BENCH_SLICES=1` prints each round's longest holds with their units of work.
 */
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { generateCatalog } from '../server/catalog/generate/generate-catalog.js';
import { loadCatalog } from '../server/catalog/load-catalog.js';
import { parseEnv } from '../server/config/env.js';
import { collectionTag } from '../server/http/fast-lane.js';
import { LayoutService } from '../server/layout/layout-service.js';
import { documentsOf, entityTagsOf, Invalidator, type SliceReport } from '../server/live-catalog/invalidation.js';
import { ChangeLog } from '../server/live-catalog/change-log.js';
import { LiveCatalog, type AppliedChange } from '../server/live-catalog/live-catalog.js';
import { CachedEngine } from '../server/search/cached-engine.js';
import { EmbeddedCatalog } from '../server/search/embedded/embedded-catalog.js';
import { EmbeddedEngine } from '../server/search/embedded/embedded-engine.js';
import { SearchService } from '../server/search/search-service.js';
import { SegmentRepository } from '../server/segments/segment-repository.js';
import { migrate } from '../server/store/migrations.js';
import { openPglite } from '../server/store/pglite-sql.js';
import { testAppWithSegments } from '../server/test/test-app.js';
import { percentile } from './stats.js';

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '20000' },
    rows: { type: 'string', default: '4000,40000' },
    rounds: { type: 'string', default: '5' },
    chunk: { type: 'string', default: '250' },
    modes: { type: 'string', default: 'old,new' },
  },
});
const EVENTS = Number(values.events);
const TARGETS = values.rows.split(',').map(Number);
const ROUNDS = Number(values.rounds);
const CHUNK = Number(values.chunk);
const MODES = values.modes.split(',') as Mode[];
/** Pages asked at each place: the home page and these category pages. */
const CATEGORIES = ['concerts', 'sports', 'theater'];
type Mode = 'old' | 'new';

const logger = pino({ level: 'silent' });
const dir = path.resolve(`bench/out/invalidation-${EVENTS}`);
if (!existsSync(path.join(dir, 'manifest.json'))) {
  console.log(`generating ${EVENTS} events in ${dir}…`);
  await generateCatalog({ events: EVENTS, seed: 36, start: new Date().toISOString().slice(0, 10), outDir: dir });
}
const catalog = await loadCatalog(dir);
const embedded = await EmbeddedEngine.build(catalog.collections);
const search = new SearchService();
const engine = new CachedEngine(embedded);
search.set(engine, new EmbeddedCatalog(embedded));
const sql = await openPglite(null);
await migrate(sql);

let mode: Mode = 'old';
/** Each hold of the loop by invalidation in the current round, in ms, and when the last stale row went. */
/** Each hold of the loop by invalidation in the current round: when it ended and how long it was, in ms. */
let holds: { end: number; ms: number; cpuMs: number; units?: number; lastStep?: number }[] = [];
/** Garbage collections in the current round: a hold with one in it was partly the collector's. */
let pauses: { start: number; end: number }[] = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) pauses.push({ start: e.startTime, end: e.startTime + e.duration });
}).observe({ entryTypes: ['gc'] });
let done: Promise<void> = Promise.resolve();
const invalidator = new Invalidator(() => ({ engine, layout, fastLane: made.app.fastLane }), {
  onSlice: (report: SliceReport) => void holds.push({ end: performance.now(), ...report }),
});

const segments = new SegmentRepository(path.resolve('segments'), logger);
const layout = new LayoutService({
  segments,
  engine: () => search.engine,
  logger,
  rowDeadlineMs: 10_000,
  rowCacheBytes: 4 * 1024 ** 3,
});
const live = new LiveCatalog({
  log: new ChangeLog(sql),
  engine: () => search.catalog,
  onApplied: (changes) => {
    if (mode === 'old') {
      const began = performance.now();
      const cpu = process.cpuUsage();
      invalidateAtOnce(changes);
      const { user, system } = process.cpuUsage(cpu);
      holds.push({ end: performance.now(), ms: performance.now() - began, cpuMs: (user + system) / 1000 });
    } else {
      done = invalidator.applied(changes);
    }
  },
  logger,
});
live.attach(catalog.manifest.generatedAt);
const made = await testAppWithSegments({
  env: parseEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }),
  search,
  catalog: live,
  sql,
  layout,
  segments,
});
const fastLane = made.app.fastLane;

/** The former invalidation, all in the turn that applied the chunk. */
function invalidateAtOnce(changes: readonly AppliedChange[]) {
  for (const collection of new Set(changes.map((c) => c.collection))) {
    engine.invalidate(collection);
    fastLane.forget(collectionTag(collection));
  }
  for (const tag of new Set(changes.flatMap(entityTagsOf))) fastLane.forget(tag);
  layout.changed(changes.flatMap(documentsOf));
  layout.dropStale(Infinity);
}

const server = createServer(made.app).listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

/** Distinct 0.1° cells over the contiguous United States, in a fixed scattered order. */
function places(count: number): [number, number][] {
  const rows = 240;
  const cols = 570;
  const out: [number, number][] = [];
  for (let k = 0; k < count && k < rows * cols; k++) {
    const cell = (k * 7_919) % (rows * cols);
    out.push([
      Number((25 + Math.floor(cell / cols) / 10 + 0.02).toFixed(2)),
      Number((-124 + (cell % cols) / 10 + 0.02).toFixed(2)),
    ]);
  }
  return out;
}

const pathsAt = ([lat, lng]: [number, number]) => [
  `/api/layout/home?lat=${lat}&lng=${lng}`,
  ...CATEGORIES.map((c) => `/api/layout/category/${c}?lat=${lat}&lng=${lng}`),
];

/** Asks every page at the places, 8 at a time. */
async function ask(at: [number, number][]): Promise<void> {
  const paths = at.flatMap(pathsAt);
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < paths.length) {
        const res = await fetch(base + paths[next++]!);
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`${res.status} from ${paths[next - 1]}`);
      }
    }),
  );
}

/** Places asked until the row cache holds about `target` rows. */
async function fill(target: number): Promise<[number, number][]> {
  const all = places(100_000);
  let used = 0;
  while (layout.cachedRows < target && used < all.length) {
    const step = Math.max(8, Math.ceil(((target - layout.cachedRows) / 40) * 0.8));
    await ask(all.slice(used, used + step));
    used += step;
  }
  return all.slice(0, used);
}

const events = catalog.collections.Event;
let edition = 0;
/** A chunk of changed events: a name and demand figures moved, as an import or the demand recount does. */
function chunk(): { text: string; value: unknown }[] {
  edition++;
  return Array.from({ length: CHUNK }, (_, i) => {
    const event = events[(edition * 7_717 + i * 131) % events.length]!;
    const value = {
      ...event,
      event_name: `${event.event_name.replace(/ \(\d+\)$/, '')} (${edition})`,
      event_orders_d1: edition,
    };
    return { text: JSON.stringify(value), value };
  });
}

interface Round {
  longest: number;
  /** The longest hold with no garbage collection in it. */
  longestNoGc: number;
  /** The most CPU time one hold used (the process's: a collector's threads count too). */
  longestCpu: number;
  /** Holds over 10 ms. */
  over10: number;
  total: number;
  slices: number;
  untilGone: number;
  dropped: number;
}

async function round(m: Mode): Promise<Round> {
  mode = m;
  holds = [];
  pauses = [];
  const before = layout.cachedRows;
  const began = performance.now();
  await live.write('Event', 'upsert', chunk());
  await done;
  const untilGone = performance.now() - began;
  // The observer is told of a collection a moment after it: wait for it before reading `pauses`.
  await new Promise((resolve) => setTimeout(resolve, 50));
  const collected = (h: { end: number; ms: number }) => pauses.some((p) => p.start < h.end && p.end > h.end - h.ms);
  const ms = holds.map((h) => h.ms);
  if (process.env.BENCH_SLICES) console.log([...holds].sort((a, b) => b.ms - a.ms).slice(0, 6));
  return {
    longest: Math.max(...ms),
    longestNoGc: Math.max(0, ...holds.filter((h) => !collected(h)).map((h) => h.ms)),
    longestCpu: Math.max(...holds.map((h) => h.cpuMs)),
    over10: ms.filter((x) => x > 10).length,
    total: ms.reduce((a, b) => a + b, 0),
    slices: holds.length,
    untilGone,
    dropped: before - layout.cachedRows,
  };
}

const median = (xs: number[]) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    50,
  );
const f = (n: number) => n.toFixed(1);
for (const target of TARGETS) {
  const at = await fill(target);
  console.log(`\n${layout.cachedRows} cached rows (${at.length} places × ${1 + CATEGORIES.length} pages)`);
  const results = new Map<Mode, Round[]>(MODES.map((m) => [m, []]));
  for (let r = 0; r < ROUNDS; r++) {
    for (const m of MODES) {
      await ask(at);
      const result = await round(m);
      results.get(m)!.push(result);
      console.log(
        `  ${m} round ${r + 1}: longest hold ${f(result.longest)} ms (${f(result.longestNoGc)} ms without a GC in ` +
          `it; most CPU in one ${f(result.longestCpu)} ms; ${result.over10} over 10 ms), ` +
          `total ${f(result.total)} ms in ${result.slices} slice(s), ` +
          `stale rows gone after ${f(result.untilGone)} ms, ${result.dropped} rows dropped`,
      );
    }
  }
  for (const m of MODES) {
    const rs = results.get(m)!;
    console.log(
      `  ${m}: median longest hold ${f(median(rs.map((x) => x.longest)))} ms ` +
        `(${f(median(rs.map((x) => x.longestNoGc)))} ms without a GC in it, ` +
        `most CPU in one ${f(median(rs.map((x) => x.longestCpu)))} ms), ` +
        `total ${f(median(rs.map((x) => x.total)))} ms ` +
        `in ${median(rs.map((x) => x.slices))} slice(s), gone after ${f(median(rs.map((x) => x.untilGone)))} ms, ` +
        `${median(rs.map((x) => x.dropped))} rows dropped`,
    );
  }
}
server.close();
await sql.close();
