import fc from 'fast-check';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScanningEngine } from '../../../bench/scanning-engine.js';
import { COLLECTION_NAMES, type CollectionName, type EventDocument } from '../../../shared/schemas/documents.js';
import type { Filter, GeoFilter, SearchRequest, SortKey } from '../../../shared/schemas/search.js';
import { generateCatalog } from '../../catalog/generate/generate-catalog.js';
import { loadCatalog, type CatalogCollections } from '../../catalog/load-catalog.js';
import type { SearchEngine, SearchRequestFor } from '../search-engine.js';
import { EmbeddedEngine } from './embedded-engine.js';
import { foldText, tokenize } from './text.js';

/**
 * The indexed engine against a brute-force reference (every document tested, every match sorted, text by
 * MiniSearch) on random requests shaped like the storefront's and beyond: the same hits in the same order, the
 * same `found`, relevance and distances. Then again after a random run of upserts and deletes.
 */

let tmp: string;
let catalog: CatalogCollections;
let engine: EmbeddedEngine;
let reference: SearchEngine;
let snapshotFile: string;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'equivalence-'));
  await generateCatalog({ events: 4000, seed: 11, start: '2026-11-21', outDir: tmp });
  catalog = (await loadCatalog(tmp)).collections;
  engine = await EmbeddedEngine.build(catalog);
  reference = await ScanningEngine.build(catalog, { bruteForce: true });
  snapshotFile = path.join(tmp, 'engine.snapshot');
  await engine.save(snapshotFile, 'equivalence');
}, 60_000);
afterAll(() => rm(tmp, { recursive: true, force: true }));

async function expectSameAnswer(a: SearchEngine, b: SearchEngine, request: SearchRequest) {
  const [got, want] = await Promise.all([
    a.search(request as SearchRequestFor<CollectionName>),
    b.search(request as SearchRequestFor<CollectionName>),
  ]);
  const shape = (r: typeof got) => ({
    found: r.found,
    hits: r.hits.map((h) => ({
      id: (h.document as { id?: string }).id,
      textMatch: h.textMatch,
      miles: h.geoDistanceMiles?.toFixed(9),
      document: h.document,
    })),
  });
  expect(shape(got), JSON.stringify(request)).toEqual(shape(want));
}

/** Words the catalog holds, so text queries find things: whole, cut to a prefix, or with a typo. */
function vocabulary(collections: CatalogCollections): string[] {
  const words = new Set<string>();
  for (const e of collections.Event.slice(0, 400))
    for (const w of tokenize(`${e.event_name} ${e.venue_name} ${e.venue_city}`)) words.add(foldText(w));
  for (const p of collections.Performer) for (const w of tokenize(p.performer_name)) words.add(foldText(w));
  return [...words].filter((w) => w.length > 0).sort();
}

function arbitraries() {
  const events = catalog.Event;
  const timestamps = events
    .map((e) => e.event_timestamp)
    .filter((t): t is number => t !== null)
    .sort((a, b) => a - b);
  const first = timestamps[0]!;
  const last = timestamps[timestamps.length - 1]!;
  const categories = [...new Set(events.map((e) => e.category))].sort();
  const venues = catalog.Venue;
  const performers = catalog.Performer;
  const words = vocabulary(catalog);

  const word = fc.oneof(
    fc.constantFrom(...words),
    fc.constantFrom(...words).chain((w) => fc.integer({ min: 1, max: w.length }).map((n) => w.slice(0, n))),
    fc.tuple(fc.constantFrom(...words), fc.nat(), fc.constantFrom('a', 'e', 'o', 'x', '')).map(([w, at, c]) => {
      const i = at % w.length;
      return w.slice(0, i) + c + w.slice(i + 1);
    }),
  );
  const text = fc.oneof(
    { weight: 3, arbitrary: fc.constant('*') },
    { weight: 2, arbitrary: fc.array(word, { minLength: 1, maxLength: 3 }).map((w) => w.join(' ')) },
  );
  const near: fc.Arbitrary<[number, number]> = fc
    .tuple(
      fc.constantFrom(...venues),
      fc.double({ min: -1.5, max: 1.5, noNaN: true }),
      fc.double({ min: -1.5, max: 1.5, noNaN: true }),
    )
    .map(([v, dLat, dLng]) => [v.venue_location[0] + dLat, v.venue_location[1] + dLng]);
  const geo = (field: string): fc.Arbitrary<GeoFilter | undefined> =>
    fc.option(
      fc
        .tuple(near, fc.constantFrom(5, 25, 50, 100, 250, 1500))
        .map(([[lat, lng], radiusMiles]) => ({ field, lat, lng, radiusMiles })),
      { freq: 2 },
    );
  // Times between events, and the first and last time of each venue's run of a category (where an index may
  // stop its search), so that open and closed bounds differ where it shows.
  const runEnds = new Map<string, [number, number]>();
  for (const e of events) {
    if (e.event_timestamp === null) continue;
    const key = [e.venue_id, e.category, e.event_status].join('|');
    const [lo, hi] = runEnds.get(key) ?? [Infinity, -Infinity];
    runEnds.set(key, [Math.min(lo, e.event_timestamp), Math.max(hi, e.event_timestamp)]);
  }
  const edges = [...new Set([...runEnds.values()].flat())];
  const time = fc.oneof(fc.integer({ min: first - 86_400, max: last + 86_400 }), fc.constantFrom(...edges));
  const page = fc.record({ page: fc.integer({ min: 1, max: 3 }), perPage: fc.constantFrom(0, 1, 3, 5, 10, 25, 100) });

  const eventFilter: fc.Arbitrary<Filter> = fc.oneof(
    fc
      .tuple(time, time)
      .map(([a, b]): Filter => ({ op: 'between', field: 'event_timestamp', min: Math.min(a, b), max: Math.max(a, b) })),
    fc
      .tuple(fc.constantFrom('gt', 'gte', 'lt', 'lte' as const), time)
      .map(([op, value]): Filter => ({ op, field: 'event_timestamp', value })),
    fc.constant<Filter>({ op: 'neq', field: 'event_status', value: 'cancelled' }),
    fc
      .constantFrom('scheduled', 'postponed', 'cancelled')
      .map((value): Filter => ({ op: 'eq', field: 'event_status', value })),
    fc
      .subarray(categories, { minLength: 1, maxLength: 4 })
      .map((values): Filter => ({ op: 'in', field: 'category', values })),
    fc.constantFrom(...categories).map((value): Filter => ({ op: 'neq', field: 'category', value })),
    fc
      .subarray(['SPORTS', 'CONCERTS', 'THEATRE', 'OTHER'], { minLength: 1 })
      .map((values): Filter => ({ op: 'in', field: 'major_category', values })),
    fc.constantFrom(...performers).map((p): Filter => ({ op: 'eq', field: 'performer_ids', value: p.performer_id })),
    fc.constantFrom(...venues).map((v): Filter => ({ op: 'eq', field: 'venue_id', value: v.venue_id })),
    fc.constantFrom(...events).map((e): Filter => ({ op: 'eq', field: 'event_id', value: e.event_id })),
    fc.integer({ min: 20, max: 400 }).map((value): Filter => ({ op: 'gt', field: 'min_ticket_price', value })),
    fc.integer({ min: 0, max: 200 }).map((value): Filter => ({ op: 'gte', field: 'event_orders_d7', value })),
  );
  const eventSort: fc.Arbitrary<SortKey[]> = fc.oneof(
    fc.constantFrom<SortKey[]>(
      [
        { by: 'event_timestamp', order: 'asc' },
        { by: 'event_orders_t12', order: 'desc' },
      ],
      [
        { by: 'event_orders_t12', order: 'desc' },
        { by: 'event_timestamp', order: 'asc' },
      ],
      [
        { by: 'event_orders_d7', order: 'desc' },
        { by: 'event_timestamp', order: 'asc' },
      ],
      [{ by: 'event_orders_t12', order: 'desc' }],
      [{ by: 'event_orders_d7', order: 'desc' }],
      [{ by: 'event_timestamp', order: 'asc' }],
      [],
    ),
    fc.array(
      fc.record({
        by: fc.constantFrom(
          'event_timestamp',
          'event_orders_t12',
          'min_ticket_price',
          'event_name',
          'category',
          '_text_match',
          '_geo_distance',
        ),
        order: fc.constantFrom('asc' as const, 'desc' as const),
      }),
      { maxLength: 3 },
    ),
  );
  const eventRequest = fc
    .record({
      q: text,
      filters: fc.array(eventFilter, { maxLength: 4 }),
      geo: geo('venue_location'),
      sort: eventSort,
      paging: page,
      by: fc.constantFrom<string[]>(
        ['event_name', 'performer_names', 'venue_name', 'venue_city'],
        ['event_name', 'venue_name'],
        ['venue_city'],
      ),
    })
    .map(({ q, filters, geo, sort, paging, by }): SearchRequest => ({
      collection: 'Event',
      q,
      queryBy: by,
      filters,
      ...(geo ? { geo } : {}),
      sort: geo ? sort : sort.filter((k) => k.by !== '_geo_distance'),
      ...paging,
    }));

  const performerRequest = fc
    .record({
      q: text,
      filters: fc.array(
        fc.oneof(
          fc.integer({ min: 0, max: 100 }).map((value): Filter => ({ op: 'gt', field: 'events_available', value })),
          fc.integer({ min: 5, max: 120 }).map((value): Filter => ({ op: 'lt', field: 'events_available', value })),
          fc
            .subarray(categories, { minLength: 1, maxLength: 3 })
            .map((values): Filter => ({ op: 'in', field: 'category', values })),
          fc
            .subarray(['SPORTS', 'CONCERTS', 'THEATRE', 'OTHER'], { minLength: 1 })
            .map((values): Filter => ({ op: 'in', field: 'parent', values })),
          fc
            .subarray(
              performers.slice(0, 40).map((p) => p.performer_id),
              { minLength: 1, maxLength: 9 },
            )
            .map((values): Filter => ({ op: 'in', field: 'performer_id', values })),
          fc
            .integer({ min: 50, max: 500 })
            .map((value): Filter => ({ op: 'lt', field: 'venues.min_ticket_price', value })),
        ),
        { maxLength: 3 },
      ),
      geo: geo('venue_locations'),
      sort: fc.constantFrom<SortKey[]>(
        [
          { by: 'performer_orders_t12', order: 'desc' },
          { by: 'order_rank', order: 'asc' },
        ],
        [{ by: 'performer_orders_d7', order: 'desc' }],
        [
          { by: '_text_match', order: 'desc' },
          { by: 'order_rank', order: 'asc' },
        ],
        [{ by: 'performer_name', order: 'asc' }],
      ),
      paging: page,
    })
    .map(({ q, filters, geo, sort, paging }): SearchRequest => ({
      collection: 'Performer',
      q,
      queryBy: ['performer_name'],
      filters,
      ...(geo ? { geo } : {}),
      sort,
      ...paging,
    }));

  const venueRequest = fc
    .record({
      q: text,
      geo: geo('venue_location'),
      min: fc.integer({ min: -1, max: 300 }),
      distanceFirst: fc.boolean(),
      paging: page,
    })
    .map(({ q, geo, min, distanceFirst, paging }): SearchRequest => ({
      collection: 'Venue',
      q,
      queryBy: ['venue_name', 'venue_city'],
      filters: [{ op: 'gt', field: 'events_available', value: min }],
      ...(geo ? { geo } : {}),
      sort:
        geo && distanceFirst
          ? [{ by: '_geo_distance', order: 'asc' }]
          : [
              { by: 'events_available', order: 'desc' },
              { by: 'total_inventory_value', order: 'desc' },
            ],
      ...paging,
    }));

  const cityRequest = fc
    .record({ q: text, geo: geo('location'), paging: page })
    .map(({ q, geo, paging }): SearchRequest => ({
      collection: 'USCity',
      q,
      queryBy: ['city', 'state_name'],
      queryByWeights: [5, 1],
      ...(geo
        ? { geo, sort: [{ by: '_geo_distance', order: 'asc' }] }
        : {
            sort: [
              { by: '_text_match', order: 'desc' },
              { by: 'population', order: 'desc' },
            ],
          }),
      ...paging,
    }));

  return {
    eventRequest,
    performerRequest,
    venueRequest,
    cityRequest,
    events: fc.constantFrom(...events),
    venues: fc.constantFrom(...venues),
    categories,
    time,
    runEnds,
  };
}

describe('EmbeddedEngine against a brute-force reference', () => {
  it('answers random event requests alike', async () => {
    await fc.assert(
      fc.asyncProperty(arbitraries().eventRequest, (request) => expectSameAnswer(engine, reference, request)),
      { numRuns: 1500 },
    );
  });

  it('answers random event requests alike when every popularity row merges the ranked lists', async () => {
    const merging = await EmbeddedEngine.build(catalog, { gatherBelow: 0 });
    await fc.assert(
      fc.asyncProperty(arbitraries().eventRequest, (request) => expectSameAnswer(merging, reference, request)),
      { numRuns: 600 },
    );
  });

  it("counts and pages alike at the first and last time of each venue's run, with open and closed bounds", async () => {
    const { runEnds } = arbitraries();
    const venues = new Map(catalog.Venue.map((v) => [v.venue_id, v]));
    for (const [key, [firstAt, lastAt]] of [...runEnds].slice(0, 150)) {
      const [venueId, category, status] = key.split('|') as [string, string, EventDocument['event_status']];
      const [lat, lng] = venues.get(Number(venueId))!.venue_location;
      for (const bound of [
        { op: 'gt', value: firstAt },
        { op: 'gte', value: firstAt },
        { op: 'lt', value: lastAt },
        { op: 'lte', value: lastAt },
      ] as const) {
        await expectSameAnswer(engine, reference, {
          collection: 'Event',
          filters: [
            { ...bound, field: 'event_timestamp' },
            { op: 'in', field: 'category', values: [category] },
            { op: 'eq', field: 'event_status', value: status },
          ],
          geo: { field: 'venue_location', lat, lng, radiusMiles: 5 },
          sort: [{ by: 'event_timestamp', order: 'asc' }],
          perPage: 3,
        });
      }
    }
  });

  it('answers random performer, venue and city requests alike', async () => {
    const { performerRequest, venueRequest, cityRequest } = arbitraries();
    await fc.assert(
      fc.asyncProperty(fc.oneof(performerRequest, venueRequest, cityRequest), (request) =>
        expectSameAnswer(engine, reference, request),
      ),
      { numRuns: 1500 },
    );
  });

  it('answers alike when opened from its snapshot', async () => {
    const opened = await EmbeddedEngine.open(snapshotFile, 'equivalence');
    const { eventRequest, performerRequest, venueRequest, cityRequest } = arbitraries();
    const request = fc.oneof({ weight: 3, arbitrary: eventRequest }, performerRequest, venueRequest, cityRequest);
    await fc.assert(
      fc.asyncProperty(request, (r) => expectSameAnswer(opened, reference, r)),
      { numRuns: 800 },
    );
    expect(COLLECTION_NAMES.every((name) => opened.count(name) === catalog[name].length)).toBe(true);
  });

  it(
    'still answers alike after a random run of upserts and deletes, with no ' +
      'rebuild, built or opened from a snapshot',
    async () => {
      const { eventRequest, events, venues, categories, time } = arbitraries();
      const change = fc.oneof(
        fc.record({ kind: fc.constant('delete' as const), event: events }),
        fc.record({
          kind: fc.constant('upsert' as const),
          event: events,
          asNew: fc.boolean(),
          venue: fc.option(venues),
          category: fc.option(fc.constantFrom(...categories)),
          status: fc.option(
            fc.constantFrom('scheduled', 'cancelled', 'postponed') as fc.Arbitrary<EventDocument['event_status']>,
          ),
          timestamp: fc.option(fc.option(time)),
          orders: fc.option(fc.nat({ max: 5000 })),
          name: fc.option(fc.constantFrom('Garden Party Live', 'Yankees Classic Night', 'Brand New Show')),
          performers: fc.option(fc.subarray(catalog.Performer.slice(0, 40), { minLength: 1, maxLength: 5 })),
        }),
      );
      await fc.assert(
        fc.asyncProperty(
          fc.array(change, { minLength: 1, maxLength: 60 }),
          fc.array(eventRequest, { minLength: 5, maxLength: 5 }),
          fc.boolean(),
          fc.boolean(),
          async (changes, requests, opened, merging) => {
            // Merging: popularity rows always walk the partitions' ranked lists (otherwise only past 2,000 documents).
            const tuning = merging ? { gatherBelow: 0 } : {};
            const live = opened
              ? await EmbeddedEngine.open(snapshotFile, 'equivalence', tuning)
              : await EmbeddedEngine.build(catalog, tuning);
            // The reference is rebuilt from the documents as they end up, in slot order (new ids last).
            const order = catalog.Event.map((e) => e.id);
            const current = new Map<string, EventDocument | null>(catalog.Event.map((e) => [e.id, e]));
            let nextId = 9_000_000;
            for (const c of changes) {
              if (c.kind === 'delete') {
                expect(live.delete('Event', c.event.id)).toBe(
                  current.get(c.event.id) !== null && current.has(c.event.id),
                );
                if (current.has(c.event.id)) current.set(c.event.id, null);
                continue;
              }
              const base = current.get(c.event.id) ?? c.event;
              const id = c.asNew ? nextId++ : base.event_id;
              const doc: EventDocument = {
                ...base,
                id: String(id),
                event_id: id,
                ...(c.venue
                  ? {
                      venue_id: c.venue.venue_id,
                      venue_name: c.venue.venue_name,
                      venue_city: c.venue.venue_city,
                      venue_location: c.venue.venue_location,
                    }
                  : {}),
                ...(c.category ? { category: c.category } : {}),
                ...(c.status ? { event_status: c.status } : {}),
                ...(c.timestamp !== null ? { event_timestamp: c.timestamp } : {}),
                ...(c.orders !== null ? { event_orders_t12: c.orders, event_orders_d7: c.orders % 97 } : {}),
                ...(c.name ? { event_name: c.name } : {}),
                ...(c.performers
                  ? {
                      performer_ids: c.performers.map((p) => p.performer_id),
                      performer_names: c.performers.map((p) => p.performer_name),
                    }
                  : {}),
              };
              live.upsert('Event', doc);
              if (!current.has(doc.id)) order.push(doc.id);
              current.set(doc.id, doc);
            }
            const collections = {
              ...catalog,
              Event: order.flatMap((id) => (current.get(id) ? [current.get(id)!] : [])),
            };
            const rebuilt = await ScanningEngine.build(collections, { bruteForce: true });
            expect(live.count('Event')).toBe(collections.Event.length);
            for (const request of requests) await expectSameAnswer(live, rebuilt, request);
          },
        ),
        { numRuns: 25 },
      );
    },
    120_000,
  );

  it('covers every collection', () => {
    expect(COLLECTION_NAMES.every((name) => engine.count(name) === catalog[name].length)).toBe(true);
  });
});
