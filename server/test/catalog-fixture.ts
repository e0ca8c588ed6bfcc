import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { generateCatalog } from '../catalog/generate/generate-catalog.js';
import { loadCatalog, type Catalog } from '../catalog/load-catalog.js';
import { parseEnv } from '../config/env.js';
import { createSearchEngine } from '../search/create-engine.js';
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
