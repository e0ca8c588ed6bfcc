import path from 'node:path';
import { loadCatalog, type Catalog } from '../catalog/load-catalog.js';
import { catalogFingerprint, readManifest, type CatalogManifest } from '../catalog/manifest.js';
import type { Env } from '../config/env.js';
import { CachedEngine } from './cached-engine.js';
import { EmbeddedEngine, type FoldedChanges } from './embedded/embedded-engine.js';
import { SnapshotError } from './embedded/snapshot.js';
import type { CatalogEngine, SearchEngine } from './search-engine.js';
import { EmbeddedCatalog } from './embedded/embedded-catalog.js';
import { TypesenseEngine } from './typesense/typesense-engine.js';
import { TypesenseCatalog } from './typesense/typesense-catalog.js';
import { clientOptions } from '../config/typesense.js';
import { Client } from 'typesense';

/** The embedded engine's state, saved beside the catalog it was built from. */
export const SNAPSHOT_FILE = 'engine.snapshot';

export interface OpenedCatalog {
  manifest: CatalogManifest;
  engine: CachedEngine;
  /** The engine catalog changes are written to. */
  writable?: CatalogEngine;
  /** How the embedded engine got its documents, and why not from its snapshot; absent for Typesense. */
  embedded?: { from: 'snapshot' | 'files'; note: string };
  /** The catalog changes the engine's documents already include (folded into its snapshot). */
  folded?: FoldedChanges;
  /** Saves the engine's snapshot again with the changes applied so far folded in (embedded engine only). */
  fold?: (folded: FoldedChanges) => Promise<number>;
}

export interface OpenOptions {
  /** The change log the store keeps: a snapshot with changes of another log folded in is not used. */
  changeLog?: string;
}

/**
 * Opens the catalog in `dir` and the engine that answers over it, behind the result cache: Typesense when
 * `TYPESENSE_*` names a node (its collections are filled by `npm run search:index`), otherwise the embedded
 * engine. That one opens its snapshot when the snapshot was made from these very files by this engine's code;
 * else it is fed document by document as the files are read and validated, and saves a new snapshot. Pages
 * read every document through the engine, so none is kept anywhere else.
 */
export async function openCatalog(env: Env, dir: string, options: OpenOptions = {}): Promise<OpenedCatalog> {
  if (env.typesense) {
    const engine = await typesense(env);
    const manifest = await readManifest(dir);
    if (!manifest) throw new Error(`no catalog in ${dir}: run \`npm run catalog\` first`);
    const writable = new TypesenseCatalog(new Client(clientOptions(env.typesense)), env.typesense.collectionPrefix);
    return { manifest, engine: cached(env, engine), writable };
  }
  const file = path.join(dir, SNAPSHOT_FILE);
  const source = await catalogFingerprint(dir).catch(() => null);
  const manifest = await readManifest(dir);
  let note: string;
  try {
    if (!source || !manifest) throw new SnapshotError(`no catalog in ${dir}`);
    const embedded = await EmbeddedEngine.open(file, source);
    // Changes of another log (a store that was reset or replaced) cannot be told apart from the files' documents.
    if (embedded.folded && embedded.folded.log !== options.changeLog)
      throw new SnapshotError(`${file} holds changes of another change log`);
    const fold = (folded: FoldedChanges) => embedded.save(file, source, folded);
    return {
      manifest,
      engine: cached(env, embedded),
      writable: new EmbeddedCatalog(embedded),
      embedded: { from: 'snapshot', note: `opened ${file}` },
      folded: embedded.folded,
      fold,
    };
  } catch (error) {
    if (!(error instanceof SnapshotError)) throw error;
    note = error.message;
  }
  const embedded = new EmbeddedEngine();
  const loaded = await loadCatalog(dir, { visit: (name, doc) => embedded.upsert(name, doc) });
  // Saved only when the files did not change while they were read; a failure to save costs the next start time.
  const after = await catalogFingerprint(dir).catch(() => null);
  if (source && JSON.stringify(after) === JSON.stringify(source)) {
    note = await embedded.save(file, source).then(
      (bytes) => `${note}; built from the files and saved ${file} (${Math.round(bytes / 2 ** 20)} MiB)`,
      (error: Error) => `${note}; built from the files, could not save ${file}: ${error.message}`,
    );
  } else note = `${note}; built from the files, which changed while they were read: not saved`;
  const fold = (folded: FoldedChanges) => (source ? embedded.save(file, source, folded) : Promise.resolve(0));
  return {
    manifest: loaded.manifest,
    engine: cached(env, embedded),
    writable: new EmbeddedCatalog(embedded),
    embedded: { from: 'files', note },
    fold,
  };
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
