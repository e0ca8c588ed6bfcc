import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserEvent } from '../../shared/schemas/analytics-events.js';
import { OrderSchema } from '../../shared/schemas/commerce.js';
import { CustomerDataSchema, OPT_OUT_COOKIE, PrivacyChoiceSchema } from '../../shared/schemas/privacy.js';
import { EventCollector } from '../analytics/event-collector.js';
import { EventLog } from '../analytics/event-log.js';
import { parseEnv } from '../config/env.js';
import { ADMIN_KEY_HEADER } from '../http/security.js';
import { ERASED_MAIL_NOTE, retryMail } from '../mail/outbox.js';
import type { Sql } from '../store/sql.js';
import { TEST_STORES } from '../store/test-stores.js';
import { catalogFixture, type CatalogFixture } from '../test/catalog-fixture.js';
import { checkoutBody } from '../test/documents.js';
import { BILLING, buyOne, listingSupply, newGuest } from '../test/shopper.js';
import { sharedAddressCommerce, testAppWithSegments } from '../test/test-app.js';
import { type Commerce } from './commerce.js';

const KEY = 'operators-admin-key-0002';
let fixture: CatalogFixture;

beforeAll(async () => {
  fixture = await catalogFixture(400, 61);
}, 120_000);
afterAll(() => fixture?.cleanup());

describe.each(TEST_STORES)('a guest’s own data on $name (RULES 21)', ({ open }) => {
  let sql: Sql;
  let log: EventLog;
  let commerce: Commerce;
  let app: Awaited<ReturnType<typeof testAppWithSegments>>['app'];
  let deps: Awaited<ReturnType<typeof testAppWithSegments>>['deps'];
  let nextListing: () => number;

  beforeAll(async () => {
    sql = await open();
    log = new EventLog(sql, { flushEveryMs: 10 });
    commerce = sharedAddressCommerce(sql, fixture.search);
    ({ app, deps } = await testAppWithSegments({
      search: fixture.search,
      sql,
      commerce,
      events: new EventCollector(log),
      env: parseEnv({
        NODE_ENV: 'test',
        CATALOG_ADMIN_KEY: KEY,
        RATE_LIMIT_SESSIONS_PER_MINUTE: '10000',
        RATE_LIMIT_CARTS_PER_MINUTE: '10000',
        RATE_LIMIT_CHECKOUT_PER_MINUTE: '10000',
        RATE_LIMIT_EVENTS_PER_MINUTE: '10000',
        RATE_LIMIT_ADMIN_PER_MINUTE: '10000',
        RATE_LIMIT_CUSTOMER_DATA_PER_MINUTE: '10000',
      }),
    }));
    nextListing = listingSupply(fixture.catalog);
  }, 60_000);
  afterAll(async () => {
    await log?.close();
    await sql?.close();
  });

  const pageView = (): BrowserEvent =>
    ({
      id: randomUUID().replaceAll('-', ''),
      name: 'page_view',
      pageView: 'pv-privacy-01',
      page: '/',
      at: Date.now(),
      variation: 'base',
    }) as BrowserEvent;
  const sendEvents = (auth: string, headers: Record<string, string> = {}) =>
    request(app)
      .post('/api/events')
      .set('Authorization', auth)
      .set(headers)
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ events: [pageView()] }));
  const eventsOf = async (guest: string) => {
    await log.flush();
    return sql.query('SELECT name FROM analytics_events WHERE anonymous_id = $1', [guest]);
  };
  const orderRow = async (id: string) =>
    (await sql.query('SELECT email, billing, total_cents, status, erased_at FROM orders WHERE id = $1', [id]))[0]!;

  /** A guest who bought a ticket, viewed an event and sent a page view. */
  async function shopper() {
    const guest = await newGuest(app);
    const { order } = await buyOne(app, guest.auth, nextListing());
    await deps.activity.record(guest.guestId, {
      type: 'event',
      id: order.eventId,
      name: order.eventName,
      url: `/event/${order.eventId}`,
      image: null,
    });
    expect((await sendEvents(guest.auth)).status).toBe(202);
    await log.flush();
    return { ...guest, order };
  }

  it('answers 401 to every route without a guest token, and to a forged one', async () => {
    for (const [method, path] of [
      ['get', '/api/customers/me/data'],
      ['delete', '/api/customers/me'],
      ['get', '/api/customers/me/privacy'],
      ['post', '/api/customers/me/privacy'],
    ] as const) {
      const none = await request(app)[method](path).send({ doNotSellOrShare: true });
      expect([path, none.status, none.body.error.code]).toEqual([path, 401, 'missing_session']);
      const forged = await request(app)[method](path).set('Authorization', 'Bearer not.a.token');
      expect([path, forged.status, forged.body.error.code]).toEqual([path, 401, 'invalid_session']);
    }
  });

  it('downloads the guest’s orders with what they gave at checkout, their activity and events, as a file', async () => {
    const { auth, guestId, order } = await shopper();
    const stranger = await newGuest(app);
    const res = await request(app).get('/api/customers/me/data').set('Authorization', auth);
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="my-data.json"');
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const data = CustomerDataSchema.parse(JSON.parse(res.text));
    expect(data.guestId).toBe(guestId);
    expect(data.orders.map((o) => o.id)).toEqual([order.id]);
    expect(data.orders[0]!.buyer).toEqual({ email: 'buyer@example.com', billing: BILLING });
    expect(data.orders[0]!.totalPrice).toEqual(order.totalPrice);
    expect(data.recentActivity.map((a) => a.id)).toEqual([order.eventId]);
    expect(data.events.map((e) => e.name).sort()).toEqual(['page_view', 'purchase']);
    expect(data.privacy).toEqual({ doNotSellOrShare: false, chosenAt: null, erasedAt: null });
    const theirs = CustomerDataSchema.parse(
      JSON.parse((await request(app).get('/api/customers/me/data').set('Authorization', stranger.auth)).text),
    );
    expect(theirs).toMatchObject({ guestId: stranger.guestId, orders: [], recentActivity: [], events: [] });
  });

  it('downloads an order whose listing the catalog no longer has as the store keeps it', async () => {
    const { auth, order } = await shopper();
    // A listing id whose event the catalog never had.
    await sql.query('UPDATE orders SET listing_id = 1 WHERE id = $1', [order.id]);
    const res = await request(app).get('/api/customers/me/data').set('Authorization', auth);
    expect(res.status).toBe(200);
    const data = CustomerDataSchema.parse(JSON.parse(res.text));
    expect(data.orders).toEqual([]);
    expect(data.ordersWithoutDetail).toEqual([
      expect.objectContaining({
        id: order.id,
        totalPrice: order.totalPrice,
        erasedAt: null,
        buyer: { email: 'buyer@example.com', billing: BILLING },
      }),
    ]);
  });

  it('erases the personal data of the guest’s orders, activity, events and mail, keeping the bookkeeping', async () => {
    const { auth, guestId, order } = await shopper();
    const other = await shopper();
    const before = await orderRow(order.id);
    const [queued] = await sql.query('SELECT state, recipient FROM mail_outbox WHERE key = $1', [
      `order_confirmation:${order.id}`,
    ]);
    expect(queued).toEqual({ state: 'queued', recipient: 'buyer@example.com' });

    const erased = await request(app).delete('/api/customers/me').set('Authorization', auth);
    expect(erased.status).toBe(204);
    expect(erased.headers['cache-control']).toBe('private, no-store');

    const after = await orderRow(order.id);
    expect(after).toMatchObject({ email: '', billing: {}, total_cents: before.total_cents, status: before.status });
    expect(after.erased_at).not.toBeNull();
    expect(await sql.query('SELECT 1 FROM recent_activity WHERE guest_id = $1', [guestId])).toEqual([]);
    expect(await eventsOf(guestId)).toEqual([]);
    const [mail] = await sql.query('SELECT state, recipient, data, last_error FROM mail_outbox WHERE key = $1', [
      `order_confirmation:${order.id}`,
    ]);
    expect(mail).toEqual({ state: 'failed', recipient: '', data: { orderId: order.id }, last_error: ERASED_MAIL_NOTE });
    // The ticket stays, and so do the payment and its amount.
    expect(await sql.query('SELECT count(*)::int AS n FROM tickets WHERE order_id = $1', [order.id])).toEqual([
      { n: 1 },
    ]);
    expect(await sql.query('SELECT count(*)::int AS n FROM payments WHERE order_id = $1', [order.id])).toEqual([
      { n: 1 },
    ]);

    // The bought hold keeps its client's address key: the per-address limit of its event still counts it (RULES 8.1).
    expect(
      await sql.query("SELECT client_key IS NOT NULL AS kept FROM holds WHERE guest_id = $1 AND status = 'purchased'", [
        guestId,
      ]),
    ).toEqual([{ kept: true }]);

    // The other guest keeps everything.
    expect(await orderRow(other.order.id)).toMatchObject({ email: 'buyer@example.com', erased_at: null });
    expect((await eventsOf(other.guestId)).length).toBe(2);

    // The order still opens, for the guest and by its access code, without the buyer's details.
    for (const access of [
      request(app).get(`/api/orders/${order.id}`).set('Authorization', auth),
      request(app).get(`/api/orders/${order.id}?code=${order.accessCode}`),
    ]) {
      const res = await access;
      expect(res.status).toBe(200);
      const seen = OrderSchema.parse(res.body);
      expect(seen.erasedAt).toBe(after.erased_at === null ? null : new Date(after.erased_at as string).toISOString());
      expect(JSON.stringify(res.body)).not.toContain('buyer@example.com');
      expect(seen.totalPrice).toEqual(order.totalPrice);
    }

    // The download says so.
    const data = CustomerDataSchema.parse(
      JSON.parse((await request(app).get('/api/customers/me/data').set('Authorization', auth)).text),
    );
    expect(data.orders[0]!.buyer).toEqual({ email: '', billing: {} });
    expect(data.privacy.erasedAt).toBe(data.orders[0]!.erasedAt);
    expect(data).toMatchObject({ recentActivity: [], events: [] });
    expect(JSON.stringify(data)).not.toContain(BILLING.name);

    // Again: 204, nothing changes, the first date stays.
    expect((await request(app).delete('/api/customers/me').set('Authorization', auth)).status).toBe(204);
    expect(await orderRow(order.id)).toEqual(after);

    // Nothing more is kept of the erased guest: no events (whichever node queued them), no activity.
    expect((await sendEvents(auth)).status).toBe(202);
    expect(await eventsOf(guestId)).toEqual([]);
    await deps.activity.record(guestId, { type: 'event', id: 1, name: 'x', url: '/x', image: null });
    expect(await deps.activity.list(guestId)).toEqual([]);
  });

  it('writes an order paid after the erasure (its cart held before) already erased, and mails no one', async () => {
    const { auth } = await newGuest(app);
    const cart = await request(app)
      .post('/api/cart')
      .set('Authorization', auth)
      .send({ listingId: nextListing(), quantity: 1 });
    expect(cart.status).toBe(201);
    expect((await request(app).delete('/api/customers/me').set('Authorization', auth)).status).toBe(204);
    const paid = await request(app)
      .post('/api/checkout')
      .set('Authorization', auth)
      .send(checkoutBody(cart.body.id, 'late@example.com'));
    expect(paid.status).toBe(201);
    const order = OrderSchema.parse(paid.body);
    expect(order.erasedAt).toEqual(expect.any(String));
    expect(await orderRow(order.id)).toMatchObject({ email: '', billing: {} });
    expect(await sql.query('SELECT 1 FROM mail_outbox WHERE key = $1', [`order_confirmation:${order.id}`])).toEqual([]);
  });

  it('refunds an erased order without mailing anyone, and never retries its erased mail', async () => {
    const { auth, order } = await shopper();
    await commerce.settlement.tick();
    expect((await request(app).delete('/api/customers/me').set('Authorization', auth)).status).toBe(204);
    const asked = await request(app)
      .post(`/api/admin/orders/${order.id}/refunds`)
      .set({ [ADMIN_KEY_HEADER]: KEY })
      .send({ amount: 1, reason: 'Goodwill after erasure' });
    expect(asked.status).toBe(202);
    await commerce.refunds.tick();
    const seen = OrderSchema.parse((await request(app).get(`/api/orders/${order.id}`).set('Authorization', auth)).body);
    expect(seen.refunds).toEqual([expect.objectContaining({ status: 'refunded', amount: { value: 1 } })]);
    const mail = await sql.query("SELECT key, recipient FROM mail_outbox WHERE data->>'orderId' = $1", [order.id]);
    expect(mail.every((m) => m.recipient === '')).toBe(true);
    expect(mail.map((m) => String(m.key))).not.toContainEqual(expect.stringMatching(/^refund:/));
    const [confirmation] = await sql.query('SELECT id FROM mail_outbox WHERE key = $1', [
      `order_confirmation:${order.id}`,
    ]);
    await expect(retryMail(sql, Number(confirmation!.id), new Date())).rejects.toMatchObject({
      status: 409,
      code: 'mail_erased',
    });
  });

  it('records the choice about selling and sharing, says it by a cookie, keeps no events meanwhile', async () => {
    const { auth, guestId } = await newGuest(app);
    const first = PrivacyChoiceSchema.parse(
      (await request(app).get('/api/customers/me/privacy').set('Authorization', auth)).body,
    );
    expect(first).toEqual({ doNotSellOrShare: false, chosenAt: null, globalPrivacyControl: false, optedOut: false });
    // With no stored choice, reading it leaves the browser's cookie alone.
    expect((await request(app).get('/api/customers/me/privacy').set('Authorization', auth)).headers['set-cookie']).toBe(
      undefined,
    );

    const bad = await request(app)
      .post('/api/customers/me/privacy')
      .set('Authorization', auth)
      .send({ doNotSellOrShare: 'yes' });
    expect([bad.status, bad.body.error.message]).toEqual([400, expect.stringContaining('doNotSellOrShare')]);

    const out = await request(app)
      .post('/api/customers/me/privacy')
      .set('Authorization', auth)
      .send({ doNotSellOrShare: true });
    expect(out.status).toBe(200);
    expect(out.body).toMatchObject({ doNotSellOrShare: true, optedOut: true, globalPrivacyControl: false });
    expect(out.headers['set-cookie']).toEqual([
      expect.stringMatching(new RegExp(`^${OPT_OUT_COOKIE}=1; Max-Age=31536000;`)),
    ]);

    // A stored choice outlasts its cookie: reading it sets the cookie again.
    const again = await request(app).get('/api/customers/me/privacy').set('Authorization', auth);
    expect(again.headers['set-cookie']).toEqual([expect.stringMatching(new RegExp(`^${OPT_OUT_COOKIE}=1;`))]);

    // The cookie: nothing taken. The stored choice alone: taken, but never written.
    expect((await sendEvents(auth, { Cookie: `${OPT_OUT_COOKIE}=1` })).body).toEqual({ accepted: 0 });
    expect((await sendEvents(auth)).body).toEqual({ accepted: 1 });
    expect(await eventsOf(guestId)).toEqual([]);

    const back = await request(app)
      .post('/api/customers/me/privacy')
      .set('Authorization', auth)
      .send({ doNotSellOrShare: false });
    expect(back.body).toMatchObject({ doNotSellOrShare: false, optedOut: false });
    expect(back.headers['set-cookie']).toEqual([
      expect.stringMatching(new RegExp(`^${OPT_OUT_COOKIE}=; .*Expires=Thu, 01 Jan 1970`)),
    ]);
    expect((await sendEvents(auth)).body).toEqual({ accepted: 1 });
    expect((await eventsOf(guestId)).length).toBe(1);
  });

  it('takes a request with Sec-GPC: 1 as opted out without a stored choice: no events, no purchase', async () => {
    const { auth, guestId } = await newGuest(app);
    const gpc = PrivacyChoiceSchema.parse(
      (await request(app).get('/api/customers/me/privacy').set('Authorization', auth).set('Sec-GPC', '1')).body,
    );
    expect(gpc).toEqual({ doNotSellOrShare: false, chosenAt: null, globalPrivacyControl: true, optedOut: true });
    const sent = await sendEvents(auth, { 'Sec-GPC': '1' });
    expect([sent.status, sent.body]).toEqual([202, { accepted: 0 }]);
    await buyOne(app, auth, nextListing(), { headers: { 'Sec-GPC': '1' } });
    expect(await eventsOf(guestId)).toEqual([]);
  });
});
