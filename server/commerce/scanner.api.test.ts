import path from 'node:path';
import fc from 'fast-check';
import { pino } from 'pino';
import request from 'supertest';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CartSchema, OrderSchema, type Order } from '../../shared/schemas/commerce.js';
import type { EventDocument } from '../../shared/schemas/documents.js';
import type { Catalog } from '../catalog/load-catalog.js';
import { parseEnv } from '../config/env.js';
import type { SearchService } from '../search/search-service.js';
import { catalogFixture, type CatalogFixture } from '../test/catalog-fixture.js';
import { migrate } from '../store/migrations.js';
import { openPglite } from '../store/pglite-sql.js';
import { BILLING, ticketsPdfOf } from '../test/shopper.js';
import { readTicketsPdf } from '../test/ticket-pdf-reader.js';
import { testApp } from '../test/test-app.js';
import { createCommerce } from './commerce.js';
import { eventDay, venueDay } from './domain/delivery.js';
import { listingsForEvent, type GeneratedListing } from './domain/listings.js';
import { SandboxPaymentProvider } from './domain/payments.js';
import { PURCHASE_LIMITS } from './domain/purchase-limits.js';
import { SCAN_LATE_UNTIL_HOUR } from './domain/scanning.js';
import { TicketBarcodes, newTicketId } from './domain/ticket-barcode.js';
import { OrderStore } from './order-store.js';
import { ADMIN_KEY_HEADER } from '../http/security.js';
import type { ScannerScope } from './scanner-keys.js';
import { SCANNER_KEY_HEADER } from './scanner-routes.js';

const logger = pino({ level: 'silent' });
const ADMIN_KEY = 'operators-key-for-scanner-tests';
const HOUR_MS = 3_600_000;
let fixture: CatalogFixture;
let catalog: Catalog;
let search: SearchService;
const barcodes = new TicketBarcodes(TicketBarcodes.derivedKey('scanner-tests-'.repeat(3)));
let app: ReturnType<typeof testApp>['app'];
let deps: ReturnType<typeof testApp>['deps'];
let sql: Awaited<ReturnType<typeof openPglite>>;
/** The scanners' clock: the real time, or an instant a test puts it at (the event's start, say). */
let scannerTime: number | null = null;

beforeAll(async () => {
  fixture = await catalogFixture(800, 61);
  ({ catalog, search } = fixture);
  sql = await openPglite(path.join(fixture.dir, 'db'));
  await migrate(sql);
  const commerce = createCommerce({
    sql,
    engine: () => search.engine,
    payments: new SandboxPaymentProvider(),
    logger,
    sellerDelayMs: 0,
    limits: { ...PURCHASE_LIMITS, guestsPerAddress: 1000 },
    barcodes,
    // Buying happens now; a test moves the clock to an event's day only to scan.
    now: () => new Date(scannerTime ?? Date.now()),
  });
  const env = parseEnv({
    NODE_ENV: 'test',
    CATALOG_ADMIN_KEY: ADMIN_KEY,
    RATE_LIMIT_SESSIONS_PER_MINUTE: '1000',
    RATE_LIMIT_CARTS_PER_MINUTE: '1000',
    RATE_LIMIT_CHECKOUT_PER_MINUTE: '1000',
    RATE_LIMIT_KEY_FAILURES_PER_MINUTE: '1000',
  });
  ({ app, deps } = testApp({ search, commerce, env, sql }));
});
afterAll(async () => {
  await sql?.close();
  await fixture?.cleanup();
});
afterEach(() => {
  scannerTime = null;
});

const guest = async () => `Bearer ${(await request(app).post('/api/customers/session')).body.sessionToken}`;
const card = {
  method: 'card',
  cardNumber: '4242424242424242',
  expMonth: 12,
  expYear: new Date().getFullYear() + 2,
  cvc: '123',
};

/** An event on sale for days more (each test its own), and a listing of it to buy from (one ticket, by default). */
const used = new Set<number>();
function pick(
  test: (e: EventDocument) => boolean = () => true,
  sells: (l: GeneratedListing, e: EventDocument) => boolean = (l) => l.splits.includes(1),
): { event: EventDocument; listing: GeneratedListing } {
  for (const event of catalog.collections.Event) {
    if (event.event_status !== 'scheduled' || !event.event_timestamp || !event.event_local_timestamp) continue;
    if (event.event_timestamp * 1000 < Date.now() + 3 * 86_400_000 || used.has(event.event_id) || !test(event))
      continue;
    const listing = listingsForEvent(event).find((l) => sells(l, event));
    if (!listing) continue;
    used.add(event.event_id);
    return { event, listing };
  }
  throw new Error('no such event in the catalog');
}

/** Buys `quantity` tickets of a listing; the seller confirms it. Answers the order with its tickets' barcodes. */
async function bought(listingId: number, quantity = 1): Promise<{ order: Order; barcodes: string[]; auth: string }> {
  const auth = await guest();
  const cart = await request(app).post('/api/cart').set('Authorization', auth).send({ listingId, quantity });
  expect(cart.status, JSON.stringify(cart.body)).toBe(201);
  const res = await request(app)
    .post('/api/checkout')
    .set('Authorization', auth)
    .send({
      cartId: CartSchema.parse(cart.body).id,
      email: 'ada@example.com',
      billingAddress: BILLING,
      payment: card,
      notHeldNoticeRead: true,
    });
  expect(res.status).toBe(201);
  await deps.commerce.settlement.tick();
  const order = await orderOf(OrderSchema.parse(res.body).id, auth);
  expect(['confirmed', 'delivered']).toContain(order.status);
  return { order, barcodes: order.tickets.map((t) => barcodes.sign(t.id)), auth };
}
const orderOf = async (id: string, auth: string) =>
  OrderSchema.parse((await request(app).get(`/api/orders/${id}`).set('Authorization', auth)).body);
const scannedAt = async (barcode: string) =>
  (await sql.query('SELECT scanned_at FROM tickets WHERE id = $1', [barcode.split('.')[0]]))[0]?.scanned_at ?? null;

/** A scanner key for a scope, added as an operator would. */
async function keyFor(scope: ScannerScope, label = 'Gate'): Promise<string> {
  return (await deps.scannerKeys.add(scope, label)).key;
}
const scan = (key: string | null, body: unknown) => {
  const r = request(app).post('/api/tickets/scan');
  return (key === null ? r : r.set(SCANNER_KEY_HEADER, key)).send(body as object);
};

/** The scanners' clock at a venue-local time of an event's day (`dayOffset` days after it). */
function atVenue(event: EventDocument, time: string, dayOffset = 0): void {
  const day = new Date(`${eventDay(event.event_local_timestamp)}T${time}Z`).getTime() + dayOffset * 86_400_000;
  scannerTime = day - event.venue_time_zone_offset * HOUR_MS;
}
/** The scanners' clock at the event's start. */
const atStart = (event: EventDocument) => {
  scannerTime = event.event_timestamp! * 1000;
};

describe('a scan at the door (RULES 19.6)', () => {
  it('admits a ticket once, to its own event on its day: valid, then already used; two gates admit once', async () => {
    const { event, listing } = pick(undefined, (l) => l.splits.includes(2));
    const key = await keyFor({ venueId: event.venue_id }, 'North gate');
    const { order, barcodes: codes, auth } = await bought(listing.id, 2);
    atStart(event);

    const valid = await scan(key, { barcode: codes[0], event: event.event_id });
    expect(valid.status).toBe(200);
    expect(valid.headers['cache-control']).toBe('no-store');
    expect(valid.body).toEqual({
      result: 'valid',
      ticket: {
        id: order.tickets[0]!.id,
        eventId: event.event_id,
        event: event.event_name,
        venue: expect.stringContaining(event.venue_name),
        date: expect.stringContaining('(venue time)'),
        section: listing.section,
        row: listing.row,
        seat: order.tickets[0]!.seat === null ? 'GA' : String(order.tickets[0]!.seat),
      },
      firstScannedAt: expect.any(String),
    });
    const again = await scan(key, { barcode: codes[0], event: event.event_id });
    expect(again.body).toMatchObject({
      result: 'already_used',
      firstScannedAt: valid.body.firstScannedAt,
      reason: expect.stringMatching(/^Already scanned at \d{1,2}:\d{2} [AP]M on .+ \(venue time\)$/),
    });
    const states = (await orderOf(order.id, auth)).tickets.map((t) => t.state);
    expect(states[0]).toBe('used');
    expect(states[1]).not.toBe('used');

    // Two gates scanning the same ticket at once: exactly one admits it.
    const together = await Promise.all(
      Array.from({ length: 6 }, () => scan(key, { barcode: codes[1], event: event.event_id })),
    );
    expect(together.map((r) => r.body.result).sort()).toEqual([
      'already_used',
      'already_used',
      'already_used',
      'already_used',
      'already_used',
      'valid',
    ]);
  });

  it('reads the barcode printed on the eTickets PDF', async () => {
    // An eTicket listing whose seller already has the tickets: downloadable once the order is delivered.
    const { event, listing } = pick(
      undefined,
      (l, e) =>
        l.deliveryMethod === 'eticket' &&
        l.splits.includes(1) &&
        l.inHandDate < venueDay(Date.now(), e.venue_time_zone_offset),
    );
    const { order, auth } = await bought(listing.id, 1);
    await deps.commerce.settlement.tick();
    const pdf = await ticketsPdfOf(app, order.id, auth);
    expect(pdf.status).toBe(200);
    const [page] = await readTicketsPdf(new Uint8Array(pdf.body as Buffer));
    atStart(event);
    const key = await keyFor({ eventIds: [event.event_id] });
    expect((await scan(key, { barcode: page!.barcode, event: event.event_id })).body).toMatchObject({
      result: 'valid',
      ticket: { id: order.tickets[0]!.id },
    });
  });

  it('tells another event’s ticket apart, unmarked on this event’s day, then admits it at its own', async () => {
    // Another day's ticket, of another venue, shown at this event's door on its day.
    const first = pick();
    const other = pick(
      (e) =>
        e.venue_id !== first.event.venue_id &&
        eventDay(e.event_local_timestamp) !== eventDay(first.event.event_local_timestamp),
    );
    const key = await keyFor({ eventIds: [first.event.event_id, other.event.event_id] }, 'Both doors');
    const { barcodes: codes, order, auth } = await bought(other.listing.id, 1);

    atStart(first.event);
    const wrong = await scan(key, { barcode: codes[0], event: first.event.event_id });
    expect(wrong.status).toBe(200);
    expect(wrong.body).toMatchObject({
      result: 'wrong_event',
      ticket: { id: order.tickets[0]!.id, eventId: other.event.event_id, event: other.event.event_name },
    });
    expect(wrong.body.reason).toMatch(
      new RegExp(
        `^Ticket for .+ on .+ at .*${other.event.venue_name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}.*, not this event$`,
      ),
    );
    expect(wrong.body.reason).toContain(other.event.event_name);
    expect(await scannedAt(codes[0]!)).toBeNull();
    expect((await orderOf(order.id, auth)).tickets[0]!.state).not.toBe('used');

    atStart(other.event);
    expect((await scan(key, { barcode: codes[0], event: other.event.event_id })).body.result).toBe('valid');
  });

  it('is not_today before the event’s day and after its late hours, unmarked; admits until the late hour', async () => {
    const { event, listing } = pick();
    const key = await keyFor({ venueId: event.venue_id });
    const { barcodes: codes } = await bought(listing.id, 1);
    const body = { barcode: codes[0], event: event.event_id };

    // Now: days before the event.
    const early = await scan(key, body);
    expect(early.body).toMatchObject({ result: 'not_today', ticket: { eventId: event.event_id } });
    expect(early.body.reason).toMatch(/^This event is on .+, not today/);
    atVenue(event, '23:59:00', -1);
    expect((await scan(key, body)).body.result).toBe('not_today');
    const late = `${String(SCAN_LATE_UNTIL_HOUR).padStart(2, '0')}:00:00`;
    atVenue(event, late, 1);
    expect((await scan(key, body)).body.result).toBe('not_today');
    expect(await scannedAt(codes[0]!)).toBeNull();

    // The early hours after the event's day still admit.
    atVenue(event, `${String(SCAN_LATE_UNTIL_HOUR - 1).padStart(2, '0')}:59:00`, 1);
    expect((await scan(key, body)).body.result).toBe('valid');
    expect(await scannedAt(codes[0]!)).not.toBeNull();
  });

  it('is void once the order is refunded, and marks nothing', async () => {
    const { event, listing } = pick();
    const key = await keyFor({ venueId: event.venue_id });
    const { order, barcodes: codes } = await bought(listing.id, 1);
    expect(
      await new OrderStore(sql).advance(order.id, order.status, 'refunded', new Date(), 'refunded at the box office'),
    ).toBe(true);
    atStart(event);
    const res = await scan(key, { barcode: codes[0], event: event.event_id });
    expect(res.body).toMatchObject({
      result: 'void',
      ticket: { id: order.tickets[0]!.id },
      reason: 'No longer valid: the order is refunded',
    });
    expect(await scannedAt(codes[0]!)).toBeNull();
  });

  it('is unknown for forged and tampered barcodes', async () => {
    const { event, listing } = pick();
    const key = await keyFor({ venueId: event.venue_id });
    const { order, barcodes: codes } = await bought(listing.id, 1);
    atStart(event);
    const code = codes[0]!;
    const unknown = { result: 'unknown', reason: expect.stringMatching(/^Not one of our tickets/) };
    for (const barcode of [
      code.slice(0, -1) + (code.endsWith('A') ? 'B' : 'A'),
      new TicketBarcodes(TicketBarcodes.derivedKey('k'.repeat(32))).sign(order.tickets[0]!.id),
      `${newTicketId()}.${'x'.repeat(22)}`,
      barcodes.sign(newTicketId()),
      'hello',
    ])
      expect((await scan(key, { barcode, event: event.event_id })).body).toEqual(unknown);
    expect(await scannedAt(code)).toBeNull();
  });
});

describe('what a scanner key admits to (RULES 19.6)', () => {
  it('a venue’s key: its venue’s events, not another venue’s (403), nor an event there is not (404)', async () => {
    const here = pick();
    const there = pick((e) => e.venue_id !== here.event.venue_id);
    const key = await keyFor({ venueId: here.event.venue_id });
    const { barcodes: codes } = await bought(there.listing.id, 1);
    atStart(there.event);
    const refused = await scan(key, { barcode: codes[0], event: there.event.event_id });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'event_not_allowed' });
    expect(refused.body.error.message).toContain(String(there.event.event_id));
    expect(await scannedAt(codes[0]!)).toBeNull();
    const missing = await scan(key, { barcode: codes[0], event: 987_654_321 });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('event_not_found');
  });

  it('an events key: those events only; any other is 403, whether or not it exists', async () => {
    const { event, listing } = pick();
    const other = pick();
    const key = await keyFor({ eventIds: [event.event_id] });
    const { barcodes: codes } = await bought(listing.id, 1);
    atStart(event);
    for (const id of [other.event.event_id, 987_654_321]) {
      const res = await scan(key, { barcode: codes[0], event: id });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('event_not_allowed');
    }
    expect((await scan(key, { barcode: codes[0], event: event.event_id })).body.result).toBe('valid');
  });

  it('no key, or one that is no scanner key, is 401; and with no keys at all, every scan is', async () => {
    const { event } = pick();
    const body = { barcode: 'x', event: event.event_id };
    const none = await scan(null, body);
    const wrong = await scan('scn_not-a-key-of-ours', body);
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.code).toBe('scanner_key_required');
    // The same answer either way, which names both cases: it tells nothing of the keys there are.
    expect(none.body).toEqual(wrong.body);
    expect(wrong.body.error.message).toMatch(/none was sent, or this one is not known/);
    const { app: bare } = testApp({ search });
    expect((await request(bare).post('/api/tickets/scan').set(SCANNER_KEY_HEADER, 'anything').send(body)).status).toBe(
      401,
    );
    expect((await request(bare).post('/api/tickets/scan').send(body)).status).toBe(401);
  });

  it('wants a barcode and the event it admits to (400 naming what is wrong)', async () => {
    const { event } = pick();
    const key = await keyFor({ venueId: event.venue_id });
    for (const bad of [
      { barcode: 'x' },
      { barcode: 'x', event: 0 },
      { barcode: 'x', event: -4 },
      { barcode: 'x', event: 1.5 },
      { barcode: 'x', event: String(event.event_id) },
      { barcode: 'x', event: null },
    ]) {
      const res = await scan(key, bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.error.message).toMatch(/^event: event must be the id of the event this gate admits to/);
    }
    for (const barcode of [undefined, 42, '', ' ', 'x'.repeat(201), { value: 'x' }]) {
      const res = await scan(key, { barcode, event: event.event_id });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(/^barcode: /);
    }
  });

  it('answers any body with a 4xx or an answer, never a 5xx', async () => {
    const { event } = pick();
    const key = await keyFor({ venueId: event.venue_id });
    const bodies = fc.oneof(
      fc.jsonValue(),
      fc.record({
        barcode: fc.oneof(fc.string({ maxLength: 300 }), fc.anything()),
        event: fc.oneof(fc.constant(event.event_id), fc.integer(), fc.double(), fc.anything()),
      }),
    );
    await fc.assert(
      fc.asyncProperty(bodies, async (body) => {
        const res = await request(app)
          .post('/api/tickets/scan')
          .set(SCANNER_KEY_HEADER, key)
          .set('Content-Type', 'application/json')
          .send(JSON.stringify(body));
        expect(res.status, JSON.stringify(body)).toBeLessThan(500);
        if (res.status === 200) expect(res.body.result).toBe('unknown');
      }),
      { numRuns: 150 },
    );
  });
});

describe('the scanner keys’ admin API (/api/admin/scanners)', () => {
  const admin = (method: 'get' | 'post' | 'put' | 'delete', url: string, key: string | null = ADMIN_KEY) => {
    const r = request(app)[method](`/api/admin/scanners${url}`);
    return key === null ? r : r.set(ADMIN_KEY_HEADER, key);
  };

  it('adds a key (shown once), lists keys without their keys, and removes them', async () => {
    const { event, listing } = pick();
    const added = await admin('post', '').send({ label: 'East gate', scope: { venueId: event.venue_id } });
    expect(added.status).toBe(201);
    expect(added.headers['cache-control']).toBe('no-store');
    expect(added.body).toEqual({
      scanner: {
        id: expect.any(String),
        label: 'East gate',
        scope: { venueId: event.venue_id },
        createdAt: expect.any(String),
      },
      key: expect.stringMatching(/^scn_[A-Za-z0-9_-]{43}$/),
    });
    const { key, scanner } = added.body as { key: string; scanner: { id: string } };

    const listed = await admin('get', '');
    expect(listed.status).toBe(200);
    expect(listed.body.scanners).toContainEqual(added.body.scanner);
    expect(JSON.stringify(listed.body)).not.toContain(key);
    expect(JSON.stringify(listed.body)).not.toContain('keyHash');

    const { barcodes: codes } = await bought(listing.id, 1);
    atStart(event);
    expect((await scan(key, { barcode: codes[0], event: event.event_id })).body.result).toBe('valid');

    const removed = await admin('delete', `/${scanner.id}`);
    expect(removed.status).toBe(200);
    expect(removed.body.removed).toEqual(added.body.scanner);
    expect((await scan(key, { barcode: codes[0], event: event.event_id })).status).toBe(401);
    expect((await admin('get', '')).body.scanners).not.toContainEqual(added.body.scanner);
    const again = await admin('delete', `/${scanner.id}`);
    expect(again.status).toBe(404);
    expect(again.body.error.code).toBe('scanner_key_not_found');
  });

  it('takes a list of events, and names what is wrong with a scope or label', async () => {
    const ok = await admin('post', '').send({ scope: { eventIds: [9, 3, 9] } });
    expect(ok.status).toBe(201);
    expect(ok.body.scanner).toMatchObject({ label: 'events 3, 9', scope: { eventIds: [3, 9] } });
    for (const [body, message] of [
      [{ scope: { venueId: 0 } }, /venueId must be a positive whole number/],
      [{ scope: { eventIds: [] } }, /eventIds must name at least one event/],
      [{ scope: { venueId: 1, eventIds: [1] } }, /scope must be/],
      [{ scope: {} }, /scope must be/],
      [{ label: 'Gate' }, /scope must be/],
      [{ label: '', scope: { venueId: 1 } }, /label is empty/],
      [{ label: 'x'.repeat(81), scope: { venueId: 1 } }, /label must be at most 80 characters/],
      [[1, 2], /The body must be a JSON object/],
    ] as const) {
      const res = await admin('post', '').send(body as object);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toMatch(message);
    }
  });

  it('names the methods an address of it takes when asked with another (405)', async () => {
    for (const [method, url, allow] of [
      ['put', '', 'GET, HEAD, POST'],
      ['get', '/some-id', 'DELETE'],
    ] as const) {
      const res = await admin(method, url);
      expect(res.status, `${method} ${url}`).toBe(405);
      expect(res.headers.allow).toBe(allow);
      expect(res.body.error.message).toBe(
        `${method.toUpperCase()} is not answered at /api/admin/scanners${url || '/'}: it is asked with ${allow}`,
      );
    }
    const options = await request(app).options('/api/admin/scanners').set(ADMIN_KEY_HEADER, ADMIN_KEY);
    expect([options.status, options.headers.allow]).toEqual([200, 'GET, HEAD, POST']);
  });

  it('wants the operators’ key (401), and is not there without one (404)', async () => {
    expect((await admin('get', '', null)).status).toBe(401);
    expect((await admin('get', '', 'not-the-operators-key')).status).toBe(401);
    const refused = await admin('post', '', 'not-the-operators-key').send({ scope: { venueId: 1 } });
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('unauthorized');
    const { app: bare } = testApp({ search });
    for (const address of ['/api/admin/scanners', '/api/admin/mail', '/api/admin/collections/Event/documents']) {
      const missing = await request(bare).get(address).set(ADMIN_KEY_HEADER, ADMIN_KEY);
      expect([missing.status, missing.body.error?.code], address).toEqual([404, 'not_found']);
      expect(missing.body.error.message, address).toBe(`No API route for GET ${address}`);
      expect(missing.headers['cache-control'], address).toBe('no-store');
    }
  });
});
