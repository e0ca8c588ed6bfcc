import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pino } from 'pino';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ListingDocumentSchema, ListingsQuerySchema, ListingsResponseSchema } from '../../shared/schemas/commerce.js';
import type { EventDocument } from '../../shared/schemas/documents.js';
import { importCatalog } from '../catalog/import-catalog.js';
import { LISTINGS_FILE, readManifest } from '../catalog/manifest.js';
import { parseEnv } from '../config/env.js';
import { entitySlug } from '../../shared/rules/slug.js';
import type { Sql } from '../store/sql.js';
import { catalogFixture, type CatalogFixture } from '../test/catalog-fixture.js';
import { testApp } from '../test/test-app.js';
import { createCommerce } from './commerce.js';
import { SandboxPaymentProvider } from './domain/payments.js';
import { PURCHASE_LIMITS } from './domain/purchase-limits.js';
import { loadOperatorListings } from './operator-listings.js';
import { openMigratedPglite } from '../store/test-stores.js';

let fixture: CatalogFixture;
let sql: Sql;
let app: ReturnType<typeof testApp>['app'];
let withOwn: EventDocument;
let without: EventDocument;

const listing = (eventId: number, n: number, quantity: number, price: number, extra: object = {}) => ({
  id: String(eventId * 1000 + n),
  listing_id: eventId * 1000 + n,
  event_id: eventId,
  section: `Orchestra ${n}`,
  row: 'C',
  quantity,
  price_per_ticket: price,
  pairs_only: false,
  delivery_method: 'mobile_transfer',
  seller_notes: 'Aisle seats',
  in_hand_date: '2027-02-01',
  ...extra,
});

beforeAll(async () => {
  fixture = await catalogFixture(600, 31);
  const soon = Date.now() / 1000 + 3 * 86_400;
  const upcoming = fixture.catalog.collections.Event.filter(
    (e) => e.event_status === 'scheduled' && (e.event_timestamp ?? 0) > soon,
  );
  [withOwn, without] = [upcoming[0]!, upcoming[1]!];
  const feed = path.join(fixture.dir, 'feed', 'Listing.jsonl');
  await mkdir(path.dirname(feed), { recursive: true });
  await writeFile(
    feed,
    [
      listing(withOwn.event_id, 0, 6, 80),
      listing(withOwn.event_id, 1, 2, 150, { accessible: true, seller_notes: 'Limited view', companion_seats: 1 }),
    ]
      .map((l) => JSON.stringify(l))
      .join('\n') + '\n',
  );
  const catalogDir = path.join(fixture.dir, 'catalog');
  expect((await importCatalog([feed], catalogDir)).applied).toBe(true);
  const manifest = (await readManifest(catalogDir))!;
  sql = await openMigratedPglite();
  expect(
    await loadOperatorListings(sql, manifest.generatedAt, path.join(catalogDir, LISTINGS_FILE), manifest.listings!),
  ).toBe(2);
  // Every node may load them at start: once they are there, nothing more is written.
  expect(
    await loadOperatorListings(sql, manifest.generatedAt, path.join(catalogDir, LISTINGS_FILE), manifest.listings!),
  ).toBe(0);
  const commerce = createCommerce({
    sql,
    engine: () => fixture.search.engine,
    payments: new SandboxPaymentProvider(),
    logger: pino({ level: 'silent' }),
    sellerDelayMs: 0,
    limits: PURCHASE_LIMITS,
  });
  commerce.catalog.useOperatorListings(manifest.generatedAt);
  ({ app } = testApp({
    search: fixture.search,
    commerce,
    sql,
    env: parseEnv({ NODE_ENV: 'test', RATE_LIMIT_CARTS_PER_MINUTE: '1000' }),
  }));
}, 60_000);

afterAll(async () => {
  await sql?.close();
  await fixture?.cleanup();
});

const listingsOf = async (e: EventDocument) =>
  ListingsResponseSchema.parse(
    (await request(app).get(`/api/events/${entitySlug(e.event_name, e.event_id)}/listings`)).body,
  ).listings;

describe("an imported catalog's own listings", () => {
  it('are what an event sells, cheapest first, and an event the feed gave none sells nothing', async () => {
    const listings = await listingsOf(withOwn);
    expect(listings.map((l) => [l.id, l.section, l.quantityAvailable, l.pricePerTicket, l.deliveryMethod])).toEqual([
      [withOwn.event_id * 1000, 'Orchestra 0', 6, 80, 'mobile_transfer'],
      [withOwn.event_id * 1000 + 1, 'Orchestra 1', 2, 150, 'mobile_transfer'],
    ]);
    expect(listings[0]!.allInPricePerTicket).toBeGreaterThan(80);
    expect(await listingsOf(without)).toEqual([]);
  });

  it('carry accessible seating and obstructed views as stated, or as their notes say, and a deal rating', async () => {
    const listings = await listingsOf(withOwn);
    expect(listings.map((l) => [l.accessible, l.obstructedView])).toEqual([
      [false, false],
      [true, true],
    ]);
    // Two listings in sections off any seat map: compared with the whole event.
    expect(listings.map((l) => l.dealRating.comparedWith)).toEqual(['the whole event', 'the whole event']);
    expect(listings[0]!.dealRating.rating).toBe('great');
  });

  it('offer the companion seats they state (RULES 10.16), and a document cannot state them wrongly', async () => {
    expect((await listingsOf(withOwn)).map((l) => l.companionSeats)).toEqual([0, 1]);
    const doc = listing(1, 0, 2, 50, { accessible: true });
    expect(ListingDocumentSchema.safeParse({ ...doc, companion_seats: 2 }).success).toBe(true);
    expect(ListingDocumentSchema.safeParse({ ...doc, companion_seats: 3 }).error?.issues[0]?.message).toBe(
      'companion_seats must be at most quantity (one companion seat per wheelchair space)',
    );
    expect(
      ListingDocumentSchema.safeParse({ ...doc, accessible: false, companion_seats: 1 }).error?.issues[0]?.message,
    ).toBe('companion_seats are for accessible listings only');
    expect(ListingDocumentSchema.safeParse({ ...doc, companion_seats: -1 }).success).toBe(false);
  });

  it('are priced at most 100,000 dollars a ticket, face value included, the most a listings filter names', () => {
    const doc = listing(1, 0, 2, 50);
    expect(ListingDocumentSchema.safeParse({ ...doc, price_per_ticket: 100_000, face_value: 100_000 }).success).toBe(
      true,
    );
    expect(ListingDocumentSchema.safeParse({ ...doc, price_per_ticket: 100_000.01 }).success).toBe(false);
    expect(ListingDocumentSchema.safeParse({ ...doc, face_value: 100_000.01 }).success).toBe(false);
    expect(ListingsQuerySchema.safeParse({ maxPrice: '100000' }).success).toBe(true);
    expect(ListingsQuerySchema.safeParse({ minPrice: '100000.01' }).success).toBe(false);
  });

  it('take carts like any listing, and show what is left', async () => {
    const auth = `Bearer ${(await request(app).post('/api/customers/session')).body.sessionToken}`;
    const cart = await request(app)
      .post('/api/cart')
      .set('Authorization', auth)
      .send({ listingId: withOwn.event_id * 1000, quantity: 2 });
    expect(cart.status, JSON.stringify(cart.body)).toBe(201);
    expect((await listingsOf(withOwn))[0]!.quantityAvailable).toBe(4);
  });
});
