/**
 * Cold layouts at catalog scale (`npm run bench -- --cold`, or `npx tsx bench/cold.ts --sizes 20000,200000`):
 * for each size, the production server started on bench/out/data-N (the catalog generated there first if
 * absent), then
 *   - time to ready and RSS when ready;
 *   - cold home and cold concerts-category layouts one request at a time, each on a 0.1° cell not asked for
 *     before (every row a cache miss): median and p95, with the event loop's delay p99 and max meanwhile
 *     (measured inside the server by bench/loop-delay.mjs);
 *   - cold home layouts under 50 connections over further fresh cells, next to the bare node:http ceiling;
 *   - peak RSS (VmHWM).
 * Written into bench/RESULTS.md between the bench:cold markers.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Agent, request } from 'node:http';
import { parseArgs } from 'node:util';
import { rssMiB, start, stop, waitFor200, waitForLine, type Child } from './children.js';
import { loadInChild, usGridPoints } from './load.js';
import { replaceSection } from './results-file.js';
import { percentile } from './stats.js';

const { values } = parseArgs({ options: { sizes: { type: 'string', default: '20000,200000,1000000' }, 'no-write': { type: 'boolean', default: false } } });
const sizes = values.sizes.split(',').map(Number);
const SEQUENTIAL = 400;
const WARMUP = 100;
const CONCURRENT_SECONDS = 5;
const CONNECTIONS = 50;
const log = (msg: string) => console.error(`[cold ${new Date().toISOString().slice(11, 19)}] ${msg}`);

const CEILING_SERVER = `
const body = Buffer.from('{"ok":true,"items":[1,2,3]}');
require('node:http').createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
  res.end(body);
}).listen(0, '127.0.0.1', function () { console.log('ceiling listening on ' + this.address().port); });
`;

async function timed(base: string, paths: string[]): Promise<{ medianMs: number; p95Ms: number; failures: number; degraded: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const samples: number[] = [];
  let failures = 0;
  let degraded = 0;
  for (const p of paths) {
    const t = performance.now();
    const { status, body } = await new Promise<{ status: number; body: string }>((resolve) => {
      const req = request(base + p, { agent, timeout: 30_000 }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', () => resolve({ status: 0, body: '' }));
      req.end();
    });
    if (status === 200) samples.push(performance.now() - t);
    else failures++;
    if (/"status":"(timeout|error)"/.test(body)) degraded++;
  }
  agent.destroy();
  samples.sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 10) / 10;
  return { medianMs: round(percentile(samples, 50)), p95Ms: round(percentile(samples, 95)), failures, degraded };
}

function loopDelay(server: Child, file: string): { p50Ms: number; p99Ms: number; maxMs: number } {
  server.proc.kill('SIGUSR2');
  const began = Date.now();
  // The handler writes synchronously on its next turn; wait for the file to change.
  for (;;) {
    try {
      const text = readFileSync(file, 'utf8');
      if (text) {
        writeFileSync(file, '');
        return JSON.parse(text) as { p50Ms: number; p99Ms: number; maxMs: number };
      }
    } catch {
      /* not written yet */
    }
    if (Date.now() - began > 10_000) throw new Error('the server did not report its event-loop delay');
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
  }
}

async function benchSize(events: number, ceilingUrl: string) {
  const dataDir = path.resolve('bench/out', `data-${events}`);
  const loopFile = path.join(os.tmpdir(), `loop-delay-${process.pid}.json`);
  writeFileSync(loopFile, '');
  const began = performance.now();
  const server = start(process.execPath, ['--import', path.resolve('bench/loop-delay.mjs'), 'dist/server/main.js'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: '0',
      DATA_DIR: dataDir,
      CATALOG_EVENTS: String(events),
      LOG_LEVEL: 'warn',
      SESSION_SECRET: 'bench-only-session-secret-0123456789abcdef',
      SEGMENTS_WATCH: 'false',
      BENCH_LOOP_FILE: loopFile,
    },
  });
  try {
    const match = await waitForLine(server, /Storefront running at (http:\/\/[^\s]+)/, 60_000);
    const base = match[1]!;
    await waitFor200(`${base}/readyz`, server, 120_000 + events * 0.3);
    const readyMs = Math.round(performance.now() - began);
    const pid = server.proc.pid!;
    const rssReadyMiB = Math.round(rssMiB(pid));
    log(`${events} events: ready in ${(readyMs / 1000).toFixed(1)} s, RSS ${rssReadyMiB} MiB`);
    // Distinct cells for each part, none asked for twice.
    const cells = usGridPoints(WARMUP + 2 * SEQUENTIAL + 20_000).map(([lat, lng]) => `lat=${lat}&lng=${lng}`);
    await timed(base, cells.slice(0, WARMUP).map((c) => `/api/layout/home?${c}`));
    loopDelay(server, loopFile);
    const home = await timed(base, cells.slice(WARMUP, WARMUP + SEQUENTIAL).map((c) => `/api/layout/home?${c}`));
    const category = await timed(base, cells.slice(WARMUP + SEQUENTIAL, WARMUP + 2 * SEQUENTIAL).map((c) => `/api/layout/category/concerts?${c}`));
    const loop = loopDelay(server, loopFile);
    log(`cold home ${home.medianMs} / ${home.p95Ms} ms, category ${category.medianMs} / ${category.p95Ms} ms, loop p99 ${loop.p99Ms} max ${loop.maxMs} ms`);
    const ceiling = await loadInChild({ url: ceilingUrl, connections: CONNECTIONS, seconds: CONCURRENT_SECONDS, warmupSeconds: 1 });
    const concurrentPaths = cells.slice(WARMUP + 2 * SEQUENTIAL).map((c) => `/api/layout/home?${c}`);
    const concurrent = await loadInChild({ url: base, connections: CONNECTIONS, seconds: CONCURRENT_SECONDS, warmupSeconds: 0, paths: concurrentPaths, settlePid: pid });
    const concurrentLoop = loopDelay(server, loopFile);
    const hwmMiB = Math.round(rssMiB(pid, 'VmHWM'));
    log(`cold home under ${CONNECTIONS} connections: ${Math.round(concurrent.rps)} req/s (ceiling ${Math.round(ceiling.rps)}), peak RSS ${hwmMiB} MiB`);
    return { events, readyMs, rssReadyMiB, hwmMiB, home, category, loop, concurrent, concurrentLoop, ceiling };
  } finally {
    await stop(server, 10_000);
  }
}

const ceilingChild = start(process.execPath, ['-e', CEILING_SERVER]);
const ceilingPort = (await waitForLine(ceilingChild, /ceiling listening on (\d+)/, 10_000))[1];
const results = [];
try {
  for (const events of sizes) results.push(await benchSize(events, `http://127.0.0.1:${ceilingPort}`));
} finally {
  await stop(ceilingChild);
}
const n = (v: number) => v.toLocaleString('en-US');
const lines = [
  `Command: \`npm run bench -- --cold\` (${sizes.map(n).join(', ')} events) · ${new Date().toISOString().slice(0, 10)} · ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB · server in production mode, one process`,
  '',
  '| events | ready | RSS ready / peak | cold home median / p95 | cold `/category/concerts` median / p95 | event loop p99 / max (one at a time) | cold home, 50 connections | of ceiling | event loop p99 / max (50 connections) |',
  '|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ...results.map(
    (r) =>
      `| ${n(r.events)} | ${(r.readyMs / 1000).toFixed(1)} s | ${n(r.rssReadyMiB)} / ${n(r.hwmMiB)} MiB | ${r.home.medianMs} / ${r.home.p95Ms} ms | ${r.category.medianMs} / ${r.category.p95Ms} ms | ${r.loop.p99Ms} / ${r.loop.maxMs} ms | ${n(Math.round(r.concurrent.rps))} req/s (p50 ${r.concurrent.p50Ms} ms) | ${Math.round((100 * r.concurrent.rps) / r.ceiling.rps)}% | ${r.concurrentLoop.p99Ms} / ${r.concurrentLoop.maxMs} ms |`,
  ),
  '',
  `Each cold request asks for a 0.1° cell no earlier request asked for (${SEQUENTIAL} per kind, after ${WARMUP} warm-up cells), so every row misses its cache. ` +
    `Rows answered \`timeout\` or \`error\`: ${results.map((r) => `${n(r.events)}: ${r.home.degraded + r.category.degraded}`).join(', ')}; failed requests: ${results.map((r) => `${n(r.events)}: ${r.home.failures + r.category.failures}`).join(', ')}. ` +
    `The 50-connection run uses further fresh cells for ${CONCURRENT_SECONDS} s; the ceiling is a bare \`node:http\` server answering a fixed small JSON body, measured in the same run with the same client.`,
];
console.log(lines.join('\n'));
if (!values['no-write']) {
  const markers = { start: '<!-- bench:cold:start -->', end: '<!-- bench:cold:end -->' };
  writeFileSync('bench/RESULTS.md', replaceSection(readFileSync('bench/RESULTS.md', 'utf8'), `## Cold layouts at scale\n\n${lines.join('\n')}`, markers));
}
