import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Catalog } from '../catalog/load-catalog.js';
import {
  crashScenario,
  createDatabase,
  havePostgres,
  prepareCatalog,
  startNodes,
  startPostgres,
  stopNodes,
  type CrashScenarioReport,
  type Database,
  type PostgresCluster,
  type ServerNode,
} from '../test/processes.js';

describe.skipIf(!havePostgres())('PostgreSQL crashing (pg_ctl stop -m immediate) under a burst of carts and checkouts', () => {
  let cluster: PostgresCluster | undefined;
  let db: Database | undefined;
  let dataDir: string;
  let catalog: Catalog;
  let node: ServerNode | undefined;
  let report: CrashScenarioReport;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'postgres-faults-'));
    cluster = await startPostgres();
    db = await createDatabase(cluster.url);
    catalog = await prepareCatalog(dataDir);
    [node] = await startNodes(1, {
      env: {
        DATABASE_URL: db.url,
        DATA_DIR: dataDir,
        CATALOG_EVENTS: '2000',
        SESSION_SECRET: randomBytes(32).toString('hex'),
        TRUST_PROXY: 'loopback',
        RATE_LIMIT_SESSIONS_PER_MINUTE: '10000',
        RATE_LIMIT_CARTS_PER_MINUTE: '10000',
      },
    });
    // 60 guests, each a cart of 2 and a checkout with an Idempotency-Key, 8 at a time, retrying 503s; PostgreSQL
    // is killed after the 40th request, stays down for a second and comes back while the burst goes on.
    report = await crashScenario({ node: node!, cluster, db, catalog, shoppers: 60, concurrency: 8, maxRequests: 300, crashAfterRequests: 40, downMs: 1_000 });
  });

  afterAll(async () => {
    if (node) await stopNodes([node]);
    await db?.drop().catch(() => {});
    cluster?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('keeps the server process running and answering /healthz', () => {
    expect(node!.exit).toBeNull();
    expect(report.crashes).toBe(0);
    expect(report.recovery.healthz).toBe(200);
    // The outage really happened under load: requests were in flight when PostgreSQL was killed, and more
    // were answered while it was down.
    expect(report.inFlightAtCrash).toBeGreaterThan(0);
    expect(Object.values(report.answers.down).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    expect(report.answers.down['503 store_unavailable'] ?? 0).toBeGreaterThan(0);
  });

  it('answers every request: 503 store_unavailable while the database is down, never another 5xx, never a dropped connection', () => {
    expect(report.failures).toEqual([]);
    for (const phase of ['before', 'down', 'after'] as const) {
      for (const key of Object.keys(report.answers[phase])) {
        if (key.startsWith('5')) expect(key, phase).toBe('503 store_unavailable');
      }
    }
  });

  it('serves the next shopper after recovery without a restart: a new session, cart and checkout on the first try', () => {
    expect(report.recovery).toMatchObject({ session: 201, cart: 201, checkout: 201 });
    // Shoppers caught by the outage retried with the same Idempotency-Key and most got their tickets.
    expect(report.bought).toBeGreaterThan(0);
  });

  it('loses no order: every order a client was given is readable by its guest, and orders and purchased holds match one to one', () => {
    expect(report.unreadable).toEqual([]);
    expect(report.database.ordersWithoutPurchasedHold).toEqual([]);
    expect(report.database.purchasedHoldsWithoutOrder).toEqual([]);
    expect(report.database.orders).toBeGreaterThanOrEqual(new Set(report.ordersAnswered).size);
    // Held and sold counts agree with the holds themselves: no ticket lost or sold twice.
    expect(report.database.inventoryMismatches).toEqual([]);
  });

  it('charges each order exactly once and settles every payment the crash interrupted', () => {
    expect(report.database.ordersWithoutOneCapture).toEqual([]);
    expect(report.database.capturesWithoutOrder).toEqual([]);
    expect(report.database.doubled).toEqual([]);
    expect(report.authorizedLeft).toBe(0);
    expect(report.database.payments.captured).toBe(report.database.orders);
  });

  it('logs each payment step: captured lines equal orders, and every authorization ends captured or voided', () => {
    // Per payment: one `payment authorized` line, then one `payment captured` or `payment voided`, as in the database.
    expect(report.paymentAnomalies).toEqual([]);
    expect(report.logged.captured).toBe(report.database.orders);
    expect(report.logged.authorized).toBe(report.logged.captured + report.logged.voided);
  });
});
