import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import request from 'supertest';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CartSchema, ListingDetailSchema, OrderSchema, type Order } from '../../shared/schemas/commerce.js';
import type { EventDocument } from '../../shared/schemas/documents.js';
import { generateCatalog } from '../catalog/generate/generate-catalog.js';
import { loadCatalog, type Catalog } from '../catalog/load-catalog.js';
import { parseEnv } from '../config/env.js';
import { createSearchEngine } from '../search/create-engine.js';
import { SearchService } from '../search/search-service.js';
import { migrate } from '../store/migrations.js';
import { openPglite } from '../store/pglite-sql.js';
import { readTicketsPdf } from '../test/ticket-pdf-reader.js';
import { testApp } from '../test/test-app.js';
import { createCommerce } from './commerce.js';
import { displayDate, eventDay, readyByDate, venueDay } from './domain/delivery.js';
import { listingsForEvent, type GeneratedListing } from './domain/listings.js';
import { SandboxPaymentProvider } from './domain/payments.js';
import { PURCHASE_LIMITS } from './domain/purchase-limits.js';
import { isGeneralAdmission, seatBlockStart } from './domain/seats.js';
import { BILLING, listingFinder, ticketsPdfOf } from '../test/shopper.js';

const logger = pino({ level: 'silent' });
let tmp: string;
let catalog: Catalog;
/** A listing of an event on sale for a day more, each once. */
let find: ReturnType<typeof listingFinder>;
const search = new SearchService();
let app: ReturnType<typeof testApp>['app'];
let deps: ReturnType<typeof testApp>['deps'];
let sql: Awaited<ReturnType<typeof openPglite>>;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'tickets-'));
  await generateCatalog({
    events: 3000,
    seed: 47,
    start: new Date().toISOString().slice(0, 10),
    outDir: path.join(tmp, 'catalog'),
  });
  catalog = await loadCatalog(path.join(tmp, 'catalog'));
  find = listingFinder(catalog);
  search.set(await createSearchEngine(parseEnv({}), catalog));
  sql = await openPglite(path.join(tmp, 'db'));
  await migrate(sql);
  const limits = { ...PURCHASE_LIMITS, guestsPerAddress: 1000 };
  const commerce = createCommerce({
    sql,
    engine: () => search.engine,
    payments: new SandboxPaymentProvider(),
    logger,
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
  ({ app, deps } = testApp({ search, commerce, env, sql }));
});
afterAll(() => rm(tmp, { recursive: true, force: true }));

const guest = async () => `Bearer ${(await request(app).post('/api/customers/session')).body.sessionToken}`;
const billing = BILLING;
const card = {
  method: 'card',
  cardNumber: '4242424242424242',
  expMonth: 12,
  expYear: new Date().getFullYear() + 2,
  cvc: '123',
};
const today = (e: EventDocument) => venueDay(Date.now(), e.venue_time_zone_offset);
/** An eTicket listing whose seller already has the tickets: ready the day it is bought. */
const readyNow = (l: GeneratedListing, e: EventDocument) => l.deliveryMethod === 'eticket' && l.inHandDate < today(e);

async function buy(auth: string, listingId: number, quantity = 2, email = 'ada@example.com'): Promise<Order> {
  const cart = await request(app).post('/api/cart').set('Authorization', auth).send({ listingId, quantity });
  expect(cart.status).toBe(201);
  const res = await request(app)
    .post('/api/checkout')
    .set('Authorization', auth)
    // A buyer who has read the notice a listing not yet held shows (the notice itself is tested below).
    .send({
      cartId: CartSchema.parse(cart.body).id,
      email,
      billingAddress: billing,
      payment: card,
      notHeldNoticeRead: true,
    });
  expect(res.status).toBe(201);
  return OrderSchema.parse(res.body);
}
const pdfOf = (id: string, auth: string) => ticketsPdfOf(app, id, auth);
const orderOf = async (id: string, auth: string) =>
  OrderSchema.parse((await request(app).get(`/api/orders/${id}`).set('Authorization', auth)).body);

describe('eTickets', () => {
  it(
    'are downloadable by the buyer once the seller confirms, one page per ticket, each with its barcode ' +
      '(scanner.api.test.ts scans them)',
    async () => {
      const auth = await guest();
      const { event, listing } = find((l, e) => readyNow(l, e) && l.splits.includes(2) && !isGeneralAdmission(l.row));
      const placed = await buy(auth, listing.id);
      expect(placed.tickets.map((t) => t.state)).toEqual(['awaiting_seller', 'awaiting_seller']);
      expect(placed.delivery).toMatchObject({ method: 'eticket', readyBy: today(event), downloadable: false });
      const early = await request(app).get(`/api/orders/${placed.id}/tickets.pdf`).set('Authorization', auth);
      expect(early.status).toBe(409);
      expect(early.body.error.code).toBe('tickets_not_ready');

      await deps.commerce.settlement.tick();
      await deps.commerce.settlement.tick();
      const order = await orderOf(placed.id, auth);
      expect(order.status).toBe('delivered');
      expect(order.tickets.map((t) => t.state)).toEqual(['ready', 'ready']);
      expect(order.delivery?.downloadable).toBe(true);
      expect(order.detail).toContainEqual({
        type: 'rowSubtitle',
        title: 'eTicket',
        subtitle: `Tickets ready by ${displayDate(today(event))}`,
      });

      // Only the buyer: no token is 401, another guest or a wrong code is a 404, as for the order itself.
      expect((await request(app).get(`/api/orders/${order.id}/tickets.pdf`)).status).toBe(401);
      expect(
        (
          await request(app)
            .get(`/api/orders/${order.id}/tickets.pdf`)
            .set('Authorization', await guest())
        ).status,
      ).toBe(404);
      expect((await request(app).get(`/api/orders/${order.id}/tickets.pdf?code=${'A'.repeat(20)}`)).status).toBe(404);
      expect((await request(app).get(`/api/orders/${order.id}/tickets.pdf?code=${placed.accessCode}`)).status).toBe(
        200,
      );
      expect((await request(app).get('/api/orders/ORD-nope/tickets.pdf').set('Authorization', auth)).status).toBe(400);

      const pdf = await pdfOf(order.id, auth);
      expect(pdf.status).toBe(200);
      expect(pdf.headers['content-type']).toBe('application/pdf');
      expect(pdf.headers['content-disposition']).toBe(`attachment; filename="tickets-${order.id}.pdf"`);
      const pages = await readTicketsPdf(new Uint8Array(pdf.body as Buffer));
      expect(pages).toHaveLength(2);
      pages.forEach((page, i) => {
        const t = order.tickets[i]!;
        for (const text of [
          `Section ${listing.section}    Row ${listing.row}    Seat ${t.seat}`,
          `Order: ${order.id}`,
          'Holder: Ada Lovelace',
          event.venue_name,
        ])
          expect(page.text).toContain(text);
        expect(page.barcode).toMatch(new RegExp(`^${t.id}\\.`));
      });
    },
  );

  it('are not ready before the in-hand date, and the page says when', async () => {
    const auth = await guest();
    const { event, listing } = find(
      (l, e) => l.deliveryMethod === 'eticket' && l.inHandDate > today(e) && l.splits.includes(1),
    );
    const placed = await buy(auth, listing.id, 1);
    await deps.commerce.settlement.tick();
    const order = await orderOf(placed.id, auth);
    expect(order.status).toBe('confirmed');
    const readyBy = readyByDate({
      inHandDate: listing.inHandDate,
      orderDay: today(event),
      eventDay: eventDay(event.event_local_timestamp),
    })!;
    expect(readyBy).toBe(listing.inHandDate);
    expect(order.tickets[0]).toMatchObject({
      state: 'scheduled',
      stateText: `Ready to download on ${displayDate(readyBy)}`,
    });
    expect(order.delivery).toMatchObject({ readyBy, downloadable: false });
    const res = await request(app).get(`/api/orders/${order.id}/tickets.pdf`).set('Authorization', auth);
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({
      code: 'tickets_not_ready',
      message: `Your eTickets can be downloaded from ${displayDate(readyBy)}.`,
    });
  });

  it('are void once their order is refunded: no PDF (scanner.api.test.ts: nor admitted)', async () => {
    const auth = await guest();
    const { listing } = find((l, e) => readyNow(l, e) && l.splits.includes(1));
    const placed = await buy(auth, listing.id, 1);
    await deps.commerce.settlement.tick();
    const pdf = await pdfOf(placed.id, auth);
    expect(pdf.status).toBe(200);
    await sql.query("UPDATE orders SET status = 'refunded' WHERE id = $1", [placed.id]);
    const order = await orderOf(placed.id, auth);
    expect(order.tickets[0]).toMatchObject({ state: 'void', stateText: 'No longer valid: the order is refunded' });
    expect(order.delivery?.downloadable).toBe(false);
    const again = await request(app).get(`/api/orders/${placed.id}/tickets.pdf`).set('Authorization', auth);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('tickets_void');
  });
});

describe('other delivery methods', () => {
  it('say where and when a mobile transfer arrives, and have no PDF', async () => {
    const auth = await guest();
    const { listing } = find((l) => l.deliveryMethod === 'mobile_transfer' && l.splits.includes(1));
    const placed = await buy(auth, listing.id, 1, 'grace@example.com');
    await deps.commerce.settlement.tick();
    const order = await orderOf(placed.id, auth);
    expect(order.tickets[0]!.stateText).toContain('grace@example.com');
    expect(order.tickets[0]!.stateText).toMatch(/team or venue app/);
    const res = await request(app).get(`/api/orders/${order.id}/tickets.pdf`).set('Authorization', auth);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_etickets');
  });
});

describe('seats', () => {
  it('are assigned per ticket inside the listing’s block, distinct across orders of the listing', async () => {
    const { event, listing } = find(
      (l) => !isGeneralAdmission(l.row) && l.quantity >= 5 && l.splits.includes(2) && l.splits.includes(1),
    );
    const start = seatBlockStart(listingsForEvent(event), listing.id)!;
    const a = await buy(await guest(), listing.id, 2);
    const b = await buy(await guest(), listing.id, 1);
    const seats = [...a.tickets, ...b.tickets].map((t) => t.seat!);
    expect(new Set(seats).size).toBe(3);
    expect(seats).toEqual([start, start + 1, start + 2]);
    for (const t of [...a.tickets, ...b.tickets])
      expect(t).toMatchObject({ section: listing.section, row: listing.row });
    // Reading the order again gives the same seats: they are kept, not recomputed.
    expect(
      (await request(app).get(`/api/orders/${a.id}?code=${a.accessCode}`)).body.tickets.map(
        (t: { seat: number }) => t.seat,
      ),
    ).toEqual([start, start + 1]);
  });

  it('are none for general admission', async () => {
    const { listing } = find((l) => isGeneralAdmission(l.row) && l.splits.includes(1));
    const order = await buy(await guest(), listing.id, 1);
    expect(order.tickets[0]).toMatchObject({ row: 'GA', seat: null });
  });
});

describe('listings', () => {
  it('never show an in-hand date before today', async () => {
    const { event, listing } = find((l, e) => l.inHandDate < today(e));
    const shown = ListingDetailSchema.parse((await request(app).get(`/api/listings/${listing.id}`)).body).listing;
    expect(shown.inHandDate).toBe(today(event));
  });
});

describe('the tickets PDF', () => {
  it('answers any order path with a 4xx, never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 40 }), fc.string({ maxLength: 30 }), async (id, code) => {
        const res = await request(app).get(
          `/api/orders/${encodeURIComponent(id)}/tickets.pdf?code=${encodeURIComponent(code)}`,
        );
        expect(res.status).toBeGreaterThanOrEqual(400);
        expect(res.status).toBeLessThan(500);
      }),
      { numRuns: 100 },
    );
  });
});

describe('disclosures (RULES 20.1–20.3)', () => {
  it(
    'tell the buyer of tickets the seller does not hold yet, sell them only once the buyer confirms so, and keep ' +
      'the terms with the order; the total on the listing is the total charged',
    async () => {
      const auth = await guest();
      const { listing } = find((l) => !l.ticketsHeld && l.splits.includes(2) && l.deliveryMethod === 'physical_mail');
      const detail = ListingDetailSchema.parse((await request(app).get(`/api/listings/${listing.id}`)).body);
      expect(detail.listing).toMatchObject({ ticketsHeld: false, faceValue: listing.faceValue });
      // What the listing and the ticket page show for two tickets: the all-in price and shipping, per ticket.
      const shown = Math.round((detail.listing.allInPricePerTicket + detail.listing.shippingPerTicket) * 100) * 2;

      const cart = await request(app)
        .post('/api/cart')
        .set('Authorization', auth)
        .send({ listingId: listing.id, quantity: 2 });
      expect(cart.status).toBe(201);
      const cartId = CartSchema.parse(cart.body).id;
      expect(Math.round(CartSchema.parse(cart.body).totalPrice.value * 100)).toBe(shown);
      // The cart says so itself, so the checkout asks for the confirmation without another request.
      expect(CartSchema.parse(cart.body).ticketsHeld).toBe(false);
      const body = { cartId, email: 'ada@example.com', billingAddress: billing, payment: card };
      const refused = await request(app).post('/api/checkout').set('Authorization', auth).send(body);
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatchObject({
        code: 'notice_not_confirmed',
        message: expect.stringMatching(/does not have these tickets yet/),
      });
      const unread = await request(app)
        .post('/api/checkout')
        .set('Authorization', auth)
        .send({ ...body, notHeldNoticeRead: false });
      expect(unread.status).toBe(400);
      expect(await sql.query('SELECT 1 FROM orders WHERE hold_id = $1', [cartId])).toEqual([]);

      const paid = await request(app)
        .post('/api/checkout')
        .set('Authorization', auth)
        .send({ ...body, notHeldNoticeRead: true });
      expect(paid.status).toBe(201);
      const order = OrderSchema.parse(paid.body);
      expect(Math.round(order.totalPrice.value * 100)).toBe(shown);
      expect(order.terms).toMatchObject({
        section: listing.section,
        row: listing.row,
        ticketsHeld: false,
        faceValue: listing.faceValue,
        deliveryMethod: 'physical_mail',
      });
      const notes = order.detail.find((e) => e.type === 'rowSubtitle' && e.title === 'Important Notes');
      expect(notes).toMatchObject({ subtitle: expect.stringMatching(/the seller did not have them yet/) });
      // Read back later, the order keeps what the listing said when it was paid.
      expect((await orderOf(order.id, auth)).terms).toEqual(order.terms);
      // The confirmation email repeats the notice in writing.
      const [mail] = await sql.query<{ data: string | { terms?: string[] } }>(
        'SELECT data FROM mail_outbox WHERE key = $1',
        [`order_confirmation:${order.id}`],
      );
      const data = typeof mail?.data === 'string' ? (JSON.parse(mail.data) as { terms?: string[] }) : mail?.data;
      expect(data?.terms).toContainEqual(expect.stringMatching(/does not have these tickets yet/));
    },
  );

  it('give the face value where the seller gives it, and say each note once in the order', async () => {
    const auth = await guest();
    const { listing } = find(
      (l) => l.ticketsHeld && l.faceValue !== null && l.obstructedView && l.splits.includes(1) && !!l.sellerNotes,
    );
    const order = await buy(auth, listing.id, 1);
    const notes = order.detail.find((e) => e.type === 'rowSubtitle' && e.title === 'Important Notes');
    const text = notes && 'subtitle' in notes ? notes.subtitle : '';
    expect(text).toMatch(/Face value \$[\d,.]+ per ticket/);
    expect(text.match(/\bview\b/gi)).toHaveLength(1);
  });
});
