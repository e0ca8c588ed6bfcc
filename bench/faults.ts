/**
 * `npm run bench -- --faults`: the store crash scenario of server/store/postgres-faults.test.ts as a recorded
 * run. One server node on a private PostgreSQL cluster takes a burst of carts and checkouts; PostgreSQL is
 * killed (`pg_ctl stop -m immediate`) in the middle of it and started again a second later. Afterwards the
 * run counts what the clients were answered, what the database holds and what the server logged, and writes
 * the figures into bench/RESULTS.md between the bench:faults markers.
 */
import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { onCleanup } from './children.js';
import {
  crashScenario,
  createDatabase,
  havePostgres,
  prepareCatalog,
  startNodes,
  startPostgres,
  stopNodes,
  type CrashScenarioReport,
} from '../server/test/processes.js';

export const FAULTS_START_MARKER = '<!-- bench:faults:start -->';
export const FAULTS_END_MARKER = '<!-- bench:faults:end -->';

const SHOPPERS = 60;
const CONCURRENCY = 8;
const MAX_REQUESTS = 300;
const CRASH_AFTER = 40;
const DOWN_MS = 1_000;
const CATALOG_EVENTS = 2_000;

/** Replaces the fault section of RESULTS.md, or appends it with its markers. */
export function replaceFaultSection(document: string, section: string): string {
  const block = `${FAULTS_START_MARKER}\n${section.trim()}\n${FAULTS_END_MARKER}`;
  const start = document.indexOf(FAULTS_START_MARKER);
  const end = start === -1 ? -1 : document.indexOf(FAULTS_END_MARKER, start);
  if (start === -1 || end === -1) return `${document.trimEnd()}\n\n${block}\n`;
  return document.slice(0, start) + block + document.slice(end + FAULTS_END_MARKER.length);
}

/** Whether the run met every expectation: no crash, no 5xx but 503, nothing lost or doubled, all settled. */
export function faultRunOk(r: CrashScenarioReport): boolean {
  return (
    r.crashes === 0 &&
    r.failures.length === 0 &&
    r.lost === 0 &&
    r.doubled === 0 &&
    r.authorizedLeft === 0 &&
    r.database.ordersWithoutOneCapture.length === 0 &&
    r.database.capturesWithoutOrder.length === 0 &&
    r.database.inventoryMismatches.length === 0 &&
    r.logged.captured === r.database.orders &&
    r.logged.authorized === r.logged.captured + r.logged.voided &&
    r.paymentAnomalies.length === 0 &&
    r.recovery.session === 201 &&
    r.recovery.cart === 201 &&
    r.recovery.checkout === 201
  );
}

const n = (x: number) => Math.round(x).toLocaleString('en-US');
const statuses = (counts: Record<string, number>) =>
  Object.entries(counts).length === 0
    ? 'none'
    : Object.entries(counts)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, v]) => `${k} × ${n(v)}`)
        .join(', ');
const summarizeGaveUp = (lines: string[]) => {
  const counts: Record<string, number> = {};
  for (const l of lines) counts[l] = (counts[l] ?? 0) + 1;
  return Object.entries(counts).map(([l, k]) => `\`${l}\` × ${k}`).join(', ');
};
const met = (ok: boolean) => (ok ? 'met' : '**not met**');

function gitState(): string {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--', 'server', 'schemas'], { encoding: 'utf8' }).trim() !== '';
    return `commit ${head}${dirty ? ' with uncommitted changes under server/ or schemas/' : ''}`;
  } catch {
    return 'commit unknown';
  }
}

export function faultSection(r: CrashScenarioReport, meta: { command: string; startedAt: Date; postgres: string; loadStart: number; loadEnd: number }): string {
  const cpus = os.cpus();
  const all = (['before', 'down', 'after'] as const).reduce((sum, p) => sum + Object.values(r.answers[p]).reduce((a, b) => a + b, 0), 0);
  const lostDetail = [
    r.unreadable.length ? `${r.unreadable.length} answered orders not readable` : '',
    r.database.ordersWithoutPurchasedHold.length ? `${r.database.ordersWithoutPurchasedHold.length} orders without a purchased hold` : '',
    r.database.purchasedHoldsWithoutOrder.length ? `${r.database.purchasedHoldsWithoutOrder.length} purchased holds without an order` : '',
  ].filter(Boolean);
  const lines = [
    '## Faults: PostgreSQL crashing under a burst of carts and checkouts',
    '',
    `Date: ${meta.startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC. Command: \`${meta.command}\` (${(r.durationMs / 1000).toFixed(1)} s for the scenario). ` +
      `Machine: ${cpus.length} × ${cpus[0]?.model.trim() ?? 'cpu'}, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}, 1-minute load average ${meta.loadStart.toFixed(2)} at the start and ${meta.loadEnd.toFixed(2)} at the end (shared). ` +
      `Server: one node, \`node --import tsx server/main.ts\` (${gitState()}), \`DATABASE_URL\` on a private PostgreSQL ${meta.postgres} cluster on loopback (\`scripts/postgres.mjs\`, \`fsync=off\`), a ${n(CATALOG_EVENTS)}-event catalog, \`LOG_LEVEL=info\`.`,
    '',
    `Method (\`bench/faults.ts\`, the scenario of \`server/store/postgres-faults.test.ts\`): ${n(r.shoppers)} guests, each from its own client address, each put 2 tickets of a listing of its own in a cart and check out ` +
      `with an \`Idempotency-Key\`, ${CONCURRENCY} at a time; a 503 (or a 409 for a checkout still running) is retried after 200 ms with the same key, up to 8 times for a cart and 10 for a checkout, within ${n(MAX_REQUESTS)} requests in all. ` +
      `Once ${CRASH_AFTER} requests have been sent and several are in flight, PostgreSQL is stopped with \`pg_ctl stop -m immediate\` (connections cut mid-transaction, no checkpoint), left down for ${DOWN_MS / 1000} s and started again on the same data (WAL recovery); ` +
      `this run it was killed after request ${r.sentAtCrash} with ${r.inFlightAtCrash} in flight, and was unavailable for ${(r.outageMs / 1000).toFixed(1)} s. ` +
      'Then a new guest buys once without any retry, the run waits (at most 30 s) for the server to settle payments left authorized, reads every order a client was given with its guest token, and checks the database and the server\'s `payment authorized/captured/voided` log lines.',
    '',
    '| figure | measured | expected | |',
    '|---|---|---|---|',
    `| requests sent | ${n(r.requests)} (${n(all)} answered or failed) | | |`,
    `| answers to requests sent before the crash | ${statuses(r.answers.before)} | | |`,
    `| answers to requests sent while PostgreSQL was down | ${statuses(r.answers.down)} | 503 \`store_unavailable\` only | ${met(Object.keys(r.answers.down).every((k) => !k.startsWith('5') || k === '503 store_unavailable'))} |`,
    `| answers to requests sent after it came back | ${statuses(r.answers.after)} | | |`,
    `| 5xx other than 503, or no answer at all | ${r.failures.length}${r.failures.length ? `: ${r.failures.slice(0, 3).map((f) => `${f.route} → ${f.status || f.error}`).join('; ')}` : ''} | 0 | ${met(r.failures.length === 0)} |`,
    `| guests who bought / gave up after their retries / never started (request budget spent) | ${n(r.bought)} / ${n(r.gaveUp)} / ${n(r.notStarted)}${r.gaveUpOn.length ? `; last answers of those who gave up: ${summarizeGaveUp(r.gaveUpOn)}` : ''} | | |`,
    `| after recovery, a new guest's session, cart, checkout | ${r.recovery.session}, ${r.recovery.cart}, ${r.recovery.checkout}; \`/healthz\` ${r.recovery.healthz} | 201, 201, 201; 200 | ${met(r.recovery.session === 201 && r.recovery.cart === 201 && r.recovery.checkout === 201 && r.recovery.healthz === 200)} |`,
    `| orders: answered to clients / in the database / in the database but never told to their guest | ${n(new Set(r.ordersAnswered).size)} / ${n(r.database.orders)} / ${n(r.untold.length)} | every answered order in the database | ${met(r.unreadable.length === 0)} |`,
    `| charges in the database: captured / voided / left authorized | ${n(r.database.payments.captured)} / ${n(r.database.payments.voided)} / ${n(r.authorizedLeft)} | captured = orders, none left authorized | ${met(r.database.payments.captured === r.database.orders && r.authorizedLeft === 0)} |`,
    `| payment log lines: authorized / captured / voided | ${n(r.logged.authorized)} / ${n(r.logged.captured)} / ${n(r.logged.voided)} | captured = orders, authorized = captured + voided | ${met(r.logged.captured === r.database.orders && r.logged.authorized === r.logged.captured + r.logged.voided)} |`,
    `| payments whose log lines are not one authorization then one capture or void, or disagree with the database | ${r.paymentAnomalies.length}${r.paymentAnomalies.length ? `: ${r.paymentAnomalies.slice(0, 3).map((a) => `${a.steps.join(' → ') || 'no log line'} (database: ${a.database ?? 'no row'})`).join('; ')}` : ''} | 0 | ${met(r.paymentAnomalies.length === 0)} |`,
    `| process crashes | ${r.crashes} | 0 | ${met(r.crashes === 0)} |`,
    `| lost (an answered order not readable, or an order and its hold out of step) | ${r.lost}${lostDetail.length ? ` (${lostDetail.join('; ')})` : ''} | 0 | ${met(r.lost === 0)} |`,
    `| doubled (a cart captured more than once) | ${r.doubled} | 0 | ${met(r.doubled === 0)} |`,
    `| listings whose held and sold counts differ from their holds | ${r.database.inventoryMismatches.length} | 0 | ${met(r.database.inventoryMismatches.length === 0)} |`,
  ];
  if (Object.keys(r.examples).some((k) => k.endsWith('idempotency_key_in_use'))) {
    lines.push(
      '',
      'A checkout cut off by the crash answered 503, but its `Idempotency-Key` could not be freed while the database was down, so retries with that key ' +
        'are told `409 idempotency_key_in_use` until the key\'s lock runs out (`IDEMPOTENCY_LOCK_SECONDS`, 60 s), although nothing runs any more; the same cart checked out without the key goes through at once.',
    );
  }
  const refusals = Object.entries(r.examples).filter(([key]) => !/→ 20\d$/.test(key));
  if (refusals.length) {
    lines.push('', 'The first answer of each kind that was not a success:', '');
    for (const [key, e] of refusals) {
      const message = (e.body as { error?: { message?: string } } | null)?.error?.message ?? JSON.stringify(e.body);
      lines.push(`- \`${key}\` (sent ${e.phase === 'down' ? 'while PostgreSQL was down' : e.phase === 'before' ? 'before the crash' : 'after it came back'}): “${message}”`);
    }
  }
  return lines.join('\n');
}

/** Runs the scenario once, prints its section and (unless `write` is false) records it in bench/RESULTS.md. */
export async function runFaultBench(options: { command: string; write: boolean; log: (message: string) => void }): Promise<boolean> {
  const { log } = options;
  if (!havePostgres()) {
    log('PostgreSQL binaries not found (/usr/lib/postgresql/*/bin): install Debian\'s postgresql package to run the fault benchmark');
    return false;
  }
  const startedAt = new Date();
  const loadStart = os.loadavg()[0]!;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-faults-'));
  const undoDir = onCleanup(() => rmSync(dataDir, { recursive: true, force: true }));
  log('starting a private PostgreSQL cluster');
  const cluster = await startPostgres();
  const undoCluster = onCleanup(() => cluster.stop());
  try {
    const db = await createDatabase(cluster.url);
    const postgres = (await db.query<{ server_version: string }>('SHOW server_version'))[0]?.server_version ?? '';
    const catalog = await prepareCatalog(dataDir, CATALOG_EVENTS);
    log('starting the server node');
    const [node] = await startNodes(1, {
      env: {
        DATABASE_URL: db.url,
        DATA_DIR: dataDir,
        CATALOG_EVENTS: String(CATALOG_EVENTS),
        SESSION_SECRET: randomBytes(32).toString('hex'),
        TRUST_PROXY: 'loopback',
        RATE_LIMIT_SESSIONS_PER_MINUTE: '10000',
        RATE_LIMIT_CARTS_PER_MINUTE: '10000',
      },
    });
    const undoNode = onCleanup(() => stopNodes([node!]));
    let report: CrashScenarioReport;
    try {
      report = await crashScenario({ node: node!, cluster, db, catalog, shoppers: SHOPPERS, concurrency: CONCURRENCY, maxRequests: MAX_REQUESTS, crashAfterRequests: CRASH_AFTER, downMs: DOWN_MS, log });
    } finally {
      await stopNodes([node!]);
      undoNode();
    }
    await db.drop().catch(() => {});
    const section = faultSection(report, { command: options.command, startedAt, postgres, loadStart, loadEnd: os.loadavg()[0]! });
    console.log(section);
    const ok = faultRunOk(report);
    if (!ok) console.log(`\nExpectations not met; the full report:\n${JSON.stringify({ ...report, ordersAnswered: report.ordersAnswered.length }, null, 2)}`);
    if (options.write) {
      const file = path.resolve('bench/RESULTS.md');
      writeFileSync(file, replaceFaultSection(readFileSync(file, 'utf8'), section));
      log('bench/RESULTS.md updated (fault section)');
    }
    return ok;
  } finally {
    cluster.stop();
    undoCluster();
    rmSync(dataDir, { recursive: true, force: true });
    undoDir();
  }
}
