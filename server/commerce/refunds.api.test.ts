import { pino } from 'pino';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrderSchema, type Order } from '../../shared/schemas/commerce.js';
import type { EventDocument } from '../../shared/schemas/documents.js';
import { parseEnv } from '../config/env.js';
import type { Sql } from '../store/sql.js';
import { catalogFixture, type CatalogFixture } from '../test/catalog-fixture.js';
import { liveCatalogOver } from '../test/live-catalog.js';
import { buyOne, newGuest } from '../test/shopper.js';
import { testAppWithSegments } from '../test/test-app.js';
import { ADMIN_KEY_HEADER } from '../http/security.js';
import { createCommerce, type Commerce } from './commerce.js';
import { listingsForEvent } from './domain/listings.js';
import { SandboxPaymentProvider, type PaymentProvider } from './domain/payments.js';
import { PURCHASE_LIMITS } from './domain/purchase-limits.js';
import { REFUND_WINDOW_DAYS } from './domain/refunds.js';
import { openMigratedPglite } from '../store/test-stores.js';

const KEY = 'operators-admin-key-0001';
const logger = pino({ level: 'silent' });
let fixture: CatalogFixture;
let sql: Sql;
let sandbox: SandboxPaymentProvider;
let commerce: Commerce;
let app: Awaited<ReturnType<typeof testAppWithSegments>>['app'];
/** The clock the commerce runs on: moved forward to close a refund window. */
let clockOffsetMs = 0;
let opened: Awaited<ReturnType<typeof liveCatalogOver>>;
const now = () => new Date(Date.now() + clockOffsetMs);

beforeAll(async () => {
  fixture = await catalogFixture(400, 33);
  sql = await openMigratedPglite();
  sandbox = new SandboxPaymentProvider({ now });
  commerce = createCommerce({
    sql,
    engine: () => opened.search.engine,
    payments: sandbox,
    logger,
    sellerDelayMs: 0,
    now,
    limits: { ...PURCHASE_LIMITS, guestsPerAddress: 1000, ticketsPerEvent: 1000 },
  });
  opened = await liveCatalogOver(fixture, sql, (changes) =>
    commerce.eventChanges.eventsChanged(changes.filter((c) => c.collection === 'Event').map((c) => Number(c.id))),
  );
  const made = await testAppWithSegments({
    env: parseEnv({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      CATALOG_ADMIN_KEY: KEY,
      RATE_LIMIT_CARTS_PER_MINUTE: '1000',
      RATE_LIMIT_CHECKOUT_PER_MINUTE: '1000',
      RATE_LIMIT_SESSIONS_PER_MINUTE: '1000',
      RATE_LIMIT_ADMIN_PER_MINUTE: '1000',
    }),
    search: opened.search,
    catalog: opened.live,
    commerce,
    sql,
  });
  app = made.app;
  opened.connect({ engine: opened.search.engine, layout: made.deps.layout, fastLane: app.fastLane });
}, 120_000);

afterAll(async () => {
  await sql?.close();
  await fixture?.cleanup();
});

/** Upcoming scheduled events with at least `n` listings that sell one ticket, each handed out once. */
const handedOut = new Set<number>();
function eventWithListings(n: number): { event: EventDocument; listings: number[] } {
  const soon = Date.now() / 1000 + 3 * 86_400;
  for (const event of fixture.catalog.collections.Event) {
    if (handedOut.has(event.event_id) || event.event_status !== 'scheduled') continue;
    if (event.event_timestamp === null || event.event_timestamp < soon) continue;
    const listings = listingsForEvent(event)
      .filter((l) => l.splits.includes(1) && l.quantity >= 1)
      .map((l) => l.id);
    if (listings.length < n) continue;
    handedOut.add(event.event_id);
    return { event, listings: listings.slice(0, n) };
  }
  throw new Error(`no event with ${n} listings`);
}

/** Orders for `n` guests of one event, paid and confirmed by the housekeeping. */
async function paidOrders(n: number) {
  const { event, listings } = eventWithListings(n);
  const bought: { order: Order; auth: string }[] = [];
  for (const listing of listings) {
    const { auth } = await newGuest(app);
    bought.push({ order: (await buyOne(app, auth, listing)).order, auth });
  }
  await commerce.settlement.tick();
  return { event, bought };
}

const orderOf = async (id: string, auth: string) =>
  OrderSchema.parse((await request(app).get(`/api/orders/${id}`).set('Authorization', auth)).body);
const patchEvent = (id: number, fields: Record<string, unknown>) =>
  request(app)
    .patch(`/api/admin/collections/Event/documents/${id}`)
    .set('X-TYPESENSE-API-KEY', KEY)
    .send(fields)
    .expect(200);
/** Lets every node's loops run once: the event check, then the refunds. */
async function housekeeping() {
  await commerce.eventChanges.tick();
  await commerce.refunds.tick();
}
const cents = (dollars: number) => Math.round(dollars * 100);
/** The mail queued for these orders. */
async function mailOf(orderIds: string[]) {
  const rows = await sql.query<{ key: string; kind: string; recipient: string; data: unknown }>(
    'SELECT key, kind, recipient, data FROM mail_outbox ORDER BY id',
  );
  return rows
    .filter((r) => orderIds.some((id) => r.key.endsWith(id)))
    .map((r) => ({
      ...r,
      data: (typeof r.data === 'string' ? JSON.parse(r.data) : r.data) as Record<string, unknown>,
    }));
}

describe('a cancelled event (RULES 19.1)', () => {
  it('refunds every charged order in full, once, voids its tickets and says so on the order page', async () => {
    const { event, bought } = await paidOrders(3);
    expect((await orderOf(bought[0]!.order.id, bought[0]!.auth)).status).toBe('confirmed');
    await patchEvent(event.event_id, { event_status: 'cancelled' });
    await housekeeping();
    await housekeeping(); // a second pass adds nothing
    for (const { order, auth } of bought) {
      const seen = await orderOf(order.id, auth);
      expect(seen.status).toBe('refunded');
      expect(seen.refunds).toHaveLength(1);
      expect(seen.refunds[0]).toMatchObject({ status: 'refunded', amount: { value: order.totalPrice.value } });
      expect(seen.refunds[0]!.refundedAt).not.toBeNull();
      expect(seen.timeline.map((t) => t.status).slice(-2)).toEqual(['cancelled', 'refunded']);
      expect(seen.timeline.at(-2)!.note).toContain('The event was cancelled');
      expect(seen.tickets.every((t) => t.state === 'void')).toBe(true);
      const pdf = await request(app).get(`/api/orders/${order.id}/tickets.pdf`).set('Authorization', auth);
      expect(pdf.status).not.toBe(200);
    }
    const charged = bought.map((b) => cents(b.order.totalPrice.value));
    // The processor's own records: one refund per charge, each the whole charge.
    const chargeIds = await sql.query<{ authorization_id: string }>(
      'SELECT authorization_id FROM payments WHERE order_id = ANY ($1) AND status = $2',
      [bought.map((b) => b.order.id), 'captured'],
    );
    expect(chargeIds).toHaveLength(3);
    const made = sandbox.refunds.filter((r) => chargeIds.some((c) => c.authorization_id === r.chargeId));
    expect(made.map((r) => r.amountCents).sort()).toEqual([...charged].sort());
    const ours = await commerce.admin.reconcile(event.event_id);
    expect(ours).toEqual([
      expect.objectContaining({
        eventId: event.event_id,
        orders: 3,
        chargedCents: charged.reduce((a, b) => a + b),
        refundedCents: charged.reduce((a, b) => a + b),
        netCents: 0,
        agrees: true,
      }),
    ]);
    // RULES 19.4: each buyer gets their confirmation and one cancellation notice, with the amount refunded.
    const mail = await mailOf(bought.map((b) => b.order.id));
    for (const { order } of bought) {
      expect(
        mail
          .filter((m) => m.key.endsWith(order.id))
          .map((m) => m.kind)
          .sort(),
      ).toEqual(['event_cancelled', 'order_confirmation']);
      const notice = mail.find((m) => m.key === `event_cancelled:${order.id}`)!;
      expect(notice).toMatchObject({
        recipient: 'buyer@example.com',
        data: { amountCents: cents(order.totalPrice.value) },
      });
    }
  });

  it('pays each refund once across two nodes at once, and finishes one whose answer was lost', async () => {
    const { event, bought } = await paidOrders(4);
    let lose = 2;
    // The processor makes the refund and its answer never arrives, twice: the next attempt finishes it.
    const flaky: PaymentProvider = {
      authorize: (input) => sandbox.authorize(input),
      capture: (id) => sandbox.capture(id),
      void: (id) => sandbox.void(id),
      findAuthorization: (key) => sandbox.findAuthorization(key),
      charge: (id) => sandbox.charge(id),
      refund: async (input) => {
        const result = await sandbox.refund(input);
        if (lose-- > 0) throw new Error('connection reset');
        return result;
      },
    };
    const other = createCommerce({ sql, engine: () => opened.search.engine, payments: flaky, logger, now });
    await patchEvent(event.event_id, { event_status: 'cancelled' });
    await Promise.all([commerce.eventChanges.check([event.event_id]), other.eventChanges.check([event.event_id])]);
    const before = sandbox.refunds.length;
    // The other node takes them all; two of its answers are lost on the way back.
    expect(await other.refunds.tick()).toBe(2);
    expect(lose).toBeLessThan(0);
    // Once their wait is over, both nodes try again at once: each refund is finished by one, paid by none again.
    clockOffsetMs += 60_000;
    try {
      const made = await Promise.all([commerce.refunds.tick(), other.refunds.tick()]);
      expect(made[0] + made[1]).toBe(2);
    } finally {
      clockOffsetMs -= 60_000;
    }
    expect(sandbox.refunds.length - before).toBe(4);
    const rows = await sql.query<{ order_id: string; status: string; processor_refund_id: string }>(
      'SELECT order_id, status, processor_refund_id FROM refunds WHERE order_id = ANY ($1)',
      [bought.map((b) => b.order.id)],
    );
    expect(rows).toHaveLength(4);
    expect(rows.every((r) => r.status === 'refunded')).toBe(true);
    const made = sandbox.refunds.filter((r) => rows.some((row) => row.processor_refund_id === r.id));
    expect(made).toHaveLength(4);
    expect((await commerce.admin.reconcile(event.event_id))[0]).toMatchObject({ netCents: 0, agrees: true });
  });
});

describe('a postponed or rescheduled event (RULES 19.2)', () => {
  it('keeps the orders, notes the change and offers a full refund for 30 days, which the buyer may take', async () => {
    const { event, bought } = await paidOrders(2);
    const later = event.event_timestamp! + 14 * 86_400;
    const local = new Date((later + event.venue_time_zone_offset * 3600) * 1000).toISOString().slice(0, 19);
    await patchEvent(event.event_id, {
      event_status: 'rescheduled',
      event_timestamp: later,
      event_local_timestamp: local,
    });
    await housekeeping();
    const [first, second] = bought;
    const seen = await orderOf(first!.order.id, first!.auth);
    expect(seen.status).toBe('confirmed');
    expect(seen.timeline.at(-1)!.note).toMatch(/^The event moved to .+ Your tickets stay valid/);
    expect(seen.refundOffer).not.toBeNull();
    const days = (Date.parse(seen.refundOffer!.until) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(REFUND_WINDOW_DAYS - 0.01);
    expect(days).toBeLessThan(REFUND_WINDOW_DAYS + 0.01);
    expect(seen.refundOffer!.amount.value).toBe(first!.order.totalPrice.value);

    const notices = (await mailOf([first!.order.id, second!.order.id])).filter((m) => m.kind === 'event_changed');
    expect(notices).toHaveLength(2);
    expect(notices[0]!.data).toMatchObject({ status: 'rescheduled', refundUntil: seen.refundOffer!.until });
    const asked = await request(app).post(`/api/orders/${first!.order.id}/refund`).set('Authorization', first!.auth);
    expect(asked.status).toBe(202);
    expect(OrderSchema.parse(asked.body)).toMatchObject({ status: 'cancelled', refundOffer: null });
    const again = await request(app).post(`/api/orders/${first!.order.id}/refund`).set('Authorization', first!.auth);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('refund_in_progress');
    await commerce.refunds.tick();
    expect((await orderOf(first!.order.id, first!.auth)).status).toBe('refunded');

    // Someone else's order is not theirs to refund.
    const stranger = await newGuest(app);
    const theirs = await request(app)
      .post(`/api/orders/${second!.order.id}/refund`)
      .set('Authorization', stranger.auth);
    expect(theirs.status).toBe(404);
    // After 30 days the window is closed.
    clockOffsetMs += (REFUND_WINDOW_DAYS + 1) * 86_400_000;
    try {
      const closed = await request(app)
        .post(`/api/orders/${second!.order.id}/refund`)
        .set('Authorization', second!.auth);
      expect(closed.status).toBe(409);
      expect(closed.body.error.message).toMatch(/refund window for this order closed/);
    } finally {
      clockOffsetMs = 0;
    }
  });

  it('refuses a refund to a buyer whose event did not change', async () => {
    const { bought } = await paidOrders(1);
    const res = await request(app)
      .post(`/api/orders/${bought[0]!.order.id}/refund`)
      .set('Authorization', bought[0]!.auth);
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('not_refundable');
  });
});

describe('operators’ refunds and reconciliation (RULES 19.3, 19.5)', () => {
  const admin = () => ({ [ADMIN_KEY_HEADER]: KEY });

  it('refunds part of an order, then the rest, and reconciles with the processor', async () => {
    const { event, bought } = await paidOrders(1);
    const { order, auth } = bought[0]!;
    const part = await request(app)
      .post(`/api/admin/orders/${order.id}/refunds`)
      .set(admin())
      .send({ amount: 5, reason: 'Goodwill: late gates' });
    expect(part.status).toBe(202);
    expect(part.body.refund).toMatchObject({ amount: 5, full: false, status: 'pending', note: 'Goodwill: late gates' });
    await commerce.refunds.tick();
    let seen = await orderOf(order.id, auth);
    expect(seen.status).toBe('confirmed');
    expect(seen.refunds).toEqual([
      expect.objectContaining({ status: 'refunded', amount: { value: 5 }, reason: 'Goodwill: late gates' }),
    ]);

    const tooMuch = await request(app)
      .post(`/api/admin/orders/${order.id}/refunds`)
      .set(admin())
      .send({ amount: order.totalPrice.value, reason: 'all of it' });
    expect(tooMuch.status).toBe(409);
    expect(tooMuch.body.error.code).toBe('amount_too_large');

    const rest = await request(app)
      .post(`/api/admin/orders/${order.id}/refunds`)
      .set(admin())
      .send({ reason: 'Customer service' });
    expect(rest.status).toBe(202);
    expect(rest.body.refund.amount).toBeCloseTo(order.totalPrice.value - 5, 2);
    await commerce.refunds.tick();
    seen = await orderOf(order.id, auth);
    expect(seen.status).toBe('refunded');
    const listed = await request(app).get(`/api/admin/orders/${order.id}/refunds`).set(admin());
    expect(listed.body.refunds.map((r: { status: string }) => r.status)).toEqual(['refunded', 'refunded']);
    // An order there is not has no refunds to list: a 404, as a refund of it is.
    const unknown = await request(app).get('/api/admin/orders/ORD-AAAAAAAAAA/refunds').set(admin());
    expect([unknown.status, unknown.body.error.message]).toEqual([404, 'There is no order ORD-AAAAAAAAAA']);

    const rec = await request(app).get(`/api/admin/reconcile?event=${event.event_id}`).set(admin());
    expect(rec.status).toBe(200);
    expect(rec.body.events).toEqual([
      expect.objectContaining({
        eventId: event.event_id,
        chargedCents: cents(order.totalPrice.value),
        refundedCents: cents(order.totalPrice.value),
        netCents: 0,
        agrees: true,
        processor: { chargedCents: cents(order.totalPrice.value), refundedCents: cents(order.totalPrice.value) },
      }),
    ]);
  });

  it('answers bad requests with a 4xx naming the problem', async () => {
    const { bought } = await paidOrders(1);
    const id = bought[0]!.order.id;
    const post = (body: unknown, headers: Record<string, string> = admin(), order = id) =>
      request(app)
        .post(`/api/admin/orders/${order}/refunds`)
        .set(headers)
        .send(body as object);
    expect((await post({ reason: 'x' }, {})).status).toBe(401);
    expect((await post({ reason: 'x' }, { [ADMIN_KEY_HEADER]: 'wrong-key-wrong-key' })).status).toBe(401);
    const noReason = await post({ amount: 1 });
    expect(noReason.status).toBe(400);
    expect(noReason.body.error.message).toMatch(/reason/);
    const fraction = await post({ amount: 1.005, reason: 'three decimals' });
    expect(fraction.status).toBe(400);
    expect(fraction.body.error.message).toMatch(/whole cents/);
    expect((await post({ amount: -1, reason: 'negative' })).status).toBe(400);
    expect((await post({ amount: '5', reason: 'text amount' })).status).toBe(400);
    // RULES 19.3: a reason of at most 500 characters.
    const long = await post({ amount: 1, reason: 'x'.repeat(501) });
    expect(long.status).toBe(400);
    expect(long.body.error.message).toMatch(/at most 500 characters/);
    expect((await post({ amount: 1, reason: 'x'.repeat(500) })).status).toBe(202);
    expect((await post({ reason: 'no such order' }, admin(), 'ORD-ZZZZZZZZZZ')).status).toBe(404);
    expect((await post({ reason: 'not an id' }, admin(), 'nope')).status).toBe(400);
    const rec = await request(app).get('/api/admin/reconcile?event=abc').set(admin());
    expect(rec.status).toBe(400);
  });
});
