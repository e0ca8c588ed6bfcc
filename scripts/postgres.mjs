// A throwaway PostgreSQL server for the store tests: Debian's packages (installed when absent and we are
// root), a new cluster in a temporary folder on a free loopback port, stopped and removed afterwards.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';

function binDir() {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(path.join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(root, versions[0], 'bin') : null;
}

/** Whether Debian's PostgreSQL server binaries are installed: the check of every test that starts a cluster. */
export function havePostgres() {
  return binDir() !== null;
}

/** A loopback port nothing listens on (yet). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

const isRoot = process.getuid?.() === 0;
/** PostgreSQL refuses to run as root: as root the server runs as the `postgres` user. */
const asPostgres = (cmd, args) => (isRoot ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args]);

/** Not a spec figure: how long a postmaster told to quit gets before it is killed. */
const QUIT_WAIT_MS = 5_000;
/** Not a spec figure: how often that wait looks whether it is gone. */
const QUIT_POLL_MS = 50;

/** The postmaster of the cluster in `data`, from its lock file, if that process is still it. */
function postmasterOf(data) {
  try {
    const pid = Number(readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n', 1)[0]);
    // A stale lock file's pid may belong to another process by now: check it runs on this folder.
    return pid > 0 && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(data) ? pid : null;
  } catch {
    return null;
  }
}

const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
};

/** Immediate shutdown (SIGQUIT), then SIGKILL; synchronous, so it also works in an `exit` listener. */
function killPostmaster(pid) {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (const [signal, waitMs] of [
    ['SIGQUIT', QUIT_WAIT_MS],
    ['SIGKILL', QUIT_WAIT_MS],
  ]) {
    try {
      process.kill(pid, signal);
    } catch {
      return;
    }
    for (let waited = 0; waited < waitMs && alive(pid); waited += QUIT_POLL_MS) Atomics.wait(pause, 0, 0, QUIT_POLL_MS);
    if (!alive(pid)) return;
  }
}

export async function startTestPostgres() {
  let bin = binDir();
  if (!bin && isRoot) {
    console.log("Installing Debian's PostgreSQL for the store tests…");
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'postgresql'], { stdio: 'inherit', env });
    bin = binDir();
  }
  if (!bin) {
    console.log(
      'PostgreSQL not found: the store tests run on PGlite only. Install it with: apt-get install -y postgresql',
    );
    return null;
  }
  // The last await: from the folder's creation until `stop` listens for `exit` all is synchronous, so no signal
  // handler can run in between and leave the folder behind.
  const port = await freePort();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'storefront-pg-'));
  chmodSync(dir, 0o777);
  const data = path.join(dir, 'data');
  const run = (cmd, args) => {
    const [c, a] = asPostgres(path.join(bin, cmd), args);
    execFileSync(c, a, { stdio: ['ignore', 'ignore', 'inherit'] });
  };
  /** Starts the server on the cluster's data, port and socket folder; returns once it accepts connections. */
  const start = () =>
    run('pg_ctl', [
      '-D',
      data,
      '-l',
      path.join(dir, 'log'),
      '-w',
      '-o',
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
      'start',
    ]);
  try {
    run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-instructions']);
    start();
  } catch (err) {
    console.log(`PostgreSQL did not start (${err.message}); the store tests run on PGlite only.`);
    // pg_ctl interrupted (Ctrl-C) may leave a postmaster running: it has a session of its own.
    const pid = postmasterOf(data);
    if (pid) killPostmaster(pid);
    rmSync(dir, { recursive: true, force: true });
    return null;
  }
  let stopped = false;
  /** Stops the server and removes its folder; runs by itself when the process exits without it. */
  const stop = () => {
    if (stopped) return;
    stopped = true;
    process.off('exit', stop);
    try {
      run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
    } catch {
      // Not running (crashed), or pg_ctl itself was interrupted: whatever still runs on the folder goes.
      const pid = postmasterOf(data);
      if (pid) killPostmaster(pid);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  // The postmaster has a session of its own, so a Ctrl-C never reaches it: it is stopped on the way out.
  process.on('exit', stop);
  // For fault tests: `crash` stops the server as a power cut would (no shutdown checkpoint, connections cut
  // mid-transaction); `restart` starts it again on the same data and port, recovering from its WAL.
  const crash = () => run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop,
    crash,
    restart: start,
    /** The temporary folder holding the cluster's data, its socket and log; gone after `stop`. */
    dir,
    /** The running postmaster's process id, or null. */
    pid: () => postmasterOf(data),
  };
}
