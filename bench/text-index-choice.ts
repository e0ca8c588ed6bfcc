/**
 * MiniSearch against Orama as the embedded engine's text index, on the same generated catalog:
 *   npx tsx --expose-gc bench/text-index-choice.ts [--events 20000]
 * Measures index build time, heap growth and typed-prefix query latency over the event and performer names.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { create, insertMultiple, search as oramaSearch } from '@orama/orama';
import MiniSearch from 'minisearch';
import { generateCatalog } from '../server/catalog/generate/generate-catalog.js';
import { loadCatalog } from '../server/catalog/load-catalog.js';
import { readManifest } from '../server/catalog/manifest.js';
import { foldText, tokenize } from '../server/search/embedded/text.js';
import { percentile } from './stats.js';

const { values } = parseArgs({ options: { events: { type: 'string', default: '20000' } } });
const events = Number(values.events);
const dir = path.resolve('bench/out', `catalog-${events}`);
if ((await readManifest(dir))?.events !== events) await generateCatalog({ events, seed: 22791, start: '2026-11-21', outDir: dir });
const catalog = await loadCatalog(dir);
const rows = catalog.collections.Event.map((e, i) => ({ id: String(i), event_name: e.event_name, venue_name: e.venue_name }));
const queries = catalog.collections.Performer.slice(0, 60).flatMap((p) => {
  const n = p.performer_name.toLowerCase();
  return [2, 3, 5, 8].map((k) => n.slice(0, k));
});

const heap = () => {
  globalThis.gc?.();
  return process.memoryUsage().heapUsed;
};
const stats = (samples: number[]) => {
  samples.sort((a, b) => a - b);
  return { medianMs: +percentile(samples, 50).toFixed(3), p99Ms: +percentile(samples, 99).toFixed(3) };
};

async function measure(name: string, build: () => Promise<(q: string) => Promise<number>>) {
  const before = heap();
  const t = performance.now();
  const query = await build();
  const buildMs = Math.round(performance.now() - t);
  const heapMiB = Math.round((heap() - before) / 2 ** 20);
  for (const q of queries) await query(q);
  const samples: number[] = [];
  let hits = 0;
  for (let round = 0; round < 3; round++) {
    for (const q of queries) {
      const s = performance.now();
      hits += await query(q);
      samples.push(performance.now() - s);
    }
  }
  return { engine: name, events, buildMs, heapMiB, ...stats(samples), hits };
}

const mini = await measure('minisearch', async () => {
  const index = new MiniSearch({ fields: ['event_name', 'venue_name'], tokenize, processTerm: (t) => foldText(t) || null });
  index.addAll(rows);
  return async (q) =>
    index.search(q, {
      combineWith: 'AND',
      boost: { event_name: 2 },
      prefix: (_t, i, all) => i === all.length - 1,
      fuzzy: false,
    }).length;
});
const orama = await measure('orama', async () => {
  const db = create({ schema: { event_name: 'string', venue_name: 'string' } as const });
  await insertMultiple(db, rows, 5000);
  return async (q) => {
    const result = await oramaSearch(db, { term: q, properties: ['event_name', 'venue_name'], boost: { event_name: 2 }, threshold: 0, limit: 10 });
    return result.count;
  };
});
console.log(JSON.stringify(mini));
console.log(JSON.stringify(orama));
