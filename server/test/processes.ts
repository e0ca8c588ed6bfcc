/**
 * Real processes for tests and the fault benchmark: a private PostgreSQL cluster that can be crashed and
 * started again, fresh databases in it, and storefront server nodes (`node --import tsx server/main.ts`) on
 * loopback, each stopped by its own process id. Nothing here imports the test runner, so the benchmark
 * uses it as well.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pg from 'pg';
import type { EventDocument } from '../../schemas/documents.js';
import { generateCatalog } from '../catalog/generate/generate-catalog.js';
import { loadCatalog, type Catalog } from '../catalog/load-catalog.js';
import { listingsForEvent, type GeneratedListing } from '../commerce/domain/listings.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------------------------
// PostgreSQL

/** Whether Debian's PostgreSQL server binaries are installed (what `scripts/postgres.mjs` runs). */
export function havePostgres(): boolean {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return false;
  return readdirSync(root).some((v) => existsSync(path.join(root, v, 'bin', 'initdb')) && existsSync(path.join(root, v, 'bin', 'pg_ctl')));
}

export interface PostgresCluster {
  /** The admin URL (database `postgres`). */
  url: string;
  port: number;
  dataDir: string;
  /** `pg_ctl stop -m immediate`: every connection is cut, transactions in flight are lost, no checkpoint. */
  crash(): void;
  /** `pg_ctl start` on the same data directory and port; returns once it accepts connections. */
  restart(): void;
  /** Stops the cluster and removes its folder. */
  stop(): void;
}

/** A throwaway cluster on a free loopback port (`scripts/postgres.mjs`). */
export async function startPostgres(): Promise<PostgresCluster> {
  const script = pathToFileURL(path.join(ROOT, 'scripts', 'postgres.mjs')).href;
  const { startTestPostgres } = (await import(script)) as { startTestPostgres(): Promise<PostgresCluster | null> };
  const cluster = await startTestPostgres();
  if (!cluster) throw new Error('PostgreSQL did not start (see the lines above)');
  return cluster;
}

export interface Database {
  url: string;
  name: string;
  /** Runs one statement on a connection of its own (so it works across a restart of the cluster). */
  query<R extends Record<string, unknown> = Record<string, unknown>>(text: string, params?: unknown[]): Promise<R[]>;
  drop(): Promise<void>;
}

async function once<R extends Record<string, unknown>>(url: string, text: string, params: unknown[] = []): Promise<R[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  client.on('error', () => {});
  await client.connect();
  try {
    return (await client.query<R>(text, params)).rows;
  } finally {
    await client.end().catch(() => {});
  }
}

/** A new, empty database in the cluster; the server nodes migrate it when they start. */
export async function createDatabase(adminUrl: string): Promise<Database> {
  const name = `storefront_${randomBytes(6).toString('hex')}`;
  await once(adminUrl, `CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    query: (text, params) => once(url.toString(), text, params),
    drop: async () => {
      await once(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

// ---------------------------------------------------------------------------------------------------------
// The catalog

/** Generates a small catalog into `<dataDir>/catalog` (once; every node then shares it) and loads it here too. */
export async function prepareCatalog(dataDir: string, events = 2_000, seed = 22791): Promise<Catalog> {
  const dir = path.join(dataDir, 'catalog');
  if (!existsSync(path.join(dir, 'manifest.json'))) await generateCatalog({ events, seed, start: new Date().toISOString().slice(0, 10), outDir: dir });
  return loadCatalog(dir);
}

/** Scheduled events that start more than three days from now, so nothing about them changes during a test. */
export function sellableEvents(catalog: Catalog): EventDocument[] {
  const soon = Date.now() / 1000 + 3 * 86_400;
  return catalog.collections.Event.filter((e) => e.event_status === 'scheduled' && e.event_timestamp !== null && e.event_timestamp > soon);
}

export interface PickedListing {
  event: EventDocument;
  listing: GeneratedListing;
}

/** Listings that pass `test`, at most one per event, from events not in `skipEvents` (which it then adds to). */
export function pickListings(
  catalog: Catalog,
  count: number,
  test: (l: GeneratedListing) => boolean,
  skipEvents = new Set<number>(),
  eventTest: (e: EventDocument) => boolean = () => true,
): PickedListing[] {
  const picked: PickedListing[] = [];
  for (const event of sellableEvents(catalog)) {
    if (picked.length >= count) break;
    if (skipEvents.has(event.event_id) || !eventTest(event)) continue;
    const listing = listingsForEvent(event).find(test);
    if (!listing) continue;
    skipEvents.add(event.event_id);
    picked.push({ event, listing });
  }
  if (picked.length < count) throw new Error(`only ${picked.length} of ${count} listings in the catalog fit`);
  return picked;
}

// ---------------------------------------------------------------------------------------------------------
// Server nodes

export interface ServerNode {
  name: string;
  pid: number;
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Every line the process wrote on stdout, in order. */
  lines: string[];
  /** Every line it wrote on stderr. */
  errors: string[];
  /** Set when the process has ended. */
  exit: { code: number | null; signal: NodeJS.Signals | null } | null;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** The stdout lines that are pino JSON records, parsed. */
  records(): Record<string, unknown>[];
  /** SIGTERM, then SIGKILL when it is still running after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

export interface NodeOptions {
  /** Environment of the node on top of the defaults below (loopback, PORT=0, info logs, no file watching). */
  env: Record<string, string>;
  /** How long a node may take to print its URL and answer /readyz 200. */
  readyTimeoutMs?: number;
}

/** More than any test writes; a runaway logger cannot exhaust the runner's memory. */
const MAX_LINES = 500_000;

function spawnNode(name: string, env: Record<string, string>): { node: ServerNode; proc: ChildProcess } {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', NODE_ENV: 'test', LOG_LEVEL: 'info', SEGMENTS_WATCH: 'false', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (proc.pid === undefined) throw new Error(`${name}: the server process did not start`);
  const lines: string[] = [];
  const errors: string[] = [];
  const collect = (into: string[]) => {
    let partial = '';
    return (chunk: Buffer) => {
      const parts = (partial + chunk.toString('utf8')).split('\n');
      partial = parts.pop() ?? '';
      for (const line of parts) if (line && into.length < MAX_LINES) into.push(line);
    };
  };
  proc.stdout!.on('data', collect(lines));
  proc.stderr!.on('data', collect(errors));
  const node: ServerNode = {
    name,
    pid: proc.pid,
    url: '',
    lines,
    errors,
    exit: null,
    exited: new Promise((resolve) => {
      proc.once('exit', (code, signal) => {
        node.exit = { code, signal };
        resolve(node.exit);
      });
    }),
    records: () =>
      lines.flatMap((line) => {
        if (!line.startsWith('{')) return [];
        try {
          return [JSON.parse(line) as Record<string, unknown>];
        } catch {
          return [];
        }
      }),
    stop: async (graceMs = 5_000) => {
      if (node.exit) return;
      signal(node.pid, 'SIGTERM');
      const timer = setTimeout(() => signal(node.pid, 'SIGKILL'), graceMs);
      await node.exited;
      clearTimeout(timer);
    },
  };
  return { node, proc };
}

function signal(pid: number, sig: NodeJS.Signals) {
  try {
    process.kill(pid, sig);
  } catch {
    // already gone
  }
}

const tail = (node: ServerNode) => [...node.lines.slice(-15), ...node.errors.slice(-15)].join('\n');

async function untilReady(node: ServerNode, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const polls = Math.ceil(timeoutMs / 100);
  for (let i = 0; i < polls && Date.now() < deadline; i++) {
    if (node.exit) throw new Error(`${node.name} exited (${node.exit.code ?? node.exit.signal}) before it was ready:\n${tail(node)}`);
    if (!node.url) {
      const line = node.lines.find((l) => l.startsWith('Storefront running at '));
      const match = line ? /(http:\/\/127\.0\.0\.1:\d+)/.exec(line) : null;
      if (match) node.url = match[1]!;
    }
    if (node.url) {
      const status = await fetch(`${node.url}/readyz`, { signal: AbortSignal.timeout(2_000) }).then(
        (r) => r.status,
        () => 0,
      );
      if (status === 200) return;
    }
    await sleep(100);
  }
  throw new Error(`${node.name} was not ready within ${timeoutMs} ms:\n${tail(node)}`);
}

/**
 * Starts `count` server nodes at once with the same environment, and resolves when every one answers
 * /readyz 200. Should one fail, those already started are stopped before the error is thrown.
 */
export async function startNodes(count: number, options: NodeOptions): Promise<ServerNode[]> {
  const nodes = Array.from({ length: count }, (_, i) => spawnNode(`node ${String.fromCharCode(65 + i)}`, options.env).node);
  try {
    await Promise.all(nodes.map((n) => untilReady(n, options.readyTimeoutMs ?? 90_000)));
  } catch (err) {
    await stopNodes(nodes);
    throw err;
  }
  return nodes;
}

export async function stopNodes(nodes: readonly ServerNode[], graceMs = 5_000): Promise<void> {
  await Promise.all(nodes.map((n) => n.stop(graceMs)));
}

// ---------------------------------------------------------------------------------------------------------
// HTTP

export interface Answer {
  /** 0 when no answer came (connection refused or reset, timeout). */
  status: number;
  headers: Headers;
  /** The parsed JSON body, or null; read by the API's contract. */
  body: any;
  /** Why no answer came, when status is 0. */
  error?: string;
}

/** A client address per simulated shopper: 10.a.b.c, distinct for every call in a process. */
let addresses = 0;
export function nextAddress(): string {
  const n = ++addresses;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
}

export interface CallOptions {
  body?: unknown;
  token?: string;
  /** Sent as X-Forwarded-For: the address the server believes the client has (it trusts loopback proxies). */
  ip?: string;
  headers?: Record<string, string>;
  timeoutMs?: number;
}

/** One request to a node; never throws. */
export async function call(base: string, method: string, route: string, options: CallOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = { accept: 'application/json', ...(options.headers ?? {}) };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.ip) headers['x-forwarded-for'] = options.ip;
  try {
    const res = await fetch(base + route, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: AbortSignal.timeout(options.timeoutMs ?? 20_000),
    });
    const text = await res.text();
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = text;
    }
    return { status: res.status, headers: res.headers, body };
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause;
    return { status: 0, headers: new Headers(), body: null, error: cause?.code ?? (err instanceof Error ? err.name : String(err)) };
  }
}

/** A simulated shopper: one guest token, one client address; each call may go to any node. */
export interface Shopper {
  ip: string;
  token: string;
  call(node: ServerNode | string, method: string, route: string, options?: Omit<CallOptions, 'token' | 'ip'>): Promise<Answer>;
}

/** Opens a guest session on `node` from a new client address (or `ip`); throws unless it is 201. */
export async function newShopper(node: ServerNode | string, ip = nextAddress()): Promise<Shopper> {
  const base = typeof node === 'string' ? node : node.url;
  const session = await call(base, 'POST', '/api/customers/session', { ip });
  if (session.status !== 201 || typeof session.body?.sessionToken !== 'string') {
    throw new Error(`POST /api/customers/session from ${ip} answered ${session.status}: ${JSON.stringify(session.body)}`);
  }
  return shopperWith(session.body.sessionToken as string, ip);
}

/** A shopper for a token already issued. */
export function shopperWith(token: string, ip: string): Shopper {
  return {
    ip,
    token,
    call: (to, method, route, options = {}) => call(typeof to === 'string' ? to : to.url, method, route, { ...options, token, ip }),
  };
}

export const TEST_BILLING = {
  name: 'Grace Hopper',
  address1: '1 Navy Way',
  city: 'Arlington',
  state: 'VA',
  countryCode: 'US',
  postalCode: '22202',
  phoneNumber: '703 555 0100',
};

/** A checkout body paying with the sandbox's test card that succeeds. */
export function checkoutBody(cartId: string, email = 'grace@example.com') {
  return {
    cartId,
    email,
    billingAddress: TEST_BILLING,
    payment: { method: 'card', cardNumber: '4242 4242 4242 4242', expMonth: 12, expYear: new Date().getFullYear() + 1, cvc: '123' },
  };
}

/** The payment steps a node logged (`payment authorized`, `payment captured`, `payment voided`). */
export function paymentLog(nodes: readonly ServerNode[]): { authorized: Record<string, unknown>[]; captured: Record<string, unknown>[]; voided: Record<string, unknown>[] } {
  const records = nodes.flatMap((n) => n.records());
  const step = (msg: string) => records.filter((r) => r.msg === msg);
  return { authorized: step('payment authorized'), captured: step('payment captured'), voided: step('payment voided') };
}

/** Payments whose logged steps are not one authorization then one capture or void, or disagree with the database. */
export async function paymentStepAnomalies(db: Database, nodes: readonly ServerNode[]): Promise<CrashScenarioReport['paymentAnomalies']> {
  const steps = new Map<string, { cart: string; steps: string[] }>();
  for (const r of nodes.flatMap((n) => n.records())) {
    const step = typeof r.msg === 'string' ? /^payment (authorized|captured|voided)$/.exec(r.msg)?.[1] : undefined;
    if (!step) continue;
    const id = String(r.payment);
    const entry = steps.get(id) ?? { cart: String(r.cart), steps: [] };
    entry.steps.push(step);
    steps.set(id, entry);
  }
  const all = await db.query<{ id: string; status: string; authorization_id: string | null }>('SELECT id, status, authorization_id FROM payments');
  const rows = new Map(all.map((p) => [String(p.id), p.status]));
  // A payment the processor never authorized (declined, or its checkout ended first) has no steps to log.
  const authorizedRows = new Set(all.filter((p) => p.authorization_id !== null).map((p) => String(p.id)));
  const anomalies: CrashScenarioReport['paymentAnomalies'] = [];
  for (const [payment, { cart, steps: s }] of steps) {
    const database = rows.get(payment) ?? null;
    // Counted, not ordered: the lines may come from several nodes (housekeeping settles on any of them).
    const times = (step: string) => s.filter((x) => x === step).length;
    const end = times('captured') === 1 ? 'captured' : times('voided') === 1 ? 'voided' : null;
    const wellFormed = s.length === 2 && times('authorized') === 1 && end !== null;
    const agrees = database === null ? end === 'voided' : database === end;
    if (!wellFormed || !agrees) anomalies.push({ payment, cart, steps: s, database });
  }
  for (const [payment, status] of rows) if (!steps.has(payment) && authorizedRows.has(payment)) anomalies.push({ payment, cart: '', steps: [], database: status });
  return anomalies;
}

// ---------------------------------------------------------------------------------------------------------
// What the database says about orders, holds and payments

export interface StoreInvariants {
  orders: number;
  /** Orders whose hold is not marked purchased (or missing). */
  ordersWithoutPurchasedHold: string[];
  /** Holds marked purchased that have no order. */
  purchasedHoldsWithoutOrder: string[];
  /** Orders without exactly one captured payment for their hold. */
  ordersWithoutOneCapture: string[];
  /** Captured payments whose hold has no order. */
  capturesWithoutOrder: string[];
  /** Holds with more than one captured payment. */
  doubled: string[];
  payments: { authorized: number; captured: number; voided: number };
  /** Listings whose held and sold counts differ from their active and purchased holds (`except` left out). */
  inventoryMismatches: { listing_id: string; held: number; sold: number; active: number; purchased: number }[];
}

export async function storeInvariants(db: Database, except: readonly number[] = []): Promise<StoreInvariants> {
  const ids = async (text: string) => (await db.query<{ id: string }>(text)).map((r) => String(r.id));
  const [orders] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM orders');
  const payments = await db.query<{ status: string; n: number }>('SELECT status, count(*)::int AS n FROM payments GROUP BY status');
  const byStatus = (s: string) => payments.find((p) => p.status === s)?.n ?? 0;
  const inventory = await db.query<{ listing_id: string; held: number; sold: number; active: number; purchased: number }>(
    `SELECT i.listing_id::text, i.held, i.sold,
            coalesce(sum(h.quantity) FILTER (WHERE h.status = 'active'), 0)::int AS active,
            coalesce(sum(h.quantity) FILTER (WHERE h.status = 'purchased'), 0)::int AS purchased
       FROM listing_inventory i LEFT JOIN holds h ON h.listing_id = i.listing_id
      WHERE NOT (i.listing_id = ANY($1::bigint[]))
      GROUP BY i.listing_id, i.held, i.sold`,
    [except],
  );
  return {
    orders: orders?.n ?? 0,
    ordersWithoutPurchasedHold: await ids(`SELECT o.id FROM orders o LEFT JOIN holds h ON h.id = o.hold_id WHERE h.status IS DISTINCT FROM 'purchased'`),
    purchasedHoldsWithoutOrder: await ids(`SELECT h.id FROM holds h LEFT JOIN orders o ON o.hold_id = h.id WHERE h.status = 'purchased' AND o.id IS NULL`),
    ordersWithoutOneCapture: await ids(
      `SELECT o.id FROM orders o LEFT JOIN payments p ON p.hold_id = o.hold_id AND p.status = 'captured' GROUP BY o.id HAVING count(p.id) <> 1`,
    ),
    capturesWithoutOrder: await ids(`SELECT p.id FROM payments p LEFT JOIN orders o ON o.hold_id = p.hold_id WHERE p.status = 'captured' AND o.id IS NULL`),
    doubled: await ids(`SELECT hold_id AS id FROM payments WHERE status = 'captured' GROUP BY hold_id HAVING count(*) > 1`),
    payments: { authorized: byStatus('authorized') + byStatus('authorizing') + byStatus('voiding'), captured: byStatus('captured'), voided: byStatus('voided') },
    inventoryMismatches: inventory.filter((r) => r.held !== r.active || r.sold !== r.purchased),
  };
}

/**
 * Waits (polling, at most `timeoutMs`) until no payment is left open (`authorizing`, `authorized` or
 * `voiding`): a payment caught between its
 * authorization and its capture or void by a fault is settled by the server's own housekeeping. Returns how
 * many are still authorized when it stops waiting.
 */
export async function settledPayments(db: Database, timeoutMs = 30_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  let left = Number.NaN;
  for (let i = 0; i < Math.ceil(timeoutMs / 250) + 1; i++) {
    left = await db
      .query<{ n: number }>(`SELECT count(*)::int AS n FROM payments WHERE status IN ('authorizing', 'authorized', 'voiding')`)
      .then((r) => r[0]?.n ?? 0, () => Number.NaN);
    if (left === 0 || Date.now() >= deadline) break;
    await sleep(250);
  }
  return left;
}

// ---------------------------------------------------------------------------------------------------------
// The store crash scenario: shared by server/store/postgres-faults.test.ts and `npm run bench -- --faults`

export interface CrashScenarioOptions {
  node: ServerNode;
  cluster: PostgresCluster;
  db: Database;
  catalog: Catalog;
  /** Shoppers in the burst, each buying 2 tickets of a listing of an event of its own. */
  shoppers?: number;
  /** Shoppers served at once. */
  concurrency?: number;
  /** The burst stops sending at this many requests, whatever is left. */
  maxRequests?: number;
  /** PostgreSQL is crashed once this many requests of the burst have been sent. */
  crashAfterRequests?: number;
  /** How long it stays down. */
  downMs?: number;
  /** Pause before a shopper retries a 503 (or a 409 of a checkout still running). */
  retryPauseMs?: number;
  log?: (message: string) => void;
}

type Phase = 'before' | 'down' | 'after';

export interface CrashScenarioReport {
  requests: number;
  /** Answers by phase (PostgreSQL up before the crash, down, up again), then by `<status>` or `<status> <error code>`. */
  answers: Record<Phase, Record<string, number>>;
  /** Answers by route and status. */
  byRoute: Record<string, Record<string, number>>;
  /** The first answer of each route, status and error code, with the phase it was sent in. */
  examples: Record<string, { phase: Phase; body: unknown }>;
  /** Requests sent before PostgreSQL was killed, and of those the ones the server was still working on. */
  sentAtCrash: number;
  inFlightAtCrash: number;
  /** 5xx answers other than 503, and requests with no answer at all, as request and answer. */
  failures: { route: string; phase: Phase; status: number; body: unknown; error?: string }[];
  shoppers: number;
  /** Shoppers that got their order, and those that gave up after their retries. */
  bought: number;
  gaveUp: number;
  /** For each guest that gave up, the last answer it had, as `<route> → <status> <code>`. */
  gaveUpOn: string[];
  /** Guests never served because the request budget ran out first. */
  notStarted: number;
  /** Order ids the clients were given (201, or 200 for a cart already bought). */
  ordersAnswered: string[];
  /** Of those, the ones GET /api/orders/:id did not return to their guest afterwards. */
  unreadable: string[];
  /** Orders in the database whose guest was never given them within its retries (it gave up first). */
  untold: string[];
  /** After the burst, a new guest's cart and checkout, on the first try. */
  recovery: { session: number; cart: number; checkout: number; healthz: number };
  /** Whether the server process ended during the run (it must not). */
  crashes: number;
  /** Payments still `authorized` after the server had time to settle them. */
  authorizedLeft: number;
  database: StoreInvariants;
  logged: { authorized: number; captured: number; voided: number };
  /**
   * Payments whose logged steps are not `authorized` then exactly one of `captured` or `voided`, or whose last
   * logged step differs from their row in the database (null: no row).
   */
  paymentAnomalies: { payment: string; cart: string; steps: string[]; database: string | null }[];
  /** A 201 order not readable, or an order and its hold out of step. */
  lost: number;
  /** Carts charged (captured) more than once. */
  doubled: number;
  /** How long PostgreSQL was down, as measured around pg_ctl. */
  outageMs: number;
  durationMs: number;
}

const tally = (into: Record<string, number>, key: string) => {
  into[key] = (into[key] ?? 0) + 1;
};

export async function crashScenario(options: CrashScenarioOptions): Promise<CrashScenarioReport> {
  const { node, cluster, db, catalog } = options;
  const shopperCount = options.shoppers ?? 60;
  const concurrency = options.concurrency ?? 8;
  const maxRequests = options.maxRequests ?? 300;
  const crashAfter = options.crashAfterRequests ?? 40;
  const downMs = options.downMs ?? 1_000;
  const pause = options.retryPauseMs ?? 200;
  const log = options.log ?? (() => {});
  const began = performance.now();

  const picked = pickListings(catalog, shopperCount + 1, (l) => l.quantity >= 2 && l.splits.includes(2));
  const shoppers = await Promise.all(picked.slice(0, shopperCount).map(() => newShopper(node)));
  log(`${shoppers.length} guests ready; burst of carts and checkouts begins`);

  let phase: Phase = 'before';
  let sent = 0;
  const answers: CrashScenarioReport['answers'] = { before: {}, down: {}, after: {} };
  const byRoute: CrashScenarioReport['byRoute'] = {};
  const failures: CrashScenarioReport['failures'] = [];
  const examples: CrashScenarioReport['examples'] = {};
  let inFlight = 0;
  let inFlightAtCrash = 0;
  let sentAtCrash = 0;
  const orders: { id: string; shopper: Shopper }[] = [];
  const gaveUpOn: string[] = [];
  const giveUp = (route: string, last: Answer | null) =>
    gaveUpOn.push(`${route} → ${last ? `${last.status || last.error}${typeof last.body?.error?.code === 'string' ? ` ${last.body.error.code}` : ''}` : 'not sent (request budget spent)'}`);

  const send = async (s: Shopper, method: string, route: string, label: string, callOptions: Omit<CallOptions, 'token' | 'ip'>) => {
    sent++;
    const at = phase;
    inFlight++;
    const answer = await s.call(node, method, route, callOptions).finally(() => inFlight--);
    const code = typeof answer.body?.error?.code === 'string' ? ` ${answer.body.error.code}` : '';
    examples[`${label} → ${answer.status}${code}`] ??= { phase: at, body: answer.body };
    tally(answers[at], `${answer.status}${answer.status >= 400 ? code : ''}`);
    byRoute[label] ??= {};
    tally(byRoute[label], String(answer.status));
    if (answer.status === 0 || (answer.status >= 500 && answer.status !== 503)) failures.push({ route: `${method} ${route}`, phase: at, status: answer.status, body: answer.body, ...(answer.error ? { error: answer.error } : {}) });
    return answer;
  };
  const budget = () => sent < maxRequests;
  const retryable = (a: Answer) => a.status === 0 || a.status === 503;

  async function shop(s: Shopper, i: number, listingId: number): Promise<void> {
    let cart: Answer | null = null;
    for (let attempt = 0; attempt < 8 && budget(); attempt++) {
      cart = await send(s, 'POST', '/api/cart', 'POST /api/cart', { body: { listingId, quantity: 2 } });
      if (!retryable(cart)) break;
      await sleep(pause);
    }
    if (cart?.status !== 201) {
      giveUp('POST /api/cart', cart);
      return;
    }
    const key = `burst-${i}-${randomBytes(6).toString('hex')}`;
    const body = checkoutBody(cart.body.id, `shopper${i}@example.com`);
    let paid: Answer | null = null;
    for (let attempt = 0; attempt < 10 && budget(); attempt++) {
      paid = await send(s, 'POST', '/api/checkout', 'POST /api/checkout', { body, headers: { 'idempotency-key': key } });
      if ((paid.status === 201 || paid.status === 200) && typeof paid.body?.id === 'string') {
        orders.push({ id: paid.body.id, shopper: s });
        return;
      }
      const busy = paid.status === 409 && ['idempotency_key_in_use', 'checkout_in_progress'].includes(paid.body?.error?.code);
      if (!retryable(paid) && !busy) break;
      await sleep(pause);
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
    // After `crashAfter` requests, at a moment when several are being worked on (within a bound).
    for (let i = 0; i < 20_000 && (sent < crashAfter || inFlight < Math.min(4, concurrency)) && next < shoppers.length; i++) await sleep(1);
    inFlightAtCrash = inFlight;
    sentAtCrash = sent;
    const down = performance.now();
    log(`crashing PostgreSQL (pg_ctl stop -m immediate) after ${sent} requests`);
    cluster.crash();
    phase = 'down';
    await sleep(downMs);
    log('starting PostgreSQL again');
    cluster.restart();
    outageMs = performance.now() - down;
    phase = 'after';
  };
  await Promise.all([fault(), ...Array.from({ length: concurrency }, worker)]);
  log(`burst done: ${sent} requests, ${orders.length} orders`);

  // Recovery: the same process, no restart; a new guest buys on the first try.
  const healthz = (await call(node.url, 'GET', '/healthz')).status;
  const late = picked[shopperCount]!;
  const recovery = { session: 0, cart: 0, checkout: 0, healthz };
  const ip = nextAddress();
  const session = await call(node.url, 'POST', '/api/customers/session', { ip });
  recovery.session = session.status;
  if (session.status === 201) {
    const s = shopperWith(session.body.sessionToken as string, ip);
    const cart = await s.call(node, 'POST', '/api/cart', { body: { listingId: late.listing.id, quantity: 2 } });
    recovery.cart = cart.status;
    if (cart.status === 201) {
      const paid = await s.call(node, 'POST', '/api/checkout', { body: checkoutBody(cart.body.id), headers: { 'idempotency-key': `recovery-${randomBytes(6).toString('hex')}` } });
      recovery.checkout = paid.status;
      if (paid.status === 201) orders.push({ id: paid.body.id, shopper: s });
    }
  }

  log('waiting for the server to settle payments caught by the crash');
  const authorizedLeft = await settledPayments(db);
  const unreadable: string[] = [];
  for (const o of orders) {
    const read = await o.shopper.call(node, 'GET', `/api/orders/${o.id}`);
    if (read.status !== 200 || read.body?.id !== o.id) unreadable.push(o.id);
  }
  const database = await storeInvariants(db);
  const told = new Set(orders.map((o) => o.id));
  const untold = (await db.query<{ id: string }>('SELECT id FROM orders')).map((r) => r.id).filter((id) => !told.has(id));
  const logged = paymentLog([node]);
  const paymentAnomalies = await paymentStepAnomalies(db, [node]);
  const lost = unreadable.length + database.ordersWithoutPurchasedHold.length + database.purchasedHoldsWithoutOrder.length;
  return {
    requests: sent,
    answers,
    byRoute,
    examples,
    sentAtCrash,
    inFlightAtCrash,
    failures,
    shoppers: shoppers.length,
    bought: orders.length - (recovery.checkout === 201 ? 1 : 0),
    gaveUp: gaveUpOn.length,
    gaveUpOn,
    notStarted: shoppers.length - next,
    ordersAnswered: orders.map((o) => o.id),
    unreadable,
    untold,
    recovery,
    crashes: node.exit ? 1 : 0,
    authorizedLeft,
    database,
    logged: { authorized: logged.authorized.length, captured: logged.captured.length, voided: logged.voided.length },
    paymentAnomalies,
    lost,
    doubled: database.doubled.length,
    outageMs,
    durationMs: performance.now() - began,
  };
}
