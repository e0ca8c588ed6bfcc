// `npm test`: install what is missing, type-check, lint, run unit and API tests (Vitest), build, then the pages
// through the shared cache (Vitest, Varnish in front of a server) and the browser tests (Playwright in Debian's
// Chromium against a server it starts). Every stage runs; the exit code is
// non-zero when any failed. Ctrl-C (or SIGTERM) stops the runner and the throwaway PostgreSQL, removes its
// folder and exits non-zero; a second Ctrl-C stops at once.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { bin, build, ensureDependencies, isStopping, root, run, stopOnSignals, tsc } from './lib.mjs';
import { startTestPostgres } from './postgres.mjs';
import { ensureVarnish } from './varnish-lib.mjs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const results = path.join(root, 'test-results');
mkdirSync(results, { recursive: true });

async function ensureChromium() {
  if (existsSync(CHROMIUM)) return true;
  if (process.getuid?.() !== 0) {
    console.error(
      `Chromium not found at ${CHROMIUM}. Install Debian's package as root:\n` +
        '  apt-get update && apt-get install -y chromium\n' +
        'or point CHROMIUM_PATH at a Chromium binary.',
    );
    return false;
  }
  console.log("Installing Debian's Chromium for the browser tests…");
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  if ((await run('apt-get', ['update', '-qq'], { env })) !== 0) return false;
  return (await run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'chromium'], { env })) === 0;
}

const began = Date.now();
stopOnSignals();
await ensureDependencies();
const stages = [];
/** Each stage's time goes into the summary: the whole run is to stay under 15 minutes on two cores. */
const stage = async (name, fn) => {
  if (isStopping()) return;
  console.log(`\n=== ${name} ===`);
  const start = Date.now();
  const code = await fn();
  stages.push({ name, ok: code === 0, seconds: Math.round((Date.now() - start) / 1000) });
};

// The whole project with the browser's types, then the server and shared code as `npm run build` compiles them
// (no DOM types): a server file that reaches into the client fails here, not minutes later at the build.
await stage('type-check (tsc --noEmit, and the server as built)', async () => {
  const code = await run(tsc, ['--noEmit', '-p', '.']);
  return code !== 0 ? code : run(tsc, ['--noEmit', '-p', 'tsconfig.build.json']);
});
// The three checkers of `npm run lint` side by side: each is single-threaded, and none waits on another.
await stage('lint (ESLint, Prettier, the layers)', async () => {
  const codes = await Promise.all(['lint:code', 'lint:format', 'lint:layers'].map((s) => run('npm', ['run', '-s', s])));
  return codes.find((code) => code !== 0) ?? 0;
});
const postgres = await startTestPostgres();
// Debian's Varnish with varnish-modules (xkey), installed like Chromium: the tests through the shared cache run on it.
const varnishd = ensureVarnish();
const varnishEnv = varnishd ? { VARNISHD: varnishd } : {};
/** The tests through Varnish need the built client (its server renderer): they run after the build. */
const THROUGH_VARNISH = '**/*.varnish.test.ts';
await stage(`unit and API tests (vitest; stores on PGlite${postgres ? ' and PostgreSQL' : ''})`, () =>
  run(
    bin('vitest'),
    [
      'run',
      '--exclude',
      THROUGH_VARNISH,
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${path.join(results, 'vitest.json')}`,
    ],
    {
      env: { ...process.env, ...varnishEnv, ...(postgres ? { TEST_DATABASE_URL: postgres.url } : {}) },
    },
  ),
);
postgres?.stop();
const haveChromium = await ensureChromium();
await stage('build', async () => {
  await build();
  return 0;
});
if (varnishd) {
  await stage(`pages through the shared cache (vitest, ${varnishd})`, () =>
    run(
      bin('vitest'),
      [
        'run',
        '.varnish.test.ts',
        '--reporter=default',
        '--reporter=json',
        `--outputFile.json=${path.join(results, 'vitest-varnish.json')}`,
      ],
      { env: { ...process.env, ...varnishEnv } },
    ),
  );
} else {
  // Required like Chromium: a run without the shared cache has not checked it.
  stages.push({ name: 'pages through the shared cache: Varnish with xkey missing', ok: false });
}
if (haveChromium) {
  await stage('browser tests (playwright)', () =>
    run(bin('playwright'), ['test'], { env: { ...process.env, CHROMIUM_PATH: CHROMIUM } }),
  );
} else {
  stages.push({ name: 'browser tests (playwright): Chromium missing', ok: false });
}

// One closing summary across the runners.
let passed = 0;
let failed = 0;
let skipped = 0;
for (const report of ['vitest.json', 'vitest-varnish.json']) {
  try {
    const v = JSON.parse(readFileSync(path.join(results, report), 'utf8'));
    passed += v.numPassedTests ?? 0;
    failed += v.numFailedTests ?? 0;
    skipped += (v.numPendingTests ?? 0) + (v.numTodoTests ?? 0);
  } catch {
    // No report: the runner did not get to write one (its stage failed before it could, or was stopped). The
    // summary below still fails, counting the failed stages when no runner counted a failed test.
  }
}
try {
  const p = JSON.parse(readFileSync(path.join(results, 'playwright.json'), 'utf8'));
  passed += p.stats?.expected ?? 0;
  failed += (p.stats?.unexpected ?? 0) + (p.stats?.flaky ?? 0);
  skipped += p.stats?.skipped ?? 0;
} catch {
  // No report, as above.
}
console.log('\n=== summary ===');
for (const s of stages)
  console.log(`${s.ok ? 'ok  ' : 'FAIL'} ${s.name}${s.seconds === undefined ? '' : ` (${s.seconds} s)`}`);
const allOk = stages.every((s) => s.ok);
if (!allOk && failed === 0) failed = stages.filter((s) => !s.ok).length;
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
console.log(`in ${Math.round((Date.now() - began) / 1000)} s`);
process.exit(allOk ? 0 : 1);
