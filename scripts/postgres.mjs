// A throwaway PostgreSQL server for the store tests: Debian's packages (installed when absent and we are
// root), a new cluster in a temporary folder on a free loopback port, stopped and removed afterwards.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';

function binDir() {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root).filter((v) => existsSync(path.join(root, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(root, versions[0], 'bin') : null;
}

function freePort() {
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
    console.log('PostgreSQL not found: the store tests run on PGlite only. Install it with: apt-get install -y postgresql');
    return null;
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'storefront-pg-'));
  chmodSync(dir, 0o777);
  const data = path.join(dir, 'data');
  const port = await freePort();
  const run = (cmd, args) => {
    const [c, a] = asPostgres(path.join(bin, cmd), args);
    execFileSync(c, a, { stdio: ['ignore', 'ignore', 'inherit'] });
  };
  try {
    run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-instructions']);
    run('pg_ctl', ['-D', data, '-l', path.join(dir, 'log'), '-w', '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`, 'start']);
  } catch (err) {
    console.log(`PostgreSQL did not start (${err.message}); the store tests run on PGlite only.`);
    rmSync(dir, { recursive: true, force: true });
    return null;
  }
  const stop = () => {
    try {
      run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
    } catch {
      // already gone
    }
    rmSync(dir, { recursive: true, force: true });
  };
  return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, stop };
}
