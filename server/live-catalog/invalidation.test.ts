import { pino } from 'pino';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventDocument } from '../../shared/schemas/documents.js';
import { LayoutResponseSchema, type LayoutResponse } from '../../shared/schemas/layout.js';
import { parseEnv } from '../config/env.js';
import { LayoutAnswers } from '../layout/layout-answers.js';
import type { LayoutService } from '../layout/layout-service.js';
import { CachedEngine } from '../search/cached-engine.js';
import { EmbeddedCatalog } from '../search/embedded/embedded-catalog.js';
import { EmbeddedEngine } from '../search/embedded/embedded-engine.js';
import { SearchService } from '../search/search-service.js';
import type { Sql } from '../store/sql.js';
import { catalogFixture, type CatalogFixture } from '../test/catalog-fixture.js';
import { testAppWithSegments } from '../test/test-app.js';
import { ChangeLog } from './change-log.js';
import { Invalidator, type SliceReport } from './invalidation.js';
import { LiveCatalog } from './live-catalog.js';
import { openMigratedPglite } from '../store/test-stores.js';

/** A budget small enough that the invalidation of a few dozen pages takes many slices. */
const BUDGET = 60;

let fixture: CatalogFixture;
let sql: Sql;
let made: Awaited<ReturnType<typeof testAppWithSegments>>;
let app: Awaited<ReturnType<typeof testAppWithSegments>>['app'];
let layout: LayoutService;
let live: LiveCatalog;
let invalidator: Invalidator;
const slices: SliceReport[] = [];
/** What each chunk's invalidation returned. */
const returned: Promise<void>[] = [];

beforeAll(async () => {
  fixture = await catalogFixture(1_500, 36);
  sql = await openMigratedPglite();
  const embedded = await EmbeddedEngine.build(fixture.catalog.collections);
  const search = new SearchService();
  const engine = new CachedEngine(embedded);
  search.set(engine, new EmbeddedCatalog(embedded));
  invalidator = new Invalidator(() => ({ engine, layout: made.deps.layout, fastLane: made.app.fastLane }), {
    sliceUnits: BUDGET,
    sliceMs: Infinity,
    onSlice: (report) => void slices.push(report),
  });
  live = new LiveCatalog({
    log: new ChangeLog(sql),
    engine: () => search.catalog,
    onApplied: (changes) => {
      if (!app) return;
      const invalidated = invalidator.applied(changes);
      returned.push(invalidated);
      return invalidated;
    },
    logger: pino({ level: 'silent' }),
  });
  live.attach(fixture.catalog.manifest.generatedAt);
  made = await testAppWithSegments({
    env: parseEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }),
    search,
    catalog: live,
    sql,
  });
  app = made.app;
  layout = made.deps.layout;
}, 60_000);

afterAll(async () => {
  await sql?.close();
  await fixture?.cleanup();
});

/** Home and category layouts at places across the country. */
const PLACES = [
  [40.75, -73.99],
  [34.05, -118.24],
  [41.88, -87.63],
  [29.76, -95.37],
  [33.45, -112.07],
  [39.74, -104.99],
  [47.61, -122.33],
  [25.76, -80.19],
  [42.36, -71.06],
  [36.17, -115.14],
];
const PATHS = PLACES.flatMap(([lat, lng]) =>
  ['home', 'category/concerts', 'category/sports'].map((page) => `/api/layout/${page}?lat=${lat}&lng=${lng}`),
);

/** Every event card of a layout, tabs included: id and name. */
function cards(answer: LayoutResponse): { id: number; name: string }[] {
  return answer.rows.flatMap((row) =>
    row.type === 'events' ? [...row.items, ...(row.tabs ?? []).flatMap((tab) => tab.items)] : [],
  );
}

async function layouts(): Promise<LayoutResponse[]> {
  const answers: LayoutResponse[] = [];
  for (const path of PATHS) {
    const res = await request(app).get(path);
    expect(res.status, path).toBe(200);
    answers.push(LayoutResponseSchema.parse(res.body));
  }
  return answers;
}

describe('invalidation in slices', () => {
  it(
    'splits a large invalidation into slices that each stop at their budget, and once it has finished serves ' +
      'nothing a change made stale, though pages were asked for all along',
    async () => {
      const shown = new Map<number, EventDocument>();
      const events = new Map(fixture.catalog.collections.Event.map((e) => [Number(e.id), e]));
      for (const answer of await layouts()) for (const card of cards(answer)) shown.set(card.id, events.get(card.id)!);
      const rowsBefore = layout.cachedRows;
      expect(shown.size).toBeGreaterThan(20);
      // Every event shown anywhere is renamed, in one write.
      const renamed = [...shown.values()].map((event) => ({ ...event, event_name: `${event.event_name} Revisited` }));
      slices.length = 0;
      const write = live.write(
        'Event',
        'upsert',
        renamed.map((value) => ({ text: JSON.stringify(value), value })),
      );
      // Shoppers keep asking while the slices run: what they are given meanwhile may be stale, but none of it
      // may be kept past the end of the invalidation.
      let asked = 0;
      let whileInvalidating = 0;
      let finished = false;
      void write.finally(() => (finished = true));
      while (!finished) {
        if (layout.invalidating) whileInvalidating++;
        await request(app).get(PATHS[asked++ % PATHS.length]!);
      }
      const outcomes = await write;
      expect(outcomes.every((o) => o.ok)).toBe(true);
      expect(invalidator.pending).toBe(false);
      expect(layout.invalidating).toBe(false);
      expect(whileInvalidating).toBeGreaterThan(1);

      const working = slices.filter((s) => s.units > 0);
      expect(working.length).toBeGreaterThan(10);
      for (const slice of working) expect(slice.units - slice.lastStep).toBeLessThan(BUDGET);
      expect(rowsBefore - layout.cachedRows).toBeGreaterThan(0);

      // Once it has finished, no answer (kept, replayed or built anew) shows a name from before.
      for (const answer of await layouts()) {
        for (const card of cards(answer)) {
          if (shown.has(card.id)) expect(card.name, String(card.id)).toMatch(/ Revisited$/);
        }
      }
    },
    60_000,
  );

  it('gathers the chunks of an import applied while its slices run into one run of slices', async () => {
    await layouts();
    returned.length = 0;
    // More than a chunk (250): the second chunk is applied while the first one's slices run.
    const events = fixture.catalog.collections.Event.slice(0, 300);
    const outcomes = await live.write(
      'Event',
      'upsert',
      events.map((event) => {
        const value = { ...event, event_name: `${event.event_name} Again` };
        return { text: JSON.stringify(value), value };
      }),
    );
    expect(outcomes.every((o) => o.ok)).toBe(true);
    expect(returned).toHaveLength(2);
    expect(returned[1]).toBe(returned[0]);
    expect(invalidator.pending).toBe(false);
    const changed = new Set(events.map((e) => Number(e.id)));
    for (const answer of await layouts()) {
      for (const card of cards(answer)) if (changed.has(card.id)) expect(card.name).toMatch(/ Again$/);
    }
  });

  it('keeps no layout answer built while the rows a change made stale are being dropped', async () => {
    const answers = new LayoutAnswers(layout, made.deps.segments, made.deps.search, made.deps.flags);
    const ask = (lat: number) =>
      answers.answer(
        answers.resolve({
          page: { page: 'home' },
          query: { lat: String(lat), lng: '-73.99' },
          siteBrand: made.deps.segments.defaultBrand,
          guestId: undefined,
          userAgent: undefined,
          url: '/api/layout/home',
        }),
      );
    expect((await ask(40.7)).kept).toBe(true);
    const before = layout.invalidations;
    layout.changed([{ collection: 'Event', document: fixture.catalog.collections.Event[0]! }]);
    expect(layout.invalidating).toBe(true);
    // Another answer key (the place as asked), the same rows (the place as rounded).
    expect((await ask(40.71)).kept).toBe(false);
    while (!layout.dropStale(BUDGET).done);
    expect(layout.invalidating).toBe(false);
    expect(layout.invalidations).toBe(before + 2);
    expect((await ask(40.71)).kept).toBe(true);
  });
});
