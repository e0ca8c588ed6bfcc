// Shared by the `npm start`, `npm test` and `npm run dev` entry points. Plain Node, no dependencies: these
// run before `npm install` has.
import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const bin = (name) => path.join(root, 'node_modules', '.bin', name);
/**
 * TypeScript 7's native compiler (the `tsgo` alias of the `typescript` package), named by its own path: the
 * `typescript` 6 package beside it, kept for the tools that read its JavaScript API, has a `tsc` of its own.
 */
export const tsc = path.join(root, 'node_modules', 'tsgo', 'bin', 'tsc');

/** The child processes started here and still running: what a stop signal is passed on to. */
const children = new Set();
/** The signal being handled, once one has arrived. */
let stopping = null;

/** Counts `child` among the processes a stop signal reaches; returns it. */
function track(child) {
  children.add(child);
  const gone = () => {
    children.delete(child);
    if (stopping) finishWhenAlone();
  };
  child.once('exit', gone);
  child.once('error', gone);
  return child;
}

export const isStopping = () => stopping !== null;

export function run(command, args, options = {}) {
  // Once stopping, nothing new starts; the signal handler ends the process.
  if (stopping) return new Promise(() => {});
  return new Promise((resolve) => {
    const child = track(spawn(command, args, { cwd: root, stdio: 'inherit', ...options }));
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
    child.on('error', (err) => {
      console.error(`could not run ${command}: ${err.message}`);
      resolve(127);
    });
  });
}

/** Not a spec figure: how long children get to stop after the signal is passed on, before they are killed. */
export const CHILD_STOP_GRACE_MS = 10_000;
/**
 * Not a spec figure: after a second signal, how long children get before they are killed. Passing it on
 * first lets a runner force its own way out, taking what it started with it (Playwright's web server runs in
 * a process group of its own, which a Ctrl-C does not reach).
 */
const CHILD_KILL_AFTER_SECOND_SIGNAL_MS = 2_000;
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'];
/** The shell's convention: a process ended by signal N exits with 128 + N. */
const signalExitCode = (signal) => 128 + os.constants.signals[signal];

let escalation = null;
/** The child this process lives for (the server of `npm start`), whose exit code becomes ours. */
let attached = null;

function finishWhenAlone() {
  if (children.size > 0) return;
  if (escalation) clearTimeout(escalation);
  // `exit` listeners (the throwaway PostgreSQL's, for one) clean up on the way out.
  process.exit(attached?.exitCode ?? signalExitCode(stopping));
}

function killAll(signal) {
  for (const child of children) {
    try {
      child.kill(signal);
    } catch {
      // already gone
    }
  }
}

/**
 * Ctrl-C (SIGINT), SIGTERM and SIGHUP stop this script and what it started: the signal is passed on to the
 * children (SIGHUP as SIGTERM, so a server closes gracefully), which are killed if still running after
 * `graceMs`; once none is left the process exits, running its `exit` listeners, with the attached child's
 * exit code if there is one, else 128 + the signal's number. A second signal is passed on too, and what is
 * still running after `CHILD_KILL_AFTER_SECOND_SIGNAL_MS` is killed.
 */
export function stopOnSignals({ graceMs = CHILD_STOP_GRACE_MS } = {}) {
  const passOn = (signal, killAfterMs) => {
    killAll(signal === 'SIGHUP' ? 'SIGTERM' : signal);
    if (escalation) clearTimeout(escalation);
    escalation = setTimeout(() => killAll('SIGKILL'), killAfterMs);
  };
  for (const signal of STOP_SIGNALS) {
    process.on(signal, () => {
      if (stopping) {
        console.error(`\n${signal} again: stopping now`);
        passOn(signal, Math.min(graceMs, CHILD_KILL_AFTER_SECOND_SIGNAL_MS));
        return;
      }
      stopping = signal;
      console.error(`\n${signal}: stopping…`);
      passOn(signal, graceMs);
      finishWhenAlone();
    });
  }
}

export async function must(command, args, options) {
  const code = await run(command, args, options);
  if (code !== 0) {
    console.error(`\n${command} ${args.join(' ')} failed (exit ${code})`);
    process.exit(code);
  }
}

/** Installs dependencies when node_modules is missing or older than the lock file. */
export async function ensureDependencies() {
  const marker = path.join(root, 'node_modules', '.package-lock.json');
  const lock = path.join(root, 'package-lock.json');
  const fresh = existsSync(marker) && (!existsSync(lock) || statSync(marker).mtimeMs >= statSync(lock).mtimeMs);
  if (fresh) return;
  console.log('Installing dependencies…');
  await must('npm', existsSync(lock) ? ['ci', '--no-audit', '--no-fund'] : ['install', '--no-audit', '--no-fund']);
}

export async function build() {
  console.log('Building server and client…');
  await must(tsc, ['-p', 'tsconfig.build.json']);
  await must(bin('vite'), ['build', '--logLevel', 'warn']);
  await must(bin('vite'), ['build', '--mode', 'studio', '--logLevel', 'warn']);
  await must(bin('vite'), ['build', '--ssr', '--logLevel', 'warn']);
}

/**
 * Runs `command` as the other half of this process (the server of `npm start`): this process exits when it
 * does, with its exit code, and it gets an IPC channel whose closing tells it this process is gone, even
 * when killed outright. Pair with `stopOnSignals()` so stop signals reach it.
 */
export function runAttached(command, args, options = {}) {
  const child = track(spawn(command, args, { cwd: root, ...options, stdio: ['inherit', 'inherit', 'inherit', 'ipc'] }));
  attached = child;
  child.on('exit', (code, signal) => process.exit(code ?? signalExitCode(signal)));
  child.on('error', (err) => {
    console.error(`could not run ${command}: ${err.message}`);
    process.exit(127);
  });
  return child;
}
