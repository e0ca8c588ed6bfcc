/**
 * `npm run bench`: HTTP load over loopback against the real server (one child process per catalog size)
 * next to a bare node:http ceiling (another child), Lighthouse on three pages and the client build sizes,
 * printed as Markdown and written into bench/RESULTS.md between the bench:load markers. The endpoints: the
 * layout API (cached, as the storefront asks, cold), the server-rendered home page (cached, rendered at a new
 * address each time, fully cold with a new shopper place each time), category, suggest and search. Lighthouse
 * runs its four categories and the run prints every failing audit with its items (elements, resources,
 * messages); each run's whole report goes to bench/out/lighthouse/.
 *
 *   npm run bench                         20,000 events; about 6 minutes (--lighthouse-runs 3: about 7)
 *   npm run bench -- --sizes 20000,200000 any sizes, comma-separated (this pair: about 9 minutes)
 *   npm run bench -- --scale              20,000, 200,000 and 1,000,000 events: each catalog is generated once
 *                                         into bench/out/data-N (about 30 s at a million); the server peaked at
 *                                         2.3 GiB RSS at 200,000 events, so a million may outgrow Node's default
 *                                         heap, and cold layouts there leave minutes of queued work between runs;
 *                                         expect 20–40 minutes (the time limit stops it)
 *   npm run bench -- --engine             also the embedded engine and text index benchmarks (printed only)
 *   npm run bench -- --cold               only cold layouts at 20,000, 200,000 and 1,000,000 events (bench/cold.ts):
 *                                         time to ready, RSS, one-at-a-time medians, event-loop delay, 50
 *                                         connections against the ceiling; written between the bench:cold markers
 *   npm run bench -- --catalog            only the live catalog at 1,000,000 events (bench/catalog-live.ts; --sizes N
 * for
 *                                         another size): the import command, documents API imports, cached layouts
 *                                         during an import, and how soon an update on one node shows on another;
 *                                         written between the bench:catalog markers
 *   npm run bench -- --faults             only the store fault run (bench/faults.ts): PostgreSQL crashed under a
 *                                         burst of carts and checkouts; written between the bench:faults markers
 *   --rounds 5 --seconds 2 --warmup 3     rounds of measured seconds per endpoint, after one discarded warm-up
 *   --lighthouse-runs 1                   runs per page; the median run (by performance score) is reported
 *   --no-lighthouse --no-write            skip Lighthouse; print without touching RESULTS.md
 *   --time-limit <minutes>                hard stop; by default 10 minutes plus 3 per size plus 20 per million events
 */
import { spawnSync } from 'node:child_process';
import { createReadStream, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import {
  CEILING_BODY,
  httpGet,
  rssMiB,
  rssSampler,
  settle,
  SETTLE_MAX_MS,
  start,
  startCeiling,
  startStorefront,
  stop,
  stopAll,
} from './children.js';
import { lighthousePages, type FailingAudit, type PageScore } from './lighthouse-pages.js';
import {
  DEGRADED_ROW,
  loadInChild,
  rotate,
  sequential,
  summarize,
  usGridPoints,
  type ChildLoadOptions,
  type LoadResult,
  type LoadSummary,
} from './load.js';
import { gitState, machineLine, replaceSection } from './results-file.js';
import { runColdBench } from './cold.js';
import { runCatalogBench } from './catalog-live.js';
import { runFaultBench } from './faults.js';
import { CATALOG_GENERATOR_VERSION } from '../server/catalog/manifest.js';
import { hostilePaths } from '../server/test/hostile-input.js';

const { values } = parseArgs({
  options: {
    scale: { type: 'boolean', default: false },
    sizes: { type: 'string' },
    rounds: { type: 'string', default: '5' },
    seconds: { type: 'string', default: '2' },
    warmup: { type: 'string', default: '3' },
    'lighthouse-runs': { type: 'string', default: '1' },
    engine: { type: 'boolean', default: false },
    faults: { type: 'boolean', default: false },
    cold: { type: 'boolean', default: false },
    catalog: { type: 'boolean', default: false },
    'no-lighthouse': { type: 'boolean', default: false },
    'no-write': { type: 'boolean', default: false },
    'time-limit': { type: 'string' },
  },
});

const CHROMIUM = '/usr/bin/chromium';
const CONNECTIONS = 50;
const HIGH_CONNECTIONS = 200;
const COLD_POINTS = 4_000;
const COLD_WARMUP_POINTS = 1_000;
/** The server-rendered home page as a browser asks for it. */
const PAGE_REQUEST_HEADERS = { accept: 'text/html', 'accept-encoding': 'gzip, deflate, br, zstd' };
/** Distinct page addresses (`/?v=<n>`) for the page rendered on each request: far more than a run sends. */
const PAGE_COLD_ADDRESSES = 20_000;
const PAGE_COLD_WARMUP_ADDRESSES = 2_000;
/** Shopper places for the fully cold page: cells of the same grid after those of the cold layout run. */
const PLACE_POINTS = 4_000;
const PLACE_WARMUP_POINTS = 1_000;
const SEQUENTIAL_REQUESTS = 2_000;
const BURST_PATHS = 5_000;
const BURST_SECONDS = 5;
/** Each run's own client warms up on its endpoint first (see load-child.ts). */
const CLIENT_WARMUP_SECONDS = 1;
const UNLIMITED = '100000000';
// Times Square, rounded by the server to one 0.1° cell: every request is the same row-cache key.
const HOME_CACHED = '/api/layout/home?lat=40.758&lng=-73.9855';

const sizes = (values.sizes ?? (values.scale || values.cold ? '20000,200000,1000000' : '20000')).split(',').map((s) => {
  const n = Number(s.trim());
  if (!Number.isInteger(n) || n < 100) throw new Error(`--sizes: "${s}" is not a catalog size`);
  return n;
});
const rounds = Math.round(positive('rounds'));
const seconds = positive('seconds');
const warmupSeconds = Number(values.warmup);
const lighthouseRuns = Math.round(positive('lighthouse-runs'));
const timeLimitMinutes = values['time-limit']
  ? positive('time-limit')
  : 10 + sizes.reduce((m, events) => m + 3 + (20 * events) / 1_000_000, 0);
const command = ['npm run bench', ...(process.argv.length > 2 ? ['--', ...process.argv.slice(2)] : [])].join(' ');

function positive(name: 'rounds' | 'seconds' | 'time-limit' | 'lighthouse-runs'): number {
  const n = Number(values[name]);
  if (!(n > 0)) throw new Error(`--${name} must be a positive number`);
  return n;
}

let stopping = false;
async function bail(reason: string, code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    console.error(`\n${reason}: stopping child processes`);
    await stopAll();
  }
  process.exit(code);
}
process.once('SIGINT', () => void bail('interrupted', 130));
process.once('SIGTERM', () => void bail('terminated', 143));
setTimeout(() => void bail(`time limit of ${timeLimitMinutes} minutes reached`, 1), timeLimitMinutes * 60_000).unref();

const log = (msg: string) => console.error(`[bench ${new Date().toISOString().slice(11, 19)}] ${msg}`);

async function ensureBuild(): Promise<string> {
  if (existsSync('dist/server/main.js') && existsSync('dist/client/index.html')) return 'existing build';
  log('dist/ missing: npm run build');
  const child = start('npm', ['run', 'build']);
  const code = await Promise.race([
    child.exited,
    new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 5 * 60_000).unref()),
  ]);
  if (code !== 0) {
    await stop(child);
    throw new Error(`npm run build failed (${code}):\n${child.tail()}`);
  }
  return 'built by this run';
}

type RowKey =
  | 'healthz'
  | 'homeCached'
  | 'homeShopper'
  | 'homeCached200'
  | 'homeCold'
  | 'pageCached'
  | 'pageCold'
  | 'pageColdPlace'
  | 'category'
  | 'suggest'
  | 'search';

interface ServerRun {
  events: number;
  generated: boolean;
  startupMs: number;
  rssReadyMiB: number;
  rssPeakMiB: number;
  rssEndMiB: number;
  hwmMiB: number;
  rows: { key: RowKey; label: string; result: LoadSummary }[];
  ceiling: LoadResult[];
  suggestOne: Awaited<ReturnType<typeof sequential>>;
  burst: { result: LoadResult; distinct: number; rssBeforeMiB: number; rssAfterMiB: number };
  cold: { distinct: number; degraded: number };
  /** Distinct requests in the lists of the cold runs (each round goes on where the last stopped). */
  coldLists: Partial<Record<RowKey, number>>;
  /** Runs after which the server went on working for over a second, in milliseconds. */
  drains: Record<string, number>;
  lighthouse?: PageScore[];
}

async function catalogOnDisk(dataDir: string, events: number): Promise<boolean> {
  try {
    const manifest = JSON.parse(readFileSync(path.join(dataDir, 'catalog', 'manifest.json'), 'utf8')) as {
      events?: number;
      generator?: number;
    };
    return manifest.events === events && manifest.generator === CATALOG_GENERATOR_VERSION;
  } catch {
    return false;
  }
}

/** The first performers of the catalog: their names typed letter by letter, and whole as searches. */
async function performerNames(dataDir: string, count: number): Promise<string[]> {
  const names: string[] = [];
  const lines = createInterface({
    input: createReadStream(path.join(dataDir, 'catalog', 'Performer.jsonl')),
    crlfDelay: Infinity,
  });
  for await (const line of lines) {
    if (names.length >= count) break;
    if (line.trim()) names.push((JSON.parse(line) as { performer_name: string }).performer_name);
  }
  lines.close();
  return names;
}

/**
 * Before the page runs are measured: the home page must come back as a browser asks for it (200, HTML, rendered
 * with its page data), a repeat must be replayed from the page cache (only a kept page carries an ETag), and a
 * shopper place in the cookie must reach the layout the page is drawn from. Otherwise the rows would measure
 * something else (the app shell, or a render each time), so the run stops here.
 */
async function checkPages(base: string, [lat, lng]: [number, number]): Promise<void> {
  const page = async (what: string, p: string, headers: Record<string, string> = {}, mustInclude?: string) => {
    const r = await httpGet(base + p, 30_000, { ...PAGE_REQUEST_HEADERS, ...headers });
    const type = String(r.headers['content-type'] ?? '');
    const problem =
      r.status !== 200
        ? `answered ${r.status}`
        : !type.startsWith('text/html')
          ? `answered ${type || 'no content type'}, not text/html`
          : !r.body.includes('id="page-data"')
            ? 'has no id="page-data" (not a server-rendered page: the app shell?)'
            : mustInclude && !r.body.includes(mustInclude)
              ? `does not include ${mustInclude}`
              : undefined;
    if (problem)
      throw new Error(
        `GET ${p} (${what}, ` +
          `${JSON.stringify({ ...PAGE_REQUEST_HEADERS, ...headers })}) ${problem}: ${r.body.slice(0, 300)}`,
      );
    return r;
  };
  await page('home page, first request', '/');
  const repeat = await page('home page, repeated', '/');
  if (!repeat.headers.etag)
    throw new Error(
      'GET / repeated came back without an ETag: it was rendered again, not ' +
        'replayed from the page cache, so pageCached would not measure a cached ' +
        'page',
    );
  await page('home page at another address', '/?v=check');
  await page(
    'home page for a shopper place',
    '/',
    { cookie: `shopperLocation=${lat},${lng}` },
    `lat=${lat.toFixed(2)}&lng=${lng.toFixed(2)}`,
  );
}

async function benchSize(events: number, ceilingUrl: string, withLighthouse: boolean): Promise<ServerRun> {
  const dataDir = path.resolve('bench/out', `data-${events}`);
  const generated = !(await catalogOnDisk(dataDir, events));
  log(
    `${events.toLocaleString('en-US')} events: starting the server${generated ? ' (generating the catalog first)' : ''}`,
  );
  const { server, pid, ready } = startStorefront(events, {
    env: {
      RATE_LIMIT_SUGGEST_PER_MINUTE: UNLIMITED,
      RATE_LIMIT_SEARCH_PER_MINUTE: UNLIMITED,
      RATE_LIMIT_SESSIONS_PER_MINUTE: UNLIMITED,
    },
  });
  const sampler = rssSampler(pid, 500);
  try {
    const { base, readyMs } = await ready;
    const startupMs = readyMs;
    const rssReadyMiB = rssMiB(pid);
    log(`ready in ${(startupMs / 1000).toFixed(1)} s, RSS ${rssReadyMiB.toFixed(0)} MiB`);

    const names = await performerNames(dataDir, 40);
    const typed = ['y', 'ya', 'yan', 'yank', 'bos', 'new york', 'tay', 'tayl', 'taylor'];
    const prefixes = [
      ...new Set([...typed, ...names.flatMap((n) => [1, 2, 3, 5, 8].map((k) => n.toLowerCase().slice(0, k)))]),
    ];
    const queries = [
      ...new Set([...names.map((n) => n.toLowerCase()), 'yankees', 'boston', 'new york', 'taylor swift']),
    ];
    const suggestPaths = prefixes.map((q) => `/api/suggest?q=${encodeURIComponent(q)}`);
    const searchPaths = queries.map((q) => `/api/Searches/get?q=${encodeURIComponent(q)}`);
    const pointPath = ([lat, lng]: [number, number]) => `/api/layout/home?lat=${lat}&lng=${lng}`;
    const coldPaths = usGridPoints(COLD_POINTS, COLD_WARMUP_POINTS).map(pointPath);
    const coldWarmupPaths = usGridPoints(COLD_WARMUP_POINTS).map(pointPath);
    // The server-rendered home page: the same page at distinct addresses (each a page the cache does not hold,
    // drawn from the same kept layout answer), and at one address with a distinct shopper place each time.
    const pageColdPaths = Array.from({ length: PAGE_COLD_ADDRESSES }, (_, i) => `/?v=${i}`);
    const pageColdWarmupPaths = Array.from({ length: PAGE_COLD_WARMUP_ADDRESSES }, (_, i) => `/?v=w${i}`);
    const placeRequest = ([lat, lng]: [number, number]) => ({
      path: '/',
      headers: { cookie: `shopperLocation=${lat},${lng}` },
    });
    const placePoints = usGridPoints(PLACE_POINTS + PLACE_WARMUP_POINTS, COLD_WARMUP_POINTS + COLD_POINTS);
    const placeRequests = placePoints.slice(0, PLACE_POINTS).map(placeRequest);
    const placeWarmupRequests = placePoints.slice(PLACE_POINTS).map(placeRequest);

    for (const p of [HOME_CACHED, '/api/layout/category/nfl', suggestPaths[0]!, searchPaths[0]!]) {
      const r = await httpGet(base + p);
      if (r.status !== 200) throw new Error(`GET ${p} answered ${r.status}: ${r.body.slice(0, 300)}`);
    }
    await checkPages(base, placePoints[PLACE_POINTS]!);
    // What the storefront's own page sends: a guest token, the site and client ids, and the encodings a browser
    // accepts.
    const session = await fetch(`${base}/api/customers/session`, { method: 'POST' });
    if (session.status !== 201) throw new Error(`POST /api/customers/session answered ${session.status}`);
    const { sessionToken } = (await session.json()) as { sessionToken: string };
    const shopperHeaders = {
      authorization: `Bearer ${sessionToken}`,
      'x-site-id': '22791',
      'x-client-id': 'storefront-web',
      'accept-encoding': 'gzip, deflate, br, zstd',
    };

    interface Scenario extends Omit<ChildLoadOptions, 'seconds' | 'warmupSeconds'> {
      key: RowKey;
      label: string;
      /** Every request a cache miss: each round goes on in `paths` where the last one stopped. */
      cold?: true;
    }
    let degraded = 0;
    const scenarios: Scenario[] = [
      // The app's middleware (request log, security headers) around a handler that does nothing: the floor.
      {
        key: 'healthz',
        label: '`/healthz` (the middleware stack, no work)',
        url: base + '/healthz',
        connections: CONNECTIONS,
      },
      {
        key: 'homeCached',
        label: `home layout, cached (\`${HOME_CACHED}\`)`,
        url: base + HOME_CACHED,
        connections: CONNECTIONS,
      },
      {
        key: 'homeShopper',
        label:
          'home layout, cached, as the storefront asks for it (guest token, site ' +
          'and client ids, `Accept-Encoding: gzip, deflate, br, zstd`)',
        url: base + HOME_CACHED,
        connections: CONNECTIONS,
        headers: shopperHeaders,
      },
      { key: 'homeCached200', label: 'home layout, cached', url: base + HOME_CACHED, connections: HIGH_CONNECTIONS },
      {
        key: 'homeCold',
        label: `home layout, cold (${COLD_POINTS.toLocaleString('en-US')} distinct 0.1° cells in turn)`,
        url: base,
        connections: CONNECTIONS,
        paths: coldPaths,
        warmupPaths: coldWarmupPaths,
        countMatching: DEGRADED_ROW,
        cold: true,
      },
      {
        key: 'pageCached',
        label:
          'home page, server-rendered, cached (`/` as a browser asks for it: ' +
          '`Accept: text/html`, `Accept-Encoding: gzip, deflate, br, zstd`; ' +
          'replayed from the page cache)',
        url: base + '/',
        connections: CONNECTIONS,
        headers: PAGE_REQUEST_HEADERS,
      },
      {
        key: 'pageCold',
        label:
          `home page rendered on each request (a distinct address each time, ` +
          `\`/?v=<n>\` over ${PAGE_COLD_ADDRESSES.toLocaleString('en-US')} in turn; ` +
          `the layout answer kept; same headers)`,
        url: base,
        connections: CONNECTIONS,
        headers: PAGE_REQUEST_HEADERS,
        paths: pageColdPaths,
        warmupPaths: pageColdWarmupPaths,
        cold: true,
      },
      {
        key: 'pageColdPlace',
        label:
          `home page, fully cold (\`/\` with a distinct shopper place each time, ` +
          `cookie \`shopperLocation=<lat>,<lng>\` over ${PLACE_POINTS.toLocaleString('en-US')} ` +
          `0.1° cells ` +
          'no other run asks for: the layout answer and its rows are made for each page too; same headers)',
        url: base,
        connections: CONNECTIONS,
        headers: PAGE_REQUEST_HEADERS,
        paths: placeRequests,
        warmupPaths: placeWarmupRequests,
        cold: true,
      },
      {
        key: 'category',
        label: 'category layout (`/api/layout/category/nfl`)',
        url: base + '/api/layout/category/nfl',
        connections: CONNECTIONS,
      },
      {
        key: 'suggest',
        label: `suggest (${prefixes.length} typed prefixes in turn)`,
        url: base,
        connections: CONNECTIONS,
        paths: suggestPaths,
      },
      {
        key: 'search',
        label: `search results (\`/api/Searches/get\`, ${queries.length} queries in turn)`,
        url: base,
        connections: CONNECTIONS,
        paths: searchPaths,
      },
    ];
    const ceilingScenario = { url: ceilingUrl, connections: CONNECTIONS };
    const drains: Record<string, number> = {};
    // Requests still queued when autocannon stops go on being answered to nobody: wait them out.
    const drain = async (label: string) => {
      const t = await settle(pid, SETTLE_MAX_MS);
      if (t > 1_000) drains[label] = Math.max(drains[label] ?? 0, t);
      if (t >= SETTLE_MAX_MS) log(`${label}: server still busy after ${SETTLE_MAX_MS / 1000} s; going on`);
    };

    if (warmupSeconds > 0) {
      log(`warm-up, ${warmupSeconds} s per endpoint…`);
      for (const sc of scenarios) {
        const { key: _key, label: _label, cold: _cold, warmupPaths, ...rest } = sc;
        await loadInChild({
          ...rest,
          ...(warmupPaths ? { paths: warmupPaths } : {}),
          seconds: warmupSeconds,
          warmupSeconds: 0,
        });
        await settle(pid, SETTLE_MAX_MS);
      }
    }
    const ceiling: LoadResult[] = [];
    const measured = new Map<RowKey, LoadResult[]>(scenarios.map((sc) => [sc.key, []]));
    // Requests of each cold run already sent: each round goes on where the last stopped.
    const cursors = new Map<RowKey, number>();
    for (let round = 1; round <= rounds; round++) {
      log(`round ${round} of ${rounds}: ceiling, then ${scenarios.map((sc) => sc.key).join(', ')}…`);
      ceiling.push(await loadInChild({ ...ceilingScenario, seconds, warmupSeconds: CLIENT_WARMUP_SECONDS }));
      for (const sc of scenarios) {
        const { key, label: _label, cold, ...options } = sc;
        const cursor = cursors.get(key) ?? 0;
        const paths =
          cold && options.paths ? [...options.paths.slice(cursor), ...options.paths.slice(0, cursor)] : options.paths;
        const result = await loadInChild({
          ...options,
          ...(paths ? { paths } : {}),
          seconds,
          warmupSeconds: CLIENT_WARMUP_SECONDS,
          settlePid: pid,
        });
        if (cold && options.paths) cursors.set(key, (cursor + result.sent) % options.paths.length);
        if (key === 'homeCold') degraded += result.matched;
        measured.get(key)!.push(result);
        await drain(sc.label);
      }
    }
    const rows = scenarios.map((sc) => ({
      key: sc.key,
      label: sc.label,
      result: summarize(measured.get(sc.key)!, ceiling),
    }));
    log('suggest, one request at a time…');
    const suggestOne = await sequential(base, rotate(suggestPaths), { maxRequests: SEQUENTIAL_REQUESTS, seconds: 10 });

    // The property battery's hostile GETs against this server, to see memory stay bounded after them too.
    log('hostile burst…');
    const rssBeforeBurstMiB = rssMiB(pid);
    const burstPaths = hostilePaths(BURST_PATHS);
    const burstResult = await loadInChild({
      url: base,
      connections: CONNECTIONS,
      seconds: BURST_SECONDS,
      warmupSeconds: 0,
      paths: burstPaths,
    });
    await drain('hostile burst');
    const burst = {
      result: burstResult,
      distinct: new Set(burstPaths).size,
      rssBeforeMiB: rssBeforeBurstMiB,
      rssAfterMiB: rssMiB(pid),
    };

    const rssEndMiB = rssMiB(pid);
    const hwmMiB = rssMiB(pid, 'VmHWM');
    const { peakMiB } = sampler.stop();

    let lighthouse: PageScore[] | undefined;
    if (withLighthouse) {
      log('Lighthouse: home, category, event…');
      const suggestion = await httpGet(`${base}/api/suggest?q=yank&extra=true`).then(
        (r) => JSON.parse(r.body) as { events?: { url: string }[] },
        () => null,
      );
      const eventPath = suggestion?.events?.[0]?.url;
      const pages = [
        { name: 'home', path: '/' },
        { name: 'category', path: '/category/nfl' },
        ...(eventPath ? [{ name: 'event', path: eventPath }] : []),
      ];
      lighthouse = await lighthousePages(base, pages, CHROMIUM, {
        runs: lighthouseRuns,
        perRunTimeoutMs: 120_000,
        saveDir: path.resolve('bench/out/lighthouse'),
        // Each page asked for once just before its runs, as a browser asks: the load runs above may have pushed it
        // out of the page cache, and Lighthouse should measure the page as shoppers mostly get it (kept), not its
        // first render (the load rows measure that).
        warm: (page) =>
          httpGet(base + page.path, 30_000, PAGE_REQUEST_HEADERS).then(
            () => undefined,
            () => undefined,
          ),
      });
      if (!eventPath)
        lighthouse.push({
          name: 'event',
          path: '(none)',
          error: '/api/suggest?q=yank&extra=true returned no event to open',
        });
    }
    return {
      events,
      generated,
      startupMs,
      rssReadyMiB,
      rssPeakMiB: peakMiB,
      rssEndMiB,
      hwmMiB,
      rows,
      ceiling,
      suggestOne,
      burst,
      cold: { distinct: COLD_POINTS, degraded },
      coldLists: Object.fromEntries(
        scenarios.filter((sc) => sc.cold && sc.paths).map((sc) => [sc.key, sc.paths!.length]),
      ),
      drains,
      ...(lighthouse ? { lighthouse } : {}),
    };
  } finally {
    sampler.stop();
    await stop(server, 10_000);
  }
}

function bundleSizes(): string {
  const out = spawnSync(process.execPath, ['--import', 'tsx', 'bench/bundle-sizes.ts'], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (out.status !== 0)
    return `bench/bundle-sizes.ts failed (${out.status ?? out.signal}): ${out.stderr.trim().split('\n')[0] ?? ''}`;
  return out.stdout.trim();
}

/** The engine benchmarks, each size in its own process so memory figures do not mix. */
function engineBenchmarks(): string {
  const run = (script: string, args: string[]) => {
    const out = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--expose-gc', '--max-old-space-size=8192', script, ...args],
      {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'inherit'],
        timeout: 20 * 60_000,
      },
    );
    if (out.status !== 0) throw new Error(`${script} failed with exit ${out.status ?? out.signal}`);
    return out.stdout
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  };
  const t = (x: unknown) => {
    const s = x as { medianMs: number; p99Ms: number };
    return `${s.medianMs} / ${s.p99Ms} ms`;
  };
  const lines = [
    '## Search latency (embedded engine, uncached)\n',
    '| events | load | index build | RSS | suggest median / p99 | suggest + ' +
      'extra sources median / p99 | row queries median / p99 |',
    '|---:|---:|---:|---:|---:|---:|---:|',
  ];
  const results = sizes.flatMap((events) => run('bench/search-latency.ts', ['--events', String(events)]));
  for (const r of results) {
    lines.push(
      `| ${r.events} | ${r.loadMs} ms | ${r.indexBuildMs} ms | ${r.rssMiB} MiB ` +
        `| ${t(r.suggest)} | ${t(r.suggestWithExtraSources)} | ${t(r.rows)} |`,
    );
  }
  lines.push(
    '\n## Row kinds: embedded engine against the scanning engine (same process, same requests, medians)\n',
    '| events | row kind | embedded | scanning | ratio |',
    '|---:|---|---:|---:|---:|',
  );
  for (const r of results) {
    for (const [kind, f] of Object.entries(
      r.rowsAgainstScanning as Record<string, { embeddedMs: number; scanningMs: number; ratio: number }>,
    )) {
      lines.push(`| ${r.events} | ${kind} | ${f.embeddedMs} ms | ${f.scanningMs} ms | ${f.ratio}× |`);
    }
  }
  return lines.join('\n');
}

const n = (x: number) => Math.round(x).toLocaleString('en-US');
const mib = (x: number) => (Number.isFinite(x) ? `${n(x)} MiB` : 'n/a');
const ms = (x: number) => (x < 10 ? x.toFixed(2) : x.toFixed(1));
const yes = (ok: boolean) => (ok ? '**met**' : '**not met**');

const pick = (r: ServerRun, key: RowKey) => r.rows.find((x) => x.key === key)!.result;
/** A share in percent: whole percents from 10%, then enough digits that a small share is not shown as 0%. */
const pct = (x: number) => {
  const p = 100 * x;
  return `${p >= 10 ? p.toFixed(0) : p >= 1 ? p.toFixed(1) : p.toPrecision(2)}%`;
};
const ceilingMedian = (r: ServerRun) => summarize(r.ceiling, r.ceiling).rps;

/** What the server-rendered home page rows measured, next to the home layout API. */
function pageNote(r: ServerRun): string {
  const cached = pick(r, 'pageCached');
  const shopper = pick(r, 'homeShopper');
  const served = (key: RowKey, what: string) => {
    const x = pick(r, key);
    const distinct = r.coldLists[key] ?? 0;
    const repeats = Math.max(0, x.requests - distinct);
    return (
      `${what}: ${n(x.requests)} answers over ${n(distinct)} ${key === 'pageColdPlace' ? 'places' : 'addresses'}` +
      (repeats
        ? `, so ${n(repeats)} (${((100 * repeats) / x.requests).toFixed(0)}%) asked ` +
          `for a page already rendered in this run`
        : ', each one a page the cache did not hold') +
      `, ${n(x.unanswered)} more still waiting when their round ended${x.rps > 0 ? ` (mean wait about connections ÷ req/s = ${(x.connections / x.rps).toFixed(1)} s)` : ''}`
    );
  };
  return (
    'Server-rendered home page rows: asked as a browser asks (`Accept: ' +
    'text/html`, `Accept-Encoding: gzip, deflate, br, zstd`), so their bytes ' +
    'per response are compressed ones, headers included; ' +
    `each was checked before measuring (200 \`text/html\` with ` +
    `\`id="page-data"\`, a repeat of \`/\` replayed with an ETag, a cookie's ` +
    `place reaching the layout). ` +
    `The cached page answered ${n(cached.rps)} req/s, ${pct(cached.rps / shopper.rps)} ` +
    `of the cached home layout API asked with the same encodings in the same ` +
    `run (${n(shopper.rps)} req/s). ` +
    `${served('pageCold', 'Rendered on each request')}. ${served('pageColdPlace', 'Fully cold')}.`
  );
}

function sizeSection(r: ServerRun): string {
  const row = (label: string, x: LoadSummary, ofCeiling: string) =>
    `| ${label} | ${x.connections} | ${n(x.rps)} | ${ofCeiling} | ${x.p50Ms} ` +
    `| ${x.p99Ms} (${x.worstP99Ms}) | ${Number.isFinite(x.bytesPerResponse) ? n(x.bytesPerResponse) : '—'} ` +
    `| ${n(x.requests)} | ${x.errors}${x.timeouts ? ` (${x.timeouts} timeouts)` : ''} ` +
    `| ${x.non2xx}${
      x.non2xx
        ? ` (${Object.entries(x.statusCodes)
            .filter(([c]) => !c.startsWith('2'))
            .map(([c, k]) => `${c}×${k}`)
            .join(', ')})`
        : ''
    } ` +
    `|`;
  const lines = [
    `### ${n(r.events)} events`,
    '',
    `Start-up to \`/readyz\` 200: ${(r.startupMs / 1000).toFixed(1)} s ` +
      `(${r.generated ? 'catalog generated first' : 'catalog already on disk'}). ` +
      `Server RSS: ${mib(r.rssReadyMiB)} when ready, ${mib(r.rssPeakMiB)} peak ` +
      `(sampled every 500 ms from spawn; kernel high-water mark ` +
      `${mib(r.hwmMiB)}), ${mib(r.rssEndMiB)} at the end.`,
    '',
    '| endpoint | connections | req/s | of the ceiling | p50 ms | p99 ms ' +
      '(worst round) | bytes per response | requests | errors | non-2xx |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    row(`ceiling: bare \`node:http\`, fixed ${CEILING_BODY.length}-byte JSON`, summarize(r.ceiling, r.ceiling), '—'),
    ...r.rows.map((x) => row(x.label, x.result, pct(x.result.ofCeiling))),
  ];
  const cold = pick(r, 'homeCold');
  const repeats = Math.max(0, cold.requests - r.cold.distinct);
  lines.push(
    '',
    `req/s, p50 and p99 are medians over the ${r.ceiling.length} rounds; "of ` +
      `the ceiling" is the median over rounds of req/s divided by the ceiling's ` +
      `req/s in the same round ` +
      `(ceiling per round: ${r.ceiling.map((c) => n(c.rps)).join(', ')} req/s). ` +
      `Cold home layout: ${n(cold.requests)} answers over ${n(r.cold.distinct)} ` +
      `cells (the warm-up used another ${n(COLD_WARMUP_POINTS)})` +
      (repeats
        ? `, so ${n(repeats)} requests ` +
          `(${((100 * repeats) / cold.requests).toFixed(0)}%) came back to a cell ` +
          `already resolved in this run`
        : ', each one a row-cache miss') +
      `; ${n(r.cold.degraded)} of them answered 200 with a row marked \`timeout\` or \`error\`. ` +
      `Its latency columns count answered requests only: ${n(cold.unanswered)} ` +
      `more were still waiting when their round ended; ` +
      `with every connection always waiting, the mean wait is about connections ` +
      `÷ req/s = ${(cold.connections / cold.rps).toFixed(1)} s.`,
    '',
    pageNote(r),
    '',
    `Suggest, one request at a time over one kept-alive connection (timed in ` +
      `the runner to the microsecond; answers cached after their first ` +
      `request): ` +
      `median ${ms(r.suggestOne.p50Ms)} ms, p99 ${ms(r.suggestOne.p99Ms)} ms ` +
      `over ${n(r.suggestOne.requests)} requests, ${r.suggestOne.failures} ` +
      `failures.`,
  );
  const b = r.burst.result;
  const fiveXX = Object.entries(b.statusCodes)
    .filter(([code]) => code.startsWith('5'))
    .reduce((sum, [, k]) => sum + k, 0);
  lines.push(
    '',
    `Hostile burst (the property battery's generators, ` +
      `\`server/test/hostile-input.ts\`, seed 1): ${n(b.requests)} GETs over ${n(r.burst.distinct)} ` +
      `distinct hostile URLs in ${BURST_SECONDS} s at ${CONNECTIONS} ` +
      `connections, ` +
      `${n(b.rps)} req/s; status codes ${Object.entries(b.statusCodes)
        .sort()
        .map(([code, k]) => `${code}×${n(k)}`)
        .join(', ')}; ${fiveXX} answers 5xx, ${b.errors} errors, ${b.timeouts} timeouts. ` +
      `Server RSS ${mib(r.burst.rssBeforeMiB)} before it and ${mib(r.burst.rssAfterMiB)} ` +
      `after (the caches are bounded by size: rows, answers, fast lane, ` +
      `results).`,
  );
  const drains = Object.entries(r.drains);
  if (drains.length) {
    lines.push(
      '',
      'Still busy after autocannon stopped (answering requests whose client had ' +
        'gone; the runner waits for the server to go idle before the next run), ' +
        'longest wait: ' +
        drains
          .map(
            ([label, t]) =>
              `${label.replace(/ \(.*$/, '')} ${(t / 1000).toFixed(1)} s${t >= SETTLE_MAX_MS ? ' (gave up waiting: later runs share the server with that backlog)' : ''}`,
          )
          .join(', ') +
        '.',
    );
  }
  return lines.join('\n');
}

function goalsSection(runs: ServerRun[]): string {
  const lines = ['### Goals', '', '| goal | measured | |', '|---|---|---|'];
  for (const r of runs) {
    const cached = pick(r, 'homeCached');
    const high = pick(r, 'homeCached200');
    const suggest = pick(r, 'suggest');
    const shopper = pick(r, 'homeShopper');
    lines.push(
      `| cached home layout ≥ 40% of the ceiling (${n(r.events)} events) | ${pct(cached.ofCeiling)} ` +
        `(${n(cached.rps)} against ${n(ceilingMedian(r))} req/s) | ${yes(cached.ofCeiling >= 0.4)} ` +
        `|`,
      `| the same, as the storefront asks for it (token, ids, compressed) | ${pct(shopper.ofCeiling)} ` +
        `(${n(shopper.rps)} req/s) | ${yes(shopper.ofCeiling >= 0.4)} |`,
    );
    if (r.events === 20_000) {
      lines.push(
        `| suggest p99 < 10 ms at 20,000 events, 50 connections | p99 ${suggest.p99Ms} ` +
          `ms (worst round ${suggest.worstP99Ms} ms; p50 ${suggest.p50Ms} ms) | ${yes(suggest.p99Ms < 10)} ` +
          `|`,
        `| suggest p99 < 10 ms at 20,000 events, one shopper (1 connection) | p99 ` +
          `${ms(r.suggestOne.p99Ms)} ms (p50 ${ms(r.suggestOne.p50Ms)} ms) | ${yes(r.suggestOne.p99Ms < 10 && r.suggestOne.failures === 0)} ` +
          `|`,
      );
    }
    lines.push(
      `| no request errors at ${HIGH_CONNECTIONS} concurrent connections, ` +
        `cached home (${n(r.events)} events) | ${high.errors} errors, ${high.timeouts} ` +
        `timeouts, ${high.non2xx} non-2xx of ${n(high.requests)} | ${yes(high.errors === 0 && high.non2xx === 0)} ` +
        `|`,
    );
  }
  return lines.join('\n');
}

/** The Lighthouse goals (mobile, the median of the runs per page). */
const LIGHTHOUSE_GOALS = { performance: 98, accessibility: 100, bestPractices: 100, seo: 100, lcpMs: 1_500 };

/** The goals a page misses, as `performance 97 < 98`; empty when it meets them all. */
function missedGoals(s: PageScore): string[] {
  const g = LIGHTHOUSE_GOALS;
  const below = (name: string, v: number | undefined, goal: number) =>
    v === undefined || v < goal ? [`${name} ${v ?? '—'} < ${goal}`] : [];
  return [
    ...below('performance', s.performance, g.performance),
    ...below('accessibility', s.accessibility, g.accessibility),
    ...below('best practices', s.bestPractices, g.bestPractices),
    ...below('SEO', s.seo, g.seo),
    ...(s.lcpMs === undefined || s.lcpMs > g.lcpMs
      ? [`LCP ${((s.lcpMs ?? NaN) / 1000).toFixed(1)} s > ${g.lcpMs / 1000} s`]
      : []),
  ];
}

const CATEGORY_NAMES: Record<FailingAudit['category'], string> = {
  performance: 'performance',
  accessibility: 'accessibility',
  'best-practices': 'best practices',
  seo: 'SEO',
};
const auditLine = (a: FailingAudit) =>
  `${a.title}${a.displayValue ? ` (${a.displayValue})` : ''}${a.score === null ? ' (could not run)' : ''}`;

function lighthouseSection(scores: PageScore[] | undefined, events: number | undefined, skipped: boolean): string {
  if (skipped) return '### Lighthouse\n\nSkipped (`--no-lighthouse`).';
  if (!scores) return '### Lighthouse\n\nNot run: no server size finished.';
  const g = LIGHTHOUSE_GOALS;
  const lines = [
    '### Lighthouse',
    '',
    `Lighthouse ${scores.find((s) => s.lighthouseVersion)?.lighthouseVersion ?? '12'} ` +
      `from the \`lighthouse\` package with \`chrome-launcher\` on Debian's ` +
      `Chromium (${CHROMIUM}), ` +
      `default mobile settings (formFactor mobile, simulated throttling: slow ` +
      `4G, 4× CPU), the four categories, against the server above (${n(events ?? 0)} ` +
      `events) over plain HTTP on 127.0.0.1, each page asked for once just ` +
      `before its runs so that its rendered page is kept, ` +
      `${lighthouseRuns === 1 ? 'one run per page' : `the median of ${lighthouseRuns} runs per page by performance score (the other figures are that run's)`}; ` +
      `TBT comes from the main-thread work Chromium recorded here, so it rises ` +
      `with the machine's other load. ` +
      `The server compresses its answers (brotli or gzip) as a CDN in front of ` +
      `it would. Goals: performance ≥ ${g.performance}, accessibility ` +
      `${g.accessibility}, best practices ${g.bestPractices}, SEO ${g.seo}, LCP ` +
      `≤ ${g.lcpMs / 1000} s.`,
    '',
    '| page | path | performance | accessibility | best practices | SEO | FCP | LCP | TBT | CLS | goals |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|',
  ];
  for (const s of scores) {
    if (s.error || s.performance === undefined) {
      lines.push(
        `| ${s.name} | \`${s.path}\` | error | error | error | error | | | | | ` +
          `could not measure: \`${(s.error ?? 'no score').replaceAll('|', '\\|')}\` ` +
          `|`,
      );
      continue;
    }
    const failed = s.failedRuns?.length
      ? `; ${s.failedRuns.length} of ${s.runs ?? lighthouseRuns} attempts failed ` +
        `and were replaced while attempts remained: ${s.failedRuns.map((e) => e.replace(/^(\w+): .*$/, '$1')).join(', ')}`
      : '';
    const missed = missedGoals(s);
    const runs = s.performanceScores
      ? ` (performance runs: ${s.performanceScores.join(', ')}${failed})`
      : failed
        ? ` (${failed.slice(2)})`
        : '';
    const goals = `${missed.length ? `**not met**: ${missed.join(', ')}` : '**met**'}${runs}`.replaceAll('|', '\\|');
    lines.push(
      `| ${s.name} | \`${s.path}\` | ${s.performance} | ${s.accessibility ?? '—'} ` +
        `| ${s.bestPractices ?? '—'} | ${s.seo ?? '—'} | ${((s.fcpMs ?? NaN) / 1000).toFixed(1)} ` +
        `s | ${((s.lcpMs ?? NaN) / 1000).toFixed(1)} s | ${n(s.tbtMs ?? NaN)} ms ` +
        `| ${(s.cls ?? NaN).toFixed(3)} | ${goals} |`,
    );
  }
  const notes = scores.flatMap((s) => {
    if (s.error) return [];
    const byCategory = Object.entries(CATEGORY_NAMES).flatMap(([id, name]) => {
      const failing = (s.failingAudits ?? []).filter((a) => a.category === id);
      return failing.length ? [`  - ${name}: ${failing.map(auditLine).join('; ')}.`] : [];
    });
    return [
      `- ${s.name}: ${byCategory.length ? 'audits below 1 (informative, manual and not-applicable ones left out):' : 'no audit below 1.'}`,
      ...byCategory,
      ...(s.lcpElement?.length ? [`  - LCP element: ${s.lcpElement.join('; ')}.`] : []),
      ...(s.warnings?.length ? [`  - Lighthouse warnings: ${s.warnings.join('; ')}.`] : []),
    ];
  });
  if (notes.length)
    lines.push(
      '',
      "Why a score is below 100 (the median run; each audit's items are in the " +
        "run's output, and every run's whole report in `bench/out/lighthouse/`):",
      '',
      ...notes,
    );
  return lines.join('\n');
}

/** Every failing audit with its items: printed by the run, not written to RESULTS.md. */
function lighthouseDetails(scores: PageScore[] | undefined): string {
  if (!scores) return '';
  const lines = ['## Lighthouse: failing audits in full (the median run of each page)'];
  for (const s of scores) {
    lines.push('', `### ${s.name} (\`${s.path}\`)${s.reportFile ? `: ${s.reportFile}` : ''}`, '');
    if (s.error) {
      lines.push(`could not measure: ${s.error}`);
      continue;
    }
    lines.push(
      `performance ${s.performance}, accessibility ${s.accessibility}, best ` +
        `practices ${s.bestPractices}, SEO ${s.seo}; FCP ${n(s.fcpMs ?? NaN)} ms, ` +
        `LCP ${n(s.lcpMs ?? NaN)} ms, TBT ${n(s.tbtMs ?? NaN)} ms, CLS ${(s.cls ?? NaN).toFixed(3)}`,
      `LCP element: ${s.lcpElement?.join('; ') || 'none reported'}`,
    );
    for (const a of s.failingAudits ?? []) {
      lines.push(
        `- [${CATEGORY_NAMES[a.category]}] ${auditLine(a)}: score ` +
          `${a.score ?? 'n/a'}, weight ${a.weight} (\`${a.id}\`)`,
        ...a.details.map((d) => `    - ${d}`),
      );
    }
  }
  return lines.join('\n');
}

async function main() {
  const startedAt = new Date();
  const loadAtStart = os.loadavg()[0]!;
  const build = await ensureBuild();
  const builtAt = statSync('dist/server/main.js').mtime.toISOString().slice(0, 16).replace('T', ' ');
  const ceiling = await startCeiling();
  log(`ceiling at ${ceiling.url}`);
  const runs: ServerRun[] = [];
  const failures: string[] = [];
  for (const [i, events] of sizes.entries()) {
    try {
      runs.push(await benchSize(events, ceiling.url, i === 0 && !values['no-lighthouse']));
    } catch (err) {
      if (stopping) return;
      const message = err instanceof Error ? err.message : String(err);
      log(`${events} events failed: ${message}`);
      failures.push(`- ${n(events)} events: could not measure: \`${message.split('\n')[0]}\``);
    }
  }
  await stop(ceiling.child);
  log('client build sizes…');
  const bundles = bundleSizes();

  const section = [
    '## Load: HTTP throughput, latency and memory of the real server',
    '',
    `Date: ${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC. ` +
      `Command: \`${command}\` (${((Date.now() - startedAt.getTime()) / 60_000).toFixed(1)} ` +
      `minutes). ` +
      `Machine: ${machineLine(loadAtStart)} (other work shares the machine); ` +
      `shared and noisy, so read the ratios, not lone times. ` +
      `Server: \`node dist/server/main.js\` (${build}, ${builtAt} UTC; ` +
      `${gitState(['server', 'client', 'shared', 'segments'])}), embedded ` +
      `search engine, PGlite store, \`NODE_ENV=production\`, ` +
      `\`LOG_LEVEL=warn\`, rate limits raised to ${n(Number(UNLIMITED))} a ` +
      `minute, \`SEGMENTS_WATCH=false\`.`,
    '',
    `Method: autocannon 9 drives each endpoint over 127.0.0.1 with ${CONNECTIONS} ` +
      `connections unless stated: ${warmupSeconds} s of warm-up per endpoint ` +
      `(discarded), then ${rounds} rounds of ${seconds} s, ` +
      'each round measuring the ceiling first and then every endpoint in turn, ' +
      'so a burst of other work on the machine weighs on the ceiling and the ' +
      'endpoints of the same round alike. ' +
      `Every run, the ceiling's too, has a load generator process of its own ` +
      `that first warms up on the same endpoint for ${CLIENT_WARMUP_SECONDS} s ` +
      `(discarded): in one long-lived generator, the endpoints measured before ` +
      `changed a later one's figures by nearly half. ` +
      `The server and the ceiling are separate child processes; on ${os.cpus().length} ` +
      `cores the load generator and the server each have about one. ` +
      "Latencies are autocannon's whole milliseconds and include queueing " +
      'behind the other connections; non-2xx answers are not in them.',
    '',
    ...runs.flatMap((r) => [sizeSection(r), '']),
    ...(failures.length ? ['Sizes that failed:', '', ...failures, ''] : []),
    goalsSection(runs),
    '',
    '### Client build sizes',
    '',
    'From `bench/bundle-sizes.ts` over `dist/client` (gzip level 9):',
    '',
    bundles,
    '',
    lighthouseSection(runs[0]?.lighthouse, runs[0]?.events, values['no-lighthouse']),
  ].join('\n');

  console.log(section);
  const details = lighthouseDetails(runs[0]?.lighthouse);
  if (details) console.log(`\n${details}`);
  if (values.engine) console.log(`\n${engineBenchmarks()}`);
  if (!values['no-write']) {
    const file = path.resolve('bench/RESULTS.md');
    writeFileSync(file, replaceSection(readFileSync(file, 'utf8'), section));
    log('bench/RESULTS.md updated');
  }
  if (failures.length) process.exitCode = 1;
}

try {
  if (values.faults) {
    if (!(await runFaultBench({ command, write: !values['no-write'], log }))) process.exitCode = 1;
  } else if (values.catalog) {
    await ensureBuild();
    console.log(
      await runCatalogBench({
        events: values.sizes ? sizes.at(-1)! : 1_000_000,
        command,
        write: !values['no-write'],
        log,
      }),
    );
  } else if (values.cold) {
    await ensureBuild();
    console.log(await runColdBench({ sizes, command, write: !values['no-write'], log }));
  } else {
    await main();
  }
} catch (err) {
  console.error(err);
  process.exitCode = 1;
} finally {
  if (!stopping) await stopAll();
}
