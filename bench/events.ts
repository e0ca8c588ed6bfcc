/**
 * `npm run bench -- --events`: first-party events on one production server node (a child process,
 * `node dist/server/main.js`, PGlite in a fresh data folder):
 *   (a) the home-layout experiment simulated through the HTTP API (server/test/experiment-simulation.ts): 20,000
 *       guests (`--guests`) open a session, are shown the home layout (the server assigns and records the
 *       exposure), and buy a ticket with probability 4% (control) or 5% (promos); the studio's readout of them,
 *       and the sample-ratio check over synthetic exposures with 5% of one variation's lost, and with none lost;
 *   (b) ingestion: 50 connections posting batches of 20 events to `POST /api/events`, in rounds;
 *   (c) the cached home layout as the storefront asks for it, 50 connections, alone and while event batches
 *       arrive at a steady rate beside it.
 * Written into bench/RESULTS.md between the bench:events markers.
 */
import { spawn } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ExperimentResults } from '../shared/schemas/experiment-results.js';
import { SITE_ID } from '../shared/rules/constants.js';
import { loadCatalog } from '../server/catalog/load-catalog.js';
import type { FlagPayload } from '../server/flags/flags-file.js';
import { openPglite } from '../server/store/pglite-sql.js';
import {
  CONTROL,
  coverage,
  resultsMatching,
  SIMULATED_USER_AGENT,
  simulateExperiment,
  syntheticReadout,
  TREATMENT,
  TRUE_LIFT,
  TRUE_RATES,
  type SimulationTally,
  type SyntheticExposures,
} from '../server/test/experiment-simulation.js';
import { listingSupply } from '../server/test/shopper.js';
import { cpuTicks, onCleanup, settle, SETTLE_MAX_MS, sleep, startStorefront, stop } from './children.js';
import { ensureBuild } from './ensure-build.js';
import type { EventLoadOptions, EventLoadResult } from './events-load-child.js';
import { n, pct, yes } from './format.js';
import { CONNECTIONS, HOME_CACHED, UNLIMITED } from './load-plan.js';
import { loadInChild, type LoadResult } from './load.js';
import { gitState, machineLine, replaceSection, sectionMarkers } from './results-file.js';
import { percentile } from './stats.js';

/** Catalog events of the server (tickets to sell), not analytics events. */
const CATALOG_EVENTS = 20_000;
const STUDIO_KEY = 'bench-events-studio-key-0123456789';
const SIMULATION_SEED = 1;
const SIMULATION_CONCURRENCY = 16;
/** Synthetic exposures for the sample-ratio check: the brief's 20,000, and the 60,000 the test uses. */
const SRM_SIZES = [20_000, 60_000];
const LOST_SHARE = 0.05;
const BATCH_SIZE = 20;
/** Seconds per measured round unless `--seconds` says otherwise. */
const ROUND_SECONDS = 5;
const FIRST_WARMUP_SECONDS = 3;
const CLIENT_WARMUP_SECONDS = 1;
const INGEST_GOAL_EVENTS_PER_SECOND = 5_000;
/** The cached layout beside event traffic may be at most 5% slower than alone. */
const LAYOUT_RATIO_GOAL = 0.95;
/**
 * The event traffic beside the layout runs, in batches a second. One batch per page view (a page's impressions,
 * clicks and its page view, sent together): 100 page views a second is 360,000 an hour on one node, a busy
 * evening's peak for a storefront of this size; 250 a second is the ingestion goal itself (5,000 events a second).
 */
const BESIDE_BATCH_RATES = [100, 250];
const BESIDE_CONNECTIONS = 10;
/** The event run beside a layout run outlasts it: the layout child's start, warm-up and run, and a margin. */
const BESIDE_EXTRA_SECONDS = 6;
/** Seconds of event traffic alone whose server CPU time is measured, and of the idle baseline before it. */
const COST_SECONDS = 10;
const IDLE_BASELINE_SECONDS = 5;
/** Linux counts process CPU time in ticks of 10 ms (`/proc/<pid>/stat`). */
const TICK_MS = 10;
/** As the storefront's pages ask for the layout of an anonymous visitor (no guest token: the cached answer). */
const LAYOUT_HEADERS = {
  'x-site-id': String(SITE_ID),
  'x-client-id': 'storefront-web',
  'accept-encoding': 'gzip, deflate, br, zstd',
};
const FLAGS = JSON.parse(readFileSync(path.resolve('segments/flags.json'), 'utf8')) as FlagPayload;
const EVENT_CHILD = fileURLToPath(new URL('./events-load-child.ts', import.meta.url));

const median = (xs: number[]) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    50,
  );
const fixed = (x: number, digits = 2) => x.toFixed(digits);

/** An event run in a process of its own: `started` once its measured posting begins. */
function eventLoad(options: EventLoadOptions): { started: Promise<void>; done: Promise<EventLoadResult> } {
  const child = spawn(process.execPath, ['--import', 'tsx', EVENT_CHILD], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  let markStarted = () => {};
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  child.stdout.on('data', (c: Buffer) => {
    out += c.toString('utf8');
    if (out.includes('posting')) markStarted();
  });
  child.stderr.on('data', (c: Buffer) => (err = (err + c.toString('utf8')).slice(-4000)));
  const done = new Promise<EventLoadResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => {
      markStarted();
      const last = out.trim().split('\n').at(-1) ?? '';
      if (code !== 0 || !last.startsWith('{')) reject(new Error(`event load child exited ${code}: ${err || out}`));
      else resolve(JSON.parse(last) as EventLoadResult);
    });
  });
  child.stdin.end(JSON.stringify(options));
  return { started, done };
}

interface IngestRound {
  result: EventLoadResult;
  eventsPerSecond: number;
  /** Taken events over the round and the time the server then took to write them: what it sustains. */
  writtenPerSecond: number;
  /** How long the server went on working after the round (writing what it had queued). */
  drainMs: number;
}

interface BesideRound {
  alone: LoadResult;
  /** Cores the server process kept busy (main thread and PGlite worker) while the layout was driven alone. */
  aloneCores: number;
  beside: LoadResult;
  events: EventLoadResult;
}

/** What the event traffic of one rate costs the server, measured with nothing else running. */
interface EventCost {
  batches: number;
  msPerBatch: number;
}

interface SrmRun {
  guests: number;
  lost: number;
  written: SyntheticExposures;
  results: ExperimentResults;
}

/** Rows of the server's store by event name, read after the server stopped. */
async function storedEvents(dataDir: string): Promise<Record<string, number>> {
  const sql = await openPglite(path.join(dataDir, 'db'));
  try {
    const rows = await sql.query<{ name: string; n: string | number }>(
      'SELECT name, count(*) AS n FROM analytics_events GROUP BY name',
    );
    return Object.fromEntries(rows.map((r) => [r.name, Number(r.n)]));
  } finally {
    await sql.close();
  }
}

/** A lift as `+12.3% [−4.5%, +29.1%]`. */
const liftText = (lift: { relative: number; low: number; high: number } | null | undefined) =>
  lift ? `${fixed(100 * lift.relative, 1)}% [${fixed(100 * lift.low, 1)}%, ${fixed(100 * lift.high, 1)}%]` : 'none';

function experimentTable(results: ExperimentResults, tally: SimulationTally, mismatches: string[]): string[] {
  const covered = coverage(results);
  const treatment = results.variations.find((v) => v.id === TREATMENT);
  const { srm } = results;
  return [
    '| variation | guests shown it (readout / simulation) | purchasers (readout / simulation) | ' +
      'conversion, 95% interval | true rate | interval covers it | revenue |',
    '|---|---:|---:|---|---:|---|---:|',
    ...results.variations.map((v) => {
      const did = tally.arms[v.id] ?? { users: 0, purchasers: 0, revenueCents: 0 };
      const { low, high } = v.conversionInterval;
      return (
        `| ${v.id} (${v.name}) | ${n(v.users)} / ${n(did.users)} | ${n(v.purchasers)} / ${n(did.purchasers)} | ` +
        `${pct(v.conversionRate)} [${pct(low ?? 0)}, ${pct(high ?? 0)}] | ${pct(TRUE_RATES[v.id] ?? NaN)} | ` +
        `${covered.rate[v.id] ? 'yes' : '**no**'} | $${n(v.revenue)} |`
      );
    }),
    '',
    `Lift of ${TREATMENT} over ${CONTROL} in conversion, 95% interval: ${liftText(treatment?.lift)}, ` +
      `p = ${treatment?.lift?.pValue.toPrecision(3) ?? 'none'}; the true lift, +${fixed(100 * TRUE_LIFT, 0)}%, ` +
      `is ${covered.lift ? 'inside' : '**outside**'} the interval. ` +
      `Revenue per guest: ${liftText(treatment?.revenueLift)}. ` +
      `Sample ratio check: chi-square ${srm.chiSquare}, p = ${srm.pValue.toPrecision(3)}, ` +
      `${srm.flagged ? '**flagged**' : 'not flagged'}; ${results.multipleExposures} guests seen in two variations. ` +
      (mismatches.length === 0
        ? 'The readout counts exactly the guests, purchasers and revenue (to the cent) the simulation made.'
        : `**The readout and the simulation disagree**: ${mismatches.join('; ')}.`),
  ];
}

function srmTable(runs: SrmRun[]): string[] {
  return [
    '| synthetic exposures | lost from variation 1 | control / variation 1 recorded | chi-square | p | flagged |',
    '|---:|---:|---|---:|---:|---|',
    ...runs.map((r) => {
      const users = r.results.variations.map((v) => n(v.users)).join(' / ');
      const lostCount = (r.written.assigned[TREATMENT] ?? 0) - (r.written.recorded[TREATMENT] ?? 0);
      const { srm } = r.results;
      return (
        `| ${n(r.guests)} | ${r.lost > 0 ? `${pct(r.lost)} (${n(lostCount)})` : 'none'} | ${users} | ` +
        `${srm.chiSquare} | ${srm.pValue.toPrecision(3)} | ${srm.flagged ? 'yes' : 'no'} |`
      );
    }),
  ];
}

export async function runEventsBench(options: {
  command: string;
  write: boolean;
  guests: number;
  rounds: number;
  seconds?: number;
  log: (message: string) => void;
}): Promise<boolean> {
  const { log, rounds } = options;
  const seconds = options.seconds ?? ROUND_SECONDS;
  const startedAt = new Date();
  const loadAtStart = os.loadavg()[0]!;
  const build = await ensureBuild(log, { sources: ['server', 'shared', 'segments'] });
  const builtAt = statSync('dist/server/main.js').mtime.toISOString().slice(0, 16).replace('T', ' ');
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bench-events-'));
  const removeData = onCleanup(() => rm(dataDir, { recursive: true, force: true }));
  log(`starting the server over a new ${n(CATALOG_EVENTS)}-event catalog in ${dataDir}`);
  const { server, pid, ready } = startStorefront(CATALOG_EVENTS, {
    env: {
      DATA_DIR: dataDir,
      STUDIO_KEY,
      TRUST_PROXY: 'loopback',
      RATE_LIMIT_SESSIONS_PER_MINUTE: UNLIMITED,
      RATE_LIMIT_CARTS_PER_MINUTE: UNLIMITED,
      RATE_LIMIT_CHECKOUT_PER_MINUTE: UNLIMITED,
      RATE_LIMIT_EVENTS_PER_MINUTE: UNLIMITED,
    },
  });
  let simulation: { tally: SimulationTally; results: ExperimentResults; mismatches: string[]; ms: number };
  const srmRuns: SrmRun[] = [];
  const ingest: IngestRound[] = [];
  const beside = new Map<number, BesideRound[]>(BESIDE_BATCH_RATES.map((r) => [r, []]));
  const costs = new Map<number, EventCost>();
  const costEvents: EventLoadResult[] = [];
  try {
    const { base } = await ready;
    const catalog = await loadCatalog(path.join(dataDir, 'catalog'));

    // (a) The experiment through the API.
    log(`simulating ${n(options.guests)} guests, ${SIMULATION_CONCURRENCY} at a time…`);
    const since = new Date();
    const began = performance.now();
    const tally = await simulateExperiment({
      base,
      guests: options.guests,
      seed: SIMULATION_SEED,
      concurrency: SIMULATION_CONCURRENCY,
      nextListing: listingSupply(catalog),
      progress: (done) => {
        if (done % 5_000 === 0) log(`  ${n(done)} guests done`);
      },
    });
    const simulationMs = performance.now() - began;
    const { results, mismatches } = await resultsMatching(base, tally, { studioKey: STUDIO_KEY, since });
    simulation = { tally, results, mismatches, ms: simulationMs };
    log(`readout: ${results.variations.map((v) => `${v.id}: ${v.purchasers}/${v.users}`).join(', ')}`);
    for (const guests of SRM_SIZES) {
      for (const lost of [LOST_SHARE, 0]) {
        log(`sample ratio check over ${n(guests)} synthetic exposures, ${pct(lost)} lost…`);
        const run = await syntheticReadout({
          flags: FLAGS,
          guests,
          seed: SIMULATION_SEED,
          ...(lost > 0 ? { lost: { [TREATMENT]: lost } } : {}),
        });
        srmRuns.push({ guests, lost, ...run });
      }
    }
    await settle(pid, SETTLE_MAX_MS);

    // (b) Ingestion.
    const session = await fetch(`${base}/api/customers/session`, { method: 'POST' });
    const { sessionToken } = (await session.json()) as { sessionToken: string };
    const common = { base, cookie: `guestToken=${sessionToken}`, userAgent: SIMULATED_USER_AGENT };
    for (let round = 1; round <= rounds; round++) {
      log(`ingestion round ${round} of ${rounds}: ${CONNECTIONS} connections, batches of ${BATCH_SIZE}…`);
      const result = await eventLoad({
        ...common,
        connections: CONNECTIONS,
        seconds,
        warmupSeconds: round === 1 ? FIRST_WARMUP_SECONDS : CLIENT_WARMUP_SECONDS,
        batchSize: BATCH_SIZE,
        settlePid: pid,
      }).done;
      const drainMs = await settle(pid, SETTLE_MAX_MS);
      ingest.push({
        result,
        eventsPerSecond: result.accepted / result.seconds,
        writtenPerSecond: result.accepted / (result.seconds + drainMs / 1000),
        drainMs,
      });
      log(`  ${n(result.accepted / result.seconds)} events/s, then ${n(drainMs)} ms to go idle`);
    }

    // (c) The cached home layout, alone and beside event traffic.
    const layout = {
      url: base + HOME_CACHED,
      connections: CONNECTIONS,
      seconds,
      warmupSeconds: CLIENT_WARMUP_SECONDS,
      headers: LAYOUT_HEADERS,
    };
    for (let round = 1; round <= rounds; round++) {
      for (const rate of BESIDE_BATCH_RATES) {
        log(`layout round ${round} of ${rounds}: alone and beside ${rate} batches/s…`);
        const besideEvents = async () => {
          const events = eventLoad({
            ...common,
            connections: BESIDE_CONNECTIONS,
            seconds: seconds + CLIENT_WARMUP_SECONDS + BESIDE_EXTRA_SECONDS,
            warmupSeconds: 0,
            batchSize: BATCH_SIZE,
            batchesPerSecond: rate,
          });
          await events.started;
          const run = await loadInChild(layout);
          return { run, events: await events.done };
        };
        const aloneRun = async () => {
          const began = performance.now();
          const before = cpuTicks(pid);
          const run = await loadInChild(layout);
          const cores = ((cpuTicks(pid) - before) * TICK_MS) / (performance.now() - began);
          return { run, cores };
        };
        // Alone first in odd rounds, beside first in even ones, so a drift of the machine weighs on both alike.
        let alone: { run: LoadResult; cores: number };
        let besideRun: { run: LoadResult; events: EventLoadResult };
        if (round % 2 === 1) {
          alone = await aloneRun();
          await settle(pid, SETTLE_MAX_MS);
          besideRun = await besideEvents();
        } else {
          besideRun = await besideEvents();
          await settle(pid, SETTLE_MAX_MS);
          alone = await aloneRun();
        }
        beside.get(rate)!.push({
          alone: alone.run,
          aloneCores: alone.cores,
          beside: besideRun.run,
          events: besideRun.events,
        });
        await settle(pid, SETTLE_MAX_MS);
      }
    }

    // The server's CPU time per batch at each rate, with nothing else running: steadier than throughput on a
    // shared machine, as other work changes how fast the server runs but not how much it has to do.
    for (const rate of BESIDE_BATCH_RATES) {
      log(`server CPU time of ${rate} event batches/s alone…`);
      await settle(pid, SETTLE_MAX_MS);
      const idleFrom = cpuTicks(pid);
      await sleep(IDLE_BASELINE_SECONDS * 1000);
      const idleTicksPerMs = (cpuTicks(pid) - idleFrom) / (IDLE_BASELINE_SECONDS * 1000);
      const began = performance.now();
      const before = cpuTicks(pid);
      const run = await eventLoad({
        ...common,
        connections: BESIDE_CONNECTIONS,
        seconds: COST_SECONDS,
        warmupSeconds: 0,
        batchSize: BATCH_SIZE,
        batchesPerSecond: rate,
      }).done;
      await settle(pid, SETTLE_MAX_MS);
      const ticks = cpuTicks(pid) - before - idleTicksPerMs * (performance.now() - began);
      costs.set(rate, { batches: run.sent, msPerBatch: (ticks * TICK_MS) / run.sent });
      costEvents.push(run);
    }
  } finally {
    await stop(server, 30_000);
  }
  const stored = await storedEvents(dataDir);
  await rm(dataDir, { recursive: true, force: true });
  removeData();

  // What the server said it took, against what its store holds once it has stopped (and written its queue). The
  // answers a load generator had not read when its time ran out are not counted, but their events are taken: the
  // store holds at least what was answered, and at most what was sent.
  const eventRuns = [
    ...ingest.map((r) => r.result),
    ...[...beside.values()].flat().map((r) => r.events),
    ...costEvents,
  ];
  const acceptedBrowser = eventRuns.reduce((s, r) => s + r.accepted + r.warmupAccepted, 0);
  const sentBrowser = eventRuns.reduce((s, r) => s + (r.sent + r.warmupSent) * BATCH_SIZE, 0);
  const storedBrowser = Object.entries(stored)
    .filter(([name]) => name !== 'experiment_viewed' && name !== 'purchase')
    .reduce((s, [, k]) => s + k, 0);
  const allStored = acceptedBrowser <= storedBrowser && storedBrowser <= sentBrowser;
  const ingestMedian = median(ingest.map((r) => r.eventsPerSecond));
  const writtenMedian = median(ingest.map((r) => r.writtenPerSecond));
  const sim = simulation!;
  const guestsPerSecond = (options.guests * 1000) / sim.ms;
  const besideLines = BESIDE_BATCH_RATES.map((rate) => {
    const runs = beside.get(rate)!;
    const ratio = median(runs.map((r) => r.beside.rps / r.alone.rps));
    const eventsPerSecond = median(runs.map((r) => r.events.accepted / r.events.seconds));
    const met =
      rate === BESIDE_BATCH_RATES[0] ? ` (goal ≥ ${LAYOUT_RATIO_GOAL}: ${yes(ratio >= LAYOUT_RATIO_GOAL)})` : '';
    const figures = (pick: (r: BesideRound) => LoadResult) =>
      `${n(median(runs.map((r) => pick(r).rps)))} req/s, p50 ${median(runs.map((r) => pick(r).p50Ms))} ms, ` +
      `p99 ${median(runs.map((r) => pick(r).p99Ms))} ms`;
    const rounds = runs.map((r) => `${n(r.alone.rps)} → ${n(r.beside.rps)}`).join(', ');
    return (
      `| ${rate} batches/s (${n(rate * BATCH_SIZE)} events/s asked; ${n(eventsPerSecond)} taken) | ` +
      `${figures((r) => r.alone)} | ${figures((r) => r.beside)} | ${fixed(ratio)}${met}; rounds: ${rounds} |`
    );
  });
  const aloneCores = median([...beside.values()].flat().map((r) => r.aloneCores));
  const costLines = BESIDE_BATCH_RATES.map((rate) => {
    const cost = costs.get(rate)!;
    const cores = (rate * cost.msPerBatch) / 1000;
    return (
      `| ${rate} batches/s | ${fixed(cost.msPerBatch)} ms (${n(cost.batches)} batches) | ${fixed(cores)} | ` +
      `${fixed(1 - cores / aloneCores)} |`
    );
  });
  const section = [
    '## Events: an experiment read back, ingestion, and the layout beside it',
    '',
    `Date: ${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC. Command: \`${options.command}\` ` +
      `(${((Date.now() - startedAt.getTime()) / 60_000).toFixed(1)} minutes). Machine: ${machineLine(loadAtStart)} ` +
      `(shared with other work: read the same-run ratios). Server: one node as a child process, ` +
      `\`node dist/server/main.js\` (${build}, ${builtAt} UTC; ${gitState(['server', 'shared', 'segments'])}), ` +
      `\`NODE_ENV=production\`, PGlite in a new data folder, a ${n(CATALOG_EVENTS)}-event catalog, ` +
      `\`TRUST_PROXY=loopback\` (each simulated guest sends its own address), session, cart, checkout and event ` +
      `rate limits raised to ${n(Number(UNLIMITED))} a minute, \`LOG_LEVEL=warn\`. Load generators (autocannon 9, ` +
      `each run a process of its own) and the simulation's client run on the same machine.`,
    '',
    `### The home-layout experiment, ${n(options.guests)} simulated guests through the API`,
    '',
    `Each guest (\`server/test/experiment-simulation.ts\`, ${SIMULATION_CONCURRENCY} at a time, ` +
      `${(sim.ms / 1000).toFixed(0)} s, ${n(guestsPerSecond)} guests/s) opens a session, asks for ` +
      '`/api/layout/home` with its token (the server assigns the variation by GrowthBook hashing and records the ' +
      'exposure) and then, with probability 4% in control and 5% with the promos layout (a seeded draw on its ' +
      'guest id), puts a ticket in a cart and checks out. The readout is ' +
      '`GET /api/studio/experiments/home-layout/results?since=<start of the run>`.',
    '',
    ...experimentTable(sim.results, sim.tally, sim.mismatches),
    '',
    'The sample-ratio check over synthetic exposures written straight into a fresh store (same code as ' +
      '`server/experiments/simulation.test.ts`): guests assigned by the flags’ GrowthBook hashing, each exposure ' +
      'reaching the store through a tracking callback that, in the lossy runs, fails for 5% of variation 1’s guests. ' +
      'A 5% loss in one half moves the split by 2.5%, which 20,000 guests detect at p < 0.001 only about 63% of the ' +
      'time (1,000 seeded trials); 60,000 about 99.9% of it.',
    '',
    ...srmTable(srmRuns),
    '',
    `### Ingestion: \`POST /api/events\`, ${CONNECTIONS} connections, batches of ${BATCH_SIZE} events`,
    '',
    `${rounds} rounds of ${seconds} s, each in a new load generator process (the first after ` +
      `${FIRST_WARMUP_SECONDS} s of discarded warm-up, the others after ${CLIENT_WARMUP_SECONDS} s); one guest ` +
      'cookie; every batch a new page view (a page view, row impressions, a row click and an add to cart) with ' +
      'event ids never sent before, so every event is a new row. Events/s are those the answers said were taken ' +
      '(`{"accepted": 20}`); a batch the server cannot queue (100,000 events waiting) is refused with a 503 and ' +
      '`Retry-After` (the non-2xx column), which a browser sends again later; after each round the run waits for ' +
      'the server to go idle, i.e. to have written what it queued.',
    '',
    '| round | events/s taken | batches/s | p50 / p99 | non-2xx | server busy after the round | ' +
      'events/s written (taken ÷ (round + busy after)) |',
    '|---:|---:|---:|---|---:|---:|---:|',
    ...ingest.map(
      (r, i) =>
        `| ${i + 1} | ${n(r.eventsPerSecond)} | ${n(r.result.rps)} | ${r.result.p50Ms} / ${r.result.p99Ms} ms | ` +
        `${r.result.non2xx + r.result.errors} | ${n(r.drainMs)} ms | ${n(r.writtenPerSecond)} |`,
    ),
    '',
    `Median: **${n(ingestMedian)} events/s taken**, ${n(writtenMedian)} events/s written (goal ≥ ` +
      `${n(INGEST_GOAL_EVENTS_PER_SECOND)} on one node: ${yes(writtenMedian >= INGEST_GOAL_EVENTS_PER_SECOND)}, ` +
      'counting the written rate, which is what the node sustains: beyond it batches are refused, to be sent ' +
      'again). Over the whole run the server answered that it took ' +
      `${n(acceptedBrowser)} browser events, of ${n(sentBrowser)} sent (the rest still unanswered when their ` +
      `load generator stopped); its store held ${n(storedBrowser)} once it had stopped ` +
      `(${allStored ? 'none lost' : '**outside those bounds: events were lost**'}), beside ` +
      `${n(stored.experiment_viewed ?? 0)} exposures and ${n(stored.purchase ?? 0)} purchases.`,
    '',
    `### The cached home layout beside event traffic`,
    '',
    `\`${HOME_CACHED}\` as the storefront asks for it for an anonymous visitor (\`X-Site-Id\`, \`X-Client-Id\`, ` +
      `\`Accept-Encoding: gzip, deflate, br, zstd\`), ${CONNECTIONS} connections, ${rounds} rounds of ${seconds} s ` +
      `(each after ${CLIENT_WARMUP_SECONDS} s of discarded warm-up): alone, and again while another process ` +
      `posts event batches of ${BATCH_SIZE} at a steady rate over ${BESIDE_CONNECTIONS} connections (alone ` +
      'first in odd rounds, beside first in even ones). The ' +
      'rate stands for one batch per page view (a page’s impressions, clicks and page view sent together): 100 ' +
      'page views a second is 360,000 an hour on one node, a busy peak; 250 a second is the ingestion goal itself. ' +
      'The ratio is the median over rounds of each round’s beside/alone throughput.',
    '',
    '| event traffic beside it | layout alone (medians) | layout beside the events (medians) | ' +
      'beside / alone (median of the rounds’) |',
    '|---|---|---|---|',
    ...besideLines,
    '',
    'On a machine shared with other work the rounds swing far more than the 5% the goal allows, so the run also ' +
      'measures what the event traffic costs the server, which other work does not change: its CPU time (main ' +
      'thread and PGlite worker, from `/proc`) over the same traffic with nothing else running, less its idle ' +
      `baseline, and how many cores the server kept busy serving the layout alone (median: ${fixed(aloneCores)}). ` +
      'If the server’s CPU is what limits the layout, the layout keeps 1 − (cores for the events ÷ cores for ' +
      'the layout) of its throughput beside them.',
    '',
    '| event traffic | server CPU per batch | cores it takes | layout throughput kept, from CPU time |',
    '|---|---:|---:|---:|',
    ...costLines,
  ].join('\n');
  console.log(section);
  if (options.write) {
    const file = path.resolve('bench/RESULTS.md');
    writeFileSync(file, replaceSection(readFileSync(file, 'utf8'), section, sectionMarkers('events')));
    log('bench/RESULTS.md updated (events section)');
  }
  return sim.mismatches.length === 0 && allStored;
}
