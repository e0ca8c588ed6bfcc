import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { havePostgres } from './test/postgres.js';

/** The developer's loop (`npm test`, `npm start`) under Ctrl-C and kill: what it started must not outlive it. */

const scriptUrl = (name: string) => JSON.stringify(pathToFileURL(path.resolve('scripts', name)).href);

/** Running, and not a zombie left for an init that does not reap. */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '')[0] !== 'Z';
  } catch {
    return false;
  }
}

interface Script {
  child: ChildProcess;
  /** The JSON lines it printed so far, merged. */
  said: () => Record<string, unknown>;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves once it has printed every one of `keys`. */
  until: (...keys: string[]) => Promise<Record<string, unknown>>;
}

/**
 * Runs an ES module as a script in a process group of its own, so a signal sent to the group is what a
 * terminal's Ctrl-C does.
 */
function script(source: string, env: Record<string, string> = {}): Script {
  const child = spawn(process.execPath, ['--input-type=module', '-e', source], {
    detached: true,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (chunk) => (out += chunk));
  child.stderr!.on('data', (chunk) => (out += chunk));
  const said = () => {
    const merged: Record<string, unknown> = {};
    for (const line of out.split('\n')) if (line.startsWith('{')) Object.assign(merged, JSON.parse(line));
    return merged;
  };
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const until = async (...keys: string[]) => {
    const deadline = Date.now() + 60_000;
    while (!keys.every((k) => k in said())) {
      if (child.exitCode !== null || Date.now() > deadline)
        throw new Error(`the script did not print ${keys.join(', ')}:\n${out}`);
      await new Promise((r) => setTimeout(r, 25));
    }
    return said();
  };
  return { child, said, output: () => out, exited, until };
}

const started: ChildProcess[] = [];
const pids: number[] = [];
const folders: string[] = [];
afterAll(async () => {
  // Whatever a failed test left behind.
  for (const child of started) if (child.exitCode === null && child.pid) process.kill(-child.pid, 'SIGKILL');
  for (const pid of pids) if (running(pid)) process.kill(pid, 'SIGKILL');
  await Promise.all(folders.map((dir) => rm(dir, { recursive: true, force: true })));
});

describe.skipIf(!havePostgres())('npm test stopped by a signal (scripts/test.mjs)', () => {
  /** Not a spec figure: how long the runner is seen holding out after the first Ctrl-C. */
  const HOLDING_OUT_MS = 300;

  /**
   * What `npm test` does around its runner: the throwaway PostgreSQL, then a child it waits for. The runner sets
   * its signal handlers before it says its pid, so no signal the test sends can arrive before them.
   */
  const testRun = (runner: string, graceMs?: number) => `
    import { run, stopOnSignals } from ${scriptUrl('lib.mjs')};
    import { startTestPostgres } from ${scriptUrl('postgres.mjs')};
    stopOnSignals(${graceMs === undefined ? '' : `{ graceMs: ${graceMs} }`});
    const postgres = await startTestPostgres();
    console.log(JSON.stringify({ dir: postgres.dir, postmaster: postgres.pid() }));
    await run(process.execPath, ['-e', ${JSON.stringify(
      `${runner}; console.log(JSON.stringify({ runner: process.pid })); ` + `setInterval(() => {}, 1000);`,
    )}]);
    console.log(JSON.stringify({ continued: true }));
  `;

  it('passes SIGTERM on to the runner, stops PostgreSQL, removes its folder and exits 143', async () => {
    const run = script(
      testRun(
        "process.on('SIGTERM', () => { console.log(JSON.stringify({ runnerGot: 'SIGTERM' })); process.exit(0); })",
      ),
    );
    started.push(run.child);
    const { dir, postmaster, runner } = (await run.until('dir', 'postmaster', 'runner')) as {
      dir: string;
      postmaster: number;
      runner: number;
    };
    pids.push(postmaster, runner);
    folders.push(dir);
    expect(existsSync(dir)).toBe(true);
    expect(running(postmaster)).toBe(true);

    run.child.kill('SIGTERM');
    expect(await run.exited).toEqual({ code: 143, signal: null });
    // Stopped by the signal it was passed, not killed when the grace ran out.
    expect(run.said().runnerGot).toBe('SIGTERM');
    expect(running(runner)).toBe(false);
    expect(running(postmaster)).toBe(false);
    expect(existsSync(dir)).toBe(false);
    expect(run.said().continued).toBeUndefined();
  });

  it('ends at a second Ctrl-C, not at the end of the grace, when the runner holds out after the first', async () => {
    // A grace far beyond the test's own time limit: only the second Ctrl-C can end the run in time.
    const run = script(testRun("process.on('SIGINT', () => {}); process.on('SIGTERM', () => {})", 3_600_000));
    started.push(run.child);
    const { dir, postmaster, runner } = (await run.until('dir', 'postmaster', 'runner')) as {
      dir: string;
      postmaster: number;
      runner: number;
    };
    pids.push(postmaster, runner);
    folders.push(dir);

    process.kill(-run.child.pid!, 'SIGINT');
    await new Promise((r) => setTimeout(r, HOLDING_OUT_MS));
    expect(run.child.exitCode).toBeNull();
    expect(running(runner)).toBe(true);

    process.kill(-run.child.pid!, 'SIGINT');
    expect(await run.exited).toEqual({ code: 130, signal: null });
    expect(running(runner)).toBe(false);
    expect(running(postmaster)).toBe(false);
    expect(existsSync(dir)).toBe(false);
  });
});

describe('npm start stopped by a signal (scripts/start.mjs)', () => {
  let dataDir: string;
  afterAll(() => (dataDir ? rm(dataDir, { recursive: true, force: true }) : undefined));

  /** What `npm start` does once built: the server attached to this process, on a free port. */
  const startRun = async () => {
    dataDir ??= await mkdtemp(path.join(os.tmpdir(), 'start-signals-'));
    const run = script(
      `
      import { runAttached, stopOnSignals } from ${scriptUrl('lib.mjs')};
      stopOnSignals();
      const server = runAttached(process.execPath, ['--import', 'tsx', 'server/main.ts']);
      console.log(JSON.stringify({ server: server.pid }));
    `,
      {
        HOST: '127.0.0.1',
        PORT: '0',
        DATA_DIR: dataDir,
        CATALOG_EVENTS: '100',
        LOG_LEVEL: 'silent',
        SEGMENTS_WATCH: 'false',
      },
    );
    started.push(run.child);
    const { server } = (await run.until('server')) as { server: number };
    pids.push(server);
    const deadline = Date.now() + 60_000;
    while (!/Storefront running at http:\/\/127\.0\.0\.1:\d+/.test(run.output())) {
      if (run.child.exitCode !== null || Date.now() > deadline)
        throw new Error(`the server did not start:\n${run.output()}`);
      await new Promise((r) => setTimeout(r, 25));
    }
    const port = Number(/127\.0\.0\.1:(\d+)/.exec(run.output())![1]);
    return { run, server, port };
  };

  const portIsFree = (port: number) =>
    new Promise<boolean>((resolve) => {
      const probe = createServer();
      probe.once('error', () => resolve(false));
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
    });

  it.each(['SIGTERM', 'SIGHUP'] as const)(
    'stops the server gracefully on %s and exits with it, leaving the port free',
    async (signal) => {
      const { run, server, port } = await startRun();
      expect(await portIsFree(port)).toBe(false);
      run.child.kill(signal);
      expect(await run.exited).toEqual({ code: 0, signal: null });
      expect(running(server)).toBe(false);
      expect(await portIsFree(port)).toBe(true);
    },
  );

  it('stops the server when killed outright, so no orphan holds the port', async () => {
    const { run, server, port } = await startRun();
    run.child.kill('SIGKILL');
    await run.exited;
    const deadline = Date.now() + 15_000;
    while (running(server) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(running(server)).toBe(false);
    expect(await portIsFree(port)).toBe(true);
  });
});
