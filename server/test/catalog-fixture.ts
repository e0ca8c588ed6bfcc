import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { generateCatalog } from '../catalog/generate/generate-catalog.js';
import { loadCatalog, type Catalog } from '../catalog/load-catalog.js';
import { parseEnv } from '../config/env.js';
import { createSearchEngine } from '../search/create-engine.js';
import type { EventDocument } from '../../shared/schemas/documents.js';
import { SearchService } from '../search/search-service.js';

export interface CatalogFixture {
  /** A scratch folder the test may use; removed by `cleanup`. */
  dir: string;
  catalog: Catalog;
  /** Search over that catalog (the embedded engine behind the result cache), ready to serve. */
  search: SearchService;
  cleanup: () => Promise<void>;
}

/** A generated catalog starting today, loaded and searchable, for API and fault tests. */
export async function catalogFixture(events: number, seed: number): Promise<CatalogFixture> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'storefront-test-'));
  await generateCatalog({
    events,
    seed,
    start: new Date().toISOString().slice(0, 10),
    outDir: path.join(dir, 'catalog'),
  });
  const catalog = await loadCatalog(path.join(dir, 'catalog'));
  const search = new SearchService();
  search.set(await createSearchEngine(parseEnv({}), catalog));
  return { dir, catalog, search, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * Cancels one upcoming event of `catalog` (the last one scheduled more than a week ahead), as an operator would, and
 * returns it. The generator cancels an event only now and then, so a catalog of a few hundred events starting on a
 * given day may have none: a test that needs one makes it. Call it before an engine is built over the catalog.
 */
export function cancelOneEvent(catalog: Catalog): EventDocument {
  const weekAhead = Date.now() / 1000 + 7 * 86_400;
  const events = catalog.collections.Event;
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i]!;
    if (event.event_status !== 'scheduled' || event.event_timestamp === null || event.event_timestamp < weekAhead)
      continue;
    const cancelled: EventDocument = { ...event, event_status: 'cancelled' };
    events[i] = cancelled;
    return cancelled;
  }
  throw new Error('the catalog has no upcoming event to cancel');
}
