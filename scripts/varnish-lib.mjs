// Varnish in front of the storefront, with the project's configuration (deploy/varnish/storefront.vcl): finding or
// installing Debian's varnishd, writing the wrapper that names the nodes, running it in a throwaway work folder,
// reading its counters. Used by `npm run varnish` (scripts/varnish.mjs), `npm test` and the tests through Varnish.
// Plain Node, no dependencies.
import { execFile, spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The project's rules: everything but the backend and the purgers. */
export const STOREFRONT_VCL = path.join(root, 'deploy', 'varnish', 'storefront.vcl');
const VARNISHD_CANDIDATES = ['/usr/sbin/varnishd', '/usr/local/sbin/varnishd', '/opt/varnish/sbin/varnishd'];
/** Not a spec figure: how long varnishd gets to compile the configuration and accept connections. */
const START_WAIT_MS = 30_000;
/** Not a spec figure: how long varnishd told to stop gets before it is killed. */
const STOP_WAIT_MS = 5_000;

export const INSTALL_HINT =
  "varnishd not found. Install Debian's Varnish and its modules (xkey) as root:\n" +
  '  apt-get update && apt-get install -y --no-install-recommends varnish varnish-modules\n' +
  'or point VARNISHD at a varnishd binary (Varnish 7.1 or later, with varnish-modules).';

/** The varnishd to run: `VARNISHD` when set, else the first installed one, else null. */
export function findVarnishd(env = process.env) {
  if (env.VARNISHD) return existsSync(env.VARNISHD) ? env.VARNISHD : null;
  return VARNISHD_CANDIDATES.find((file) => existsSync(file)) ?? null;
}

/**
 * Compiles `source` with `varnishd -C` (nothing runs): null when it compiles, else varnishd's complaint. The file is
 * one the varnish users can read, as varnishd compiles as them when started as root.
 */
export function compileVcl(varnishd, source) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'storefront-vcc-'));
  try {
    chmodSync(dir, 0o755);
    const file = path.join(dir, 'check.vcl');
    writeFileSync(file, source, { mode: 0o644 });
    const run = spawnSync(varnishd, ['-C', '-f', file], { cwd: dir, encoding: 'utf8', maxBuffer: 64 << 20 });
    return run.status === 0 ? null : (run.stderr || `varnishd -C exited ${run.status ?? run.signal}`).trim();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Whether varnish-modules' xkey is installed beside `varnishd` (the configuration imports it). */
export function haveXkey(varnishd) {
  return compileVcl(varnishd, 'vcl 4.1;\nimport xkey;\nbackend none none;\n') === null;
}

/**
 * varnishd, installed from Debian's packages when it (or xkey) is missing and this process is root, as `npm test`
 * installs Chromium; the path, or null with the reason printed.
 */
export function ensureVarnish() {
  let varnishd = findVarnishd();
  if ((!varnishd || !haveXkey(varnishd)) && process.getuid?.() === 0 && !process.env.VARNISHD) {
    console.log("Installing Debian's Varnish and varnish-modules for the shared cache tests…");
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'varnish', 'varnish-modules'], {
      stdio: 'inherit',
      env,
    });
    varnishd = findVarnishd();
  }
  if (!varnishd) {
    console.log(INSTALL_HINT);
    return null;
  }
  if (!haveXkey(varnishd)) {
    console.log(`${varnishd} has no xkey module: install varnish-modules (apt-get install -y varnish-modules).`);
    return null;
  }
  return varnishd;
}

/** `HOST:PORT` (or `[v6]:PORT`) as its parts; throws naming the option when it is not one. */
export function hostPort(value, option) {
  const match = /^(?:\[([^\]]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(value ?? '');
  const port = match ? Number(match[3]) : NaN;
  if (!match || port < 1 || port > 65535)
    throw new Error(`${option} must be HOST:PORT, such as 127.0.0.1:3000; not ${JSON.stringify(value ?? '')}`);
  return { host: match[1] ?? match[2], port };
}

const vclString = (value) => {
  if (/["\n\r]/.test(value)) throw new Error(`not allowed in a VCL string: ${JSON.stringify(value)}`);
  return `"${value}"`;
};

/**
 * RULES 13.8: how Varnish checks each of several nodes: `/readyz` every second, a node left out of the round robin
 * after two of its last three checks failed and taken back after two succeeded; it starts in. Two seconds to answer,
 * so a node merely busy under a crowd stays in. One node has no probe (deploy/varnish/default.vcl says why).
 */
const PROBE = { url: '/readyz', timeout: '2s', interval: '1s', window: 3, threshold: 2, initial: 2 };

/**
 * The wrapper configuration: the nodes, the purgers' ACL (loopback and `purgers`), then the project's rules. One
 * node is the backend itself, without a probe; several are checked on `/readyz` (`PROBE`) and taken in turn (a
 * round robin over those that are ready).
 */
export function wrapperVcl({ backends, purgers = [] }) {
  if (!Array.isArray(backends) || backends.length === 0) throw new Error('at least one --backend is needed');
  const nodes = backends.map((backend) => hostPort(backend, '--backend'));
  const acl = ['localhost', '127.0.0.1', '::1', ...purgers].map((p) => `    ${vclString(p)};`).join('\n');
  const backend = (name, { host, port }, probe) => `backend ${name} {
    .host = ${vclString(host)};
    .port = "${port}";
    .first_byte_timeout = 60s;${probe ? '\n    .probe = storefront_ready;' : ''}
}
`;
  const servers =
    nodes.length === 1
      ? backend('storefront', nodes[0], false)
      : `import directors;

probe storefront_ready {
    .url = ${vclString(PROBE.url)};
    .timeout = ${PROBE.timeout};
    .interval = ${PROBE.interval};
    .window = ${PROBE.window};
    .threshold = ${PROBE.threshold};
    .initial = ${PROBE.initial};
}

${nodes.map((node, i) => backend(`storefront_${i + 1}`, node, true)).join('\n')}
sub vcl_init {
    new storefront = directors.round_robin();
${nodes.map((_, i) => `    storefront.add_backend(storefront_${i + 1});`).join('\n')}
}

# Before the rules' own vcl_recv, which runs after it.
sub vcl_recv {
    set req.backend_hint = storefront.backend();
}
`;
  return `vcl 4.1;

# Written by npm run varnish (scripts/varnish-lib.mjs): the nodes and the purgers; the rules are in storefront.vcl.
${servers}
acl storefront_purgers {
${acl}
}

include ${vclString(STOREFRONT_VCL)};
`;
}

function canConnect(host, port) {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.setTimeout(1_000);
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.once('timeout', () => done(false));
  });
}

/**
 * Starts varnishd in the foreground (`-F`) in a new throwaway work folder (`-n`), listening on `listen`, in front of
 * the nodes `backends` (`HOST:PORT` each), with `storage` of memory (`-s malloc,SIZE`). Resolves once it accepts
 * connections, with: its `url`, the work folder, the child process, `stats()` (varnishstat's counters) and `stop()`
 * (SIGTERM, then SIGKILL; removes the folder; also runs when this process exits). `output` gets varnishd's own lines.
 */
export async function startVarnish({
  varnishd = findVarnishd(),
  backends,
  listen,
  storage = '256m',
  purgers = [],
  params = [],
  output = (line) => process.stdout.write(line),
}) {
  if (!varnishd) throw new Error(INSTALL_HINT);
  const { host, port } = hostPort(listen, '--listen');
  if (!/^\d+[kmgKMG]?$/.test(storage)) throw new Error(`--storage must be a size such as 256m; not ${storage}`);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'storefront-varnish-'));
  // varnishd drops its privileges (to the varnish users) when started as root: they read the wrapper too.
  chmodSync(dir, 0o755);
  const vcl = path.join(dir, 'storefront-wrapper.vcl');
  writeFileSync(vcl, wrapperVcl({ backends, purgers }), { mode: 0o644 });
  const args = [
    '-F',
    '-n',
    path.join(dir, 'work'),
    '-a',
    listen,
    '-f',
    vcl,
    '-s',
    `malloc,${storage}`,
    ...params.flatMap((p) => ['-p', p]),
  ];
  const child = spawn(varnishd, args, { stdio: ['ignore', 'pipe', 'pipe'], cwd: dir });
  child.stdout.on('data', (chunk) => output(chunk.toString('utf8')));
  child.stderr.on('data', (chunk) => output(chunk.toString('utf8')));
  let exit = null;
  const exited = new Promise((resolve) =>
    child.once('exit', (code, signal) => {
      exit = { code, signal };
      resolve(exit);
    }),
  );
  const removeDir = () => rmSync(dir, { recursive: true, force: true });
  const stopNow = () => {
    if (!exit) child.kill('SIGKILL');
    removeDir();
  };
  process.on('exit', stopNow);
  let stopping;
  const stop = () =>
    (stopping ??= (async () => {
      if (!exit) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), STOP_WAIT_MS);
        await exited;
        clearTimeout(timer);
      }
      process.off('exit', stopNow);
      removeDir();
    })());
  const deadline = Date.now() + START_WAIT_MS;
  const connectHost = host === '0.0.0.0' || host === '::' || host === '' ? '127.0.0.1' : host;
  while (!(await canConnect(connectHost, port))) {
    if (exit || Date.now() > deadline) {
      await stop();
      throw new Error(
        exit
          ? `varnishd exited (${exit.code ?? exit.signal}) before it listened on ${listen}`
          : `varnishd did not listen on ${listen} within ${START_WAIT_MS} ms`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const workDir = path.join(dir, 'work');
  return {
    url: `http://${connectHost.includes(':') ? `[${connectHost}]` : connectHost}:${port}`,
    workDir,
    child,
    exited,
    stop,
    /** varnishstat's counters for this instance, by name (`MAIN.cache_hit`): their values. */
    stats: () => varnishStats(varnishd, workDir),
  };
}

/** The counters of the varnishd whose work folder is `workDir`: `{ 'MAIN.cache_hit': 12, … }`. */
export function varnishStats(varnishd, workDir) {
  const varnishstat = path.join(path.dirname(varnishd).replace(/sbin$/, 'bin'), 'varnishstat');
  const command = existsSync(varnishstat) ? varnishstat : 'varnishstat';
  return new Promise((resolve, reject) => {
    execFile(command, ['-n', workDir, '-1', '-j'], { maxBuffer: 16 << 20 }, (err, stdout) => {
      if (err) return reject(err);
      const parsed = JSON.parse(stdout);
      // 7.x: `{ version: 1, counters: { name: { value } } }`; 6.x: the counters at the top level.
      const counters = parsed.counters ?? parsed;
      const values = {};
      for (const [name, counter] of Object.entries(counters))
        if (counter && typeof counter === 'object' && 'value' in counter) values[name] = counter.value;
      resolve(values);
    });
  });
}
