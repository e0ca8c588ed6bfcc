/**
 * Cold layouts at catalog scale (`npm run bench -- --cold`, by default at 20,000, 200,000 and 1,000,000 events):
 * for each size, the production server started on bench/out/data-N (the catalog generated there first if
 * absent) twice: once without the engine snapshot (read and index the files, then save the snapshot; time to
 * ready and peak RSS), then again from the snapshot, and on that one
 *   - time to ready and RSS when ready;
 *   - cold home and cold concerts-category layouts one request at a time, each on a 0.1° cell not asked for
 *     before (every row a cache miss): median and p95, with the event loop's delay p99 and max meanwhile
 *     (measured inside the server by bench/loop-delay.mjs, preloaded with `--import`);
 *   - cold home layouts under 50 connections over further fresh cells, next to the bare node:http ceiling;
 *   - peak RSS (VmHWM).
 * Written into bench/RESULTS.md between the bench:cold markers.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SNAPSHOT_FILE } from '../server/search/create-engine.js';
import { rssMiB, sleep, startCeiling, startStorefront, stop, type Child } from './children.js';
import { n } from './format.js';
import { DEGRADED_ROW, loadInChild, rotate, sequential, usGridPoints } from './load.js';
import { gitState, machineLine, replaceSection, sectionMarkers } from './results-file.js';

const SEQUENTIAL = 400;
const WARMUP = 100;
const CONCURRENT_SECONDS = 5;
const CONNECTIONS = 50;

interface LoopDelay {
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

/** Asks the server for its event-loop delay since the last ask (bench/loop-delay.mjs answers SIGUSR2). */
async function loopDelay(server: Child, file: string): Promise<LoopDelay> {
  writeFileSync(file, '');
  server.proc.kill('SIGUSR2');
  for (let waited = 0; waited < 10_000; waited += 20) {
    const text = readFileSync(file, 'utf8');
    if (text) return JSON.parse(text) as LoopDelay;
    await sleep(20);
  }
  throw new Error('the server did not report its event-loop delay');
}

/** A start from the catalog files alone (the snapshot removed first): time to ready and peak RSS. */
async function firstStart(events: number, log: (m: string) => void) {
  rmSync(path.resolve('bench/out', `data-${events}`, 'catalog', SNAPSHOT_FILE), { force: true });
  const { server, pid, ready } = startStorefront(events);
  try {
    const { readyMs } = await ready;
    const hwmMiB = rssMiB(pid, 'VmHWM');
    log(
      `${events} events from the files: ready in ${(readyMs / 1000).toFixed(1)} s, peak RSS ${hwmMiB.toFixed(0)} MiB`,
    );
    return { readyMs, hwmMiB };
  } finally {
    await stop(server, 10_000);
  }
}

async function benchSize(events: number, ceilingUrl: string, log: (m: string) => void) {
  const fromFiles = await firstStart(events, log);
  const loopFile = path.join(os.tmpdir(), `loop-delay-${process.pid}.json`);
  const { server, pid, ready } = startStorefront(events, {
    nodeArgs: ['--import', path.resolve('bench/loop-delay.mjs')],
    env: { BENCH_LOOP_FILE: loopFile },
  });
  try {
    const { base, readyMs } = await ready;
    const rssReadyMiB = rssMiB(pid);
    log(
      `${events} events from the snapshot: ready in ${(readyMs / 1000).toFixed(1)} ` +
        `s, RSS ${rssReadyMiB.toFixed(0)} MiB`,
    );
    // Distinct cells for each part, none asked for twice.
    const cells = usGridPoints(WARMUP + 2 * SEQUENTIAL + 20_000).map(([lat, lng]) => `lat=${lat}&lng=${lng}`);
    const oneByOne = (paths: string[]) =>
      sequential(base, rotate(paths), {
        maxRequests: paths.length,
        seconds: Infinity,
        countMatching: new RegExp(DEGRADED_ROW),
      });
    await oneByOne(cells.slice(0, WARMUP).map((c) => `/api/layout/home?${c}`));
    await loopDelay(server, loopFile);
    const home = await oneByOne(cells.slice(WARMUP, WARMUP + SEQUENTIAL).map((c) => `/api/layout/home?${c}`));
    const category = await oneByOne(
      cells.slice(WARMUP + SEQUENTIAL, WARMUP + 2 * SEQUENTIAL).map((c) => `/api/layout/category/concerts?${c}`),
    );
    const loop = await loopDelay(server, loopFile);
    const ceiling = await loadInChild({
      url: ceilingUrl,
      connections: CONNECTIONS,
      seconds: CONCURRENT_SECONDS,
      warmupSeconds: 1,
    });
    const concurrentPaths = cells.slice(WARMUP + 2 * SEQUENTIAL).map((c) => `/api/layout/home?${c}`);
    const concurrent = await loadInChild({
      url: base,
      connections: CONNECTIONS,
      seconds: CONCURRENT_SECONDS,
      warmupSeconds: 0,
      paths: concurrentPaths,
      settlePid: pid,
    });
    const concurrentLoop = await loopDelay(server, loopFile);
    const hwmMiB = rssMiB(pid, 'VmHWM');
    log(
      `cold home ${home.p50Ms.toFixed(1)} / ${home.p95Ms.toFixed(1)} ms one at ` +
        `a time, ${Math.round(concurrent.rps)} req/s under ${CONNECTIONS} ` +
        `connections`,
    );
    return {
      events,
      fromFiles,
      readyMs,
      rssReadyMiB,
      hwmMiB,
      home,
      category,
      loop,
      concurrent,
      concurrentLoop,
      ceiling,
    };
  } finally {
    await stop(server, 10_000);
  }
}

/** Runs every size and writes the section (unless `write` is false); returns the section's text. */
export async function runColdBench(options: {
  sizes: number[];
  command: string;
  write: boolean;
  log: (m: string) => void;
}): Promise<string> {
  const loadAtStart = os.loadavg()[0]!;
  const startedAt = new Date();
  const ceiling = await startCeiling();
  const results = [];
  try {
    for (const events of options.sizes) results.push(await benchSize(events, ceiling.url, options.log));
  } finally {
    await stop(ceiling.child);
  }
  const ms = (v: number) => v.toFixed(1);
  const section = [
    '## Cold layouts at scale',
    '',
    `Date: ${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC. ` +
      `Command: \`${options.command}\`. Machine: ${machineLine(loadAtStart)} ` +
      `(shared). ` +
      `Server: \`node dist/server/main.js\` ` +
      `(${gitState(['server', 'shared', 'segments'])}), production mode, one ` +
      `process, embedded engine and PGlite.`,
    '',
    '| events | ready from the files (peak RSS) | ready from the snapshot | ' +
      'RSS ready / peak | cold home median / p95 | cold `/category/concerts` ' +
      'median / p95 | event loop p99 / max (one at a time) | cold home, 50 ' +
      'connections | of ceiling | event loop p99 / max (50 connections) |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...results.map(
      (r) =>
        `| ${n(r.events)} | ${(r.fromFiles.readyMs / 1000).toFixed(1)} s (${n(r.fromFiles.hwmMiB)} ` +
        `MiB) | ${(r.readyMs / 1000).toFixed(1)} s | ${n(r.rssReadyMiB)} / ${n(r.hwmMiB)} ` +
        `MiB | ${ms(r.home.p50Ms)} / ${ms(r.home.p95Ms)} ms | ${ms(r.category.p50Ms)} ` +
        `/ ${ms(r.category.p95Ms)} ms | ${r.loop.p99Ms} / ${r.loop.maxMs} ms | ${n(r.concurrent.rps)} ` +
        `req/s (p50 ${r.concurrent.p50Ms} ms) | ` +
        `${((100 * r.concurrent.rps) / r.ceiling.rps).toFixed(1)}% | ${r.concurrentLoop.p99Ms} ` +
        `/ ${r.concurrentLoop.maxMs} ms |`,
    ),
    '',
    'The first start reads and validates the JSON Lines files, indexes them ' +
      'and saves the engine snapshot beside them; the second opens that ' +
      'snapshot, and the rest of the figures are of that second process. ' +
      `Each cold request asks for a 0.1° cell no earlier request asked for (${SEQUENTIAL} ` +
      `per kind, after ${WARMUP} warm-up cells), so every row misses its cache. ` +
      `Answers with a row marked \`timeout\` or \`error\`: ` +
      `${results.map((r) => `${n(r.events)}: ${r.home.matched + r.category.matched}`).join(', ')}; ` +
      `failed requests: ` +
      `${results.map((r) => `${n(r.events)}: ${r.home.failures + r.category.failures}`).join(', ')}. ` +
      `The 50-connection run uses further fresh cells for ${CONCURRENT_SECONDS} ` +
      `s, right after the ceiling (a bare \`node:http\` server answering a ` +
      `fixed small JSON body) is measured with the same client. ` +
      'Under 50 connections the process is saturated, so its event-loop delay ' +
      'there is queueing behind other requests; the one-at-a-time figures show ' +
      'single long tasks.',
  ].join('\n');
  if (options.write)
    writeFileSync(
      'bench/RESULTS.md',
      replaceSection(readFileSync('bench/RESULTS.md', 'utf8'), section, sectionMarkers('cold')),
    );
  return section;
}
