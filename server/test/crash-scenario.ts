/**
 * The store crash scenario: shared by server/store/postgres-faults.test.ts and `npm run bench -- --faults`.
 * Nothing here imports the test runner, so the benchmark uses it as well.
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  call,
  newShopper,
  nextAddress,
  outcome,
  shopperWith,
  type Answer,
  type CallOptions,
  type Shopper,
} from './api-calls.js';
import { checkoutBody } from './documents.js';
import type { ServerNode } from './server-nodes.js';
import { pickListings, type Stack } from './stack.js';
import {
  paymentLog,
  paymentStepAnomalies,
  SETTLE_WAIT_MS,
  settledPayments,
  storeInvariants,
  type PaymentAnomaly,
  type StoreInvariants,
} from './store-checks.js';

/** The crash scenario's figures; the benchmark's write-up reads them from here. */
export const CRASH_SCENARIO = {
  /** Guests in the burst, each buying `ticketsEach` tickets of a listing of an event of its own. */
  shoppers: 60,
  ticketsEach: 2,
  /** Guests served at once. */
  concurrency: 8,
  /** The burst stops sending at this many requests, whatever is left. */
  maxRequests: 300,
  /** PostgreSQL is killed once this many requests of the burst have been sent… */
  crashAfterRequests: 40,
  /** …and at least this many are being worked on, */
  crashWithInFlight: 4,
  /** …or, failing that moment, when this much time has gone by. */
  crashWaitMs: 20_000,
  /** How long it stays down. */
  downMs: 1_000,
  /** Pause before a guest retries a 503 (or a 409 of a checkout still running), with the same Idempotency-Key. */
  retryPauseMs: 200,
  /** Tries a guest makes at its cart, and at its checkout, before it gives up. */
  cartAttempts: 8,
  checkoutAttempts: 10,
  /** The nodes' rate limits, far above what the burst sends, so that only the outage refuses anything. */
  env: { RATE_LIMIT_SESSIONS_PER_MINUTE: '10000', RATE_LIMIT_CARTS_PER_MINUTE: '10000' },
} as const;

type Phase = 'before' | 'down' | 'after';

/** The answer every request sent while the store is unreachable must get. */
const STORE_DOWN = '503 store_unavailable';

export interface CrashScenarioReport {
  requests: number;
  /** Answers by phase (PostgreSQL up before the crash, down, up again), then by `outcome`. */
  answers: Record<Phase, Record<string, number>>;
  /** The first answer of each route and outcome, with the phase it was sent in. */
  examples: Record<string, { phase: Phase; body: unknown }>;
  /** Requests sent before PostgreSQL was killed, and of those the ones the server was still working on. */
  sentAtCrash: number;
  inFlightAtCrash: number;
  /** 5xx answers other than 503, and requests with no answer at all, as request and answer. */
  failures: { route: string; phase: Phase; status: number; body: unknown; error?: string }[];
  /** Guests of the burst that got their order. */
  bought: number;
  /** For each guest that gave up after its retries, the last answer it had, as `<route> → <outcome>`. */
  gaveUpOn: string[];
  /** Guests never served because the request budget ran out first. */
  notStarted: number;
  /** Order ids the clients were given (201, or 200 for a cart already bought), the recovery guest's included. */
  ordersAnswered: string[];
  /** Of those, the ones GET /api/orders/:id did not return to their guest afterwards. */
  unreadable: string[];
  /** Orders in the database whose guest was never given them within its retries (it gave up first). */
  untold: string[];
  /** After the burst, a new guest's session, cart and checkout, each on the first try, and /healthz. */
  recovery: { session: number; cart: number; checkout: number; healthz: number };
  /** How the server process ended, should it have during the run (it must not). */
  serverExit: ServerNode['exit'];
  /** Payments still open after the server had time to settle them. */
  authorizedLeft: number;
  database: StoreInvariants;
  logged: { authorized: number; captured: number; voided: number };
  paymentAnomalies: PaymentAnomaly[];
  /** How long PostgreSQL was down, as measured around pg_ctl. */
  outageMs: number;
  durationMs: number;
}

const tally = (into: Record<string, number>, key: string) => {
  into[key] = (into[key] ?? 0) + 1;
};

/**
 * One node of `stack` (started with `CRASH_SCENARIO.env`) takes a burst of carts and checkouts; PostgreSQL is
 * killed in the middle of it and started again. Then a new guest buys once, and the run collects what the
 * clients were answered, what the database holds and what the server logged.
 */
export async function crashScenario(
  stack: Stack,
  log: (message: string) => void = () => {},
): Promise<CrashScenarioReport> {
  const { cluster, db, catalog } = stack;
  const node = stack.nodes[0]!;
  const s = CRASH_SCENARIO;
  const began = performance.now();

  const picked = pickListings(
    catalog,
    s.shoppers + 1,
    (l) => l.quantity >= s.ticketsEach && l.splits.includes(s.ticketsEach),
  );
  const shoppers = await Promise.all(picked.slice(0, s.shoppers).map(() => newShopper(node)));
  log(`${shoppers.length} guests ready; burst of carts and checkouts begins`);

  let phase: Phase = 'before';
  let sent = 0;
  const answers: CrashScenarioReport['answers'] = { before: {}, down: {}, after: {} };
  const failures: CrashScenarioReport['failures'] = [];
  const examples: CrashScenarioReport['examples'] = {};
  let inFlight = 0;
  let inFlightAtCrash = 0;
  let sentAtCrash = 0;
  const orders: { id: string; shopper: Shopper }[] = [];
  const gaveUpOn: string[] = [];
  const giveUp = (route: string, last: Answer | null) =>
    gaveUpOn.push(`${route} → ${last ? outcome(last) : 'not sent (request budget spent)'}`);

  const send = async (
    shopper: Shopper,
    method: string,
    route: string,
    callOptions: Omit<CallOptions, 'token' | 'ip'>,
  ) => {
    sent++;
    const at = phase;
    inFlight++;
    const answer = await shopper.call(node, method, route, callOptions).finally(() => inFlight--);
    const label = outcome(answer);
    examples[`${method} ${route} → ${label}`] ??= { phase: at, body: answer.body };
    tally(answers[at], label);
    if (answer.status === 0 || (answer.status >= 500 && answer.status !== 503))
      failures.push({
        route: `${method} ${route}`,
        phase: at,
        status: answer.status,
        body: answer.body,
        ...(answer.error ? { error: answer.error } : {}),
      });
    return answer;
  };
  const budget = () => sent < s.maxRequests;
  const retryable = (a: Answer) => a.status === 0 || a.status === 503;

  async function shop(shopper: Shopper, i: number, listingId: number): Promise<void> {
    let cart: Answer | null = null;
    for (let attempt = 0; attempt < s.cartAttempts && budget(); attempt++) {
      cart = await send(shopper, 'POST', '/api/cart', { body: { listingId, quantity: s.ticketsEach } });
      if (!retryable(cart)) break;
      await sleep(s.retryPauseMs);
    }
    if (cart?.status !== 201) {
      giveUp('POST /api/cart', cart);
      return;
    }
    const key = `burst-${i}-${randomBytes(6).toString('hex')}`;
    const body = checkoutBody(cart.body.id, `shopper${i}@example.com`);
    let paid: Answer | null = null;
    for (let attempt = 0; attempt < s.checkoutAttempts && budget(); attempt++) {
      paid = await send(shopper, 'POST', '/api/checkout', { body, headers: { 'idempotency-key': key } });
      if ((paid.status === 201 || paid.status === 200) && typeof paid.body?.id === 'string') {
        orders.push({ id: paid.body.id, shopper });
        return;
      }
      const busy =
        paid.status === 409 && ['idempotency_key_in_use', 'checkout_in_progress'].includes(paid.body?.error?.code);
      if (!retryable(paid) && !busy) break;
      await sleep(s.retryPauseMs);
    }
    giveUp('POST /api/checkout', paid);
  }

  let next = 0;
  const worker = async () => {
    while (next < shoppers.length && budget()) {
      const i = next++;
      await shop(shoppers[i]!, i, picked[i]!.listing.id);
    }
  };

  let outageMs = 0;
  const fault = async () => {
    const latest = Date.now() + s.crashWaitMs;
    while (
      (sent < s.crashAfterRequests || inFlight < s.crashWithInFlight) &&
      next < shoppers.length &&
      Date.now() < latest
    )
      await sleep(1);
    inFlightAtCrash = inFlight;
    sentAtCrash = sent;
    const down = performance.now();
    log(`crashing PostgreSQL (pg_ctl stop -m immediate) after ${sent} requests`);
    cluster.crash();
    phase = 'down';
    await sleep(s.downMs);
    log('starting PostgreSQL again');
    cluster.restart();
    outageMs = performance.now() - down;
    phase = 'after';
  };
  await Promise.all([fault(), ...Array.from({ length: s.concurrency }, worker)]);
  log(`burst done: ${sent} requests, ${orders.length} orders`);

  // Recovery: the same process, no restart; a new guest buys on the first try.
  const healthz = (await call(node.url, 'GET', '/healthz')).status;
  const late = picked[s.shoppers]!;
  const recovery = { session: 0, cart: 0, checkout: 0, healthz };
  let recoveryOrder: { id: string; shopper: Shopper } | null = null;
  const ip = nextAddress();
  const session = await call(node.url, 'POST', '/api/customers/session', { ip });
  recovery.session = session.status;
  if (session.status === 201) {
    const shopper = shopperWith(session.body.sessionToken as string, ip);
    const cart = await shopper.call(node, 'POST', '/api/cart', {
      body: { listingId: late.listing.id, quantity: s.ticketsEach },
    });
    recovery.cart = cart.status;
    if (cart.status === 201) {
      const paid = await shopper.call(node, 'POST', '/api/checkout', {
        body: checkoutBody(cart.body.id),
        headers: { 'idempotency-key': `recovery-${randomBytes(6).toString('hex')}` },
      });
      recovery.checkout = paid.status;
      if (paid.status === 201) recoveryOrder = { id: paid.body.id, shopper };
    }
  }

  log('waiting for the server to settle payments caught by the crash');
  const authorizedLeft = await settledPayments(db);
  const answered = recoveryOrder ? [...orders, recoveryOrder] : orders;
  const unreadable: string[] = [];
  for (const o of answered) {
    const read = await o.shopper.call(node, 'GET', `/api/orders/${o.id}`);
    if (read.status !== 200 || read.body?.id !== o.id) unreadable.push(o.id);
  }
  const told = new Set(answered.map((o) => o.id));
  const untold = (await db.query<{ id: string }>('SELECT id FROM orders'))
    .map((r) => r.id)
    .filter((id) => !told.has(id));
  const logged = paymentLog([node]);
  return {
    requests: sent,
    answers,
    examples,
    sentAtCrash,
    inFlightAtCrash,
    failures,
    bought: orders.length,
    gaveUpOn,
    notStarted: shoppers.length - next,
    ordersAnswered: answered.map((o) => o.id),
    unreadable,
    untold,
    recovery,
    serverExit: node.exit,
    authorizedLeft,
    database: await storeInvariants(db),
    logged: { authorized: logged.authorized.length, captured: logged.captured.length, voided: logged.voided.length },
    paymentAnomalies: await paymentStepAnomalies(db, [node]),
    outageMs,
    durationMs: performance.now() - began,
  };
}

/** What the crash scenario's expectations are about; each outcome of the test covers one. */
export type CrashTopic = 'process' | 'answers' | 'guests' | 'orders' | 'charges';

export interface CrashExpectation {
  topic: CrashTopic;
  /** The expectation, in words. */
  expected: string;
  /** What the run measured for it. */
  measured: string;
  met: boolean;
}

const some = (ids: readonly string[]) =>
  ids.length === 0 ? 'none' : `${ids.length} (${ids.slice(0, 3).join(', ')}${ids.length > 3 ? ', …' : ''})`;

/**
 * Every expectation of the crash scenario with what the run measured: the test asserts none is missed, the
 * benchmark prints them.
 */
export function crashScenarioExpectations(r: CrashScenarioReport): CrashExpectation[] {
  const db = r.database;
  const gaveUp = r.gaveUpOn.length;
  const downAnswered = r.answers.down[STORE_DOWN] ?? 0;
  const otherFives = (['before', 'down', 'after'] as const).flatMap((p) =>
    Object.keys(r.answers[p])
      .filter((k) => k.startsWith('5') && k !== STORE_DOWN)
      .map((k) => `${k} (${p})`),
  );
  const failures = r.failures.map((f) => `${f.route} → ${f.status || f.error} (${f.phase})`);
  const distinct = new Set(r.ordersAnswered).size;
  const { session, cart, checkout, healthz } = r.recovery;
  const loggedEnds = r.logged.captured + r.logged.voided;
  return [
    {
      topic: 'process',
      expected: 'the server process keeps running',
      measured: r.serverExit ? `it ended (${r.serverExit.code ?? r.serverExit.signal})` : 'running',
      met: r.serverExit === null,
    },
    {
      topic: 'process',
      expected: '`/healthz` answers 200 after the burst',
      measured: String(healthz),
      met: healthz === 200,
    },
    {
      topic: 'process',
      expected: 'PostgreSQL is killed under load: requests in flight at the kill',
      measured: `${r.inFlightAtCrash} in flight after request ${r.sentAtCrash}`,
      met: r.inFlightAtCrash > 0,
    },
    {
      topic: 'answers',
      expected: `requests sent while PostgreSQL is down are answered \`${STORE_DOWN}\``,
      measured: `${downAnswered} were`,
      met: downAnswered > 0,
    },
    {
      topic: 'answers',
      expected: `every request answered, and no 5xx but \`${STORE_DOWN}\``,
      measured:
        failures.length + otherFives.length === 0
          ? 'every one answered, no other 5xx'
          : [...failures.slice(0, 3), ...otherFives].join('; '),
      met: r.failures.length === 0 && otherFives.length === 0,
    },
    {
      topic: 'guests',
      expected: `every guest of the burst served within ${CRASH_SCENARIO.maxRequests} requests`,
      measured: `${r.notStarted} never started`,
      met: r.notStarted === 0,
    },
    {
      // A checkout cut off by the kill may keep its Idempotency-Key locked beyond the guest's retries; any
      // other guest retries past the outage.
      topic: 'guests',
      expected: 'no more guests give up than had a request in flight at the kill',
      measured: `${gaveUp} gave up, ${r.inFlightAtCrash} in flight`,
      met: gaveUp <= r.inFlightAtCrash,
    },
    {
      topic: 'guests',
      expected: "after recovery, a new guest's session, cart and checkout answer 201, 201, 201 on the first try",
      measured: `${session}, ${cart}, ${checkout}`,
      met: session === 201 && cart === 201 && checkout === 201,
    },
    {
      topic: 'orders',
      expected: 'every order a client was given is readable by its guest',
      measured: `unreadable: ${some(r.unreadable)}`,
      met: r.unreadable.length === 0,
    },
    {
      topic: 'orders',
      expected: 'no order id given to two clients',
      measured: `${r.ordersAnswered.length} given, ${distinct} distinct`,
      met: distinct === r.ordersAnswered.length,
    },
    {
      topic: 'orders',
      expected: 'orders and purchased holds one to one',
      measured:
        `orders without a purchased hold: ${some(db.ordersWithoutPurchasedHold)}; ` +
        `purchased holds without an order: ${some(db.purchasedHoldsWithoutOrder)}`,
      met: db.ordersWithoutPurchasedHold.length === 0 && db.purchasedHoldsWithoutOrder.length === 0,
    },
    {
      topic: 'orders',
      expected: 'orders in the database that no guest was told about are at most the guests who gave up',
      measured: `${r.untold.length} untold, ${gaveUp} gave up`,
      met: r.untold.length <= gaveUp,
    },
    {
      topic: 'orders',
      expected: "every listing's held and sold counts agree with its holds",
      measured: `listings that differ: ${db.inventoryMismatches.length}`,
      met: db.inventoryMismatches.length === 0,
    },
    {
      topic: 'charges',
      expected: 'each order has exactly one captured payment, and each captured payment an order',
      measured:
        `orders without one capture: ${some(db.ordersWithoutOneCapture)}; ` +
        `captures without an order: ${some(db.capturesWithoutOrder)}`,
      met: db.ordersWithoutOneCapture.length === 0 && db.capturesWithoutOrder.length === 0,
    },
    {
      topic: 'charges',
      expected: 'no cart captured more than once',
      measured: `doubled: ${some(db.doubled)}`,
      met: db.doubled.length === 0,
    },
    {
      topic: 'charges',
      expected: 'captured payments = orders',
      measured: `${db.payments.captured} captured, ${db.orders} orders`,
      met: db.payments.captured === db.orders,
    },
    {
      topic: 'charges',
      expected: `no payment left open after waiting at most ${SETTLE_WAIT_MS / 1000} s for the server to settle it`,
      measured: `${r.authorizedLeft} left`,
      met: r.authorizedLeft === 0,
    },
    {
      topic: 'charges',
      expected:
        'per payment, one `payment authorized` log line then one `payment ' +
        'captured` or `payment voided`, as in the database',
      measured:
        r.paymentAnomalies.length === 0
          ? 'every payment so'
          : `${r.paymentAnomalies.length} otherwise: ${r.paymentAnomalies
              .slice(0, 3)
              .map((a) => `${a.steps.join(' → ') || 'no log line'} (database: ${a.database ?? 'no row'})`)
              .join('; ')}`,
      met: r.paymentAnomalies.length === 0,
    },
    {
      topic: 'charges',
      expected: 'payment log lines: captured = orders, authorized = captured + voided',
      measured:
        `${r.logged.authorized} authorized, ${r.logged.captured} captured, ${r.logged.voided} ` +
        `voided; ${db.orders} orders`,
      met: r.logged.captured === db.orders && r.logged.authorized === loggedEnds,
    },
  ];
}

/** Every expectation of the crash scenario the run did not meet (those about `topic` only, when given), in words. */
export function crashScenarioProblems(r: CrashScenarioReport, topic?: CrashTopic): string[] {
  return crashScenarioExpectations(r)
    .filter((e) => !e.met && (topic === undefined || e.topic === topic))
    .map((e) => `expected ${e.expected}; measured ${e.measured}`);
}
