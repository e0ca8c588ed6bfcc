import { pino } from 'pino';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CartSchema,
  ListingDetailSchema,
  ListingsResponseSchema,
  OrderSchema,
  type Order,
} from '../../shared/schemas/commerce.js';
import type { EventDocument } from '../../shared/schemas/documents.js';
import { entitySlug } from '../../shared/rules/slug.js';
import { parseEnv } from '../config/env.js';
import { migrate } from '../store/migrations.js';
import { openPglite } from '../store/pglite-sql.js';
import { catalogFixture, type CatalogFixture } from '../test/catalog-fixture.js';
import { readTicketsPdf } from '../test/ticket-pdf-reader.js';
import { testApp } from '../test/test-app.js';
import { BILLING, listingFinder, ticketsPdfOf } from '../test/shopper.js';
import { createCommerce } from './commerce.js';
import { venueDay } from './domain/delivery.js';
import { listingsForEvent, type GeneratedListing } from './domain/listings.js';
import { SandboxPaymentProvider } from './domain/payments.js';
import { MAX_TICKETS_PER_EVENT, PURCHASE_LIMITS } from './domain/purchase-limits.js';
import { companionBlockStart, isGeneralAdmission, seatBlockStart } from './domain/seats.js';

/** RULES 10.15 (the accessible filter) and 10.16 (companion seats), through the API. */

const logger = pino({ level: 'silent' });
let fixture: CatalogFixture;
/** A listing of an event on sale for a day more, each once. */
let find: ReturnType<typeof listingFinder>;
let app: ReturnType<typeof testApp>['app'];
let deps: ReturnType<typeof testApp>['deps'];
let sql: Awaited<ReturnType<typeof openPglite>>;

beforeAll(async () => {
  fixture = await catalogFixture(1500, 61);
  find = listingFinder(fixture.catalog);
  sql = await openPglite(`${fixture.dir}/db`);
  await migrate(sql);
  const commerce = createCommerce({
    sql,
    engine: () => fixture.search.engine,
    payments: new SandboxPaymentProvider(),
    logger,
    sellerDelayMs: 0,
    limits: { ...PURCHASE_LIMITS, guestsPerAddress: 1000 },
  });
  const env = parseEnv({
    NODE_ENV: 'test',
    RATE_LIMIT_SESSIONS_PER_MINUTE: '1000',
    RATE_LIMIT_CARTS_PER_MINUTE: '1000',
    RATE_LIMIT_CHECKOUT_PER_MINUTE: '1000',
    RATE_LIMIT_LISTINGS_PER_MINUTE: '1000',
  });
  ({ app, deps } = testApp({ search: fixture.search, commerce, env, sql }));
});
afterAll(async () => {
  await sql?.close();
  await fixture?.cleanup();
});

const guest = async () => `Bearer ${(await request(app).post('/api/customers/session')).body.sessionToken}`;
const card = {
  method: 'card',
  cardNumber: '4242424242424242',
  expMonth: 12,
  expYear: new Date().getFullYear() + 2,
  cvc: '123',
};
const slug = (e: EventDocument) => entitySlug(e.event_name, e.event_id);
const today = (e: EventDocument) => venueDay(Date.now(), e.venue_time_zone_offset);
/** An accessible listing with companion seats (one per space), `spaces` of which may be taken. */
const withCompanions = (spaces: number) => (l: GeneratedListing) =>
  l.accessible && l.companionSeats >= spaces && l.splits.includes(spaces);

const cart = (auth: string, body: Record<string, unknown>) =>
  request(app).post('/api/cart').set('Authorization', auth).send(body);
async function checkout(auth: string, cartId: string): Promise<Order> {
  const res = await request(app)
    .post('/api/checkout')
    .set('Authorization', auth)
    // A buyer who has read the notice a listing not yet held shows.
    .send({ cartId, email: 'ada@example.com', billingAddress: BILLING, payment: card, notHeldNoticeRead: true });
  expect(res.status).toBe(201);
  return OrderSchema.parse(res.body);
}

describe('the accessible seating filter (RULES 10.15)', () => {
  it('keeps only accessible listings, tells the companion seats each has left, refuses other values', async () => {
    const { event } = find((l) => l.accessible);
    const all = ListingsResponseSchema.parse((await request(app).get(`/api/events/${slug(event)}/listings`)).body);
    expect(all.listings.some((l) => !l.accessible)).toBe(true);
    for (const value of ['1', 'true']) {
      const res = await request(app).get(`/api/events/${slug(event)}/listings?accessible=${value}`);
      expect(res.status).toBe(200);
      const body = ListingsResponseSchema.parse(res.body);
      expect(body.listings.length).toBeGreaterThan(0);
      expect(body.listings.map((l) => l.id)).toEqual(all.listings.filter((l) => l.accessible).map((l) => l.id));
    }
    const generated = new Map(listingsForEvent(event).map((l) => [l.id, l]));
    for (const l of all.listings) expect(l.companionSeats).toBe(generated.get(l.id)!.companionSeats);
    expect(all.listings.filter((l) => !l.accessible).every((l) => l.companionSeats === 0)).toBe(true);
    for (const value of ['0', 'false'])
      expect(
        ListingsResponseSchema.parse(
          (await request(app).get(`/api/events/${slug(event)}/listings?accessible=${value}`)).body,
        ).listings,
      ).toHaveLength(all.listings.length);

    for (const bad of ['yes', '2', '', 'TRUE']) {
      const res = await request(app).get(`/api/events/${slug(event)}/listings?accessible=${bad}`);
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body)).toContain('accessible must be 1 or true');
    }
    const twice = await request(app).get(`/api/events/${slug(event)}/listings?accessible=1&accessible=1`);
    expect(twice.status).toBe(400);
  });
});

describe('companion seats (RULES 10.16)', () => {
  it('are refused with a 400 for a listing without them, beyond one per space, or beyond what is listed', async () => {
    const auth = await guest();
    const plain = find((l) => !l.accessible && l.splits.includes(1)).listing;
    const none = await cart(auth, { listingId: plain.id, quantity: 1, companions: 1 });
    expect(none.status).toBe(400);
    expect(none.body.error.code).toBe('companions_not_offered');

    const { listing } = find(withCompanions(1));
    const perSpace = await cart(auth, { listingId: listing.id, quantity: 1, companions: 2 });
    expect(perSpace.status).toBe(400);
    expect(perSpace.body.error.code).toBe('too_many_companions');
    expect(perSpace.body.error.message).toContain('At most one companion seat per wheelchair space');

    const fewer = find(
      (l) => l.accessible && l.companionSeats > 0 && l.splits.some((q) => q > l.companionSeats && q <= 8),
    ).listing;
    const spaces = fewer.splits.find((q) => q > fewer.companionSeats)!;
    const beyond = await cart(auth, { listingId: fewer.id, quantity: spaces, companions: fewer.companionSeats + 1 });
    expect(beyond.status).toBe(400);
    expect(beyond.body.error.message).toBe(
      `This listing has ${fewer.companionSeats} companion seat${fewer.companionSeats === 1 ? '' : 's'} in all`,
    );

    for (const bad of [-1, 1.5, 'two'])
      expect((await cart(auth, { listingId: listing.id, quantity: 1, companions: bad })).status).toBe(400);

    // Nothing was held by the refusals.
    const detail = ListingDetailSchema.parse((await request(app).get(`/api/listings/${listing.id}`)).body);
    expect(detail.listing.quantityAvailable).toBe(listing.quantity);
    expect(detail.listing.companionSeats).toBe(listing.companionSeats);
  });

  it('are held with the spaces in one cart at one price; the order and its tickets say which they are', async () => {
    const auth = await guest();
    const { event, listing } = find(
      (l, e) =>
        withCompanions(2)(l) &&
        // The second buyer below takes one ticket.
        l.splits.includes(1) &&
        l.deliveryMethod === 'eticket' &&
        l.inHandDate < today(e) &&
        !isGeneralAdmission(l.row),
    );
    const res = await cart(auth, { listingId: listing.id, quantity: 2, companions: 1 });
    expect(res.status).toBe(201);
    const held = CartSchema.parse(res.body);
    expect(held).toMatchObject({ quantitySelected: 3, companions: 1 });
    expect(held.lineItems[0]!.key).toMatch(/^Tickets \(3 × /);

    const detail = ListingDetailSchema.parse((await request(app).get(`/api/listings/${listing.id}`)).body);
    expect(detail.listing.quantityAvailable).toBe(listing.quantity - 2);
    expect(detail.listing.companionSeats).toBe(listing.companionSeats - 1);

    const placed = await checkout(auth, held.id);
    expect(placed.quantity).toBe(3);
    expect(placed.totalPrice.value).toBe(held.totalPrice.value);
    expect(placed.tickets.map((t) => t.companion)).toEqual([false, false, true]);
    const all = listingsForEvent(event);
    const firstSeat = seatBlockStart(all, listing.id)!;
    const firstCompanion = companionBlockStart(all, listing.id)!;
    expect(placed.tickets.map((t) => t.seat)).toEqual([firstSeat, firstSeat + 1, firstCompanion]);
    // The companion seat is outside every listing's block of the row.
    const rowSeats = all
      .filter((l) => l.section === listing.section && l.row === listing.row)
      .reduce((n, l) => n + l.quantity, 0);
    expect(firstCompanion).toBeGreaterThan(rowSeats);

    await deps.commerce.settlement.tick();
    await deps.commerce.settlement.tick();
    const pdf = await ticketsPdfOf(app, placed.id, auth);
    expect(pdf.status).toBe(200);
    const pages = await readTicketsPdf(new Uint8Array(pdf.body as Buffer));
    expect(pages.map((p) => p.text.includes('Companion seat'))).toEqual([false, false, true]);

    // A second buyer gets the next companion seat, never the same one.
    const other = await guest();
    const again = CartSchema.parse((await cart(other, { listingId: listing.id, quantity: 1, companions: 1 })).body);
    const second = await checkout(other, again.id);
    expect(second.tickets.find((t) => t.companion)?.seat).toBe(firstCompanion + 1);
  });

  it('count towards the per-event purchase limit', async () => {
    const auth = await guest();
    const { listing } = find((l) => l.accessible && l.companionSeats >= 4 && l.splits.includes(4) && l.quantity >= 4);
    // Another event's tickets do not count; this one's seats and companion seats do.
    const first = await cart(auth, { listingId: listing.id, quantity: 4, companions: 4 });
    expect(first.status).toBe(201);
    expect(CartSchema.parse(first.body).quantitySelected).toBe(MAX_TICKETS_PER_EVENT);
    const more = await cart(auth, { listingId: listing.id, quantity: 1 });
    expect(more.status).toBe(409);
    expect(more.body.error.code).toBe('ticket_limit');
  });

  it('are refused with a 409 once none are left, and come back when a cart is released', async () => {
    const { listing } = find((l) => l.accessible && l.companionSeats === 2 && l.quantity >= 6 && l.splits.includes(1));
    const buyers = await Promise.all(Array.from({ length: 3 }, () => guest()));
    const answers = await Promise.all(
      buyers.map((auth) => cart(auth, { listingId: listing.id, quantity: 1, companions: 1 })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 201, 409]);
    const refused = answers.find((a) => a.status === 409)!;
    expect(refused.body.error.code).toBe('not_enough_companion_seats');
    expect(refused.body.error.message).toContain('companion seats of this listing were just taken');
    expect(
      ListingDetailSchema.parse((await request(app).get(`/api/listings/${listing.id}`)).body).listing,
    ).toMatchObject({ companionSeats: 0, quantityAvailable: listing.quantity - 2 });
    // Without a companion seat the listing still sells its spaces.
    expect((await cart(buyers[2]!, { listingId: listing.id, quantity: 1 })).status).toBe(201);

    const winner = answers.findIndex((a) => a.status === 201);
    const released = await request(app)
      .delete(`/api/cart/${CartSchema.parse(answers[winner]!.body).id}`)
      .set('Authorization', buyers[winner]!);
    expect(released.status).toBeLessThan(300);
    const after = ListingDetailSchema.parse((await request(app).get(`/api/listings/${listing.id}`)).body);
    expect(after.listing.companionSeats).toBe(1);
  });
});
