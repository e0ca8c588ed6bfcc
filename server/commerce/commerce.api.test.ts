import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CartSchema,
  ListingDetailSchema,
  ListingsResponseSchema,
  OrderSchema,
  type Listing,
} from '../../shared/schemas/commerce.js';
import type { EventDocument } from '../../shared/schemas/documents.js';
import { generateCatalog } from '../catalog/generate/generate-catalog.js';
import { loadCatalog, type Catalog } from '../catalog/load-catalog.js';
import { parseEnv } from '../config/env.js';
import { entitySlug } from '../../shared/rules/slug.js';
import { createSearchEngine } from '../search/create-engine.js';
import { SearchService } from '../search/search-service.js';
import { migrate } from '../store/migrations.js';
import { openPglite } from '../store/pglite-sql.js';
import { testApp } from '../test/test-app.js';
import { createCommerce } from './commerce.js';
import { HoldStore } from './hold-store.js';
import { OrderStore } from './order-store.js';
import { PaymentStore } from './payment-store.js';
import { listingsForEvent } from './domain/listings.js';
import { seatMapTemplate } from '../../shared/schemas/seat-maps.js';
import { SandboxPaymentProvider } from './domain/payments.js';
import { MAX_TICKETS_PER_EVENT, PURCHASE_LIMITS } from './domain/purchase-limits.js';
import { BILLING } from '../test/shopper.js';

const logger = pino({ level: 'silent' });
let tmp: string;
let catalog: Catalog;
const search = new SearchService();
let app: ReturnType<typeof testApp>['app'];
let deps: ReturnType<typeof testApp>['deps'];
let clock = Date.now();
let sql: Awaited<ReturnType<typeof openPglite>>;
const payments = new SandboxPaymentProvider();

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'commerce-'));
  await generateCatalog({
    events: 3000,
    seed: 31,
    start: new Date().toISOString().slice(0, 10),
    outDir: path.join(tmp, 'catalog'),
  });
  catalog = await loadCatalog(path.join(tmp, 'catalog'));
  search.set(await createSearchEngine(parseEnv({}), catalog));
  sql = await openPglite(path.join(tmp, 'db'));
  await migrate(sql);
  // Every shopper of this file comes from one address (supertest's): the per-address share is widened.
  const limits = { ...PURCHASE_LIMITS, guestsPerAddress: 1000 };
  const commerce = createCommerce({
    sql,
    engine: () => search.engine,
    payments,
    logger,
    now: () => new Date(clock),
    sellerDelayMs: 0,
    limits,
  });
  const env = parseEnv({
    NODE_ENV: 'test',
    RATE_LIMIT_SESSIONS_PER_MINUTE: '1000',
    RATE_LIMIT_CARTS_PER_MINUTE: '1000',
    RATE_LIMIT_CHECKOUT_PER_MINUTE: '1000',
    RATE_LIMIT_LISTINGS_PER_MINUTE: '1000',
  });
  ({ app, deps } = testApp({ search, commerce, env }));
});
afterAll(() => rm(tmp, { recursive: true, force: true }));

const guest = async () => `Bearer ${(await request(app).post('/api/customers/session')).body.sessionToken}`;
const now = () => Math.floor(clock / 1000);
const upcoming = () =>
  catalog.collections.Event.filter(
    (e) => e.event_status === 'scheduled' && e.event_timestamp !== null && e.event_timestamp > now() + 86400 * 3,
  );
const slug = (e: EventDocument) => entitySlug(e.event_name, e.event_id);
function eventWithListing(test: (l: ReturnType<typeof listingsForEvent>[number]) => boolean, skip = new Set<number>()) {
  for (const e of upcoming()) {
    const l = listingsForEvent(e).find((x) => test(x) && !skip.has(x.id));
    if (l) return { event: e, listing: l };
  }
  throw new Error('no such listing in the catalog');
}
const used = new Set<number>();
const billing = BILLING;
const card = (cardNumber: string) => ({
  method: 'card',
  cardNumber,
  expMonth: 12,
  expYear: new Date().getFullYear() + 2,
  cvc: '123',
});
/** A new cart of `quantity` tickets on a listing no other test has used. */
async function cartFor(auth: string, quantity = 2) {
  const { listing } = eventWithListing((l) => l.splits.includes(quantity) && l.quantity >= quantity, used);
  used.add(listing.id);
  const res = await request(app).post('/api/cart').set('Authorization', auth).send({ listingId: listing.id, quantity });
  expect(res.status).toBe(201);
  return CartSchema.parse(res.body);
}

describe('listings (all-in prices, quantity, sort and price filter)', () => {
  it('lists an event’s tickets with fees included in the price shown first', async () => {
    const event = upcoming()[0]!;
    const res = await request(app).get(`/api/events/${slug(event)}/listings`);
    const body = ListingsResponseSchema.parse(res.body);
    expect(body.listings.length).toBeGreaterThan(0);
    for (const l of body.listings) expect(l.allInPricePerTicket).toBeGreaterThan(l.pricePerTicket);
    const prices = body.listings.map((l) => l.allInPricePerTicket);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    expect(body.fees.serviceFeeRate).toBeGreaterThan(0);
    const one = ListingDetailSchema.parse((await request(app).get(`/api/listings/${body.listings[0]!.id}`)).body);
    expect(one.fees).toEqual(body.fees);
    expect(one.listing).toEqual(body.listings[0]);
  });

  it(
    'shows on the event card the lowest all-in price per ticket, the cheapest ' +
      'listing’s, and a cart of it charges that per ticket',
    async () => {
      const { event } = eventWithListing((l) => l.deliveryMethod !== 'physical_mail' && l.splits.includes(1));
      const page = (await request(app).get(`/api/events/${slug(event)}`)).body as { event: { minPrice: number } };
      const listings = ListingsResponseSchema.parse(
        (await request(app).get(`/api/events/${slug(event)}/listings`)).body,
      ).listings;
      expect(page.event.minPrice).toBe(listings[0]!.allInPricePerTicket);
      expect(page.event.minPrice).toBeGreaterThan(event.min_ticket_price);
      const cheapest = listings[0]!;
      const auth = await guest();
      const quantity = cheapest.splits[0]!;
      const cart = CartSchema.parse(
        (await request(app).post('/api/cart').set('Authorization', auth).send({ listingId: cheapest.id, quantity }))
          .body,
      );
      used.add(cheapest.id);
      expect(cart.totalPrice.value).toBeCloseTo(
        (cheapest.allInPricePerTicket + cheapest.shippingPerTicket) * quantity,
        2,
      );
      await request(app).delete(`/api/cart/${cart.id}`).set('Authorization', auth);
    },
  );

  it(
    "names the seat map of the event, whose sections are every listing's, and " +
      'rates each listing against its level',
    async () => {
      for (const event of upcoming().slice(0, 40)) {
        const body = ListingsResponseSchema.parse((await request(app).get(`/api/events/${slug(event)}/listings`)).body);
        const map = seatMapTemplate(body.seatMap.layout);
        const sections = new Set(map.sections.map((s) => s.name));
        for (const l of body.listings) {
          expect(sections.has(l.section), `${l.section} on the ${body.seatMap.layout} map`).toBe(true);
          expect(l.dealRating.comparables).toBeGreaterThanOrEqual(1);
          if (l.dealRating.comparedWith !== 'the whole event')
            expect(map.sections.find((s) => s.name === l.section)!.zone).toBe(l.dealRating.comparedWith);
        }
      }
    },
  );

  it('filters by quantity and price, and sorts by section', async () => {
    const event = upcoming().find((e) => listingsForEvent(e).length > 5)!;
    const all = ListingsResponseSchema.parse(
      (await request(app).get(`/api/events/${slug(event)}/listings`)).body,
    ).listings;
    const two = ListingsResponseSchema.parse(
      (await request(app).get(`/api/events/${slug(event)}/listings?quantity=2`)).body,
    ).listings;
    expect(two.every((l) => l.splits.includes(2))).toBe(true);
    const median = all[Math.floor(all.length / 2)]!.allInPricePerTicket;
    const cheap = ListingsResponseSchema.parse(
      (await request(app).get(`/api/events/${slug(event)}/listings?maxPrice=${median}`)).body,
    ).listings;
    expect(cheap.every((l) => l.allInPricePerTicket <= median)).toBe(true);
    const bySection = ListingsResponseSchema.parse(
      (await request(app).get(`/api/events/${slug(event)}/listings?sort=section`)).body,
    ).listings;
    expect(bySection.map((l) => l.section)).toEqual(
      [...bySection.map((l) => l.section)].sort((a, b) => a.localeCompare(b, 'en', { numeric: true })),
    );
    expect((await request(app).get(`/api/events/${slug(event)}/listings?quantity=0`)).status).toBe(400);
    // Each refusal says what is wrong with the value, not only that it must be a number.
    for (const [query, message] of [
      ['minPrice=-1', 'minPrice: minPrice starts at 0'],
      ['maxPrice=100001', 'maxPrice: maxPrice must be at most 100000'],
      ['minPrice=cheap', 'minPrice: minPrice must be a number'],
    ]) {
      const refused = await request(app).get(`/api/events/${slug(event)}/listings?${query}`);
      expect(refused.status, query).toBe(400);
      expect(refused.body.error.message, query).toBe(message);
    }
  });
});

describe('carts hold tickets exactly (OWASP ASVS V2.3.4)', () => {
  it('gives 20 concurrent shoppers of the last 2 tickets exactly one hold; the rest get a clear 409', async () => {
    const { event, listing } = eventWithListing((l) => l.quantity === 2);
    used.add(listing.id);
    const shoppers = await Promise.all(Array.from({ length: 20 }, guest));
    const answers = await Promise.all(
      shoppers.map((auth) =>
        request(app).post('/api/cart').set('Authorization', auth).send({ listingId: listing.id, quantity: 2 }),
      ),
    );
    expect(answers.filter((r) => r.status === 201)).toHaveLength(1);
    const refused = answers.filter((r) => r.status !== 201);
    expect(refused).toHaveLength(19);
    for (const r of refused) {
      expect(r.status).toBe(409);
      expect(r.body.error.message).toMatch(/just taken/);
    }
    const after = ListingsResponseSchema.parse(
      (await request(app).get(`/api/events/${slug(event)}/listings`)).body,
    ).listings;
    expect(after.find((l) => l.id === listing.id)).toBeUndefined();
  });

  it('answers a cart with RULES 3.5 line items, a dollar-prefixed Service Fee, and a hold expiry', async () => {
    const { listing } = eventWithListing((l) => l.splits.includes(2) && l.quantity >= 2, used);
    used.add(listing.id);
    const res = await request(app)
      .post('/api/cart')
      .set('Authorization', await guest())
      .send({ listingId: listing.id, quantity: 2 });
    expect(res.status).toBe(201);
    const cart = CartSchema.parse(res.body);
    expect(cart.quantitySelected).toBe(2);
    expect(cart.lineItems.find((i) => i.key === 'Service Fee')!.value).toMatch(/^\$\d[\d,]*(\.\d{2})?$/);
    expect(cart.totalPrice.value).toBeGreaterThan(listing.pricePerTicket * 2);
    expect(Date.parse(cart.expiresAt) - clock).toBe(10 * 60_000);
  });

  it('refuses a quantity the seller does not split to, and a cart without a guest token', async () => {
    const { listing } = eventWithListing((l) => l.quantity === 3 && !l.splits.includes(2), used);
    const res = await request(app)
      .post('/api/cart')
      .set('Authorization', await guest())
      .send({ listingId: listing.id, quantity: 2 });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_quantity');
    expect((await request(app).post('/api/cart').send({ listingId: listing.id, quantity: 1 })).status).toBe(401);
    expect(
      (
        await request(app)
          .post('/api/cart')
          .set('Authorization', await guest())
          .send({ listingId: 'x', quantity: 1 })
      ).status,
    ).toBe(400);
    expect(
      (
        await request(app)
          .post('/api/cart')
          .set('Authorization', await guest())
          .send({ listingId: 999999999, quantity: 1 })
      ).status,
    ).toBe(404);
  });

  it('puts an expired hold’s tickets back on sale', async () => {
    const { event, listing } = eventWithListing((l) => l.quantity === 2, used);
    used.add(listing.id);
    const first = await request(app)
      .post('/api/cart')
      .set('Authorization', await guest())
      .send({ listingId: listing.id, quantity: 2 });
    expect(first.status).toBe(201);
    expect(
      (
        await request(app)
          .post('/api/cart')
          .set('Authorization', await guest())
          .send({ listingId: listing.id, quantity: 2 })
      ).status,
    ).toBe(409);
    clock += 11 * 60_000;
    const listed = ListingsResponseSchema.parse(
      (await request(app).get(`/api/events/${slug(event)}/listings`)).body,
    ).listings;
    expect(listed.find((l: Listing) => l.id === listing.id)).toBeUndefined();
    const second = await request(app)
      .post('/api/cart')
      .set('Authorization', await guest())
      .send({ listingId: listing.id, quantity: 2 });
    expect(second.status).toBe(201);
  });
});

/** A checkout of `cartId` by Ada, with `payment`. */
const payWith = (auth: string, cartId: string, payment: unknown) =>
  request(app)
    .post('/api/checkout')
    .set('Authorization', auth)
    .send({ cartId, email: 'ada@example.com', billingAddress: billing, payment });

describe('checkout and orders', () => {
  it('a declined card leaves no order and keeps the hold; the next card buys the tickets', async () => {
    const auth = await guest();
    const cart = await cartFor(auth);
    const declined = await payWith(auth, cart.id, card('4000 0000 0000 0002'));
    expect(declined.status).toBe(402);
    expect(declined.body.error).toMatchObject({ code: 'payment_declined', details: { paymentType: 'card' } });
    expect((await request(app).get(`/api/cart/${cart.id}`).set('Authorization', auth)).body.status).toBe('active');
    const orders = await sql.query<{ n: number }>('SELECT count(*)::int AS n FROM orders WHERE hold_id = $1', [
      cart.id,
    ]);
    expect(orders[0]!.n).toBe(0);

    const paid = await payWith(auth, cart.id, card('4242 4242 4242 4242'));
    expect(paid.status).toBe(201);
    const order = OrderSchema.parse(paid.body);
    expect(order.status).toBe('pending_seller_confirmation');
    expect(order.tracking!.phet).toBeCloseTo(95 * order.totalPrice.value, 2);
    expect(order.accessCode).toMatch(/^[A-Z0-9]{20}$/);
    // A second checkout of a bought cart (its first answer lost, say) is told about that order, not to start again.
    const again = await payWith(auth, cart.id, card('4242 4242 4242 4242'));
    expect(again.status).toBe(200);
    expect(OrderSchema.parse(again.body)).toMatchObject({ id: order.id, totalPrice: order.totalPrice });
    expect(again.body.accessCode).toBeUndefined();
    // A bought cart has nothing to let go of: said so, and the order stands.
    const letGo = await request(app).delete(`/api/cart/${cart.id}`).set('Authorization', auth);
    expect([letGo.status, letGo.body.error?.code]).toEqual([409, 'cart_purchased']);
    expect((await request(app).get(`/api/cart/${cart.id}`).set('Authorization', auth)).body.status).toBe('purchased');
    expect(payments.charges.filter((c) => c.amountCents === Math.round(order.totalPrice.value * 100))).toHaveLength(1);
  });

  it('applies FF20 to the tickets and refuses an unknown code on its field', async () => {
    const auth = await guest();
    const cart = await cartFor(auth);
    const bad = await request(app)
      .post('/api/checkout')
      .set('Authorization', auth)
      .send({
        cartId: cart.id,
        email: 'a@example.com',
        billingAddress: billing,
        promoCode: 'FREE',
        payment: card('4242424242424242'),
      });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].path).toBe('promoCode');
    const ok = OrderSchema.parse(
      (
        await request(app)
          .post('/api/checkout')
          .set('Authorization', auth)
          .send({
            cartId: cart.id,
            email: 'a@example.com',
            billingAddress: billing,
            promoCode: 'ff20',
            payment: card('4242424242424242'),
          })
      ).body,
    );
    expect(ok.lineItems.some((i) => i.key.includes('FF20') && i.value.startsWith('-$'))).toBe(true);
    expect(ok.totalPrice.value).toBeLessThan(cart.totalPrice.value);
  });

  it(
    'prices a cart with a promo code before paying, charges exactly that, and ' +
      'refuses to charge a total the shopper was not shown',
    async () => {
      const auth = await guest();
      const cart = await cartFor(auth);
      const priced = CartSchema.parse(
        (await request(app).get(`/api/cart/${cart.id}?promoCode=ff20`).set('Authorization', auth)).body,
      );
      expect(priced.promoCode).toBe('FF20');
      expect(priced.totalPrice.value).toBeLessThan(cart.totalPrice.value);
      const total = priced.totalPrice.value;
      expect(priced.lineItems.at(-1)).toEqual({
        key: 'Total',
        value: `$${total.toLocaleString('en-US', { minimumFractionDigits: total % 1 ? 2 : 0 })}`,
      });
      const unknown = await request(app).get(`/api/cart/${cart.id}?promoCode=FREE`).set('Authorization', auth);
      expect(unknown.status).toBe(400);
      expect(unknown.body.error).toMatchObject({ code: 'invalid_promo_code', details: [{ path: 'promoCode' }] });
      expect(unknown.body.error.message).toContain('FREE');

      const charged = payments.charges.length;
      const body = {
        cartId: cart.id,
        email: 'a@example.com',
        billingAddress: billing,
        promoCode: 'ff20',
        payment: card('4242424242424242'),
      };
      // The total shown without the code, sent with it: nothing is charged and the answer names the real total.
      const stale = await request(app)
        .post('/api/checkout')
        .set('Authorization', auth)
        .send({ ...body, expectedTotal: cart.totalPrice.value });
      expect(stale.status).toBe(409);
      expect(stale.body.error).toMatchObject({ code: 'price_changed', details: { total: priced.totalPrice.value } });
      expect(payments.charges.length).toBe(charged);
      const paid = OrderSchema.parse(
        (
          await request(app)
            .post('/api/checkout')
            .set('Authorization', auth)
            .send({ ...body, expectedTotal: priced.totalPrice.value })
        ).body,
      );
      expect(paid.totalPrice.value).toBe(priced.totalPrice.value);
      expect(payments.charges.at(-1)!.amountCents).toBe(Math.round(priced.totalPrice.value * 100));
    },
  );

  it('names each invalid billing field', async () => {
    const auth = await guest();
    const cart = await cartFor(auth);
    const res = await request(app)
      .post('/api/checkout')
      .set('Authorization', auth)
      .send({
        cartId: cart.id,
        email: 'nope',
        billingAddress: { ...billing, postalCode: '1', phoneNumber: 'call me', countryCode: 'usa' },
        payment: card('4242424242424242'),
      });
    expect(res.status).toBe(400);
    const paths = res.body.error.details.map((d: { path: string }) => d.path);
    expect(paths).toEqual(
      expect.arrayContaining(['email', 'billingAddress.countryCode', 'billingAddress.phoneNumber']),
    );
  });

  it(
    'shows the order to its guest or its access code only, as RULES 10.8 ' + 'entries, and the seller confirms it',
    async () => {
      const auth = await guest();
      const cart = await cartFor(auth);
      const order = OrderSchema.parse(
        (
          await request(app)
            .post('/api/checkout')
            .set('Authorization', auth)
            .send({
              cartId: cart.id,
              email: 'a@example.com',
              billingAddress: billing,
              payment: card('4242424242424242'),
            })
        ).body,
      );
      await deps.commerce.settlement.tick();
      await deps.commerce.settlement.tick();
      const mine = OrderSchema.parse(
        (await request(app).get(`/api/orders/${order.id}`).set('Authorization', auth)).body,
      );
      expect(['confirmed', 'delivered']).toContain(mine.status);
      expect(mine.timeline.map((t) => t.status).slice(0, 3)).toEqual([
        'reserved',
        'pending_seller_confirmation',
        'confirmed',
      ]);
      const titles = mine.detail.map((d) => ('title' in d ? d.title : d.type));
      expect(titles.slice(0, 2)).toEqual(['date', 'Event Location']);
      expect(titles).toEqual(
        expect.arrayContaining([
          'Section',
          'Row',
          'Order Status',
          'Order Date',
          'Order Id',
          'Important Notes',
          'Method',
        ]),
      );
      expect((await request(app).get(`/api/orders/${order.id}?code=${order.accessCode}`)).status).toBe(200);
      expect(
        (
          await request(app)
            .get(`/api/orders/${order.id}`)
            .set('Authorization', await guest())
        ).status,
      ).toBe(404);
      expect((await request(app).get(`/api/orders/${order.id}?code=${'A'.repeat(20)}`)).status).toBe(404);
      expect((await request(app).get(`/api/orders/${order.id}`)).status).toBe(404);
      expect((await request(app).get('/api/orders/not-an-order')).status).toBe(400);
    },
  );

  it('says a declined Apple Pay payment was Apple Pay’s, not a card’s', async () => {
    const auth = await guest();
    const cart = await cartFor(auth);
    const declined = await payWith(auth, cart.id, { method: 'applepay', token: 'applepay-decline' });
    expect(declined.status).toBe(402);
    expect(declined.body.error).toMatchObject({ code: 'payment_declined', details: { paymentType: 'applepay' } });
    expect(declined.body.error.message).toBe(
      'Apple Pay was declined. Try another card in your wallet, or pay by card.',
    );
    await request(app).delete(`/api/cart/${cart.id}`).set('Authorization', auth);
  });
});

describe('durability', () => {
  it('keeps every order across a restart of the embedded database', async () => {
    const dir = path.join(tmp, 'restart-db');
    const first = await openPglite(dir);
    await migrate(first);
    const orders = new OrderStore(first);
    const holds = new HoldStore(first, orders);
    const hold = await holds.createHold({
      id: crypto.randomUUID(),
      guestId: 'g',
      clientKey: '127.0.0.1',
      listing: { id: 77_000, eventId: 77, listed: 4, splits: [2, 4] },
      quantity: 2,
      pricePerTicketCents: 5000,
      now: new Date(),
      expiresAt: new Date(Date.now() + 60_000),
    });
    const attempt = crypto.randomUUID();
    await holds.claimCheckout({ holdId: hold.id, guestId: 'g', attempt, now: new Date() });
    await new PaymentStore(first).paymentIntent({
      id: 'pay_restart',
      holdId: hold.id,
      amountCents: 11800,
      now: new Date(),
    });
    await orders.purchase({
      holdId: hold.id,
      guestId: 'g',
      attempt,
      now: new Date(),
      payment: { id: 'pay_restart', authorizationId: 'auth_restart' },
      order: {
        id: 'ORD-RESTART000',
        access_code_hash: 'h',
        status: 'pending_seller_confirmation',
        subtotal_cents: 10000,
        discount_cents: 0,
        service_fee_cents: 1800,
        fulfillment_fee_cents: 0,
        total_cents: 11800,
        promo_code: null,
        email: 'a@b.co',
        billing: {},
        payment_method: 'card',
      },
      history: [{ status: 'reserved', at: new Date(), note: 'held' }],
    });
    await first.close();
    const reopened = await openPglite(dir);
    await migrate(reopened);
    const found = await new OrderStore(reopened).order('ORD-RESTART000');
    expect(found?.order.total_cents).toBe(11800);
    expect(found?.events).toHaveLength(1);
    await reopened.close();
  });
});

describe('exactly-once checkout (Idempotency-Key, IETF draft and Stripe semantics)', () => {
  const body = (cartId: string, extra: Record<string, unknown> = {}) => ({
    cartId,
    email: 'kay@example.com',
    billingAddress: billing,
    payment: card('4242 4242 4242 4242'),
    // As a buyer confirms the notice of tickets the seller does not hold yet (RULES 20.3; ignored without one).
    notHeldNoticeRead: true,
    ...extra,
  });
  const ordersOf = async (cartId: string) =>
    (await sql.query<{ id: string }>('SELECT id FROM orders WHERE hold_id = $1', [cartId])).map((r) => r.id);
  const paymentsOf = async (cartId: string) =>
    sql.query<{ id: string; status: string }>('SELECT id, status FROM payments WHERE hold_id = $1', [cartId]);

  it(
    'replays the first answer for the same key and body, refuses the key with ' + 'another body, and charges once',
    async () => {
      const auth = await guest();
      const c = await cartFor(auth);
      const first = await request(app)
        .post('/api/checkout')
        .set('Authorization', auth)
        .set('Idempotency-Key', 'attempt-1')
        .send(body(c.id));
      expect(first.status).toBe(201);
      expect(first.headers['idempotent-replayed']).toBeUndefined();
      const replay = await request(app)
        .post('/api/checkout')
        .set('Authorization', auth)
        .set('Idempotency-Key', 'attempt-1')
        .send(body(c.id));
      expect(replay.status).toBe(201);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      // The same order; its access code went to the first answer only and is not kept in the clear.
      const { accessCode, ...rest } = first.body;
      expect(accessCode).toMatch(/^[A-Z0-9]{20}$/);
      expect(replay.body).toEqual(rest);
      const stored = await sql.query<{ response_body: unknown }>(
        "SELECT response_body FROM idempotency_keys WHERE key = 'attempt-1'",
      );
      expect(JSON.stringify(stored)).not.toContain(accessCode);
      // The draft's structured-field form of the same key is the same key.
      const quoted = await request(app)
        .post('/api/checkout')
        .set('Authorization', auth)
        .set('Idempotency-Key', '"attempt-1"')
        .send(body(c.id));
      expect(quoted.body.id).toBe(first.body.id);

      const other = await request(app)
        .post('/api/checkout')
        .set('Authorization', auth)
        .set('Idempotency-Key', 'attempt-1')
        .send(body(c.id, { promoCode: 'FF20' }));
      expect(other.status).toBe(422);
      expect(other.body.error.code).toBe('idempotency_key_reused');
      expect(await ordersOf(c.id)).toEqual([first.body.id]);
      expect((await paymentsOf(c.id)).map((p) => p.status)).toEqual(['captured']);
    },
  );

  it('keeps keys per guest: another guest’s same key is a new request', async () => {
    const a = await guest();
    const b = await guest();
    const ca = await cartFor(a);
    const cb = await cartFor(b);
    const ra = await request(app)
      .post('/api/checkout')
      .set('Authorization', a)
      .set('Idempotency-Key', 'shared-key')
      .send(body(ca.id));
    const rb = await request(app)
      .post('/api/checkout')
      .set('Authorization', b)
      .set('Idempotency-Key', 'shared-key')
      .send(body(cb.id));
    expect([ra.status, rb.status]).toEqual([201, 201]);
    expect(ra.body.id).not.toBe(rb.body.id);
  });

  it('answers 409 to the same key while the first request still runs', async () => {
    const auth = await guest();
    const c = await cartFor(auth);
    // The first checkout waits at the payment processor until the repeats have been answered.
    const authorize = payments.authorize.bind(payments);
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    payments.authorize = async (input) => {
      await gate;
      return authorize(input);
    };
    try {
      const send = () =>
        request(app)
          .post('/api/checkout')
          .set('Authorization', auth)
          .set('Idempotency-Key', 'double-click')
          .send(body(c.id));
      const first = send().then((r) => r);
      while ((await sql.query("SELECT 1 FROM idempotency_keys WHERE key = 'double-click'")).length === 0)
        await new Promise((r) => setTimeout(r, 5));
      const repeats = await Promise.all(Array.from({ length: 4 }, send));
      expect(repeats.map((r) => [r.status, r.body.error?.code])).toEqual(
        Array.from({ length: 4 }, () => [409, 'idempotency_key_in_use']),
      );
      release();
      expect((await first).status).toBe(201);
    } finally {
      payments.authorize = authorize;
      release();
    }
    expect(await ordersOf(c.id)).toHaveLength(1);
  });

  it('refuses a malformed key with a 400 naming the header', async () => {
    const auth = await guest();
    const res = await request(app)
      .post('/api/checkout')
      .set('Authorization', auth)
      .set('Idempotency-Key', 'has space')
      .send(body('00000000-0000-4000-8000-000000000000'));
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      code: 'invalid_idempotency_key',
      message: expect.stringContaining('Idempotency-Key'),
    });
  });

  it(
    'moves money once when 30 checkouts of one cart race with different cards ' + 'and with and without the promo code',
    async () => {
      const auth = await guest();
      const c = await cartFor(auth);
      const cards = ['4242 4242 4242 4242', '5555 5555 5555 4444', '4000 0566 5566 5556'];
      const before = payments.authorizations.length;
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          request(app)
            .post('/api/checkout')
            .set('Authorization', auth)
            .set('Idempotency-Key', `race-${i}`)
            .send(body(c.id, { payment: card(cards[i % cards.length]!), ...(i % 2 ? { promoCode: 'FF20' } : {}) })),
        ),
      );
      const created = answers.filter((r) => r.status === 201);
      expect(created).toHaveLength(1);
      for (const r of answers.filter((x) => x.status !== 201)) {
        // Either still running elsewhere, or already bought: that order.
        if (r.status === 200) expect(r.body.id).toBe(created[0]!.body.id);
        else expect(r.body.error.code).toBe('checkout_in_progress');
      }
      expect(await ordersOf(c.id)).toEqual([created[0]!.body.id]);
      const mine = payments.authorizations.slice(before);
      expect(mine.filter((a) => a.status === 'captured')).toHaveLength(1);
      expect(mine.filter((a) => a.status === 'authorized')).toHaveLength(0);
      expect((await paymentsOf(c.id)).map((p) => p.status)).toEqual(['captured']);
    },
  );
});

describe('no sale once the event has started', () => {
  it('refuses a cart and a checkout for an event that has begun, and its listings say so', async () => {
    const auth = await guest();
    // An event starting within the next few days; the clock then moves past its start.
    const soon = catalog.collections.Event.filter(
      (e) =>
        e.event_status === 'scheduled' &&
        e.event_timestamp !== null &&
        e.event_timestamp > now() + 3600 &&
        e.event_timestamp < now() + 86400 * 20,
    ).sort((a, b) => a.event_timestamp! - b.event_timestamp!);
    const event = soon.find((e) => listingsForEvent(e).some((l) => l.splits.includes(1) && !used.has(l.id)))!;
    const listing = listingsForEvent(event).find((l) => l.splits.includes(1) && !used.has(l.id))!;
    used.add(listing.id);
    const held = await request(app)
      .post('/api/cart')
      .set('Authorization', auth)
      .send({ listingId: listing.id, quantity: 1 });
    expect(held.status).toBe(201);

    const saved = clock;
    clock = event.event_timestamp! * 1000 + 60_000;
    try {
      const cartAfter = await request(app)
        .post('/api/cart')
        .set('Authorization', await guest())
        .send({ listingId: listing.id, quantity: 1 });
      expect(cartAfter.status).toBe(409);
      expect(cartAfter.body.error).toMatchObject({
        code: 'event_started',
        message: expect.stringMatching(/already started/),
      });
      const checkout = await request(app)
        .post('/api/checkout')
        .set('Authorization', auth)
        .send({
          cartId: held.body.id,
          email: 'late@example.com',
          billingAddress: billing,
          payment: card('4242 4242 4242 4242'),
        });
      expect(checkout.status).toBe(409);
      expect(checkout.body.error.code).toBe('event_started');
      const listed = ListingsResponseSchema.parse((await request(app).get(`/api/events/${slug(event)}/listings`)).body);
      expect(listed.listings).toEqual([]);
      expect(listed.sale).toMatchObject({ onSale: false, code: 'event_started' });
    } finally {
      clock = saved;
    }
  });
});

describe('fair holds', () => {
  it('tells a shopper their allowance of an event before checkout, from what they hold (RULES 8.1)', async () => {
    const event = upcoming().find((e) => listingsForEvent(e).some((l) => !used.has(l.id) && l.splits.includes(3)))!;
    const listing = listingsForEvent(event).find((l) => !used.has(l.id) && l.splits.includes(3))!;
    used.add(listing.id);
    const auth = await guest();
    const before = await request(app).get(`/api/purchase-limits?eventId=${event.event_id}`).set('Authorization', auth);
    expect(before.status).toBe(200);
    expect(before.headers['cache-control']).toBe('private, no-store');
    expect(before.body).toMatchObject({ eventId: event.event_id, perShopper: { limit: 8, used: 0 }, left: 8 });
    const held = await request(app)
      .post('/api/cart')
      .set('Authorization', auth)
      .send({ listingId: listing.id, quantity: 3 });
    expect(held.status).toBe(201);
    const after = await request(app).get(`/api/purchase-limits?eventId=${event.event_id}`).set('Authorization', auth);
    expect(after.body).toMatchObject({ perShopper: { limit: 8, used: 3 }, left: 5 });
    // Its own, never without the guest's token; a bad event id is a 400 naming it.
    expect((await request(app).get(`/api/purchase-limits?eventId=${event.event_id}`)).status).toBe(401);
    const bad = await request(app).get('/api/purchase-limits?eventId=abc').set('Authorization', auth);
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('eventId');
    // An event the catalog does not have allows nothing: a 404 naming it, not an allowance.
    const missing = await request(app).get('/api/purchase-limits?eventId=999999999').set('Authorization', auth);
    expect([missing.status, missing.body.error.code]).toEqual([404, 'not_found']);
    expect(missing.body.error.message).toContain('999999999');
    await request(app).delete(`/api/cart/${held.body.id}`).set('Authorization', auth);
  });

  it(
    `stops one guest trying to hold a whole event at ${MAX_TICKETS_PER_EVENT} ` +
      `tickets; other shoppers still see and hold tickets`,
    async () => {
      const event = upcoming().find((e) => listingsForEvent(e).filter((l) => !used.has(l.id)).length >= 10)!;
      const listings = listingsForEvent(event).filter((l) => !used.has(l.id));
      for (const l of listings) used.add(l.id);
      const greedy = await guest();
      // One cart per listing, each for the whole listing, all at once.
      const answers = await Promise.all(
        listings.map((l) =>
          request(app).post('/api/cart').set('Authorization', greedy).send({ listingId: l.id, quantity: l.quantity }),
        ),
      );
      const held = answers.filter((r) => r.status === 201).reduce((n, r) => n + (r.body.quantitySelected as number), 0);
      expect(held).toBeGreaterThan(0);
      expect(held).toBeLessThanOrEqual(MAX_TICKETS_PER_EVENT);
      const refused = answers.filter((r) => r.status !== 201);
      expect(refused.length).toBeGreaterThan(0);
      for (const r of refused) {
        expect(r.status).toBe(409);
        expect(['ticket_limit', 'cart_limit', 'invalid_quantity']).toContain(r.body.error.code);
      }
      expect(refused.some((r) => r.body.error.code === 'ticket_limit' || r.body.error.code === 'cart_limit')).toBe(
        true,
      );

      const seen = ListingsResponseSchema.parse(
        (await request(app).get(`/api/events/${slug(event)}/listings`)).body,
      ).listings;
      const mine = new Set(listings.map((l) => l.id));
      const left = seen.filter((l) => mine.has(l.id)).reduce((n, l) => n + l.quantityAvailable, 0);
      expect(left).toBe(listings.reduce((n, l) => n + l.quantity, 0) - held);
      const other = seen.find((l) => l.splits.includes(1)) ?? seen[0]!;
      const otherHold = await request(app)
        .post('/api/cart')
        .set('Authorization', await guest())
        .send({ listingId: other.id, quantity: other.splits[0] });
      expect(otherHold.status).toBe(201);
    },
  );
});
