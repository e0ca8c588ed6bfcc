import type { Catalog } from '../catalog/load-catalog.js';
import type { Env } from '../config/env.js';
import { CachedEngine } from './cached-engine.js';
import { EmbeddedEngine } from './embedded/embedded-engine.js';
import type { SearchEngine } from './search-engine.js';
import { TypesenseEngine } from './typesense/typesense-engine.js';

/**
 * Typesense when `TYPESENSE_*` names a node (its collections are filled by `npm run search:index`),
 * otherwise the embedded engine over the loaded catalog; either behind the result cache.
 */
export async function createSearchEngine(env: Env, catalog: Catalog): Promise<CachedEngine> {
  let engine: SearchEngine;
  if (env.typesense) {
    engine = new TypesenseEngine(env.typesense);
    const health = await engine.health();
    if (!health.ok) throw new Error(health.detail);
  } else {
    engine = await EmbeddedEngine.build(catalog.collections);
  }
  return new CachedEngine(engine, { maxBytes: env.SEARCH_CACHE_MB * 2 ** 20 });
}
