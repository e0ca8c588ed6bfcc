/**
 * HTTP load with autocannon: a warm-up whose numbers are thrown away, measured runs, and their summary over
 * rounds (each round paired with a ceiling run, so a burst of other work on the machine moves both).
 */
import { spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { percentile } from './stats.js';

/** One request of a list sent in turn: a path, or a path with headers of its own (added to the run's `headers`). */
export type PlannedRequest = string | { path: string; headers: Record<string, string> };

export interface LoadOptions {
  url: string;
  connections: number;
  seconds: number;
  /** Requests to send in turn (one shared cursor across connections); the URL's own path when absent. */
  paths?: () => PlannedRequest;
  /** Request headers sent with every request. */
  headers?: Record<string, string>;
  /** Sees every response body (costs the load generator a little CPU, so only where needed). */
  inspect?: (body: string) => void;
}

/** One measured run. */
export interface LoadResult {
  connections: number;
  seconds: number;
  requests: number;
  /** Requests sent, answered or not: autocannon stops at the end of its time without waiting for the rest. */
  sent: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  /** Connection errors and timeouts. */
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodes: Record<string, number>;
  /** Bytes received, headers included. */
  bytes: number;
}

export async function load(options: LoadOptions): Promise<LoadResult> {
  const req: autocannon.Request = { method: 'GET' };
  const { paths, inspect } = options;
  if (paths) {
    req.setupRequest = (r: autocannon.Request) => {
      const next = paths();
      // autocannon has merged the run's headers into `r.headers` by now.
      return typeof next === 'string'
        ? { ...r, path: next }
        : { ...r, path: next.path, headers: { ...r.headers, ...next.headers } };
    };
  }
  if (inspect) req.onResponse = (_status: number, body: string) => inspect(body);
  const r = await autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.seconds,
    // A response slower than this counts as a timeout (an error), not as a latency sample.
    timeout: 10,
    ...(options.headers ? { headers: options.headers } : {}),
    ...(paths || inspect ? { requests: [req] } : {}),
  });
  return resultOf(r, options.connections);
}

/** autocannon's result as a `LoadResult`. */
export function resultOf(r: autocannon.Result, connections: number): LoadResult {
  return {
    connections,
    seconds: r.duration,
    requests: r.requests.total,
    sent: r.requests.sent,
    rps: r.duration > 0 ? r.requests.total / r.duration : 0,
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    errors: r.errors,
    timeouts: r.timeouts,
    non2xx: r.non2xx,
    statusCodes: Object.fromEntries(Object.entries(r.statusCodeStats ?? {}).map(([code, s]) => [code, s.count ?? 0])),
    bytes: r.throughput.total,
  };
}

/** A run for `loadInChild`: lists of paths instead of generators, and a pattern to count in the bodies. */
export interface ChildLoadOptions {
  url: string;
  connections: number;
  seconds: number;
  /** Seconds of the same load first, thrown away: the new process's client warms up on this endpoint. */
  warmupSeconds: number;
  /** Paths (or paths with headers of their own) sent in turn; the URL's own path when absent. */
  paths?: PlannedRequest[];
  /** Paths for the warm-up when they must differ (a cache-miss run must not warm its own keys). */
  warmupPaths?: PlannedRequest[];
  headers?: Record<string, string>;
  /** A regular expression: the result says in how many bodies it matched. */
  countMatching?: string;
  /**
   * The server's process id: after the warm-up, wait for it to go idle, so requests the warm-up left behind
   * (a slow endpoint's last ones) are not queued in front of the measured run.
   */
  settlePid?: number;
}

const CHILD = fileURLToPath(new URL('./load-child.ts', import.meta.url));

/** The run in a fresh process (see load-child.ts for why); options go on stdin, as path lists can be long. */
export function loadInChild(options: ChildLoadOptions): Promise<LoadResult & { matched: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (err = (err + c.toString('utf8')).slice(-4000)));
    child.on('error', reject);
    child.on('exit', (code) => {
      const last = out.trim().split('\n').at(-1) ?? '';
      if (code !== 0 || !last.startsWith('{'))
        reject(new Error(`load child exited ${code}: ${err || out.slice(-2000)}`));
      else resolve(JSON.parse(last) as LoadResult & { matched: number });
    });
    child.stdin.end(JSON.stringify(options));
  });
}

export interface LoadSummary {
  connections: number;
  rounds: number;
  requests: number;
  /** Sent but neither answered nor failed when their round ended. */
  unanswered: number;
  /** Medians over the rounds. */
  rps: number;
  p50Ms: number;
  p99Ms: number;
  worstP99Ms: number;
  /** Median over the rounds of this run's req/s over the ceiling's in the same round. */
  ofCeiling: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodes: Record<string, number>;
  bytesPerResponse: number;
}

const median = (xs: number[]) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    50,
  );

/** `ceilings[i]` is the ceiling run of the round `runs[i]` was measured in. */
export function summarize(runs: LoadResult[], ceilings: LoadResult[]): LoadSummary {
  const sum = (f: (r: LoadResult) => number) => runs.reduce((a, r) => a + f(r), 0);
  const statusCodes: Record<string, number> = {};
  for (const r of runs)
    for (const [code, k] of Object.entries(r.statusCodes)) statusCodes[code] = (statusCodes[code] ?? 0) + k;
  const requests = sum((r) => r.requests);
  return {
    connections: runs[0]?.connections ?? 0,
    rounds: runs.length,
    requests,
    unanswered: sum((r) => Math.max(0, r.sent - r.requests - r.errors)),
    rps: median(runs.map((r) => r.rps)),
    p50Ms: median(runs.map((r) => r.p50Ms)),
    p99Ms: median(runs.map((r) => r.p99Ms)),
    worstP99Ms: Math.max(...runs.map((r) => r.p99Ms)),
    ofCeiling: median(runs.map((r, i) => r.rps / (ceilings[i]?.rps ?? NaN))),
    errors: sum((r) => r.errors),
    timeouts: sum((r) => r.timeouts),
    non2xx: sum((r) => r.non2xx),
    statusCodes,
    bytesPerResponse: requests > 0 ? sum((r) => r.bytes) / requests : NaN,
  };
}

/**
 * Latency one request at a time over one kept-alive connection, timed here to the microsecond (autocannon's
 * histogram counts whole milliseconds): the latency a single shopper sees with no queue in front of them.
 */
/** A layout answer with a row marked `timeout` or `error`. */
export const DEGRADED_ROW = '"status":"(timeout|error)"';

export async function sequential(
  base: string,
  paths: () => string,
  options: { maxRequests: number; seconds: number; countMatching?: RegExp },
) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const samples: number[] = [];
  let failures = 0;
  let matched = 0;
  const deadline = performance.now() + options.seconds * 1000;
  try {
    for (let i = 0; i < options.maxRequests && performance.now() < deadline; i++) {
      const t = performance.now();
      const status = await new Promise<number>((resolve) => {
        const req = request(base + paths(), { agent, timeout: 10_000 }, (res) => {
          let body = '';
          if (options.countMatching) res.setEncoding('utf8').on('data', (c: string) => (body += c));
          else res.resume();
          res.on('end', () => {
            if (options.countMatching?.test(body)) matched++;
            resolve(res.statusCode ?? 0);
          });
          res.on('error', () => resolve(0));
        });
        req.on('timeout', () => req.destroy());
        req.on('error', () => resolve(0));
        req.end();
      });
      if (status >= 200 && status < 300) samples.push(performance.now() - t);
      else failures++;
    }
  } finally {
    agent.destroy();
  }
  samples.sort((a, b) => a - b);
  return {
    requests: samples.length + failures,
    failures,
    matched,
    p50Ms: percentile(samples, 50),
    p95Ms: percentile(samples, 95),
    p99Ms: percentile(samples, 99),
  };
}

/** Rotates through a list forever from one shared cursor. */
export function rotate<T>(items: readonly T[]): () => T {
  if (items.length === 0) throw new Error('nothing to rotate through');
  let i = 0;
  return () => items[i++ % items.length]!;
}

/**
 * Distinct points on a 0.1° grid over the contiguous United States (the layout rounds coordinates to 0.1°, so
 * each point is its own row-cache key), in a fixed pseudo-random order; `skip` leaves out an earlier set.
 */
export function usGridPoints(count: number, skip = 0): [number, number][] {
  const LAT = [25.0, 49.0];
  const LNG = [-124.0, -67.0];
  const rows = Math.round((LAT[1]! - LAT[0]!) * 10);
  const cols = Math.round((LNG[1]! - LNG[0]!) * 10);
  const cells = rows * cols;
  // A full-period linear congruential walk over the cells visits each once: a stride coprime with `cells`.
  const stride = 7_919;
  const points: [number, number][] = [];
  for (let k = skip; k < skip + count && k < cells; k++) {
    const cell = (k * stride) % cells;
    const lat = LAT[0]! + Math.floor(cell / cols) / 10 + 0.02;
    const lng = LNG[0]! + (cell % cols) / 10 + 0.02;
    points.push([Number(lat.toFixed(2)), Number(lng.toFixed(2))]);
  }
  return points;
}
