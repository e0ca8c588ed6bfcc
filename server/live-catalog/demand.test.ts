import { pino } from 'pino';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CartSchema } from '../../shared/schemas/commerce.js';
import { LayoutResponseSchema } from '../../shared/schemas/layout.js';
import type { EventDocument, PerformerDocument } from '../../shared/schemas/documents.js';
import { createCommerce } from '../commerce/commerce.js';
import { isPairsOnly, listingsForEvent } from '../commerce/domain/listings.js';
import { SandboxPaymentProvider } from '../commerce/domain/payments.js';
import { PURCHASE_LIMITS } from '../commerce/domain/purchase-limits.js';
import { parseEnv } from '../config/env.js';
import { allInPrice } from '../../shared/rules/pricing.js';
import { cheapestOffer, offerQuantity } from '../../shared/rules/offer.js';
import { entitySlug } from '../../shared/rules/slug.js';
import type { Sql } from '../store/sql.js';
import { catalogFixture, type CatalogFixture } from '../test/catalog-fixture.js';
import { liveCatalogOver } from '../test/live-catalog.js';
import { checkoutBody } from '../test/documents.js';
import { testAppWithSegments } from '../test/test-app.js';
import { DemandSignals } from './demand.js';
import { LiveCatalog } from './live-catalog.js';
import { openMigratedPglite } from '../store/test-stores.js';

const logger = pino({ level: 'silent' });
let fixture: CatalogFixture;
let sql: Sql;
let live: LiveCatalog;
let demand: DemandSignals;
/** The demand signals as a node whose clock says `now` runs them. */
let demandAt: (now: () => Date) => DemandSignals;
let app: Awaited<ReturnType<typeof testAppWithSegments>>['app'];
const used = new Set<number>();

beforeAll(async () => {
  fixture = await catalogFixture(1500, 23);
  sql = await openMigratedPglite();
  const opened = await liveCatalogOver(fixture, sql);
  live = opened.live;
  const search = opened.search;
  // Every shopper here comes from supertest's one address: the per-address share is widened.
  const commerce = createCommerce({
    sql,
    engine: () => search.engine,
    payments: new SandboxPaymentProvider(),
    logger,
    sellerDelayMs: 0,
    limits: { ...PURCHASE_LIMITS, guestsPerAddress: 1000 },
  });
  demandAt = (now) =>
    new DemandSignals({
      sql,
      catalog: live,
      listings: (event, listed) => commerce.catalog.listingsAsListed(event, listed),
      engine: () => search.engine,
      logger,
      now,
    });
  demand = demandAt(() => new Date());
  const env = parseEnv({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_SESSIONS_PER_MINUTE: '1000',
    RATE_LIMIT_CARTS_PER_MINUTE: '1000',
    RATE_LIMIT_CHECKOUT_PER_MINUTE: '1000',
  });
  const made = await testAppWithSegments({ env, search, commerce, sql, catalog: live });
  app = made.app;
  opened.connect({ engine: search.engine, layout: made.deps.layout, fastLane: app.fastLane });
}, 60_000);

afterAll(async () => {
  await sql?.close();
  await fixture?.cleanup();
});

const guest = async () => `Bearer ${(await request(app).post('/api/customers/session')).body.sessionToken}`;
const card = {
  method: 'card',
  cardNumber: '4242 4242 4242 4242',
  expMonth: 12,
  expYear: new Date().getFullYear() + 2,
  cvc: '123',
};
const eventPage = async (e: EventDocument) =>
  (await request(app).get(`/api/events/${entitySlug(e.event_name, e.event_id)}`)).body as {
    event: { badges: { type: string; label: string }[]; minPrice?: number };
  };

/** An upcoming event no test used, with no badge today, that passes `test`. */
function quietEvent(test: (e: EventDocument) => boolean): EventDocument {
  const soon = Date.now() / 1000 + 3 * 86_400;
  const event = fixture.catalog.collections.Event.find(
    (e) =>
      !used.has(e.event_id) &&
      e.event_status === 'scheduled' &&
      (e.event_timestamp ?? 0) > soon &&
      e.event_orders_d1 === 0 &&
      e.event_cart_d1 === 0 &&
      e.event_mpv_d1 < 10 &&
      test(e),
  );
  if (!event) throw new Error('no such event in the catalog');
  used.add(event.event_id);
  return event;
}

/** The event's card on the home page near its venue, when a row shows it. */
async function homeCard(e: EventDocument) {
  const [lat, lng] = e.venue_location;
  const layout = LayoutResponseSchema.parse((await request(app).get(`/api/layout/home?lat=${lat}&lng=${lng}`)).body);
  const cards = layout.rows.flatMap((r) =>
    r.type === 'events' ? [...r.items, ...(r.tabs ?? []).flatMap((t) => t.items)] : [],
  );
  return cards.find((c) => c.id === e.event_id);
}

/** A performer's price at a venue (`venues[].min_ticket_price`, the performer card's "From"). */
async function venuePrice(performerId: number, venueId: number) {
  const performer = (await live.document('Performer', String(performerId))) as PerformerDocument;
  return performer.venues.find((v) => v.venue_id === venueId)?.min_ticket_price;
}

/** The lowest price of the performer's events at the venue that have tickets to buy, as they stand now; else 0. */
async function lowestThere(performerId: number, venueId: number) {
  const there = fixture.catalog.collections.Event.filter(
    (e) => e.venue_id === venueId && e.performer_ids.includes(performerId),
  );
  const now = await Promise.all(there.map(async (e) => (await live.document('Event', e.id)) as EventDocument));
  const prices = now
    .filter((e) => e.min_ticket_price > 0 && e.ticket_groups_available > 0 && e.event_status !== 'cancelled')
    .map((e) => e.min_ticket_price);
  return prices.length > 0 ? Math.min(...prices) : 0;
}

async function cart(auth: string, listingId: number, quantity: number) {
  const res = await request(app).post('/api/cart').set('Authorization', auth).send({ listingId, quantity });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return CartSchema.parse(res.body);
}

async function buy(auth: string, cartId: string) {
  const res = await request(app)
    .post('/api/checkout')
    .set('Authorization', auth)
    .send({ ...checkoutBody(cartId), payment: card });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

describe('demand signals from what shoppers do', () => {
  it(
    'makes an event with five carts and an order in the last day "Selling ' + 'fast" on the next home page and its own',
    async () => {
      // An event the home page near its venue shows, without the badge yet.
      let event: EventDocument | undefined;
      for (let tries = 0; tries < 40 && !event; tries++) {
        const candidate = quietEvent((e) => listingsForEvent(e).filter((l) => l.splits.includes(2)).length >= 5);
        const card = await homeCard(candidate);
        if (card && !card.badges.some((b) => b.type === 'hotEvent')) event = candidate;
      }
      if (!event) throw new Error('no quiet event shown on a home page');
      expect((await eventPage(event)).event.badges.map((b) => b.type)).not.toContain('hotEvent');
      const listings = listingsForEvent(event)
        .filter((l) => l.splits.includes(2))
        .slice(0, 5);
      const carts = [];
      for (const l of listings) {
        const auth = await guest();
        carts.push({ auth, cart: await cart(auth, l.id, 2) });
      }
      await buy(carts[0]!.auth, carts[0]!.cart.id);
      expect(await demand.run()).toBeGreaterThan(0);
      const after = await eventPage(event);
      expect(after.event.badges[0]).toEqual({ type: 'hotEvent', label: 'Selling fast' });
      expect((await homeCard(event))?.badges[0]).toEqual({ type: 'hotEvent', label: 'Selling fast' });
      expect(await live.document('Event', event.id)).toMatchObject({
        event_cart_d1: 5,
        event_orders_d1: 1,
        event_orders_d7: event.event_orders_d7 + 1,
        event_orders_t12: event.event_orders_t12 + 1,
      });
      // Every performer's order counts follow.
      for (const id of event.performer_ids) {
        const before = fixture.catalog.collections.Performer.find((p) => p.performer_id === id)!;
        expect(await live.document('Performer', String(id))).toMatchObject({
          performer_orders_d7: before.performer_orders_d7 + 1,
          performer_orders_t12: before.performer_orders_t12 + 1,
        });
      }
      // Nothing moved since: a second run writes nothing.
      expect(await demand.run()).toBe(0);
    },
  );

  it('shows "Only 2 tickets left" once shoppers have bought all but two tickets', async () => {
    // A listing dearer than the event's cheapest, so the lowest price has to move when the rest sell out.
    const fits = (l: ReturnType<typeof listingsForEvent>[number], e: EventDocument) =>
      l.quantity >= 4 && l.splits.includes(2) && !isPairsOnly(l.splits) && l.pricePerTicket > e.min_ticket_price;
    const event = quietEvent((e) => e.tickets_available >= 100 && listingsForEvent(e).some((l) => fits(l, e)));
    const listings = listingsForEvent(event);
    const last = listings.find((l) => fits(l, event))!;
    // Every other listing sold out, and all but four seats of the last one.
    for (const l of listings) {
      await sql.query(
        'INSERT INTO listing_inventory (listing_id, event_id, listed, held, sold) VALUES ($1, $2, $3, 0, $4)',
        [l.id, event.event_id, l.quantity, l === last ? l.quantity - 4 : l.quantity],
      );
    }
    const auth = await guest();
    await buy(auth, (await cart(auth, last.id, 2)).id);
    await demand.run();
    // The lowest price is now the last listing's: the cards' "From" follows what is left to buy.
    expect(last.pricePerTicket).toBeGreaterThan(event.min_ticket_price);
    expect(await live.document('Event', event.id)).toMatchObject({
      tickets_available: 2,
      ticket_groups_available: 1,
      min_ticket_price: last.pricePerTicket,
    });
    const page = await eventPage(event);
    expect(page.event.badges).toContainEqual({ type: 'ticketLeft', label: 'Only 2 tickets left' });
    // The listings are still the ones listed (generated from the event as listed, not as it shows now): the
    // last one, with its two seats, at the all-in price the card shows.
    const listed = (await request(app).get(`/api/events/${entitySlug(event.event_name, event.event_id)}/listings`))
      .body as { listings: { id: number; quantityAvailable: number; allInPricePerTicket: number }[] };
    expect(listed.listings.map((l) => [l.id, l.quantityAvailable])).toEqual([[last.id, 2]]);
    expect(page.event.minPrice).toBe(listed.listings[0]!.allInPricePerTicket);
    // Its performers' price at this venue is again the lowest of their events there (the performer card's "From").
    for (const performerId of event.performer_ids)
      expect(await venuePrice(performerId, event.venue_id)).toBe(await lowestThere(performerId, event.venue_id));
    // And the figures hold when the event is refreshed again (a shopper viewing it).
    await request(app)
      .get(`/api/events/${entitySlug(event.event_name, event.event_id)}`)
      .set('Authorization', await guest());
    await demand.run();
    expect(await live.document('Event', event.id)).toMatchObject({
      tickets_available: 2,
      ticket_groups_available: 1,
      event_mpv_d1: event.event_mpv_d1 + 1,
    });
  });

  it('says "Sold out" instead of a "From" price once every ticket is sold, on every card of the event', async () => {
    const event = quietEvent((e) => e.tickets_available >= 10 && listingsForEvent(e).length >= 2);
    const listings = listingsForEvent(event);
    // Every listing sold but the last, which is bought out by a shopper.
    const last = listings.find((l) => l.splits.includes(l.quantity) && l.quantity <= 8)!;
    expect(last).toBeDefined();
    for (const l of listings.filter((l) => l !== last))
      await sql.query(
        'INSERT INTO listing_inventory (listing_id, event_id, listed, held, sold) VALUES ($1, $2, $3, 0, $3)',
        [l.id, event.event_id, l.quantity],
      );
    const auth = await guest();
    await buy(auth, (await cart(auth, last.id, last.quantity)).id);
    await demand.run();
    expect(await live.document('Event', event.id)).toMatchObject({
      tickets_available: 0,
      ticket_groups_available: 0,
      min_ticket_price: 0,
    });
    const page = await eventPage(event);
    expect(page.event).not.toHaveProperty('minPrice');
    expect(page.event).toMatchObject({ unavailable: 'Sold out' });
    const home = await homeCard(event);
    if (home) expect(home).toMatchObject({ unavailable: 'Sold out' });
    if (home) expect(home).not.toHaveProperty('minPrice');
    // Search results carry the same card.
    const found = (await request(app).get(`/api/Searches/get?q=${encodeURIComponent(event.event_name)}&page=1`))
      .body as {
      events?: { items?: { id: number; minPrice?: number; unavailable?: string }[] };
    };
    const hit = found.events?.items?.find((c) => c.id === event.event_id);
    expect(hit).toMatchObject({ unavailable: 'Sold out' });
    expect(hit).not.toHaveProperty('minPrice');
    // Its performers' price at the venue no longer counts it: the lowest of their other events there, or none.
    for (const performerId of event.performer_ids)
      expect(await venuePrice(performerId, event.venue_id)).toBe(await lowestThere(performerId, event.venue_id));
  });

  it('prices every card at a listing its page shows at the quantity it opens at, or names from there', async () => {
    const soon = Date.now() / 1000 + 3 * 86_400;
    const events = fixture.catalog.collections.Event.filter(
      (e) => e.event_status === 'scheduled' && (e.event_timestamp ?? 0) > soon && e.ticket_groups_available > 0,
    ).slice(0, 15);
    expect(events.length).toBeGreaterThan(5);
    for (const e of events) {
      const slug = entitySlug(e.event_name, e.event_id);
      const card = (await eventPage(e)).event;
      const all = (await request(app).get(`/api/events/${slug}/listings`)).body as {
        listings: { id: number; splits: number[]; allInPricePerTicket: number }[];
      };
      const offer = cheapestOffer(all.listings, (l) => l.allInPricePerTicket);
      // The card's "From" is the cheapest listing a shopper can buy.
      expect(card.minPrice, e.event_name).toBe(offer?.price);
      if (!offer) continue;
      // The page opens at 2 tickets (client/src/features/buying/listings-filter.ts); where the cheapest listing does
      // not sell 2 it names the quantity it does sell, and that answer holds the price.
      const quantity = offerQuantity(offer.quantities, 2);
      const at = (await request(app).get(`/api/events/${slug}/listings?quantity=${quantity}`)).body as {
        listings: { allInPricePerTicket: number }[];
      };
      expect(at.listings[0]?.allInPricePerTicket, e.event_name).toBe(card.minPrice);
    }
  });

  it(
    'charges a held cart the price it was held at when the operator reprices ' +
      'the event meanwhile, and shows the new price to everyone else',
    async () => {
      const event = quietEvent((e) => listingsForEvent(e).some((l) => l.splits.includes(2)));
      const listing = listingsForEvent(event).find((l) => l.splits.includes(2))!;
      const auth = await guest();
      const held = await cart(auth, listing.id, 2);
      // The feed doubles the event's prices: its generated listings are dearer from now on.
      await live.write('Event', 'update', [
        { text: '', value: { id: event.id, min_ticket_price: event.min_ticket_price * 2 } },
      ]);
      const page = await eventPage(event);
      expect(page.event.minPrice).toBe(allInPrice(event.min_ticket_price * 2));
      const now = (await request(app).get(`/api/listings/${listing.id}`)).body as {
        listing: { allInPricePerTicket: number };
      };
      expect(now.listing.allInPricePerTicket * 2).toBeGreaterThan(held.totalPrice.value);
      // The hold's price stands until it ends: the cart, and what is charged.
      expect(
        CartSchema.parse((await request(app).get(`/api/cart/${held.id}`).set('Authorization', auth)).body).totalPrice,
      ).toEqual(held.totalPrice);
      const paid = await request(app)
        .post('/api/checkout')
        .set('Authorization', auth)
        .send({ ...checkoutBody(held.id), payment: card, expectedTotal: held.totalPrice.value });
      expect(paid.status, JSON.stringify(paid.body)).toBe(201);
      expect(paid.body.totalPrice).toEqual(held.totalPrice);
    },
  );

  it("keeps an operator's own figures as the new baseline when a feed rewrites them", async () => {
    const single = (l: ReturnType<typeof listingsForEvent>[number]) => l.splits.includes(1) && l.quantity >= 5;
    const event = quietEvent((e) => listingsForEvent(e).some(single));
    const listing = listingsForEvent(event).find(single)!;
    const auth = await guest();
    await cart(auth, listing.id, 1);
    await demand.run();
    expect((await live.document('Event', event.id))!.event_cart_d1).toBe(1);
    // The operator's feed says 40 carts in the last day (its own count, from before this storefront).
    await live.write('Event', 'update', [{ text: '', value: { id: event.id, event_cart_d1: 40 } }]);
    const another = await guest();
    await cart(another, listing.id, 1);
    await demand.run();
    // 40 as the feed said, plus the two carts of the last day.
    expect((await live.document('Event', event.id))!.event_cart_d1).toBe(42);
  });

  // Runs last: its clock moves the demand period days ahead.
  it(
    'lets carts and orders go as they leave their windows: a day for carts ' +
      "and the day's orders, 7 days for the week's",
    async () => {
      const event = quietEvent((e) => listingsForEvent(e).some((l) => l.splits.includes(2)));
      const auth = await guest();
      await buy(auth, (await cart(auth, listingsForEvent(event).find((l) => l.splits.includes(2))!.id, 2)).id);
      await demand.run();
      const counts = async () => {
        const doc = (await live.document('Event', event.id))!;
        return [doc.event_cart_d1, doc.event_orders_d1, doc.event_orders_d7, doc.event_orders_t12];
      };
      expect(await counts()).toEqual([1, 1, event.event_orders_d7 + 1, event.event_orders_t12 + 1]);
      const hours = (h: number) => () => new Date(Date.now() + h * 3_600_000);
      await demandAt(hours(23)).run();
      expect(await counts()).toEqual([1, 1, event.event_orders_d7 + 1, event.event_orders_t12 + 1]);
      await demandAt(hours(25)).run();
      expect(await counts()).toEqual([0, 0, event.event_orders_d7 + 1, event.event_orders_t12 + 1]);
      await demandAt(hours(7 * 24 + 1)).run();
      expect(await counts()).toEqual([0, 0, event.event_orders_d7, event.event_orders_t12 + 1]);
      // Four periods moved its figures; the log holds one demand change of it, the latest (RULES 15.11).
      const logged = await sql.query<{ document: EventDocument | string }>(
        'SELECT document FROM catalog_changes WHERE demand AND collection = $1 AND doc_id = $2',
        ['Event', event.id],
      );
      expect(logged).toHaveLength(1);
      const kept = (
        typeof logged[0]!.document === 'string' ? JSON.parse(logged[0]!.document) : logged[0]!.document
      ) as EventDocument;
      expect([kept.event_cart_d1, kept.event_orders_d1, kept.event_orders_d7, kept.event_orders_t12]).toEqual(
        await counts(),
      );
    },
  );
});
