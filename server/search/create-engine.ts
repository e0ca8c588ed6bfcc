import type { CollectionName } from '../../schemas/documents.js';
import { loadCatalog, type Catalog } from '../catalog/load-catalog.js';
import type { Env } from '../config/env.js';
import { CachedEngine } from './cached-engine.js';
import { EmbeddedEngine } from './embedded/embedded-engine.js';
import type { SearchEngine } from './search-engine.js';
import { TypesenseEngine } from './typesense/typesense-engine.js';

/** The collections pages read directly by id (the catalog store); the rest live only in the engine. */
const KEPT_IN_MEMORY: readonly CollectionName[] = ['Performer', 'Venue'];

/**
 * Loads the catalog in `dir` and the engine that answers over it: Typesense when `TYPESENSE_*` names a node
 * (its collections are filled by `npm run search:index`), otherwise the embedded engine, fed document by
 * document as the files are read and validated; either behind the result cache.
 */
export async function openCatalog(env: Env, dir: string): Promise<{ catalog: Catalog; engine: CachedEngine }> {
  if (env.typesense) {
    // Typesense holds the collections (filled by `npm run search:index`): only what pages read by id is read.
    const engine = await typesense(env);
    const catalog = await loadCatalog(dir, { read: KEPT_IN_MEMORY });
    return { catalog, engine: cached(env, engine) };
  }
  const embedded = new EmbeddedEngine();
  const catalog = await loadCatalog(dir, { visit: (name, doc) => embedded.upsert(name, doc), keep: KEPT_IN_MEMORY });
  return { catalog, engine: cached(env, embedded) };
}

/** The engine over a catalog already in memory (tests and tools that hold the whole catalog). */
export async function createSearchEngine(env: Env, catalog: Catalog): Promise<CachedEngine> {
  const engine = env.typesense ? await typesense(env) : await EmbeddedEngine.build(catalog.collections);
  return cached(env, engine);
}

/** Typesense could not be reached at start: the search component failed, not the catalog. */
export class SearchStartError extends Error {}

async function typesense(env: Env): Promise<SearchEngine> {
  const engine = new TypesenseEngine(env.typesense!);
  const health = await engine.health();
  if (!health.ok) throw new SearchStartError(health.detail);
  return engine;
}

function cached(env: Env, engine: SearchEngine): CachedEngine {
  return new CachedEngine(engine, { maxBytes: env.SEARCH_CACHE_MB * 2 ** 20 });
}
