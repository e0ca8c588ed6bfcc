/**
 * What a server render costs next to the data it draws (`node --import tsx bench/render-cost.ts [--events N]
 * [--sequential N] [--seconds S] [--rounds R] [--cpu-prof DIR]`): one production server on bench/out/data-N
 * (20,000 events unless said), then
 *   - one request at a time, a cold home layout (`/api/layout/home?lat=…&lng=…`) and a fully cold home page
 *     (`/` with cookie `shopperLocation=<lat>,<lng>`, as a browser asks for it) in alternation, each on a 0.1°
 *     cell not asked for before (every row a cache miss): medians and their ratio;
 *   - the same two under 50 connections over further fresh cells, in alternating rounds, each with a browser's
 *     `Accept-Encoding` (`--page-encoding` to change it): req/s and their ratio;
 *   - the home page's size, raw and gzip.
 * Alternating the two in one run lets a burst of other work on the shared machine weigh on both alike: read
 * the ratios. `--cpu-prof DIR` starts the server with `node --cpu-prof` (a profile per run, written on exit).
 */
import { Agent, request } from 'node:http';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { cpuTicks, settle, startStorefront, stop } from './children.js';
import { loadInChild, usGridPoints, type PlannedRequest } from './load.js';
import { CONNECTIONS, PAGE_REQUEST_HEADERS, UNLIMITED } from './load-plan.js';
import { percentile } from './stats.js';

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '20000' },
    sequential: { type: 'string', default: '200' },
    seconds: { type: 'string', default: '4' },
    rounds: { type: 'string', default: '3' },
    'cpu-prof': { type: 'string' },
    /** Measure one of the two alone (for a profile of it). */
    only: { type: 'string' },
    /** The pages' `Accept-Encoding` under load (a browser's by default; `identity` shows what compressing costs). */
    'page-encoding': { type: 'string' },
    /** A flag for the server's node (repeatable): `--node-arg=--max-semi-space-size=32`. */
    'node-arg': { type: 'string', multiple: true },
  },
});
const EVENTS = Number(values.events);
const SEQUENTIAL = Number(values.sequential);
const SECONDS = Number(values.seconds);
const ROUNDS = Number(values.rounds);
const WARMUP = 30;
const ONLY = values.only as 'layout' | 'page' | undefined;

type Planned = { path: string; headers: Record<string, string> };

/** One request over a kept-alive connection: its status, body and time in ms. */
function timed(agent: Agent, base: string, req: Planned): Promise<{ status: number; body: string; ms: number }> {
  const t = performance.now();
  return new Promise((resolve) => {
    const r = request(base + req.path, { agent, headers: req.headers, timeout: 10_000 }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, ms: performance.now() - t }));
      res.on('error', () => resolve({ status: 0, body, ms: 0 }));
    });
    r.on('timeout', () => r.destroy());
    r.on('error', () => resolve({ status: 0, body: '', ms: 0 }));
    r.end();
  });
}

const median = (xs: number[]) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    50,
  );
const fmt = (x: number, digits = 2) => x.toFixed(digits);

async function main() {
  const profDir = values['cpu-prof'] ? path.resolve(values['cpu-prof']) : undefined;
  const { server, pid, ready } = startStorefront(EVENTS, {
    nodeArgs: [...(profDir ? ['--cpu-prof', '--cpu-prof-dir', profDir] : []), ...(values['node-arg'] ?? [])],
    env: {
      RATE_LIMIT_SUGGEST_PER_MINUTE: UNLIMITED,
      RATE_LIMIT_SEARCH_PER_MINUTE: UNLIMITED,
      RATE_LIMIT_SESSIONS_PER_MINUTE: UNLIMITED,
      RATE_LIMIT_LISTINGS_PER_MINUTE: UNLIMITED,
    },
  });
  try {
    const { base } = await ready;
    // Distinct cells for each part, none asked for twice; pages and layouts never share a cell.
    const need = 2 * (WARMUP + SEQUENTIAL) + 2 * 20_000;
    const points = usGridPoints(need);
    let next = 0;
    const cell = () => points[next++]!;
    const layoutReq = (): Planned => {
      const [lat, lng] = cell();
      return { path: `/api/layout/home?lat=${lat}&lng=${lng}`, headers: {} };
    };
    const pageReq = (): Planned => {
      const [lat, lng] = cell();
      return {
        path: '/',
        headers: { ...PAGE_REQUEST_HEADERS, 'accept-encoding': 'identity', cookie: `shopperLocation=${lat},${lng}` },
      };
    };

    const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
    const line = (name: string, xs: number[]) =>
      `  ${name} p50 ${fmt(median(xs))} ms  p95 ${fmt(percentile(sorted(xs), 95))} ms`;
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const layoutMs: number[] = [];
    const pageMs: number[] = [];
    let pageBody = '';
    let failures = 0;
    for (let i = 0; i < WARMUP + SEQUENTIAL; i++) {
      const l = ONLY === 'page' ? undefined : await timed(agent, base, layoutReq());
      const p = ONLY === 'layout' ? undefined : await timed(agent, base, pageReq());
      if ((l && l.status !== 200) || (p && p.status !== 200)) failures++;
      if (i < WARMUP) continue;
      if (l) layoutMs.push(l.ms);
      if (p) {
        pageMs.push(p.ms);
        pageBody = p.body;
      }
    }
    agent.destroy();
    const home = await timed(new Agent(), base, { path: '/', headers: { accept: 'text/html' } });
    const data = /<script type="application\/json"[^>]*>([\s\S]*?)<\/script>/.exec(home.body)?.[1] ?? '';
    console.log(`one at a time (${SEQUENTIAL} each, alternating, ${failures} failures):`);
    if (layoutMs.length) console.log(line('cold home layout', layoutMs));
    if (pageMs.length) console.log(line('fully cold page ', pageMs));
    if (layoutMs.length && pageMs.length) console.log(`  page / layout     ${fmt(median(pageMs) / median(layoutMs))}×`);
    console.log(
      `home page: ${fmt(Buffer.byteLength(home.body) / 1000, 1)} KB raw, ` +
        `${fmt(gzipSync(home.body).length / 1000, 1)} KB gzip, page data ${fmt(data.length / 1000, 1)} KB; ` +
        `a cold page ${fmt(Buffer.byteLength(pageBody) / 1000, 1)} KB raw`,
    );

    const lists = {
      layout: Array.from({ length: 20_000 }, layoutReq) as PlannedRequest[],
      page: Array.from({ length: 20_000 }, () => {
        const { path: p, headers } = pageReq();
        return { path: p, headers: { cookie: headers.cookie! } };
      }) as PlannedRequest[],
    };
    const encoding = values['page-encoding'];
    const pageHeaders = encoding ? { ...PAGE_REQUEST_HEADERS, 'accept-encoding': encoding } : PAGE_REQUEST_HEADERS;
    const cursors = { layout: 0, page: 0 };
    const rps = { layout: [] as number[], page: [] as number[] };
    const cpuMs = { layout: [] as number[], page: [] as number[] };
    const run = async (kind: 'layout' | 'page') => {
      const ticks = cpuTicks(pid);
      const r = await loadInChild({
        url: base,
        connections: CONNECTIONS,
        seconds: SECONDS,
        warmupSeconds: 0,
        // Both as a browser asks: the storefront's fetch of the layout sends the same Accept-Encoding as a page.
        headers: kind === 'page' ? pageHeaders : { 'accept-encoding': pageHeaders['accept-encoding'] },
        paths: lists[kind].slice(cursors[kind]),
      });
      // Let the requests left waiting at the end of the run finish, their CPU counted too.
      await settle(pid, 20_000);
      cursors[kind] += r.sent;
      rps[kind].push(r.rps);
      // Linux counts 100 ticks a second.
      cpuMs[kind].push(((cpuTicks(pid) - ticks) * 10) / Math.max(1, r.sent));
      const cpu = fmt(cpuMs[kind].at(-1)!, 1);
      return `${kind} ${fmt(r.rps, 0)} req/s (p50 ${r.p50Ms} ms, non-2xx ${r.non2xx}, server CPU ${cpu} ms a request)`;
    };
    for (let round = 0; round < ROUNDS; round++) {
      const said = [ONLY === 'page' ? '' : await run('layout'), ONLY === 'layout' ? '' : await run('page')];
      console.log(`  round ${round + 1}: ${said.filter(Boolean).join(', ')}`);
    }
    const parts = (['layout', 'page'] as const)
      .filter((k) => rps[k].length)
      .map((k) => `cold ${k} ${fmt(median(rps[k]), 0)} req/s, CPU ${fmt(median(cpuMs[k]), 1)} ms a request`);
    const ratio =
      rps.layout.length && rps.page.length
        ? `; page/layout ${fmt((100 * median(rps.page)) / median(rps.layout), 0)}%`
        : '';
    console.log(`${CONNECTIONS} connections (median of ${ROUNDS} rounds of ${SECONDS} s): ${parts.join(', ')}${ratio}`);
  } finally {
    await stop(server, 20_000);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
