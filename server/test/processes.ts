/**
 * Real processes for tests and the fault benchmark: a private PostgreSQL cluster that can be crashed and
 * started again, fresh databases in it, and storefront server nodes (`node --import tsx server/main.ts`) on
 * loopback, each stopped by its own process id. Nothing here imports the test runner, so the benchmark
 * uses it as well.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pg from 'pg';
import type { EventDocument } from '../../shared/schemas/documents.js';
import { generateCatalog } from '../catalog/generate/generate-catalog.js';
import { loadCatalog, type Catalog } from '../catalog/load-catalog.js';
import { listingsForEvent, type GeneratedListing } from '../commerce/domain/listings.js';
import { checkoutBody } from './documents.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------------------------
// PostgreSQL

export interface PostgresCluster {
  /** The admin URL (database `postgres`). */
  url: string;
  /** `pg_ctl stop -m immediate`: every connection is cut, transactions in flight are lost, no checkpoint. */
  crash(): void;
  /** `pg_ctl start` on the same data directory and port; returns once it accepts connections. */
  restart(): void;
  /** Stops the cluster and removes its folder. */
  stop(): void;
}

/** `scripts/postgres.mjs` (plain JavaScript, as `npm test` runs it before anything is compiled), typed. */
const postgresScript = (await import(pathToFileURL(path.join(ROOT, 'scripts', 'postgres.mjs')).href)) as {
  havePostgres(): boolean;
  freePort(): Promise<number>;
  startTestPostgres(): Promise<PostgresCluster | null>;
};

/** Whether Debian's PostgreSQL server binaries are installed (what `scripts/postgres.mjs` runs). */
export const havePostgres: () => boolean = postgresScript.havePostgres;

/** A loopback port nothing listens on (yet). */
export const freePort: () => Promise<number> = postgresScript.freePort;

/** A throwaway cluster on a free loopback port (`scripts/postgres.mjs`). */
async function startPostgres(): Promise<PostgresCluster> {
  const cluster = await postgresScript.startTestPostgres();
  if (!cluster) throw new Error('PostgreSQL did not start (see the lines above)');
  return cluster;
}

export interface Database {
  url: string;
  /** Runs one statement on a connection of its own (so it works across a restart of the cluster). */
  query<R extends Record<string, unknown> = Record<string, unknown>>(text: string, params?: unknown[]): Promise<R[]>;
  drop(): Promise<void>;
}

async function once<R extends Record<string, unknown>>(
  url: string,
  text: string,
  params: unknown[] = [],
): Promise<R[]> {
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
async function createDatabase(adminUrl: string): Promise<Database> {
  const name = `storefront_${randomBytes(6).toString('hex')}`;
  await once(adminUrl, `CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    query: (text, params) => once(url.toString(), text, params),
    drop: async () => {
      await once(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

// ---------------------------------------------------------------------------------------------------------
// The catalog

/** Events in the catalog every node of a stack shares. */
export const STACK_CATALOG_EVENTS = 2_000;
const CATALOG_SEED = 22791;

/** Generates the catalog into `<dataDir>/catalog` (every node then loads it from there) and loads it here too. */
async function prepareCatalog(dataDir: string): Promise<Catalog> {
  const dir = path.join(dataDir, 'catalog');
  await generateCatalog({
    events: STACK_CATALOG_EVENTS,
    seed: CATALOG_SEED,
    start: new Date().toISOString().slice(0, 10),
    outDir: dir,
  });
  return loadCatalog(dir);
}

/** Scheduled events that start more than three days from now, so nothing about them changes during a test. */
function sellableEvents(catalog: Catalog): EventDocument[] {
  const soon = Date.now() / 1000 + 3 * 86_400;
  return catalog.collections.Event.filter(
    (e) => e.event_status === 'scheduled' && e.event_timestamp !== null && e.event_timestamp > soon,
  );
}

export interface PickedListing {
  event: EventDocument;
  listing: GeneratedListing;
}

/**
 * Listings that pass `test`, at most one per event, from events that pass `eventTest` and are not in
 * `skipEvents` (which it then adds to).
 */
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
  /** SIGTERM, then SIGKILL when it is still running after `NODE_STOP_GRACE_MS`. */
  stop(): Promise<void>;
}

/** More than any test writes; a runaway logger cannot exhaust the runner's memory. */
const MAX_LINES = 500_000;
/** How long a node may take to print its URL and answer /readyz 200. */
const NODE_READY_MS = 90_000;
/** How long a node told to stop (SIGTERM) gets before it is killed. */
const NODE_STOP_GRACE_MS = 5_000;

function spawnNode(name: string, env: Record<string, string>): ServerNode {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: '0',
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      SEGMENTS_WATCH: 'false',
      ...env,
    },
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
    stop: async () => {
      if (node.exit) return;
      signal(node.pid, 'SIGTERM');
      const timer = setTimeout(() => signal(node.pid, 'SIGKILL'), NODE_STOP_GRACE_MS);
      await node.exited;
      clearTimeout(timer);
    },
  };
  return node;
}

function signal(pid: number, sig: NodeJS.Signals) {
  try {
    process.kill(pid, sig);
  } catch {
    // already gone
  }
}

const tail = (node: ServerNode) => [...node.lines.slice(-15), ...node.errors.slice(-15)].join('\n');

async function untilReady(node: ServerNode): Promise<void> {
  const deadline = Date.now() + NODE_READY_MS;
  while (Date.now() < deadline) {
    if (node.exit)
      throw new Error(
        `${node.name} exited (${node.exit.code ?? node.exit.signal}) before it was ready:\n${tail(node)}`,
      );
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
  throw new Error(`${node.name} was not ready within ${NODE_READY_MS} ms:\n${tail(node)}`);
}

/**
 * Starts `count` server nodes at once with the same environment, and resolves when every one answers
 * /readyz 200. Should one fail, those already started are stopped before the error is thrown.
 */
async function startNodes(count: number, env: Record<string, string>): Promise<ServerNode[]> {
  const nodes = Array.from({ length: count }, (_, i) => spawnNode(`node ${String.fromCharCode(65 + i)}`, env));
  try {
    await Promise.all(nodes.map(untilReady));
  } catch (err) {
    await stopNodes(nodes);
    throw err;
  }
  return nodes;
}

async function stopNodes(nodes: readonly ServerNode[]): Promise<void> {
  await Promise.all(nodes.map((n) => n.stop()));
}

// ---------------------------------------------------------------------------------------------------------
// A stack: data folder, catalog, PostgreSQL and server nodes

export interface Stack {
  cluster: PostgresCluster;
  db: Database;
  catalog: Catalog;
  nodes: ServerNode[];
  /** Stops the nodes, drops the database, stops the cluster and removes the data folder. */
  stop(): Promise<void>;
}

/**
 * A temporary data folder holding the catalog every node shares, a private PostgreSQL cluster with a fresh
 * database, and `nodes` server nodes on them, all with one session secret (a guest token one node signs, the
 * others verify) and trusting X-Forwarded-For from loopback (each simulated client sends its own address).
 * `env` adds to or overrides the nodes' environment. Should a step fail, what is already running is
 * stopped before the error is thrown.
 */
export async function startStack(options: { nodes: number; env?: Readonly<Record<string, string>> }): Promise<Stack> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'storefront-stack-'));
  // Also on the way out without `stop` (Ctrl-C in the benchmark), as the cluster's own folder is.
  const removeDataDir = () => rmSync(dataDir, { recursive: true, force: true });
  process.on('exit', removeDataDir);
  let cluster: PostgresCluster | undefined;
  let db: Database | undefined;
  let nodes: ServerNode[] = [];
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      await stopNodes(nodes);
      await db?.drop().catch(() => {});
      cluster?.stop();
      process.off('exit', removeDataDir);
      removeDataDir();
    })());
  try {
    cluster = await startPostgres();
    db = await createDatabase(cluster.url);
    const catalog = await prepareCatalog(dataDir);
    // The nodes' live segment folder: a copy, since a publish writes to it.
    cpSync(path.join(ROOT, 'segments'), path.join(dataDir, 'segments'), { recursive: true });
    nodes = await startNodes(options.nodes, {
      SEGMENTS_DIR: path.join(dataDir, 'segments'),
      DATABASE_URL: db.url,
      DATA_DIR: dataDir,
      CATALOG_EVENTS: String(STACK_CATALOG_EVENTS),
      SESSION_SECRET: randomBytes(32).toString('hex'),
      TRUST_PROXY: 'loopback',
      ...options.env,
    });
    return { cluster, db, catalog, nodes, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

// ---------------------------------------------------------------------------------------------------------
// HTTP

export interface Answer {
  /** 0 when no answer came (connection refused or reset, timeout). */
  status: number;
  headers: Headers;
  /** The parsed JSON body, or null; read by the API's contract, field by field, as supertest's `body` is. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- whatever JSON the API answers
  body: any;
  /** Why no answer came, when status is 0. */
  error?: string;
}

/** `<status>` or `<status> <error code>` (`201`, `503 store_unavailable`), or why no answer came (`ECONNRESET`). */
function outcome(answer: Answer): string {
  const code = answer.body?.error?.code;
  return `${answer.status || answer.error}${typeof code === 'string' ? ` ${code}` : ''}`;
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
}

/** Not a spec figure: longer than any answer of a healthy node takes on a loaded test machine. */
const CALL_TIMEOUT_MS = 20_000;

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
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
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
    return {
      status: 0,
      headers: new Headers(),
      body: null,
      error: cause?.code ?? (err instanceof Error ? err.name : String(err)),
    };
  }
}

/** A simulated shopper: one guest token, one client address; each call may go to any node. */
export interface Shopper {
  call(node: ServerNode, method: string, route: string, options?: Omit<CallOptions, 'token' | 'ip'>): Promise<Answer>;
}

/** Opens a guest session on `node` from a new client address (or `ip`); throws unless it is 201. */
export async function newShopper(node: ServerNode, ip = nextAddress()): Promise<Shopper> {
  const session = await call(node.url, 'POST', '/api/customers/session', { ip });
  if (session.status !== 201 || typeof session.body?.sessionToken !== 'string') {
    throw new Error(
      `POST /api/customers/session from ${ip} answered ${session.status}: ${JSON.stringify(session.body)}`,
    );
  }
  return shopperWith(session.body.sessionToken as string, ip);
}

/** A shopper for a token already issued. */
function shopperWith(token: string, ip: string): Shopper {
  return { call: (to, method, route, options = {}) => call(to.url, method, route, { ...options, token, ip }) };
}

/** The payment steps a node logged (`payment authorized`, `payment captured`, `payment voided`). */
export function paymentLog(nodes: readonly ServerNode[]): {
  authorized: Record<string, unknown>[];
  captured: Record<string, unknown>[];
  voided: Record<string, unknown>[];
} {
  const records = nodes.flatMap((n) => n.records());
  const step = (msg: string) => records.filter((r) => r.msg === msg);
  return { authorized: step('payment authorized'), captured: step('payment captured'), voided: step('payment voided') };
}

/**
 * A payment whose logged steps are not `authorized` then exactly one of `captured` or `voided`, or whose last
 * logged step differs from its row in the database (null: no row).
 */
export interface PaymentAnomaly {
  payment: string;
  cart: string;
  steps: string[];
  database: string | null;
}

/** Payments whose logged steps are not one authorization then one capture or void, or disagree with the database. */
export async function paymentStepAnomalies(db: Database, nodes: readonly ServerNode[]): Promise<PaymentAnomaly[]> {
  const steps = new Map<string, { cart: string; steps: string[] }>();
  for (const r of nodes.flatMap((n) => n.records())) {
    const step = typeof r.msg === 'string' ? /^payment (authorized|captured|voided)$/.exec(r.msg)?.[1] : undefined;
    if (!step) continue;
    const id = String(r.payment);
    const entry = steps.get(id) ?? { cart: String(r.cart), steps: [] };
    entry.steps.push(step);
    steps.set(id, entry);
  }
  const all = await db.query<{ id: string; status: string; authorization_id: string | null }>(
    'SELECT id, status, authorization_id FROM payments',
  );
  const rows = new Map(all.map((p) => [String(p.id), p.status]));
  // A payment the processor never authorized (declined, or its checkout ended first) has no steps to log.
  const authorizedRows = new Set(all.filter((p) => p.authorization_id !== null).map((p) => String(p.id)));
  const anomalies: PaymentAnomaly[] = [];
  for (const [payment, { cart, steps: s }] of steps) {
    const database = rows.get(payment) ?? null;
    // Counted, not ordered: the lines may come from several nodes (housekeeping settles on any of them).
    const times = (step: string) => s.filter((x) => x === step).length;
    const end = times('captured') === 1 ? 'captured' : times('voided') === 1 ? 'voided' : null;
    const wellFormed = s.length === 2 && times('authorized') === 1 && end !== null;
    const agrees = database === null ? end === 'voided' : database === end;
    if (!wellFormed || !agrees) anomalies.push({ payment, cart, steps: s, database });
  }
  for (const [payment, status] of rows)
    if (!steps.has(payment) && authorizedRows.has(payment))
      anomalies.push({ payment, cart: '', steps: [], database: status });
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
  payments: { captured: number; voided: number };
  /** Listings whose held and sold counts differ from their active and purchased holds (`except` left out). */
  inventoryMismatches: { listing_id: string; held: number; sold: number; active: number; purchased: number }[];
}

export async function storeInvariants(db: Database, except: readonly number[] = []): Promise<StoreInvariants> {
  const ids = async (text: string) => (await db.query<{ id: string }>(text)).map((r) => String(r.id));
  const [orders] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM orders');
  const payments = await db.query<{ status: string; n: number }>(
    'SELECT status, count(*)::int AS n FROM payments GROUP BY status',
  );
  const byStatus = (s: string) => payments.find((p) => p.status === s)?.n ?? 0;
  const inventory = await db.query<{
    listing_id: string;
    held: number;
    sold: number;
    active: number;
    purchased: number;
  }>(
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
    ordersWithoutPurchasedHold: await ids(
      `SELECT o.id FROM orders o LEFT JOIN holds h ON h.id = o.hold_id WHERE h.status IS DISTINCT FROM 'purchased'`,
    ),
    purchasedHoldsWithoutOrder: await ids(
      `SELECT h.id FROM holds h LEFT JOIN orders o ON o.hold_id = h.id WHERE h.status = 'purchased' AND o.id IS NULL`,
    ),
    ordersWithoutOneCapture: await ids(
      `SELECT o.id FROM orders o LEFT JOIN payments p ON p.hold_id = o.hold_id ` +
        `AND p.status = 'captured' GROUP BY o.id HAVING count(p.id) <> 1`,
    ),
    capturesWithoutOrder: await ids(
      `SELECT p.id FROM payments p LEFT JOIN orders o ON o.hold_id = p.hold_id ` +
        `WHERE p.status = 'captured' AND o.id IS NULL`,
    ),
    doubled: await ids(
      `SELECT hold_id AS id FROM payments WHERE status = 'captured' GROUP BY hold_id HAVING count(*) > 1`,
    ),
    payments: { captured: byStatus('captured'), voided: byStatus('voided') },
    inventoryMismatches: inventory.filter((r) => r.held !== r.active || r.sold !== r.purchased),
  };
}

/** The longest wait for the server's housekeeping to settle the payments a fault left open. */
export const SETTLE_WAIT_MS = 30_000;

/**
 * Waits (polling, at most `SETTLE_WAIT_MS`) until no payment is left open (`authorizing`, `authorized` or
 * `voiding`): a payment caught between its authorization and its capture or void by a fault is settled by
 * the server's own housekeeping. Returns how many are still open when it stops waiting (NaN when the
 * database could not be asked).
 */
export async function settledPayments(db: Database): Promise<number> {
  const deadline = Date.now() + SETTLE_WAIT_MS;
  for (;;) {
    const left = await db
      .query<{ n: number }>(
        `SELECT count(*)::int AS n FROM payments WHERE status IN ('authorizing', 'authorized', 'voiding')`,
      )
      .then(
        (r) => r[0]?.n ?? 0,
        () => Number.NaN,
      );
    if (left === 0 || Date.now() >= deadline) return left;
    await sleep(250);
  }
}

// ---------------------------------------------------------------------------------------------------------
// The store crash scenario: shared by server/store/postgres-faults.test.ts and `npm run bench -- --faults`

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
