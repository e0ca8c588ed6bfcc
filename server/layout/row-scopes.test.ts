import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventDocument } from '../../shared/schemas/documents.js';
import { parseSearchRequest, type Filter, type ParsedSearchRequest } from '../../shared/schemas/search.js';
import { EmbeddedEngine } from '../search/embedded/embedded-engine.js';
import { compileTouches } from '../search/request-touches.js';
import { catalogFixture, type CatalogFixture } from '../test/catalog-fixture.js';
import { RowScopes } from './row-scopes.js';

let fixture: CatalogFixture;
let engine: EmbeddedEngine;
let events: EventDocument[];

beforeAll(async () => {
  fixture = await catalogFixture(600, 12);
  engine = await EmbeddedEngine.build(fixture.catalog.collections);
  events = fixture.catalog.collections.Event;
}, 60_000);

afterAll(() => fixture?.cleanup());

/**
 * Event requests shaped like the rows': a radius around a venue or none, categories, a status, a date window, a
 * performer.
 */
function eventRequests() {
  const categories = [...new Set(events.map((e) => e.category))];
  const times = events.map((e) => e.event_timestamp).filter((t): t is number => t !== null);
  const filter: fc.Arbitrary<Filter> = fc.oneof(
    fc
      .subarray(categories, { minLength: 1, maxLength: 4 })
      .map((values): Filter => ({ op: 'in', field: 'category', values })),
    fc.constantFrom('scheduled', 'cancelled').map((value): Filter => ({ op: 'eq', field: 'event_status', value })),
    fc
      .tuple(fc.constantFrom(...times), fc.integer({ min: 0, max: 90 * 86_400 }))
      .map(([min, span]): Filter => ({ op: 'between', field: 'event_timestamp', min, max: min + span })),
    fc.constantFrom(...events).map((e): Filter => ({ op: 'eq', field: 'performer_ids', value: e.performer_ids[0]! })),
  );
  const geo = fc.option(
    fc.record({
      at: fc.constantFrom(...events),
      dLat: fc.double({ min: -1, max: 1, noNaN: true }),
      dLng: fc.double({ min: -1, max: 1, noNaN: true }),
      radiusMiles: fc.integer({ min: 5, max: 400 }),
    }),
  );
  return fc.record({ filters: fc.array(filter, { maxLength: 3 }), geo }).map(({ filters, geo }): ParsedSearchRequest =>
    parseSearchRequest({
      collection: 'Event',
      filters,
      ...(geo
        ? {
            geo: {
              field: 'venue_location',
              lat: geo.at.venue_location[0] + geo.dLat,
              lng: geo.at.venue_location[1] + geo.dLng,
              radiusMiles: geo.radiusMiles,
            },
          }
        : {}),
      perPage: 250,
    }),
  );
}

describe('compileTouches', () => {
  it('says yes for every document the engine answers a request with', async () => {
    await fc.assert(
      fc.asyncProperty(eventRequests(), async (request) => {
        const touches = compileTouches(request);
        const { hits } = await engine.search(request);
        for (const hit of hits) expect(touches(engine.document('Event', hit.document.id!)!)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe('RowScopes', () => {
  it('finds the same stale rows as testing every request of every row, as rows come and go', () => {
    const rows = fc.array(fc.array(eventRequests(), { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 60 });
    // A changed document: an event as it is, or moved to another event's venue.
    const changed = fc
      .tuple(fc.constantFrom(...events), fc.option(fc.constantFrom(...events)))
      .map(([e, to]) => ({ ...e, ...(to ? { venue_location: to.venue_location } : {}) }));
    fc.assert(
      fc.property(
        rows,
        fc.array(changed, { minLength: 1, maxLength: 10 }),
        fc.array(fc.nat(), { maxLength: 20 }),
        (made, docs, dropped) => {
          const scopes = new RowScopes();
          const kept = new Map<string, ParsedSearchRequest[]>();
          made.forEach((requests, i) => {
            scopes.add(`row ${i}`, requests);
            kept.set(`row ${i}`, requests);
          });
          for (const n of dropped) {
            const key = `row ${n % made.length}`;
            scopes.remove(key);
            kept.delete(key);
          }
          const expected = [...kept]
            .filter(([, requests]) => requests.some((r) => docs.some((d) => compileTouches(r)(d))))
            .map(([key]) => key);
          expect([...scopes.stale(docs.map((document) => ({ collection: 'Event', document })))].sort()).toEqual(
            expected.sort(),
          );
          expect(scopes.size).toBe(kept.size);
        },
      ),
      { numRuns: 200 },
    );
  });
});
