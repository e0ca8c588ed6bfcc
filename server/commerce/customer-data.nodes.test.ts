import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { OrderSchema } from '../../shared/schemas/commerce.js';
import { CustomerDataSchema } from '../../shared/schemas/privacy.js';
import type { Catalog } from '../catalog/load-catalog.js';
import { call, newShopper, type Shopper } from '../test/api-calls.js';
import { checkoutBody } from '../test/documents.js';
import { havePostgres, type Database } from '../test/postgres.js';
import type { ServerNode } from '../test/server-nodes.js';
import { pickListings, startStack, type Stack } from '../test/stack.js';

/** How long a fire-and-forget write (recent activity, an event batch) may take to land on a loaded machine. */
const LANDS_WITHIN_MS = 10_000;

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const until = Date.now() + LANDS_WITHIN_MS;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > until) return value;
    await sleep(100);
  }
}

describe.skipIf(!havePostgres())('a guest’s erasure on one node is what every node reads (RULES 21.3)', () => {
  let stack: Stack | undefined;
  let db: Database;
  let catalog: Catalog;
  let a: ServerNode;
  let b: ServerNode;

  beforeAll(async () => {
    stack = await startStack({ nodes: 2, env: { RATE_LIMIT_CARTS_PER_MINUTE: '1000' } });
    ({ db, catalog } = stack);
    [a, b] = stack.nodes as [ServerNode, ServerNode];
  }, 240_000);
  afterAll(() => stack?.stop());

  /** A guest who viewed an event and bought a ticket of it on node B, with the order's answer. */
  async function buyer(shopper: Shopper) {
    const { event, listing } = pickListings(catalog, 1, (l) => l.splits.includes(1))[0]!;
    const viewed = await shopper.call(b, 'GET', `/api/events/e-${event.event_id}`);
    expect(viewed.status).toBe(200);
    const cart = await shopper.call(b, 'POST', '/api/cart', { body: { listingId: listing.id, quantity: 1 } });
    expect(cart.status).toBe(201);
    const order = await shopper.call(b, 'POST', '/api/checkout', {
      body: checkoutBody(cart.body.id, 'grace@example.com'),
      headers: { 'Idempotency-Key': randomUUID() },
    });
    expect(order.status).toBe(201);
    return OrderSchema.parse(order.body);
  }

  it('erases on node A; node B then shows the order without the buyer, and no activity or events', async () => {
    const shopper = await newShopper(a);
    const order = await buyer(shopper);
    const activity = () => shopper.call(b, 'GET', '/api/CustomerActivity/recent-activities');
    expect((await eventually(activity, (r) => r.body?.data?.length === 1)).body.data).toHaveLength(1);

    // Node B has it all before.
    const before = CustomerDataSchema.parse((await shopper.call(b, 'GET', '/api/customers/me/data')).body);
    expect(before.orders[0]).toMatchObject({ id: order.id, buyer: { email: 'grace@example.com' } });
    expect(before.recentActivity).toHaveLength(1);

    expect((await shopper.call(a, 'DELETE', '/api/customers/me')).status).toBe(204);

    // Node B, at once: the order without the buyer (for the guest, and by its access code), no activity, no events.
    const seen = await shopper.call(b, 'GET', `/api/orders/${order.id}`);
    expect(seen.status).toBe(200);
    expect(OrderSchema.parse(seen.body).erasedAt).toEqual(expect.any(String));
    expect(JSON.stringify(seen.body)).not.toContain('grace@example.com');
    const byCode = await call(b.url, 'GET', `/api/orders/${order.id}?code=${order.accessCode}`);
    expect([byCode.status, byCode.body.erasedAt]).toEqual([200, seen.body.erasedAt]);
    expect((await activity()).body.data).toEqual([]);
    const after = CustomerDataSchema.parse((await shopper.call(b, 'GET', '/api/customers/me/data')).body);
    expect(after.orders[0]).toMatchObject({ id: order.id, buyer: { email: '', billing: {} } });
    expect(after).toMatchObject({ recentActivity: [], events: [] });
    expect(JSON.stringify(after)).not.toContain('Grace Hopper');

    // What the store keeps: the amounts and dates, no buyer; the order's mail without its address.
    const [row] = await db.query<Record<string, unknown>>(
      'SELECT email, billing, total_cents, erased_at FROM orders WHERE id = $1',
      [order.id],
    );
    expect(row).toMatchObject({ email: '', billing: {}, total_cents: Math.round(order.totalPrice.value * 100) });
    const mail = await db.query<{ recipient: string }>(
      "SELECT recipient FROM mail_outbox WHERE data->>'orderId' = $1",
      [order.id],
    );
    expect(mail.length).toBeGreaterThan(0);
    expect(mail.every((m) => m.recipient === '')).toBe(true);

    // A view on node B after the erasure is not kept either.
    await shopper.call(b, 'GET', `/api/events/e-${order.eventId}`);
    await sleep(500);
    expect((await activity()).body.data).toEqual([]);
    expect((await shopper.call(b, 'DELETE', '/api/customers/me')).status).toBe(204);
  });
});
