import { spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CartSchema, OrderSchema } from '../shared/schemas/commerce.js';
import { LayoutResponseSchema } from '../shared/schemas/layout.js';
import { generateCatalog } from './catalog/generate/generate-catalog.js';
import { loadCatalog, type Catalog } from './catalog/load-catalog.js';
import { createCommerce } from './commerce/commerce.js';
import { CHECKOUT_CLAIM_SECONDS } from './commerce/checkout-claim.js';
import { listingsForEvent } from './commerce/domain/listings.js';
import { SandboxPaymentProvider, type PaymentProvider } from './commerce/domain/payments.js';
import { SqlSandboxLedger } from './commerce/sandbox-ledger.js';
import { parseEnv } from './config/env.js';
import { Readiness } from './health/readiness.js';
import { LayoutService } from './layout/layout-service.js';
import { CachedEngine, searchDegradation } from './search/cached-engine.js';
import { EmbeddedEngine } from './search/embedded/embedded-engine.js';
import type { SearchEngine } from './search/search-engine.js';
import { SearchService } from './search/search-service.js';
import { SegmentRepository } from './segments/segment-repository.js';
import type { Sql } from './store/sql.js';
import { StoreUnavailableError } from './store/store-errors.js';
import { storeDegradation } from './store/open-store.js';
import { RecentActivity } from './activity/recent-activity.js';
import { testApp } from './test/test-app.js';
import { checkoutBody } from './test/documents.js';
import { openMigratedPglite } from './store/test-stores.js';

const logger = pino({ level: 'silent' });
let tmp: string;
let catalog: Catalog;
let embedded: EmbeddedEngine;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'faults-'));
  await generateCatalog({
    events: 3000,
    seed: 41,
    start: new Date().toISOString().slice(0, 10),
    outDir: path.join(tmp, 'catalog'),
  });
  catalog = await loadCatalog(path.join(tmp, 'catalog'));
  embedded = await EmbeddedEngine.build(catalog.collections);
});
afterAll(() => rm(tmp, { recursive: true, force: true }));

describe('the search engine slow or failing', () => {
  it(
    'keeps pages answering 200 within their deadline, marks the rows, serves ' + 'stale cache and reports degradation',
    async () => {
      let mode: 'ok' | 'fail' | 'slow' = 'ok';
      const flaky: SearchEngine = {
        kind: 'embedded',
        health: () => embedded.health(),
        search: async (req) => {
          if (mode === 'fail') throw new Error('search node down');
          if (mode === 'slow') await new Promise((r) => setTimeout(r, 5_000));
          return embedded.search(req);
        },
      };
      // A tiny TTL, so the second visit has to ask the engine again and can only fall back to stale answers.
      const engine = new CachedEngine(flaky, { ttlMs: 1 });
      const search = new SearchService();
      search.set(engine);
      const segments = new SegmentRepository(path.resolve('segments'), logger);
      await segments.load();
      const readiness = new Readiness(['catalog', 'search']);
      readiness.set('catalog', true);
      readiness.set('search', true);
      readiness.probe('search', searchDegradation(engine));
      const layout = new LayoutService({
        segments,
        engine: () => search.engine,
        logger,
        rowDeadlineMs: 300,
        rowCacheTtlMs: 1,
      });
      const { app } = testApp({ search, segments, layout, readiness });

      const good = LayoutResponseSchema.parse((await request(app).get('/api/layout/home?lat=40.75&lng=-73.99')).body);
      expect(good.rows.every((r) => r.status === 'ok')).toBe(true);
      expect((await request(app).get('/readyz')).body.status).toBe('ready');

      await new Promise((r) => setTimeout(r, 5));
      mode = 'fail';
      const failing = await request(app).get('/api/layout/home?lat=40.75&lng=-73.99');
      expect(failing.status).toBe(200);
      const body = LayoutResponseSchema.parse(failing.body);
      // The layout's own rows fell back on their last good items; nothing is lost for the shopper.
      for (const row of body.rows) expect(row.items, row.id).toEqual(good.rows.find((g) => g.id === row.id)!.items);
      const ready = await request(app).get('/readyz');
      expect(ready.status).toBe(200);
      expect(ready.body).toMatchObject({ status: 'degraded', components: { search: { degraded: true } } });

      mode = 'slow';
      // Every row marked timeout: the page was answered at the deadline, not when the engine finished.
      const slow = await request(app).get('/api/layout/home?lat=41.88&lng=-87.63');
      expect(slow.status).toBe(200);
      const statuses = LayoutResponseSchema.parse(slow.body).rows.map((r) => r.status);
      expect(statuses.every((s) => s === 'timeout')).toBe(true);
    },
  );
});

/** The sandbox processor with some of its calls replaced. */
function delegating(sandbox: SandboxPaymentProvider, overrides: Partial<PaymentProvider>): PaymentProvider {
  return {
    authorize: (input) => sandbox.authorize(input),
    capture: (id) => sandbox.capture(id),
    void: (id) => sandbox.void(id),
    findAuthorization: (key) => sandbox.findAuthorization(key),
    refund: (input) => sandbox.refund(input),
    charge: (id) => sandbox.charge(id),
    ...overrides,
  };
}

/** A PGlite store that can be made to fail the way a database going away does. */
async function faultyStore() {
  const real = await openMigratedPglite();
  const away = () =>
    new StoreUnavailableError(
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
    );
  // 'down': every use fails. For the transaction that writes an order: 'lost', it commits and then its answer is
  // lost; 'rolled-back', it never commits; 'outage', the database goes away as it starts and stays away.
  let mode: 'up' | 'down' | 'lost' | 'rolled-back' | 'outage' = 'up';
  const sql: Sql = {
    kind: 'postgres',
    query: (text, params) => (mode === 'down' ? Promise.reject(away()) : real.query(text, params)),
    transaction: async (fn) => {
      if (mode === 'outage') mode = 'down';
      if (mode === 'down') throw away();
      if (mode === 'rolled-back') throw new StoreUnavailableError(new Error('Connection terminated unexpectedly'));
      const result = await real.transaction(fn);
      if (mode === 'lost') throw new StoreUnavailableError(new Error('Connection terminated unexpectedly'));
      return result;
    },
    close: () => real.close(),
    health: () => ({
      available: mode !== 'down',
      since: new Date().toISOString(),
      detail: mode === 'down' ? 'PostgreSQL unavailable: connect ECONNREFUSED' : 'PostgreSQL reachable',
    }),
  };
  return { real, sql, set: (next: typeof mode) => (mode = next) };
}

/** A shopper with a 2-ticket cart on a store that can fail, and a checkout of it (with a key, or without). */
async function shop<P extends PaymentProvider = SandboxPaymentProvider>(
  options: { payments?: P; now?: () => Date } = {},
) {
  const store = await faultyStore();
  const payments = (options.payments ?? new SandboxPaymentProvider()) as P;
  const search = new SearchService();
  search.set(new CachedEngine(embedded));
  /** Another node on the same store; with a processor of its own when given (else this node's). */
  const make = (processor: PaymentProvider = payments) =>
    createCommerce({
      sql: store.sql,
      engine: () => search.engine,
      payments: processor,
      logger,
      now: options.now,
      sellerDelayMs: 0,
    });
  const commerce = make();
  const { app } = testApp({
    search,
    commerce,
    env: parseEnv({ NODE_ENV: 'test', RATE_LIMIT_SESSIONS_PER_MINUTE: '1000' }),
  });
  const auth = `Bearer ${(await request(app).post('/api/customers/session')).body.sessionToken}`;
  const nowSeconds = Date.now() / 1000;
  const event = catalog.collections.Event.find(
    (e) =>
      e.event_status === 'scheduled' &&
      (e.event_timestamp ?? 0) > nowSeconds + 86400 &&
      listingsForEvent(e).some((l) => l.splits.includes(2)),
  )!;
  const listing = listingsForEvent(event).find((l) => l.splits.includes(2))!;
  const cart = CartSchema.parse(
    (await request(app).post('/api/cart').set('Authorization', auth).send({ listingId: listing.id, quantity: 2 })).body,
  );
  const checkout = (key?: string, extra: Record<string, unknown> = {}) => {
    const req = request(app).post('/api/checkout').set('Authorization', auth);
    return (key === undefined ? req : req.set('Idempotency-Key', key)).send({ ...checkoutBody(cart.id), ...extra });
  };
  const statuses = async () =>
    (await store.real.query<{ status: string }>('SELECT status FROM payments ORDER BY status')).map((r) => r.status);
  return { ...store, payments, app, auth, commerce, make, search, listing, cart, checkout, statuses };
}

describe('the order store unavailable during checkout', () => {
  it('answers a clear 503, writes no half order, keeps the hold, and the retry charges once', async () => {
    const t = await shop();
    t.set('down');
    const failed = await t.checkout();
    expect(failed.status).toBe(503);
    expect(failed.body.error).toMatchObject({
      code: 'store_unavailable',
      message: expect.stringMatching(/held tickets are kept/),
    });
    // A shopper starting a cart is not told about a hold they do not have.
    const newCart = await request(t.app)
      .post('/api/cart')
      .set('Authorization', t.auth)
      .send({ listingId: t.listing.id, quantity: 2 });
    expect(newCart.status).toBe(503);
    expect(newCart.body.error.message).toMatch(/cannot be reserved for a moment, and nothing was charged/);
    expect(newCart.body.error.message).not.toMatch(/still held/);

    t.set('up');
    expect(await t.real.query('SELECT id FROM orders')).toEqual([]);
    expect((await request(t.app).get(`/api/cart/${t.cart.id}`).set('Authorization', t.auth)).body.status).toBe(
      'active',
    );
    // The store failed before any charge could be taken; now the checkout goes through, charging once.
    const ok = await t.checkout();
    expect(ok.status).toBe(201);
    OrderSchema.parse(ok.body);
    expect(t.payments.charges).toHaveLength(1);
    await t.real.close();
  });
});

describe('the order store failing as a cart is committed', () => {
  it(
    'answers the retry of a cart whose commit landed though its answer was lost with that same hold, counted ' +
      'once towards the shopper’s share',
    async () => {
      const t = await shop();
      // The shop's own cart let go, so the listing's seats and the shopper's share are this test's alone.
      expect((await request(t.app).delete(`/api/cart/${t.cart.id}`).set('Authorization', t.auth)).status).toBe(204);
      const key = 'cart-attempt-1';
      const hold = (body: Record<string, unknown> = { listingId: t.listing.id, quantity: 2 }) =>
        request(t.app).post('/api/cart').set('Authorization', t.auth).set('Idempotency-Key', key).send(body);
      const held = async () =>
        (
          await t.real.query<{ id: string; held: number }>(
            `SELECT h.id, li.held FROM holds h JOIN listing_inventory li ON li.listing_id = h.listing_id
             WHERE h.status = 'active' AND h.listing_id = $1`,
            [t.listing.id],
          )
        ).map((r) => ({ id: String(r.id), held: Number(r.held) }));

      t.set('lost');
      const first = await hold();
      expect(first.status).toBe(503);
      expect(first.body.error.code).toBe('store_unavailable');
      t.set('up');
      // The commit landed: one hold of 2 is in the store, though the shopper was told nothing was reserved.
      const landed = await held();
      expect(landed).toEqual([{ id: expect.any(String), held: 2 }]);

      const retry = await hold();
      expect(retry.status).toBe(201);
      expect(CartSchema.parse(retry.body)).toMatchObject({ id: landed[0]!.id, status: 'active', quantitySelected: 2 });
      expect(retry.headers['idempotent-replayed']).toBeUndefined();
      // Once more with the same key: the kept answer, still the one hold.
      const again = await hold();
      expect(again.status).toBe(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body.id).toBe(landed[0]!.id);
      expect(await held()).toEqual(landed);
      const allowance = await request(t.app)
        .get(`/api/purchase-limits?eventId=${t.cart.eventId}`)
        .set('Authorization', t.auth);
      expect(allowance.body.perShopper.used).toBe(2);
      // The key reused for another cart is refused, and holds nothing more.
      const reused = await hold({ listingId: t.listing.id, quantity: 4 });
      expect(reused.status).toBe(422);
      expect(reused.body.error.code).toBe('idempotency_key_reused');
      expect(await held()).toEqual(landed);
      await t.real.close();
    },
  );

  it('holds another cart under another key: a key names one request, not the listing', async () => {
    const t = await shop();
    const more = (key: string) =>
      request(t.app)
        .post('/api/cart')
        .set('Authorization', t.auth)
        .set('Idempotency-Key', key)
        .send({ listingId: t.listing.id, quantity: 2 });
    const release = (id: string) => request(t.app).delete(`/api/cart/${id}`).set('Authorization', t.auth);
    // Each cart let go before the next, so the listing's seats are there for every one.
    expect((await release(t.cart.id)).status).toBe(204);
    const one = await more('one');
    expect(one.status).toBe(201);
    expect((await release(one.body.id)).status).toBe(204);
    const two = await more('two');
    expect(two.status).toBe(201);
    expect(new Set([t.cart.id, one.body.id, two.body.id]).size).toBe(3);
    await t.real.close();
  });
});

describe('the sandbox processor kept in the store (RULES 10.7)', () => {
  /** A node's own sandbox processor over the shared store, as main.ts makes it. */
  const stored = (sql: Sql) => new SandboxPaymentProvider({ ledger: new SqlSandboxLedger(sql) });
  const charges = (t: { real: Sql }) =>
    t.real.query<{ status: string }>('SELECT status FROM sandbox_charges').then((rows) => rows.map((r) => r.status));
  /** Node A's processor: the one bound in `a` once the store is open, with the step it stops at put in its place. */
  const nodeA = (a: { p?: SandboxPaymentProvider }, stops: Partial<PaymentProvider>): PaymentProvider => ({
    authorize: (input) => a.p!.authorize(input),
    capture: (id) => a.p!.capture(id),
    void: (id) => a.p!.void(id),
    findAuthorization: (key) => a.p!.findAuthorization(key),
    refund: (input) => a.p!.refund(input),
    charge: (id) => a.p!.charge(id),
    ...stops,
  });

  it('captures on another node an authorization whose node stopped after writing the order', async () => {
    let clock = Date.now();
    // Node A: its processor's records in the store, and it stops before it captures.
    // Bound once the store is open.
    const a: { p?: SandboxPaymentProvider } = {};
    const t = await shop<PaymentProvider>({
      payments: nodeA(a, {
        capture: async () => {
          throw new Error('the node stopped');
        },
      }),
      now: () => new Date(clock),
    });
    a.p = stored(t.sql);
    const placed = await t.checkout('first');
    expect(placed.status).toBe(201);
    expect(await t.statuses()).toEqual(['authorized']);
    // Node B has a processor of its own, which never saw the authorization: it finds it in the store.
    const b = stored(t.sql);
    const other = t.make(b);
    clock += 6_000;
    await other.settlement.tick();
    expect(await t.statuses()).toEqual(['captured']);
    expect(await charges(t)).toEqual(['captured']);
    const [payment] = await t.real.query<{ authorization_id: string }>('SELECT authorization_id FROM payments');
    expect(await b.charge(payment!.authorization_id)).toMatchObject({ status: 'captured', refunds: [] });
    await t.real.close();
  });

  it('voids on another node an authorization whose node stopped before writing the order', async () => {
    let clock = Date.now();
    // Bound once the store is open.
    const a: { p?: SandboxPaymentProvider } = {};
    const t = await shop<PaymentProvider>({
      payments: nodeA(a, {
        authorize: async (input) => {
          await a.p!.authorize(input);
          throw new Error('the node stopped');
        },
      }),
      now: () => new Date(clock),
    });
    a.p = stored(t.sql);
    expect((await t.checkout('first')).status).toBe(502);
    expect(await charges(t)).toEqual(['authorized']);
    const other = t.make(stored(t.sql));
    // Abandoned after twice the checkout's claim (2 × 60 s).
    clock += 2 * CHECKOUT_CLAIM_SECONDS * 1000 + 1_000;
    await other.settlement.tick();
    expect(await charges(t)).toEqual(['voided']);
    expect(await t.statuses()).toEqual(['voided']);
    await t.real.close();
  });
});

describe('the store down for everything that needs it', () => {
  it(
    'answers recent activity with a 503, /readyz stays 200 saying the store ' + 'is degraded, and both recover with it',
    async () => {
      const store = await faultyStore();
      const readiness = new Readiness(['catalog', 'store']);
      readiness.set('catalog', true);
      readiness.set('store', true, 'PostgreSQL');
      readiness.probe('store', storeDegradation(store.sql));
      const { app } = testApp({
        readiness,
        activity: new RecentActivity(store.sql),
        env: parseEnv({ NODE_ENV: 'test', RATE_LIMIT_SESSIONS_PER_MINUTE: '1000' }),
      });
      const auth = `Bearer ${(await request(app).post('/api/customers/session')).body.sessionToken}`;
      expect(
        (await request(app).get('/api/CustomerActivity/recent-activities').set('Authorization', auth)).status,
      ).toBe(200);

      store.set('down');
      const during = await request(app).get('/api/CustomerActivity/recent-activities').set('Authorization', auth);
      expect(during.status).toBe(503);
      expect(during.body.error.code).toBe('store_unavailable');
      expect(during.headers['retry-after']).toBe('5');
      const ready = await request(app).get('/readyz');
      expect(ready.status).toBe(200);
      expect(ready.body).toMatchObject({
        status: 'degraded',
        components: { store: { ready: true, degraded: true, detail: expect.stringMatching(/ECONNREFUSED/) } },
      });

      store.set('up');
      expect(
        (await request(app).get('/api/CustomerActivity/recent-activities').set('Authorization', auth)).status,
      ).toBe(200);
      expect((await request(app).get('/readyz')).body.status).toBe('ready');
      await store.real.close();
    },
  );
});

describe('the order store failing while an order is written', () => {
  it(
    'captures the payment of an order whose commit landed though its answer ' +
      'was lost, and the retry gets that order',
    async () => {
      const t = await shop();
      t.set('lost');
      const first = await t.checkout(`checkout-${t.cart.id}`);
      expect(first.status).toBe(503);
      expect(first.body.error.message).toMatch(/only charged for an order that is confirmed/);
      t.set('up');
      expect(t.payments.authorizations.map((a) => a.status)).toEqual(['authorized']);
      await t.commerce.settlement.tick();
      expect(t.payments.authorizations.map((a) => a.status)).toEqual(['captured']);
      const retry = await t.checkout(`checkout-${t.cart.id}`);
      expect(retry.status).toBe(200);
      const orders = await t.real.query<{ id: string }>('SELECT id FROM orders');
      expect(orders.map((o) => o.id)).toEqual([retry.body.id]);
      expect(await t.real.query('SELECT status FROM payments')).toEqual([{ status: 'captured' }]);
      expect(t.payments.charges).toHaveLength(1);
      await t.real.close();
    },
  );

  it('voids the payment of an order whose commit never landed, and the retry pays once', async () => {
    const t = await shop();
    t.set('rolled-back');
    expect((await t.checkout(`checkout-${t.cart.id}`)).status).toBe(503);
    t.set('up');
    // The retry comes before the housekeeping has settled the first authorization: still one capture.
    const retry = await t.checkout(`checkout-${t.cart.id}`);
    expect(retry.status).toBe(201);
    await t.commerce.settlement.tick();
    expect(t.payments.authorizations.map((a) => a.status).sort()).toEqual(['captured', 'voided']);
    expect(t.payments.charges).toHaveLength(1);
    expect(await t.real.query('SELECT status FROM payments ORDER BY status')).toEqual([
      { status: 'captured' },
      { status: 'voided' },
    ]);
    await t.real.close();
  });

  it(
    'frees the idempotency key an outage left locked as soon as the store is ' +
      'back, so the retry is not kept waiting',
    async () => {
      const t = await shop();
      t.set('outage');
      expect((await t.checkout(`checkout-${t.cart.id}`)).status).toBe(503);
      t.set('up');
      // At once, not after the key's lock runs out.
      const retry = await t.checkout(`checkout-${t.cart.id}`);
      expect(retry.status).toBe(201);
      await t.commerce.settlement.tick();
      expect(t.payments.charges).toHaveLength(1);
      expect(t.payments.authorizations.map((a) => a.status).sort()).toEqual(['captured', 'voided']);
      await t.real.close();
    },
  );

  it(
    'voids the authorization at once when the order is refused (the checkout ' + 'lost its claim on the cart)',
    async () => {
      let clock = Date.now();
      const sandbox = new SandboxPaymentProvider();
      // A processor so slow that the checkout's claim on the cart runs out while it answers.
      const slow: SandboxPaymentProvider = Object.assign(Object.create(sandbox) as SandboxPaymentProvider, {
        authorize: async (input: Parameters<SandboxPaymentProvider['authorize']>[0]) => {
          clock += 11 * 60_000;
          return sandbox.authorize(input);
        },
      });
      const t = await shop({ payments: slow, now: () => new Date(clock) });
      const res = await t.checkout(`checkout-${t.cart.id}`);
      expect(res.status).toBe(410);
      expect(sandbox.authorizations.map((a) => a.status)).toEqual(['voided']);
      expect(await t.real.query('SELECT id FROM orders')).toEqual([]);
      await t.real.close();
    },
  );
});

describe('payments that lose their way', () => {
  it(
    'voids an authorization whose node stopped before writing the order, from ' +
      'another node, once the attempt is over',
    async () => {
      let clock = Date.now();
      const sandbox = new SandboxPaymentProvider();
      // The first node stops right after the processor answered: its checkout never gets further.
      let stopAfterAuthorizing = true;
      const dying = delegating(sandbox, {
        authorize: async (input) => {
          const result = await sandbox.authorize(input);
          if (stopAfterAuthorizing) throw new Error('the node stopped');
          return result;
        },
      });
      const t = await shop({ payments: dying, now: () => new Date(clock) });
      expect((await t.checkout('first')).status).toBe(502);
      stopAfterAuthorizing = false;
      // Another node, which knows nothing of that attempt, takes over once the attempt can no longer be running.
      const other = t.make();
      await other.settlement.tick();
      expect(sandbox.authorizations.map((a) => a.status)).toEqual(['authorized']);
      // Abandoned after twice the checkout's claim (2 × 60 s): a second before, the payment is left alone.
      expect(CHECKOUT_CLAIM_SECONDS).toBe(60);
      clock += 120_000 - 1_000;
      await other.settlement.tick();
      expect(sandbox.authorizations.map((a) => a.status)).toEqual(['authorized']);
      clock += 2_000;
      await other.settlement.tick();
      expect(sandbox.authorizations.map((a) => a.status)).toEqual(['voided']);
      expect(await t.statuses()).toEqual(['voided']);
      await t.real.close();
    },
  );

  it(
    'answers a processor that does not answer with a 502, frees the cart at ' +
      'once, and releases what it may have reserved',
    async () => {
      const sandbox = new SandboxPaymentProvider();
      let lose = true;
      const flaky = delegating(sandbox, {
        authorize: async (input) => {
          const result = await sandbox.authorize(input);
          if (lose) {
            lose = false;
            throw new Error('socket hang up');
          }
          return result;
        },
      });
      const t = await shop({ payments: flaky, now: () => new Date() });
      const lost = await t.checkout('k-1');
      expect(lost.status).toBe(502);
      expect(lost.body.error).toMatchObject({ code: 'payment_error', details: { reason: 'processor_unreachable' } });
      // Not locked for a minute: the retry goes through at once.
      expect((await t.checkout('k-1')).status).toBe(201);
      await t.commerce.settlement.tick();
      expect(sandbox.authorizations.map((a) => a.status)).toEqual(['voided', 'captured']);
      await t.real.close();
    },
  );

  it('tries a void that failed again later, until the processor takes it', async () => {
    let clock = Date.now();
    const sandbox = new SandboxPaymentProvider();
    let voidFails = 1;
    const slowThenFlaky = delegating(sandbox, {
      authorize: async (input) => {
        clock += 11 * 60_000; // so slow that the checkout's claim runs out: the order is refused
        return sandbox.authorize(input);
      },
      void: async (id) => {
        if (voidFails-- > 0) throw new Error('gateway timeout');
        return sandbox.void(id);
      },
    });
    const t = await shop({ payments: slowThenFlaky, now: () => new Date(clock) });
    expect((await t.checkout('slow')).status).toBe(410);
    expect(sandbox.authorizations.map((a) => a.status)).toEqual(['authorized']);
    expect(await t.statuses()).toEqual(['voiding']);
    clock += 10_000;
    await t.commerce.settlement.tick();
    expect(sandbox.authorizations.map((a) => a.status)).toEqual(['voided']);
    expect(await t.statuses()).toEqual(['voided']);
    await t.real.close();
  });

  it(
    'never confirms an order whose capture the processor refused; its payment ' +
      'ends capture_failed, out of the queue',
    async () => {
      const sandbox = new SandboxPaymentProvider();
      const refusing = delegating(sandbox, {
        capture: async () => ({ status: 'error', reason: 'unknown_authorization' }),
      });
      const t = await shop({ payments: refusing, now: () => new Date() });
      const placed = await t.checkout('refused-capture');
      expect(placed.status).toBe(201);
      expect(await t.statuses()).toEqual(['capture_failed']);
      await t.commerce.settlement.tick();
      await t.commerce.settlement.tick();
      const order = await request(t.app).get(`/api/orders/${placed.body.id}`).set('Authorization', t.auth);
      expect(order.body.status).toBe('pending_seller_confirmation');
      await t.real.close();
    },
  );

  it(
    'refuses control characters and broken text in the billing address with a ' + '400, before any card is touched',
    async () => {
      const sandbox = new SandboxPaymentProvider();
      const t = await shop({ payments: sandbox, now: () => new Date() });
      const billing = {
        name: 'Ada',
        address1: '1 Main St',
        city: 'Newark',
        state: 'NJ',
        countryCode: 'US',
        postalCode: '07102',
        phoneNumber: '+1 973 555 0100',
      };
      // Text no store keeps is refused with any body (RULES 14.15), named at its field; other controls by the form.
      for (const [name, message] of [
        ['Ada\u0000Lovelace', 'holds a NUL character (\\u0000), which no text kept here may hold'],
        ['Ada \ud800 Lovelace', 'holds half of a surrogate pair, alone, which no text kept here may hold'],
        ['Ada\u0007Lovelace', 'Name contains characters that cannot be used'],
      ]) {
        const res = await t.checkout(`bad-${name!.length}-${name!.charCodeAt(3)}`, {
          billingAddress: { ...billing, name },
        });
        expect(res.status).toBe(400);
        expect(res.body.error.details).toEqual([{ path: 'billingAddress.name', message }]);
      }
      expect(sandbox.authorizations).toEqual([]);
      await t.real.close();
    },
  );

  it('answers a checkout while search is down with a 503 a retry gets past, never a kept 404', async () => {
    const sandbox = new SandboxPaymentProvider();
    const t = await shop({ payments: sandbox, now: () => new Date() });
    let down = true;
    const engine = new CachedEngine(
      {
        kind: 'embedded',
        health: () => embedded.health(),
        search: async (req) => {
          if (down) throw new Error('search node down');
          return embedded.search(req);
        },
      },
      { ttlMs: 1 },
    );
    t.search.set(engine);
    await new Promise((r) => setTimeout(r, 5));
    const during = await t.checkout('while-search-is-down');
    expect(during.status).toBe(503);
    expect(during.body.error.code).toBe('search_unavailable');
    down = false;
    await new Promise((r) => setTimeout(r, 5));
    expect((await t.checkout('while-search-is-down')).status).toBe(201);
    await t.real.close();
  });
});

describe('SIGTERM under load', () => {
  it('lets every accepted request finish; none is cut mid-answer', async () => {
    const dataDir = path.join(tmp, 'sigterm');
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      env: {
        ...process.env,
        HOST: '127.0.0.1',
        PORT: '0',
        DATA_DIR: dataDir,
        CATALOG_EVENTS: '2000',
        LOG_LEVEL: 'info',
        SEGMENTS_WATCH: 'false',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    const until = Date.now() + 90_000;
    while (!/"msg":"search ready"/.test(out)) {
      if (Date.now() > until) throw new Error(`server did not get ready:\n${out}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const port = Number(/127\.0\.0\.1:(\d+)/.exec(out)![1]);

    const get = (i: number) =>
      new Promise<{ status?: number; error?: string; complete: boolean }>((resolve) => {
        const lat = (30 + (i % 15)).toFixed(1);
        const req = httpRequest(
          { host: '127.0.0.1', port, path: `/api/layout/home?lat=${lat}&lng=-${80 + (i % 20)}`, agent: false },
          (res) => {
            let body = '';
            res.on('data', (c) => (body += c));
            res.on('end', () => {
              let complete: boolean;
              try {
                complete = Array.isArray(JSON.parse(body).rows);
              } catch {
                complete = false;
              }
              resolve({ status: res.statusCode, complete });
            });
            res.on('error', (err) => resolve({ status: res.statusCode, error: err.message, complete: false }));
          },
        );
        req.on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message, complete: false }));
        req.end();
      });

    const inFlight = Array.from({ length: 40 }, (_, i) => get(i));
    await new Promise((r) => setTimeout(r, 30));
    child.kill('SIGTERM');
    const results = await Promise.all(inFlight);
    expect(await exited).toBe(0);
    const answered = results.filter((r) => r.status !== undefined);
    expect(answered.length).toBeGreaterThan(0);
    for (const r of answered) expect(r).toMatchObject({ status: 200, complete: true });
    // A request without a status line was never taken up: refused at connect, or still in the kernel's
    // accept queue when the listener closed. None was cut off after its answer had begun.
    for (const r of results.filter((x) => x.status === undefined))
      expect(['ECONNREFUSED', 'ECONNRESET']).toContain(r.error);
  });
});
