/**
 * Child processes of the load benchmark: every one is tracked so that an error, Ctrl-C or the overall time
 * limit stops them all, each by its own id.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { get, type IncomingHttpHeaders } from 'node:http';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';

export interface Child {
  proc: ChildProcess;
  /** The last lines it wrote (stdout and stderr), to explain a failure. */
  tail(): string;
  exited: Promise<number | null>;
}

const TAIL_LINES = 40;
const running = new Set<ChildProcess>();
const cleanups = new Set<() => Promise<void> | void>();

/**
 * Each child leads its own process group, so stopping it also stops what it started (npm → tsc), and a
 * terminal's Ctrl-C reaches only this runner, which then stops them in order.
 */
export function start(command: string, args: string[], options: SpawnOptions = {}): Child {
  const proc = spawn(command, args, { ...options, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(proc);
  const lines: string[] = [];
  const keep = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (!line) continue;
      lines.push(line.slice(0, 500));
      if (lines.length > TAIL_LINES) lines.shift();
    }
  };
  proc.stdout?.on('data', keep);
  proc.stderr?.on('data', keep);
  const exited = new Promise<number | null>((resolve) => {
    proc.once('exit', (code) => {
      running.delete(proc);
      resolve(code);
    });
    proc.once('error', (err) => {
      running.delete(proc);
      lines.push(String(err));
      resolve(null);
    });
  });
  return { proc, tail: () => lines.join('\n'), exited };
}

/** SIGTERM to the child's group, SIGKILL if it is still there after `graceMs`. */
export async function stop(child: Child, graceMs = 5_000): Promise<void> {
  const pid = child.proc.pid;
  if (pid === undefined || child.proc.exitCode !== null || child.proc.signalCode !== null) return;
  signalGroup(pid, 'SIGTERM');
  const timer = setTimeout(() => signalGroup(pid, 'SIGKILL'), graceMs);
  await child.exited;
  clearTimeout(timer);
}

function signalGroup(pid: number, signal: NodeJS.Signals) {
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

/** Something else to undo on the way out (a browser). */
export function onCleanup(fn: () => Promise<void> | void): () => void {
  cleanups.add(fn);
  return () => cleanups.delete(fn);
}

export async function stopAll(): Promise<void> {
  for (const fn of [...cleanups]) {
    cleanups.delete(fn);
    await Promise.resolve()
      .then(fn)
      .catch(() => {});
  }
  for (const proc of [...running]) {
    if (proc.pid !== undefined) signalGroup(proc.pid, 'SIGTERM');
  }
  const deadline = Date.now() + 5_000;
  while (running.size > 0 && Date.now() < deadline) await sleep(100);
  for (const proc of [...running]) {
    if (proc.pid !== undefined) signalGroup(proc.pid, 'SIGKILL');
  }
}

/** Last resort when the runner exits without its cleanup (an uncaught throw): nothing may outlive it. */
process.once('exit', () => {
  for (const proc of running) {
    if (proc.pid !== undefined) signalGroup(proc.pid, 'SIGKILL');
  }
});

/** The longest wait for the server to go idle between runs, before going on regardless. */
export const SETTLE_MAX_MS = 120_000;

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Resolves with the first match of `pattern` in the child's stdout, or rejects on exit or timeout. */
export function waitForLine(child: Child, pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let buffered = '';
    const onData = (chunk: Buffer) => {
      buffered = (buffered + chunk.toString('utf8')).slice(-10_000);
      const match = pattern.exec(buffered);
      if (match) finish(() => resolve(match));
    };
    const timer = setTimeout(
      () => finish(() => reject(new Error(`no ${pattern} within ${timeoutMs} ms:\n${child.tail()}`))),
      timeoutMs,
    );
    const onExit = (code: number | null) =>
      finish(() => reject(new Error(`exited (${code}) before ${pattern}:\n${child.tail()}`)));
    const finish = (settle: () => void) => {
      clearTimeout(timer);
      child.proc.stdout?.off('data', onData);
      child.proc.off('exit', onExit);
      settle();
    };
    child.proc.stdout?.on('data', onData);
    child.proc.once('exit', onExit);
  });
}

/**
 * A GET with optional request headers; a compressed answer (gzip, deflate, br) is decoded, so `body` is the text
 * a browser would see.
 */
export function httpGet(
  url: string,
  timeoutMs = 10_000,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string; headers: IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = get(url, { timeout: timeoutMs, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        try {
          resolve({
            status: res.statusCode ?? 0,
            body: decode(Buffer.concat(chunks), res.headers['content-encoding']).toString('utf8'),
            headers: res.headers,
          });
        } catch (err) {
          reject(err instanceof Error ? err : new Error(String(err)));
        }
      });
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`GET ${url} timed out`)));
    req.on('error', reject);
  });
}

function decode(body: Buffer, encoding: string | undefined): Buffer {
  switch ((encoding ?? 'identity').trim().toLowerCase()) {
    case 'identity':
      return body;
    case 'br':
      return brotliDecompressSync(body);
    case 'gzip':
      return gunzipSync(body);
    case 'deflate':
      return inflateSync(body);
    default:
      throw new Error(`cannot decode a ${encoding} answer`);
  }
}

/** Polls `url` every 100 ms until it answers 200; bounded by `timeoutMs` and by the child exiting. */
export async function waitFor200(url: string, child: Child, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 0; attempt < Math.ceil(timeoutMs / 100) + 1 && Date.now() < deadline; attempt++) {
    if (child.proc.exitCode !== null)
      throw new Error(`server exited (${child.proc.exitCode}) before ready:\n${child.tail()}`);
    const status = await httpGet(url, 2_000).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) return;
    await sleep(100);
  }
  throw new Error(`${url} not 200 within ${timeoutMs} ms:\n${child.tail()}`);
}

/** Resident memory of a process in MiB from /proc (Linux); NaN when it is gone. */
export function rssMiB(pid: number, field: 'VmRSS' | 'VmHWM' = 'VmRSS'): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1];
    return kb ? Number(kb) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** Samples a process's RSS every `intervalMs` and keeps the highest. */
export function rssSampler(pid: number, intervalMs = 500) {
  let peak = 0;
  let samples = 0;
  const sample = () => {
    const v = rssMiB(pid);
    if (Number.isFinite(v)) {
      peak = Math.max(peak, v);
      samples++;
    }
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      sample();
      return { peakMiB: peak, samples };
    },
  };
}

/** CPU time a process has used, in clock ticks (user + system, fields 14 and 15 of /proc/<pid>/stat). */
export function cpuTicks(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces; fields are counted after its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return NaN;
  }
}

/**
 * Waits until the process is nearly idle (under 10% of a core for two 250 ms windows in a row; Linux counts
 * 100 ticks a second), so work queued by the previous load run (requests whose client has gone) is not
 * charged to the next one. Returns how long it took; gives up after `maxMs`.
 */
export async function settle(pid: number, maxMs: number): Promise<number> {
  const began = performance.now();
  let quiet = 0;
  let last = cpuTicks(pid);
  while (performance.now() - began < maxMs && quiet < 2) {
    await sleep(250);
    const now = cpuTicks(pid);
    if (!Number.isFinite(now)) break;
    quiet = now - last <= 2 ? quiet + 1 : 0;
    last = now;
  }
  return performance.now() - began;
}

/** A bare node:http server with a fixed small JSON body: what this machine and this load generator allow. */
export const CEILING_BODY = JSON.stringify({ ok: true, items: [1, 2, 3] });
const CEILING_SERVER = `
const body = Buffer.from(${JSON.stringify(CEILING_BODY)});
require('node:http').createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
  res.end(body);
}).listen(0, '127.0.0.1', function () { console.log('ceiling listening on ' + this.address().port); });
`;

export async function startCeiling(): Promise<{ child: Child; url: string }> {
  const child = start(process.execPath, ['-e', CEILING_SERVER]);
  const match = await waitForLine(child, /ceiling listening on (\d+)/, 10_000);
  return { child, url: `http://127.0.0.1:${match[1]}` };
}

const BENCH_SECRET = 'bench-only-session-secret-0123456789abcdef';

/**
 * The built storefront as the benchmarks run it: production mode on loopback over `bench/out/data-N` (the
 * catalog generated there first when absent), warnings and errors only (per-request lines would measure the
 * log pipe), segment watching off. `ready` settles once `/readyz` answers 200.
 */
export function startStorefront(
  events: number,
  options: { nodeArgs?: string[]; env?: Record<string, string> } = {},
): { server: Child; pid: number; ready: Promise<{ base: string; readyMs: number }> } {
  const began = performance.now();
  const server = start(process.execPath, [...(options.nodeArgs ?? []), 'dist/server/main.js'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      // Required in production; the bench reads no absolute address, so a name that resolves nowhere will do.
      PUBLIC_BASE_URL: 'http://storefront.invalid',
      HOST: '127.0.0.1',
      PORT: '0',
      DATA_DIR: path.resolve('bench/out', `data-${events}`),
      CATALOG_EVENTS: String(events),
      LOG_LEVEL: 'warn',
      SESSION_SECRET: BENCH_SECRET,
      SEGMENTS_WATCH: 'false',
      ...options.env,
    },
  });
  const ready = (async () => {
    const base = (await waitForLine(server, /Storefront running at (http:\/\/[^\s]+)/, 60_000))[1]!;
    // Generation, load and indexing grow with the catalog: about 0.3 ms per event at a million.
    await waitFor200(`${base}/readyz`, server, 60_000 + events * 0.3);
    return { base, readyMs: performance.now() - began };
  })();
  return { server, pid: server.proc.pid!, ready };
}
