import { COLLECTION_NAMES, type CollectionDocuments, type CollectionName } from '../../../shared/schemas/documents.js';
import { parseSearchRequest, type SearchHit, type SearchResult } from '../../../shared/schemas/search.js';
import type { SearchEngine, SearchRequestFor } from '../search-engine.js';
import { CollectionIndex } from './collection-index.js';
import { engineFingerprint } from './engine-fingerprint.js';
import { readSnapshot, SnapshotError, SnapshotWriter, writeSnapshot } from './snapshot.js';
import { Turns } from './turns.js';

type Doc = Record<string, unknown>;

/** Below this many documents in the date windows, a popularity row gathers them all instead of merging. */
const GATHER_BELOW = 2_000;

/** Catalog changes folded into a snapshot: those of one change log, up to a sequence number. */
export interface FoldedChanges {
  log: string;
  through: number;
}

/** Where the engine switches between ways of answering; the answers are the same either side. */
export interface EngineTuning {
  /** Documents in the date windows below which a popularity row gathers them all instead of merging. */
  gatherBelow?: number;
}
/** Documents added between yields to the event loop while building, so the server keeps answering. */
const BUILD_CHUNK = 2_000;

/**
 * The default search engine: each collection in columns, a word index for text, exact-value postings, a grid
 * of points, and for events, partitions by venue, category and status sorted by start time and popularity
 * (`partitions.ts`). Documents can be upserted and deleted one at a time while serving.
 */
export class EmbeddedEngine implements SearchEngine {
  readonly kind = 'embedded' as const;
  private readonly indexes = new Map<CollectionName, CollectionIndex>();
  /** Queries are answered in slices of the event loop (`turns.ts`), so no burst of them is one long task. */
  private readonly turns = new Turns();

  constructor(tuning: EngineTuning = {}) {
    for (const name of COLLECTION_NAMES)
      this.indexes.set(name, new CollectionIndex(name, tuning.gatherBelow ?? GATHER_BELOW));
  }

  /** An engine over whole collections, yielding to the event loop every few thousand documents. */
  static async build(
    collections: { [C in CollectionName]?: readonly CollectionDocuments[C][] },
    tuning: EngineTuning = {},
  ): Promise<EmbeddedEngine> {
    const engine = new EmbeddedEngine(tuning);
    for (const name of COLLECTION_NAMES) {
      const docs = collections[name] ?? [];
      for (let i = 0; i < docs.length; i++) {
        engine.upsert(name, docs[i]!);
        if (i % BUILD_CHUNK === BUILD_CHUNK - 1) await yieldToEventLoop();
      }
    }
    return engine;
  }

  /** Adds a document, or replaces the one with its id in place. */
  upsert<C extends CollectionName>(collection: C, doc: CollectionDocuments[C]): void {
    this.indexes.get(collection)!.upsert(doc as unknown as Doc);
  }

  /** Removes a document; false when there was none with that id. */
  delete(collection: CollectionName, id: string): boolean {
    return this.indexes.get(collection)!.delete(id);
  }

  /** The stored document with this id, or undefined when there is none. */
  document<C extends CollectionName>(collection: C, id: string): CollectionDocuments[C] | undefined {
    return this.indexes.get(collection)!.document(id) as CollectionDocuments[C] | undefined;
  }

  count(collection: CollectionName): number {
    return this.indexes.get(collection)!.store.liveCount;
  }

  /**
   * The catalog changes this engine's documents include beyond its source files: those of change log `log`
   * up to `through` (set when they were folded into a snapshot, and by opening one).
   */
  folded: FoldedChanges | undefined;

  /**
   * Persists every collection's columns and indexes to `file` (see `snapshot.ts`), labelled with `source` (what
   * the documents came from) and this engine's code, and with the changes folded in; returns the bytes written.
   */
  async save(file: string, source: unknown, folded?: FoldedChanges): Promise<number> {
    const writer = new SnapshotWriter();
    const tree: Record<string, unknown> = Object.fromEntries(
      [...this.indexes].map(([name, index]) => [name, index.snapshot(writer)]),
    );
    if (folded) tree.$folded = folded;
    const bytes = await writeSnapshot(file, { engine: await engineFingerprint(), source }, tree, writer);
    this.folded = folded;
    return bytes;
  }

  /**
   * The engine saved in `file`, provided it was saved from `source` by this engine's code and is intact;
   * otherwise a `SnapshotError` saying why not.
   */
  static async open(file: string, source: unknown, tuning: EngineTuning = {}): Promise<EmbeddedEngine> {
    const { tree, reader } = await readSnapshot(file, { engine: await engineFingerprint(), source });
    const engine = new EmbeddedEngine(tuning);
    const state = tree as Record<string, unknown>;
    for (const [name, index] of engine.indexes) {
      if (!state[name]) throw new SnapshotError(`the snapshot has no ${name} collection`);
      index.restore(state[name], reader);
    }
    engine.folded = state.$folded as FoldedChanges | undefined;
    return engine;
  }

  async health() {
    return { ok: true, detail: `${this.count('Event')} events indexed in process` };
  }

  search<C extends CollectionName>(input: SearchRequestFor<C>): Promise<SearchResult<Partial<CollectionDocuments[C]>>> {
    return this.turns.run(() => this.answer(input));
  }

  private answer<C extends CollectionName>(input: SearchRequestFor<C>): SearchResult<Partial<CollectionDocuments[C]>> {
    const began = performance.now();
    const request = parseSearchRequest(input);
    const { found, slots, index, relevance, distance } = this.indexes.get(request.collection)!.query(request);
    const start = (request.page - 1) * request.perPage;
    const hits = [] as SearchHit<Partial<CollectionDocuments[C]>>[];
    for (const slot of slots.slice(start, start + request.perPage)) {
      hits.push({
        document: (request.includeFields
          ? index.store.project(slot, request.includeFields)
          : index.store.document(slot)) as Partial<CollectionDocuments[C]>,
        textMatch: relevance(slot),
        ...(request.geo ? { geoDistanceMiles: distance(slot) } : {}),
      });
    }
    return { hits, found, page: request.page, searchTimeMs: Math.round((performance.now() - began) * 1000) / 1000 };
  }
}

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
