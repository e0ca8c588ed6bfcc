/**
 * Search latency and memory of the embedded engine over a generated catalog, uncached (every query reaches
 * the engine). A suggest call asks its groups together and is timed as one:
 *   npx tsx bench/search-latency.ts --events 20000 [--events 1000000]
 * Prints one JSON line per catalog size; `npm run bench` records them in bench/RESULTS.md. Each row kind is
 * also timed on the scanning engine the storefront used before, in the same process over the same requests,
 * as `rowsAgainstScanning` (median ms of each and their ratio).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { generateCatalog } from '../server/catalog/generate/generate-catalog.js';
import { loadCatalog } from '../server/catalog/load-catalog.js';
import { CATALOG_GENERATOR_VERSION, readManifest } from '../server/catalog/manifest.js';
import { CATEGORY_RADIUS_MILES, LOCAL_RADIUS_MILES } from '../shared/rules/constants.js';
import { EmbeddedEngine } from '../server/search/embedded/embedded-engine.js';
import { ScanningEngine } from './scanning-engine.js';
import { suggestRequests, trendingPoolRequest } from '../server/search/queries.js';
import type { SearchEngine, SearchRequestFor } from '../server/search/search-engine.js';
import type { CollectionName } from '../shared/schemas/documents.js';
import { percentile } from './stats.js';

const START = '2026-11-21';

/** Times each batch of requests as one call, as a suggest answer asks its groups together. */
async function time(engine: SearchEngine, batches: SearchRequestFor<CollectionName>[][], rounds: number) {
  const samples: number[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const batch of batches) {
      const t = performance.now();
      await Promise.all(batch.map((request) => engine.search(request)));
      samples.push(performance.now() - t);
    }
  }
  samples.sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 1000) / 1000;
  return { queries: samples.length, medianMs: round(percentile(samples, 50)), p99Ms: round(percentile(samples, 99)) };
}

async function benchSize(events: number) {
  const dir = path.resolve('bench/out', `catalog-${events}`);
  const manifest = existsSync(path.join(dir, 'manifest.json')) ? await readManifest(dir) : null;
  if (manifest?.events !== events || manifest.generator !== CATALOG_GENERATOR_VERSION) {
    await generateCatalog({ events, seed: 22791, start: START, outDir: dir });
  }
  global.gc?.();
  const rssBefore = process.memoryUsage().rss;
  let t = performance.now();
  const catalog = await loadCatalog(dir);
  const loadMs = performance.now() - t;
  t = performance.now();
  const engine = await EmbeddedEngine.build(catalog.collections);
  const buildMs = performance.now() - t;
  global.gc?.();
  const rssAfter = process.memoryUsage().rss;

  // Typed prefixes of real performer and venue names, as a shopper types them.
  const names = catalog.collections.Performer.slice(0, 40).map((p) => p.performer_name.toLowerCase());
  const prefixes = names.flatMap((n) =>
    [1, 2, 3, 5, 8].map((k) => n.slice(0, k)).filter((p, i, a) => a.indexOf(p) === i),
  );
  const now = Date.UTC(2026, 10, 21) / 1000;
  const suggest = prefixes.map((q) => {
    const r = suggestRequests(q, false, now);
    return [r.performers, r.venues] as SearchRequestFor<CollectionName>[];
  });
  const suggestExtra = prefixes.map((q) => {
    const r = suggestRequests(q, true, now);
    return [r.performers, r.venues, r.cities!, r.events!] as SearchRequestFor<CollectionName>[];
  });
  const metros: [number, number][] = [
    [40.7128, -74.006],
    [34.0522, -118.2437],
    [41.8781, -87.6298],
    [29.7604, -95.3698],
    [47.6062, -122.3321],
  ];
  const near = (field: string, [lat, lng]: [number, number], radiusMiles: number) => ({ field, lat, lng, radiusMiles });
  const upcoming = { op: 'between' as const, field: 'event_timestamp', min: now, max: now + 3650 * 86400 };
  // The row queries a cold page makes, by kind.
  const kinds: Record<string, SearchRequestFor<CollectionName>[]> = {
    'events near, soonest': metros.map((m) => ({
      collection: 'Event',
      filters: [{ op: 'between', field: 'event_timestamp', min: now, max: now + 60 * 86400 }],
      geo: near('venue_location', m, LOCAL_RADIUS_MILES),
      sort: [{ by: 'event_timestamp', order: 'asc' }],
      perPage: 5,
    })),
    'events near by category, popular': metros.map((m) => ({
      collection: 'Event',
      filters: [
        { op: 'eq', field: 'category', value: 'nba' },
        { op: 'gte', field: 'event_timestamp', value: now },
      ],
      geo: near('venue_location', m, CATEGORY_RADIUS_MILES),
      sort: [{ by: 'event_orders_t12', order: 'desc' }],
      perPage: 9,
    })),
    'performers near, popular': metros.map((m) => ({
      collection: 'Performer',
      geo: near('venue_locations', m, LOCAL_RADIUS_MILES),
      sort: [{ by: 'performer_orders_t12', order: 'desc' }],
      perPage: 4,
    })),
    'venues near': metros.map((m) => ({
      collection: 'Venue',
      filters: [{ op: 'gt', field: 'events_available', value: 0 }],
      geo: near('venue_location', m, LOCAL_RADIUS_MILES),
      sort: [{ by: 'events_available', order: 'desc' }],
      perPage: 8,
    })),
    'category tile counts': metros.flatMap((m) =>
      ['nba', 'nfl', 'rock', 'broadway'].map((value): SearchRequestFor<'Event'> => ({
        collection: 'Event',
        filters: [
          { op: 'in', field: 'category', values: [value] },
          upcoming,
          { op: 'neq', field: 'event_status', value: 'cancelled' },
        ],
        geo: near('venue_location', m, LOCAL_RADIUS_MILES),
        perPage: 0,
      })),
    ),
    'trending performers pool': [trendingPoolRequest()],
  };
  const rows = Object.values(kinds).flat();

  // One warm-up pass, then the measured rounds.
  await time(engine, [...suggestExtra, ...rows.map((r) => [r])], 1);
  const figures = {
    events,
    documents: Object.values(catalog.manifest.counts).reduce((a, b) => a + b, 0),
    loadMs: Math.round(loadMs),
    indexBuildMs: Math.round(buildMs),
    rssMiB: Math.round(rssAfter / 2 ** 20),
    rssGrowthMiB: Math.round((rssAfter - rssBefore) / 2 ** 20),
    suggest: await time(engine, suggest, 3),
    suggestWithExtraSources: await time(engine, suggestExtra, 3),
    rows: await time(
      engine,
      rows.map((r) => [r]),
      5,
    ),
  };

  // Each kind again on the scanning engine, in this process over the same requests: medians and their ratio.
  const scanning = await ScanningEngine.build(catalog.collections);
  const rowsAgainstScanning: Record<string, { embeddedMs: number; scanningMs: number; ratio: number }> = {};
  for (const [kind, requests] of Object.entries({ ...kinds, 'suggest with extra sources': suggestExtra.flat() })) {
    const median = async (e: SearchEngine) => {
      await time(
        e,
        requests.map((r) => [r]),
        1,
      );
      return (
        await time(
          e,
          requests.map((r) => [r]),
          3,
        )
      ).medianMs;
    };
    const embeddedMs = await median(engine);
    const scanningMs = await median(scanning);
    rowsAgainstScanning[kind] = { embeddedMs, scanningMs, ratio: Math.round(scanningMs / Math.max(embeddedMs, 0.001)) };
  }
  return { ...figures, rowsAgainstScanning };
}

const { values } = parseArgs({ options: { events: { type: 'string', multiple: true } } });
for (const n of values.events ?? ['20000']) {
  console.log(JSON.stringify(await benchSize(Number(n))));
}
