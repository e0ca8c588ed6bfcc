/**
 * The two fast-lane goals alone, to loop on them quickly: the ceiling, the cached home layout (bare and as the
 * storefront asks for it) and suggest, in the rounds `npm run bench` measures them in (same warm-up, same
 * client per run, same summary over rounds against the ceiling of the same round). Printed only.
 *
 *   node --import tsx bench/lane-goals.ts [--rounds 5] [--seconds 2] [--warmup 3] [--only homeShopper,suggest]
 *                                         [--cpu-prof DIR] [--cpu]
 *
 * `--cpu` measures instead the server's CPU time per answered request (all its threads, from /proc), run by run:
 * on a machine other work shares, what a change saves shows there far more steadily than in req/s.
 * `--cpu-prof DIR` runs the server under `node --cpu-prof` and leaves its profile in DIR when it stops.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { performerNames } from './catalog-on-disk.js';
import { cpuTicks, settle, SETTLE_MAX_MS, startCeiling, startStorefront, stop, stopAll } from './children.js';
import { n } from './format.js';
import { drainer, measureRounds } from './load-rounds.js';
import { PERFORMER_NAMES, requestLists, scenarios, UNLIMITED, type RowKey, type Scenario } from './load-plan.js';
import { loadInChild } from './load.js';
import { percentile } from './stats.js';
import { shopperHeaders } from './size-run.js';

const EVENTS = 20_000;
const DEFAULT_ROWS: RowKey[] = ['homeCached', 'homeShopper', 'suggest'];

async function main() {
  const { values } = parseArgs({
    options: {
      rounds: { type: 'string', default: '5' },
      seconds: { type: 'string', default: '2' },
      warmup: { type: 'string', default: '3' },
      only: { type: 'string' },
      'cpu-prof': { type: 'string' },
      cpu: { type: 'boolean', default: false },
    },
  });
  const only = values.only ? (values.only.split(',') as RowKey[]) : DEFAULT_ROWS;
  const profileDir = values['cpu-prof'];
  const log = (m: string) => console.error(`[lane-goals] ${m}`);
  const ceiling = await startCeiling();
  const { server, pid, ready } = startStorefront(EVENTS, {
    ...(profileDir ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${path.resolve(profileDir)}`] } : {}),
    env: {
      RATE_LIMIT_SUGGEST_PER_MINUTE: UNLIMITED,
      RATE_LIMIT_SEARCH_PER_MINUTE: UNLIMITED,
      RATE_LIMIT_SESSIONS_PER_MINUTE: UNLIMITED,
    },
  });
  try {
    const { base } = await ready;
    const lists = requestLists(await performerNames(path.resolve('bench/out', `data-${EVENTS}`), PERFORMER_NAMES));
    const chosen = scenarios(base, lists, await shopperHeaders(base)).filter((sc) => only.includes(sc.key));
    if (values.cpu) {
      await cpuPerRequest(chosen, pid, Number(values.rounds), Number(values.seconds), log);
      return;
    }
    const { drain } = drainer(pid, log);
    const { rows, ceiling: ceilings } = await measureRounds({
      scenarios: chosen,
      ceilingUrl: ceiling.url,
      pid,
      rounds: Number(values.rounds),
      seconds: Number(values.seconds),
      warmupSeconds: Number(values.warmup),
      drain,
      log,
    });
    console.log(`ceiling per round: ${ceilings.map((c) => n(Math.round(c.rps))).join(', ')} req/s`);
    for (const { key, result: r } of rows)
      console.log(
        `${key}: ${n(Math.round(r.rps))} req/s, ${(r.ofCeiling * 100).toFixed(1)}% of the ceiling, ` +
          `p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms (worst round ${r.worstP99Ms}), ` +
          `${n(Math.round(r.bytesPerResponse))} bytes per response, non-2xx ${r.non2xx}, errors ${r.errors}`,
      );
  } finally {
    // SIGTERM lets the server write its CPU profile on the way out.
    await stop(server, 15_000);
    await stop(ceiling.child);
  }
}

/** Linux counts 100 clock ticks a second. */
const TICK_MS = 10;

/** The server's CPU milliseconds per 1,000 answered requests of each scenario: medians over rounds. */
async function cpuPerRequest(
  chosen: Scenario[],
  pid: number,
  rounds: number,
  seconds: number,
  log: (m: string) => void,
) {
  const perRun = new Map<RowKey, number[]>(chosen.map((sc) => [sc.key, []]));
  for (let round = 0; round <= rounds; round++) {
    for (const sc of chosen) {
      const { key, label: _label, cold: _cold, warmupPaths: _w, ...loadOptions } = sc;
      await settle(pid, SETTLE_MAX_MS);
      const before = cpuTicks(pid);
      const result = await loadInChild({ ...loadOptions, seconds, warmupSeconds: 0 });
      await settle(pid, SETTLE_MAX_MS);
      const cpuMs = (cpuTicks(pid) - before) * TICK_MS;
      // The first round warms the server up and is not counted.
      if (round > 0) perRun.get(key)!.push((cpuMs / result.requests) * 1000);
      log(`${key}: ${result.requests} requests, ${cpuMs} ms CPU${round === 0 ? ' (warm-up)' : ''}`);
    }
  }
  for (const sc of chosen) {
    const xs = perRun.get(sc.key)!.sort((a, b) => a - b);
    console.log(
      `${sc.key}: server CPU ${percentile(xs, 50).toFixed(0)} ms per 1,000 requests ` +
        `(rounds: ${xs.map((x) => x.toFixed(0)).join(', ')})`,
    );
  }
}

main().catch(async (err: unknown) => {
  console.error(err);
  await stopAll();
  process.exit(1);
});
