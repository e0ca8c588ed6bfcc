import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventDocument } from '../../shared/schemas/documents.js';
import { parseEnv } from '../config/env.js';
import type { Sql } from '../store/sql.js';
import { TEST_STORES } from '../store/test-stores.js';
import { catalogFixture, type CatalogFixture } from '../test/catalog-fixture.js';
import { buyOne, listingFinder, newGuest } from '../test/shopper.js';
import { sharedAddressCommerce, testApp } from '../test/test-app.js';
import { createCommerce } from './commerce.js';
import { OrderStore } from './order-store.js';
import { eventDay, readyByDate, venueDay, venueDayStart } from './domain/delivery.js';
import type { GeneratedListing } from './domain/listings.js';

/** Orders whose tickets never advance in the sandbox, bought before the one that must be delivered. */
const STUCK = 150;

let fixture: CatalogFixture;
beforeAll(async () => {
  fixture = await catalogFixture(400, 36);
}, 120_000);
afterAll(() => fixture?.cleanup());

const today = (e: EventDocument) => venueDay(Date.now(), e.venue_time_zone_offset);
const shipped = (l: GeneratedListing) => l.deliveryMethod === 'will_call' || l.deliveryMethod === 'physical_mail';

describe.each(TEST_STORES)('the order housekeeping on $name', ({ open }) => {
  let sql: Sql;
  let app: ReturnType<typeof testApp>['app'];
  let commerce: ReturnType<typeof createCommerce>;
  let find: ReturnType<typeof listingFinder>;
  /** The housekeeping's clock: real time until a test moves it. */
  let clock: (() => Date) | null = null;

  beforeAll(async () => {
    sql = await open();
    find = listingFinder(fixture.catalog);
    commerce = sharedAddressCommerce(sql, fixture.search, () => clock?.() ?? new Date());
    const env = parseEnv({
      NODE_ENV: 'test',
      RATE_LIMIT_SESSIONS_PER_MINUTE: '10000',
      RATE_LIMIT_CARTS_PER_MINUTE: '10000',
      RATE_LIMIT_CHECKOUT_PER_MINUTE: '10000',
    });
    ({ app } = testApp({ search: fixture.search, commerce, env, sql }));
  });
  afterAll(() => sql?.close());

  const buy = async (listing: GeneratedListing) => (await buyOne(app, (await newGuest(app)).auth, listing.id)).order.id;
  const statusOf = async (id: string) =>
    String((await sql.query('SELECT status FROM orders WHERE id = $1', [id]))[0]!.status);
  const dueOf = async (id: string) => {
    const at = (await sql.query('SELECT due_at FROM orders WHERE id = $1', [id]))[0]!.due_at;
    return at == null ? null : new Date(at as string).toISOString();
  };

  it(`delivers an eTicket order in one pass behind ${STUCK} confirmed orders of shipped tickets`, async () => {
    const stuck: string[] = [];
    for (let i = 0; i < STUCK; i++) stuck.push(await buy(find((l) => shipped(l) && l.splits.includes(1)).listing));
    // The seller confirms at most 100 a pass: two passes confirm them all, and none of them can go further.
    await commerce.settlement.tick();
    await commerce.settlement.tick();
    const rows = await sql.query<{ status: string; due_at: unknown }>(
      'SELECT status, due_at FROM orders WHERE id = ANY ($1)',
      [stuck],
    );
    expect(rows).toHaveLength(STUCK);
    expect(new Set(rows.map((r) => r.status))).toEqual(new Set(['confirmed']));
    // Waiting on the partner: no longer due, so they take no place in any batch.
    expect(rows.filter((r) => r.due_at != null)).toEqual([]);

    const { listing } = find(
      (l, e) => l.deliveryMethod === 'eticket' && l.inHandDate < today(e) && l.splits.includes(1),
    );
    const late = await buy(listing);
    await commerce.settlement.tick();
    expect(await statusOf(late)).toBe('delivered');
    expect(new Set(await Promise.all(stuck.map(statusOf)))).toEqual(new Set(['confirmed']));
  }, 180_000);

  it('keeps a due time set after the housekeeping read the order (an event change asking for a look)', async () => {
    const id = await buy(find((l) => shipped(l) && l.splits.includes(1)).listing);
    const [read] = (await new OrderStore(sql).dueOrders('pending_seller_confirmation', new Date())).filter(
      (o) => o.id === id,
    );
    expect(read).toBeDefined();
    const woken = new Date(Date.parse(read!.due_at) + 5).toISOString();
    await sql.query('UPDATE orders SET due_at = $2 WHERE id = $1', [id, woken]);
    await new OrderStore(sql).dueAt(read!, 'pending_seller_confirmation', null);
    expect(await dueOf(id)).toBe(woken);
    // Read again, it is set.
    const [again] = (await new OrderStore(sql).dueOrders('pending_seller_confirmation', new Date())).filter(
      (o) => o.id === id,
    );
    await new OrderStore(sql).dueAt(again!, 'pending_seller_confirmation', null);
    expect(await dueOf(id)).toBeNull();
  });

  it('reads only due orders, through the orders_due index', async () => {
    const plans = await sql.transaction(async (tx) => {
      // The tables are small here: without this the planner would read them whole.
      await tx.query('SET LOCAL enable_seqscan = off');
      const plan = async (text: string, params: unknown[]) =>
        (await tx.query(`EXPLAIN ${text}`, params)).map((r) => String(Object.values(r)[0])).join('\n');
      const now = new Date().toISOString();
      return [
        await plan('SELECT * FROM orders WHERE status = $1 AND due_at <= $2 ORDER BY due_at LIMIT $3', [
          'confirmed',
          now,
          100,
        ]),
        await plan(
          `SELECT o.id FROM orders o WHERE o.status = 'pending_seller_confirmation' AND o.due_at <= $1
           ORDER BY o.due_at LIMIT $2`,
          [now, 100],
        ),
      ];
    });
    for (const p of plans) expect(p).toMatch(/Index Scan using orders_due/);
  });

  it('delivers an eTicket from the first instant of its ready-by day, completes it from the event start', async () => {
    const { event, listing } = find(
      (l, e) => l.deliveryMethod === 'eticket' && l.inHandDate > today(e) && l.splits.includes(1),
    );
    const id = await buy(listing);
    await commerce.settlement.tick();
    expect(await statusOf(id)).toBe('confirmed');
    const readyBy = readyByDate({
      inHandDate: listing.inHandDate,
      orderDay: today(event),
      eventDay: eventDay(event.event_local_timestamp),
    })!;
    const readyAt = venueDayStart(readyBy, event.venue_time_zone_offset);
    // Midnight of that day at the venue.
    expect(venueDay(readyAt, event.venue_time_zone_offset)).toBe(readyBy);
    expect(venueDay(readyAt.getTime() - 1, event.venue_time_zone_offset)).not.toBe(readyBy);
    expect(await dueOf(id)).toBe(readyAt.toISOString());

    try {
      clock = () => new Date(readyAt.getTime() - 1);
      await commerce.settlement.tick();
      expect(await statusOf(id)).toBe('confirmed');
      clock = () => readyAt;
      await commerce.settlement.tick();
      expect(await statusOf(id)).toBe('delivered');
      // Due at the event's start: not a moment before it is completed, and at that very instant it is (RULES 4.3).
      await commerce.settlement.tick();
      const startsAt = new Date(event.event_timestamp! * 1000);
      expect(await dueOf(id)).toBe(startsAt.toISOString());
      clock = () => new Date(startsAt.getTime() - 1);
      await commerce.settlement.tick();
      expect(await statusOf(id)).toBe('delivered');
      clock = () => startsAt;
      await commerce.settlement.tick();
      expect(await statusOf(id)).toBe('completed');
      expect(await dueOf(id)).toBeNull();
    } finally {
      clock = null;
    }
  }, 60_000);
});
