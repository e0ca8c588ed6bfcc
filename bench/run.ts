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
 *   npm run bench -- --catalog            only the live catalog at 1,000,000 events (bench/catalog-live.ts;
 *                                         --sizes N for another size): the import command, documents API
 *                                         imports, cached layouts during an import, and how soon an update on
 *                                         one node shows on another; written between the bench:catalog markers
 *   npm run bench -- --faults             only the store fault run (bench/faults.ts): PostgreSQL crashed under a
 *                                         burst of carts and checkouts; written between the bench:faults markers
 *   npm run bench -- --events             only first-party events (bench/events.ts): the home-layout experiment
 *                                         simulated through the API (--guests 20000) and its readout, the sample
 *                                         ratio check, POST /api/events at 50 connections, and the cached layout
 *                                         beside event traffic (rounds of 5 s unless --seconds); about 12 minutes;
 *                                         written between the bench:events markers
 *   npm run bench -- --studio             only the studio's records (bench/studio.ts): the schedule poll every node
 *                                         makes each second and the lookup of a studio key, on files and PGlite;
 *                                         about a minute; written between the bench:studio markers
 *   --rounds 5 --seconds 2 --warmup 3     rounds of measured seconds per endpoint, after one discarded warm-up
 *   --lighthouse-runs 1                   runs per page; the median run (by performance score) is reported
 *   --no-lighthouse --no-write            skip Lighthouse; print without touching RESULTS.md
 *   --time-limit <minutes>                hard stop; by default 10 minutes plus 3 per size plus 20 per million events
 *
 * The options are read in bench-options.ts; the load benchmark itself is load-bench.ts.
 */
import { readBenchOptions } from './bench-options.js';
import { runCatalogBench } from './catalog-live.js';
import { stopAll } from './children.js';
import { runColdBench } from './cold.js';
import { ensureBuild } from './ensure-build.js';
import { runEventsBench } from './events.js';
import { runFaultBench } from './faults.js';
import { runLoadBench } from './load-bench.js';
import { runStudioBench } from './studio.js';

/** The live catalog run's size unless `--sizes` names one. */
const CATALOG_BENCH_EVENTS = 1_000_000;

const options = readBenchOptions();
const { command, sizes } = options;
const write = !options.noWrite;

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
setTimeout(
  () => void bail(`time limit of ${options.timeLimitMinutes} minutes reached`, 1),
  options.timeLimitMinutes * 60_000,
).unref();

const log = (msg: string) => console.error(`[bench ${new Date().toISOString().slice(11, 19)}] ${msg}`);

try {
  if (options.faults) {
    if (!(await runFaultBench({ command, write, log }))) process.exitCode = 1;
  } else if (options.studio) {
    console.log(await runStudioBench({ command, write, log }));
  } else if (options.events) {
    const run = {
      command,
      write,
      log,
      guests: options.guests,
      rounds: options.rounds,
      ...(options.secondsGiven ? { seconds: options.seconds } : {}),
    };
    if (!(await runEventsBench(run))) process.exitCode = 1;
  } else if (options.catalog) {
    await ensureBuild(log);
    console.log(
      await runCatalogBench({
        events: options.sizesGiven ? sizes.at(-1)! : CATALOG_BENCH_EVENTS,
        command,
        write,
        log,
      }),
    );
  } else if (options.cold) {
    await ensureBuild(log);
    console.log(await runColdBench({ sizes, command, write, log }));
  } else {
    await runLoadBench(options, log, () => stopping);
  }
} catch (err) {
  console.error(err);
  process.exitCode = 1;
} finally {
  if (!stopping) await stopAll();
}
