/**
 * `npm run bench -- --faults`: the store crash scenario of server/store/postgres-faults.test.ts as a recorded
 * run. One server node on a private PostgreSQL cluster takes a burst of carts and checkouts; PostgreSQL is
 * killed (`pg_ctl stop -m immediate`) in the middle of it and started again a second later. Afterwards the
 * run counts what the clients were answered, what the database holds and what the server logged, and writes
 * the figures into bench/RESULTS.md between the bench:faults markers.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { onCleanup } from './children.js';
import { n } from './format.js';
import { gitState, machineLine, replaceSection, sectionMarkers } from './results-file.js';
import { havePostgres } from '../server/test/postgres.js';
import { STACK_CATALOG_EVENTS, startStack } from '../server/test/stack.js';
import { SETTLE_WAIT_MS } from '../server/test/store-checks.js';
import {
  CRASH_SCENARIO,
  crashScenario,
  crashScenarioExpectations,
  crashScenarioProblems,
  type CrashScenarioReport,
} from '../server/test/crash-scenario.js';

const seconds = (ms: number) => `${ms / 1000} s`;
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
  return Object.entries(counts)
    .map(([l, k]) => `\`${l}\` × ${k}`)
    .join(', ');
};

function faultSection(
  r: CrashScenarioReport,
  meta: { command: string; startedAt: Date; postgres: string; loadStart: number },
): string {
  const s = CRASH_SCENARIO;
  const all = (['before', 'down', 'after'] as const).reduce(
    (sum, p) => sum + Object.values(r.answers[p]).reduce((a, b) => a + b, 0),
    0,
  );
  const lost =
    r.unreadable.length + r.database.ordersWithoutPurchasedHold.length + r.database.purchasedHoldsWithoutOrder.length;
  const lines = [
    '## Faults: PostgreSQL crashing under a burst of carts and checkouts',
    '',
    `Date: ${meta.startedAt.toISOString().slice(0, 16).replace('T', ' ')} ` +
      `UTC. Command: \`${meta.command}\` (${(r.durationMs / 1000).toFixed(1)} s ` +
      `for the scenario). ` +
      `Machine: ${machineLine(meta.loadStart)} (shared). ` +
      `Server: one node, \`node --import tsx server/main.ts\` ` +
      `(${gitState(['server', 'shared'])}), \`DATABASE_URL\` on a private ` +
      `PostgreSQL ${meta.postgres} cluster on loopback ` +
      `(\`scripts/postgres.mjs\`, \`fsync=off\`), a ` +
      `${n(STACK_CATALOG_EVENTS)}-event catalog, \`LOG_LEVEL=info\`.`,
    '',
    `Method (\`bench/faults.ts\`, the scenario of ` +
      `\`server/store/postgres-faults.test.ts\`, its figures in ` +
      `\`CRASH_SCENARIO\` of \`server/test/crash-scenario.ts\`): ${n(s.shoppers)} ` +
      `guests, each from its own client address, each put ${s.ticketsEach} ` +
      `tickets of a listing of its own in a cart and check out ` +
      `with an \`Idempotency-Key\`, ${s.concurrency} at a time; a 503 (or a 409 ` +
      `for a checkout still running) is retried after ${s.retryPauseMs} ms with ` +
      `the same key, up to ${s.cartAttempts} tries for a cart and ${s.checkoutAttempts} ` +
      `for a checkout, within ${n(s.maxRequests)} requests in all. ` +
      `Once ${s.crashAfterRequests} requests have been sent and ${s.crashWithInFlight} ` +
      `are in flight (or after ${seconds(s.crashWaitMs)} regardless), ` +
      `PostgreSQL is stopped with \`pg_ctl stop -m immediate\` (connections cut ` +
      `mid-transaction, no checkpoint), left down for ${seconds(s.downMs)} and ` +
      `started again on the same data (WAL recovery); ` +
      `this run it was killed after request ${r.sentAtCrash} with ${r.inFlightAtCrash} ` +
      `in flight, and was unavailable for ${(r.outageMs / 1000).toFixed(1)} s. ` +
      `Then a new guest buys once without any retry, the run waits (at most ` +
      `${seconds(SETTLE_WAIT_MS)}) for the server to settle payments left open, ` +
      `reads every order a client was given with its guest token, and checks ` +
      `the database and the server's \`payment authorized/captured/voided\` log ` +
      `lines.`,
    '',
    '| figure | measured |',
    '|---|---|',
    `| requests sent | ${n(r.requests)} (${n(all)} answered or failed) |`,
    `| answers to requests sent before the crash | ${statuses(r.answers.before)} |`,
    `| answers to requests sent while PostgreSQL was down | ${statuses(r.answers.down)} |`,
    `| answers to requests sent after it came back | ${statuses(r.answers.after)} |`,
    `| guests who bought / gave up after their retries / never started ` +
      `(request budget spent) | ${n(r.bought)} / ${n(r.gaveUpOn.length)} / ${n(r.notStarted)}` +
      (r.gaveUpOn.length ? `; last answers of those who gave up: ${summarizeGaveUp(r.gaveUpOn)}` : '') +
      ' |',
    `| after recovery, a new guest's session, cart, checkout; \`/healthz\` | ` +
      `${r.recovery.session}, ${r.recovery.cart}, ${r.recovery.checkout}; ${r.recovery.healthz} ` +
      `|`,
    `| orders: answered to clients / in the database / in the database but ` +
      `never told to their guest | ${n(r.ordersAnswered.length)} / ${n(r.database.orders)} ` +
      `/ ${n(r.untold.length)} |`,
    `| charges in the database: captured / voided / left open | ${n(r.database.payments.captured)} ` +
      `/ ${n(r.database.payments.voided)} / ${n(r.authorizedLeft)} |`,
    `| payment log lines: authorized / captured / voided | ${n(r.logged.authorized)} ` +
      `/ ${n(r.logged.captured)} / ${n(r.logged.voided)} |`,
    `| process crashes / lost orders (answered but not readable, or an order ` +
      `and its hold out of step) / doubled charges (a cart captured more than ` +
      `once) | ${r.serverExit ? 1 : 0} / ${lost} / ${r.database.doubled.length} ` +
      `|`,
    '',
    'Expectations (`crashScenarioExpectations`; the test asserts that none is missed):',
    '',
    '| expected | measured | |',
    '|---|---|---|',
    ...crashScenarioExpectations(r).map((e) => `| ${e.expected} | ${e.measured} | ${e.met ? 'met' : '**not met**'} |`),
  ];
  if (Object.keys(r.examples).some((k) => k.endsWith('idempotency_key_in_use'))) {
    lines.push(
      '',
      'A checkout cut off by the crash answered 503, but its `Idempotency-Key` ' +
        'could not be freed while the database was down, so retries with that key ' +
        "are told `409 idempotency_key_in_use` until the key's lock runs out " +
        '(`IDEMPOTENCY_LOCK_SECONDS`, 60 s), although nothing runs any more; the ' +
        'same cart checked out without the key goes through at once.',
    );
  }
  const refusals = Object.entries(r.examples).filter(([key]) => !/→ 20\d$/.test(key));
  if (refusals.length) {
    lines.push('', 'The first answer of each kind that was not a success:', '');
    for (const [key, e] of refusals) {
      const message = (e.body as { error?: { message?: string } } | null)?.error?.message ?? JSON.stringify(e.body);
      const sent =
        e.phase === 'down'
          ? 'while PostgreSQL was down'
          : e.phase === 'before'
            ? 'before the crash'
            : 'after it came back';
      lines.push(`- \`${key}\` (sent ${sent}): “${message}”`);
    }
  }
  return lines.join('\n');
}

/** Runs the scenario once, prints its section and (unless `write` is false) records it in bench/RESULTS.md. */
export async function runFaultBench(options: {
  command: string;
  write: boolean;
  log: (message: string) => void;
}): Promise<boolean> {
  const { log } = options;
  if (!havePostgres()) {
    log(
      'PostgreSQL binaries not found (/usr/lib/postgresql/*/bin): install ' +
        "Debian's postgresql package to run the fault benchmark",
    );
    return false;
  }
  const startedAt = new Date();
  const loadStart = os.loadavg()[0]!;
  log('starting a private PostgreSQL cluster and the server node');
  const stack = await startStack({ nodes: 1, env: CRASH_SCENARIO.env });
  const undoStack = onCleanup(() => stack.stop());
  let report: CrashScenarioReport;
  let postgres: string;
  try {
    postgres = (await stack.db.query<{ server_version: string }>('SHOW server_version'))[0]?.server_version ?? '';
    report = await crashScenario(stack, log);
  } finally {
    await stack.stop();
    undoStack();
  }
  const section = faultSection(report, { command: options.command, startedAt, postgres, loadStart });
  console.log(section);
  const problems = crashScenarioProblems(report);
  if (problems.length) {
    console.log(`\nExpectations not met:\n${problems.map((p) => `- ${p}`).join('\n')}`);
    console.log(
      `\nThe full report:\n${JSON.stringify({ ...report, ordersAnswered: report.ordersAnswered.length }, null, 2)}`,
    );
  }
  if (options.write) {
    const file = path.resolve('bench/RESULTS.md');
    writeFileSync(file, replaceSection(readFileSync(file, 'utf8'), section, sectionMarkers('faults')));
    log('bench/RESULTS.md updated (fault section)');
  }
  return problems.length === 0;
}
