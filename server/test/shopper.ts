import request from 'supertest';
import type { RequestListener } from 'node:http';
import { CartSchema, OrderSchema, type Order } from '../../shared/schemas/commerce.js';
import type { Catalog } from '../catalog/load-catalog.js';
import type { EventDocument } from '../../shared/schemas/documents.js';
import { listingsForEvent, type GeneratedListing } from '../commerce/domain/listings.js';

export const BILLING = {
  name: 'Ada Lovelace',
  address1: '1 Main St',
  city: 'Newark',
  state: 'NJ',
  countryCode: 'US',
  postalCode: '07102',
  phoneNumber: '+1 973 555 0100',
};

export const TEST_CARD = {
  method: 'card',
  cardNumber: '4242 4242 4242 4242',
  expMonth: 12,
  expYear: new Date().getFullYear() + 2,
  cvc: '123',
} as const;

/** An in-process app, or the origin of a listening server (`http://127.0.0.1:3000`). */
export type Target = RequestListener | string;

/** A new guest session through the API: its bearer header, token and guest id. */
export async function newGuest(app: Target): Promise<{ auth: string; token: string; guestId: string }> {
  const res = await request(app).post('/api/customers/session');
  if (res.status !== 201 && res.status !== 200) throw new Error(`session answered ${res.status}`);
  const token = String(res.body.sessionToken);
  const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { sub: string };
  return { auth: `Bearer ${token}`, token, guestId: claims.sub };
}

/** Scheduled events that start more than three days from now, so nothing about them changes during a test. */
export function sellableEvents(catalog: Catalog): EventDocument[] {
  const soon = Date.now() / 1000 + 3 * 86_400;
  return catalog.collections.Event.filter(
    (e) => e.event_status === 'scheduled' && e.event_timestamp !== null && e.event_timestamp > soon,
  );
}

/**
 * Listings of the catalog's upcoming events that sell one ticket, each handed out once: one per purchase, so no
 * two buyers of a test meet on a listing.
 */
export function listingSupply(catalog: Catalog): () => number {
  const ids: number[] = [];
  for (const e of sellableEvents(catalog)) {
    for (const l of listingsForEvent(e)) if (l.splits.includes(1) && l.quantity >= 1) ids.push(l.id);
  }
  let next = 0;
  return () => {
    const id = ids[next++];
    if (id === undefined) throw new Error('the catalog has no more listings to buy');
    return id;
  };
}

/** Puts one ticket of `listingId` in a cart and checks out, under `idempotencyKey` when given. */
export async function buyOne(
  app: Target,
  auth: string,
  listingId: number,
  options: { idempotencyKey?: string; headers?: Record<string, string> } = {},
): Promise<{ order: Order; status: number; cartId: string; checkout: () => Promise<request.Response> }> {
  const cart = await request(app)
    .post('/api/cart')
    .set('Authorization', auth)
    .set(options.headers ?? {})
    .send({ listingId, quantity: 1 });
  if (cart.status !== 201) throw new Error(`cart answered ${cart.status}: ${JSON.stringify(cart.body)}`);
  const cartId = CartSchema.parse(cart.body).id;
  const checkout = () => {
    const req = request(app)
      .post('/api/checkout')
      .set('Authorization', auth)
      .set(options.headers ?? {});
    if (options.idempotencyKey) req.set('Idempotency-Key', options.idempotencyKey);
    // The buyer confirms the notice of tickets the seller does not hold yet when there is one (RULES 20.3).
    return req.send({
      cartId,
      email: 'buyer@example.com',
      billingAddress: BILLING,
      payment: TEST_CARD,
      notHeldNoticeRead: true,
    });
  };
  const res = await checkout();
  if (res.status !== 201 && res.status !== 200) throw new Error(`checkout answered ${res.status}`);
  return { order: OrderSchema.parse(res.body), status: res.status, cartId, checkout };
}

/**
 * A finder of listings to buy: the first listing that passes `test`, of an event on sale for a day more, each listing
 * given once (every test of a file buys its own seats).
 */
export function listingFinder(
  catalog: Catalog,
): (test: (l: GeneratedListing, e: EventDocument) => boolean) => { event: EventDocument; listing: GeneratedListing } {
  const used = new Set<number>();
  return (test) => {
    const dayFromNow = Date.now() + 86_400_000;
    for (const event of catalog.collections.Event) {
      if (event.event_status !== 'scheduled' || event.event_timestamp === null) continue;
      if (event.event_timestamp * 1000 <= dayFromNow) continue;
      const listing = listingsForEvent(event).find((l) => !used.has(l.id) && test(l, event));
      if (listing) {
        used.add(listing.id);
        return { event, listing };
      }
    }
    throw new Error('no such listing in the catalog');
  };
}

/** `GET /api/orders/:id/tickets.pdf` as the buyer asks for it, the PDF's bytes kept whole in `body`. */
export function ticketsPdfOf(app: Target, orderId: string, auth: string) {
  return request(app)
    .get(`/api/orders/${orderId}/tickets.pdf`)
    .set('Authorization', auth)
    .buffer(true)
    .parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done(null, Buffer.concat(chunks)));
    });
}
