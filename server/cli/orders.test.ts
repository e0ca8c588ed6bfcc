import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '../../shared/schemas/commerce.js';
import { createCommerce } from '../commerce/commerce.js';
import { eventIdOfListing } from '../commerce/domain/listings.js';
import { SandboxPaymentProvider } from '../commerce/domain/payments.js';
import { PURCHASE_LIMITS } from '../commerce/domain/purchase-limits.js';
import { SqlSandboxLedger } from '../commerce/sandbox-ledger.js';
import { parseEnv } from '../config/env.js';
import { openStore } from '../store/open-store.js';
import type { Sql } from '../store/sql.js';
import { catalogFixture, type CatalogFixture } from '../test/catalog-fixture.js';
import { buyOne, listingSupply, newGuest } from '../test/shopper.js';
import { testApp } from '../test/test-app.js';
import { runOrdersCli } from './orders.js';

const KEY = 'orders-cli-admin-key-01';
let fixture: CatalogFixture;
let dataDir: string;
const orders: Order[] = [];

async function run(argv: string[], env: NodeJS.ProcessEnv = { DATA_DIR: dataDir }, fetcher?: typeof fetch) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runOrdersCli(argv, env, { out: (l) => out.push(l), err: (l) => err.push(l), fetch: fetcher });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** A storefront over the embedded store in `dataDir`, for as long as `fn` runs. */
async function storefront<T>(fn: (app: ReturnType<typeof testApp>['app'], sql: Sql) => Promise<T>): Promise<T> {
  const sql = await openStore({ dataDir });
  try {
    const commerce = createCommerce({
      sql,
      engine: () => fixture.search.engine,
      payments: new SandboxPaymentProvider({ ledger: new SqlSandboxLedger(sql) }),
      logger: pino({ level: 'silent' }),
      sellerDelayMs: 0,
      limits: { ...PURCHASE_LIMITS, guestsPerAddress: 1000 },
    });
    const env = parseEnv({ NODE_ENV: 'test', CATALOG_ADMIN_KEY: KEY, RATE_LIMIT_CARTS_PER_MINUTE: '1000' });
    const { app } = testApp({ search: fixture.search, commerce, env, sql });
    const result = await fn(app, sql);
    await commerce.settlement.tick();
    return result;
  } finally {
    await sql.close();
  }
}

beforeAll(async () => {
  fixture = await catalogFixture(200, 71);
  dataDir = path.join(fixture.dir, 'data');
  // One order on each of three events.
  const next = listingSupply(fixture.catalog);
  const events = new Set<number>();
  await storefront(async (app) => {
    while (orders.length < 3) {
      const listing = next();
      const event = eventIdOfListing(listing);
      if (events.has(event)) continue;
      events.add(event);
      orders.push((await buyOne(app, (await newGuest(app)).auth, listing)).order);
    }
  });
}, 120_000);

afterAll(() => fixture?.cleanup());

describe('npm run orders', () => {
  it('refunds part of an order on the embedded store, at once, and reconciles with the processor', async () => {
    const order = orders[0]!;
    const part = await run(['refund', order.id, '--amount', '2.50', '--reason', 'Goodwill']);
    expect(part).toMatchObject({ code: 0, err: '' });
    expect(part.out).toMatch(new RegExp(`^rf_[0-9a-f-]+: \\$2\\.50 of ${order.id} refunded$`));
    const rest = await run(['refund', order.id, '--reason', 'Customer asked']);
    expect(rest.out).toContain(`of ${order.id} refunded`);
    const again = await run(['refund', order.id, '--reason', 'twice']);
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/refunded in full|being refunded/);

    const rec = await run(['reconcile', '--event', String(order.eventId), '--json']);
    expect(rec.code).toBe(0);
    const [event] = JSON.parse(rec.out) as {
      chargedCents: number;
      refundedCents: number;
      netCents: number;
      agrees: boolean;
    }[];
    const total = Math.round(order.totalPrice.value * 100);
    expect(event).toMatchObject({ chargedCents: total, refundedCents: total, netCents: 0, agrees: true });
    const table = await run(['reconcile']);
    expect(table.code).toBe(0);
    expect(table.out.split('\n')[0]).toMatch(/^event\s+orders\s+charged\s+refunded\s+pending\s+net/);
    expect(table.out).toMatch(/^total\s+3\s/m);
  });

  it('refunds every charged order of an event in full with --event', async () => {
    const order = orders[1]!;
    const res = await run(['refund', '--event', String(order.eventId), '--reason', 'Venue flooded']);
    expect(res).toMatchObject({
      code: 0,
      out: `1 refunds recorded for event ${order.eventId}; see npm run orders -- reconcile --event ${order.eventId}`,
    });
    const rec = JSON.parse((await run(['reconcile', '--event', String(order.eventId), '--json'])).out);
    expect(rec[0]).toMatchObject({ netCents: 0, agrees: true });
  });

  it('goes through a running storefront’s operators’ API with --url', async () => {
    const order = orders[2]!;
    await storefront(async (app) => {
      const server: Server = createServer(app).listen(0, '127.0.0.1');
      await new Promise((resolve) => server.once('listening', resolve));
      const { port } = server.address() as { port: number };
      try {
        const env = { STOREFRONT_URL: `http://127.0.0.1:${port}`, CATALOG_ADMIN_KEY: KEY };
        const res = await run(['refund', order.id, '--amount', '1', '--reason', 'Via the API'], env);
        expect(res).toMatchObject({ code: 0 });
        expect(res.out).toContain('recorded; a running storefront makes it within seconds');
        const wrong = await run(['reconcile'], { ...env, CATALOG_ADMIN_KEY: 'not-the-key-at-all' });
        expect(wrong.code).toBe(1);
        expect(wrong.err).toContain('answered 401');
      } finally {
        await new Promise((resolve) => server.close(resolve));
      }
    });
  });

  it('explains what is wrong with a command', async () => {
    expect((await run([])).code).toBe(2);
    expect((await run(['refund', orders[0]!.id])).err).toMatch(/reason is required/);
    expect((await run(['refund', orders[0]!.id, '--amount', 'abc', '--reason', 'x y z'])).err).toMatch(/amount/);
    expect((await run(['refund', '--reason', 'no order'])).err).toMatch(/needs an order id, or --event ID/);
    expect((await run(['reconcile', '--event', 'x'])).err).toMatch(/--event must be an event id/);
    const missing = await run(['refund', 'ORD-ZZZZZZZZZZ', '--reason', 'no such order']);
    expect(missing).toMatchObject({ code: 1, err: 'There is no order ORD-ZZZZZZZZZZ' });
  });
});
