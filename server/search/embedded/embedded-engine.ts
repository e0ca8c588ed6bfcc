import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  COLLECTION_NAMES,
  COLLECTION_SCHEMAS,
  type CollectionDocuments,
  type CollectionName,
} from '../../../shared/schemas/documents.js';
import {
  MATCH_ALL,
  parseSearchRequest,
  TEXT_MATCH,
  type ParsedSearchRequest,
  type SearchHit,
  type SearchResult,
  type SortKey,
} from '../../../shared/schemas/search.js';
import { EVENT_SORTS } from '../queries.js';
import { SEARCHABLE_FIELDS, type SearchEngine, type SearchRequestFor } from '../search-engine.js';
import { ColumnStore } from './columns.js';
import { compileDistance, compileFilter, compileOrder, type SlotTest } from './filters.js';
import { PartitionIndex, type PartitionPlan, type Selection } from './partitions.js';
import { PointIndex } from './points.js';
import { packLists, SlotList, unpackLists } from './slot-list.js';
import { readSnapshot, SnapshotError, SnapshotWriter, writeSnapshot, type SnapshotReader } from './snapshot.js';
import { queryTerms, TextIndex, type TextMatches } from './text-index.js';
import { Turns } from './turns.js';

type Doc = Record<string, unknown>;

/**
 * The indexes each collection keeps, shaped by the queries the storefront makes (spec §7 and the rows of
 * `server/layout/rows.ts`); anything else is answered by a scan of the columns, which stays correct for every
 * request the port accepts.
 */
interface IndexPlan {
  /** Exact-value postings for `eq`/`in` lookups: entity pages, carts, the menu. */
  postings?: readonly string[];
  /** Point fields indexed by distinct point (`points.ts`), for "near me" over venues, performers and cities. */
  points?: readonly string[];
  /** Partition plans, tried in order: the first that can answer a query does. */
  partitions?: readonly PartitionPlan[];
}

/** The popularity orders events rows ask for, kept presorted in every partition. */
const RANKED = [EVENT_SORTS.popular, EVENT_SORTS.trending];

const INDEX_PLANS: { [C in CollectionName]?: IndexPlan } = {
  Event: {
    postings: ['event_id', 'performer_ids', 'venue_id'],
    partitions: [
      // Near a place, for categories: each venue's run of one category, looked up by the category.
      {
        keys: ['venue_id', 'category', 'major_category', 'event_status'],
        point: 'venue_location',
        lookup: 'category',
        order: 'event_timestamp',
        ranked: RANKED,
      },
      // Near a place, any category: each venue's events by group (sports, concerts…).
      {
        keys: ['venue_id', 'major_category', 'event_status'],
        point: 'venue_location',
        order: 'event_timestamp',
        ranked: RANKED,
      },
      // Anywhere: the nation's events by category.
      { keys: ['category', 'major_category', 'event_status'], order: 'event_timestamp', ranked: RANKED },
    ],
  },
  Performer: { postings: ['performer_id', 'category'], points: ['venue_locations'] },
  Venue: { postings: ['venue_id'], points: ['venue_location'] },
  USCity: { points: ['location'] },
  ZipEventDetermination: { postings: ['key'] },
  TSImage: { postings: ['id'] },
};

/**
 * What a snapshot must have been saved by: this engine's modules (its index plans, columns and text analysis
 * live in this folder), the searchable fields, and the document schemas as columns. Any change means a rebuild.
 */
let fingerprint: Promise<string> | undefined;
function engineFingerprint(): Promise<string> {
  fingerprint ??= (async () => {
    const dir = path.dirname(fileURLToPath(import.meta.url));
    const hash = createHash('sha256');
    for (const file of (await readdir(dir)).filter((f) => /\.[cm]?[jt]s$/.test(f) && !f.includes('.test.')).sort()) {
      hash.update(`${file}\n`).update(await readFile(path.join(dir, file)));
    }
    const columns = COLLECTION_NAMES.map((name) => [
      name,
      new ColumnStore(COLLECTION_SCHEMAS[name].shape as never).layout,
    ]);
    hash.update(JSON.stringify({ searchable: SEARCHABLE_FIELDS, ranked: RANKED, columns }));
    return hash.digest('hex');
  })();
  return fingerprint;
}

/** An exact filter's list this short is tested whole rather than going through the point index for a radius. */
const FEW_LISTED = 256;
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

interface Answer {
  found: number;
  /** The first page × perPage slots in order (fewer when fewer were found). */
  slots: number[];
  index: CollectionIndex;
  relevance: (slot: number) => number;
  distance: (slot: number) => number;
}

class CollectionIndex {
  readonly store: ColumnStore;
  private readonly textFields: readonly string[];
  private readonly text: TextIndex | null;
  /** A value held by one document maps to its slot, by several to a list (ids are a million single slots). */
  private readonly postings = new Map<string, Map<string | number, number | SlotList>>();
  private readonly points = new Map<string, PointIndex>();
  private readonly partitions: PartitionIndex[];
  /** Per-slot scratch for one query's relevance and distance. */
  private relevanceOf = new Float64Array(0);
  private distanceOf = new Float64Array(0);
  /** Per-slot mark of the query that last saw it (a radius visits a performer once per venue in range). */
  private seenBy = new Uint32Array(0);
  private seenMark = 0;
  /** Scratch for the slots a gathering query keeps (a short prefix keeps hundreds of thousands). */
  private gathered = new Int32Array(0);

  constructor(
    name: CollectionName,
    private readonly gatherBelow: number,
  ) {
    this.store = new ColumnStore(COLLECTION_SCHEMAS[name].shape as never);
    this.textFields = SEARCHABLE_FIELDS[name] as readonly string[];
    this.text = this.textFields.length > 0 ? new TextIndex(this.textFields) : null;
    const plan = INDEX_PLANS[name] ?? {};
    for (const field of plan.postings ?? []) this.postings.set(field, new Map());
    for (const field of plan.points ?? []) this.points.set(field, new PointIndex());
    this.partitions = (plan.partitions ?? []).map((p) => new PartitionIndex(this.store, p));
  }

  snapshot(writer: SnapshotWriter): unknown {
    return {
      store: this.store.snapshot(writer),
      text: this.text?.snapshot(writer) ?? null,
      postings: Object.fromEntries([...this.postings].map(([field, map]) => [field, packMap(map, writer)])),
      points: Object.fromEntries([...this.points].map(([field, index]) => [field, index.snapshot(writer)])),
      partitions: this.partitions.map((p) => p.snapshot(writer)),
    };
  }

  restore(tree: unknown, reader: SnapshotReader): void {
    const state = tree as {
      store: unknown;
      text: unknown;
      postings: Record<string, unknown>;
      points: Record<string, unknown>;
      partitions: unknown[];
    };
    this.store.restore(state.store, reader);
    if (this.text) this.text.restore(state.text, reader);
    for (const [field, map] of this.postings)
      for (const [key, posting] of unpackMap(state.postings[field], reader)) map.set(key, posting);
    for (const [field, index] of this.points) index.restore(state.points?.[field], reader);
    if (state.partitions.length !== this.partitions.length)
      throw new SnapshotError('the snapshot has other partitions');
    this.partitions.forEach((p, i) => p.restore(state.partitions[i], reader));
  }

  upsert(doc: Doc): void {
    const existing = this.store.slotOf(String(doc.id));
    if (existing !== undefined && this.store.live[existing]) this.unindex(existing);
    const slot = this.store.put(doc);
    this.index(slot);
  }

  document(id: string): Doc | undefined {
    const slot = this.store.slotOf(id);
    return slot !== undefined && this.store.live[slot] ? this.store.document(slot) : undefined;
  }

  delete(id: string): boolean {
    const slot = this.store.slotOf(id);
    if (slot === undefined || !this.store.live[slot]) return false;
    this.unindex(slot);
    this.store.kill(slot);
    return true;
  }

  private index(slot: number): void {
    this.text?.add(slot, this.texts(slot));
    for (const [field, map] of this.postings) for (const key of this.valueKeys(slot, field)) addPosting(map, key, slot);
    for (const [field, index] of this.points) index.add(slot, this.pointsOf(slot, field));
    for (const p of this.partitions) p.add(slot);
  }

  /** Takes a slot out of every index while its columns still hold the values it was indexed under. */
  private unindex(slot: number): void {
    this.text?.remove(slot, this.texts(slot));
    for (const [field, map] of this.postings)
      for (const key of this.valueKeys(slot, field)) dropPosting(map, key, slot);
    for (const [field, index] of this.points) index.remove(slot, this.pointsOf(slot, field));
    for (const p of this.partitions) p.remove(slot);
  }

  private texts(slot: number): string[] {
    return this.textFields.map((field) => {
      const value = this.store.value(slot, field);
      if (Array.isArray(value)) return value.filter((v) => typeof v === 'string').join(' ');
      return typeof value === 'string' ? value : '';
    });
  }

  private valueKeys(slot: number, field: string): Set<string | number> {
    const raw = this.store.value(slot, field);
    const keys = new Set<string | number>();
    for (const v of Array.isArray(raw) ? raw : [raw]) if (typeof v === 'string' || typeof v === 'number') keys.add(v);
    return keys;
  }

  /** The points a slot holds in a point field (one, or a list; a point named twice is filed once). */
  private pointsOf(slot: number, field: string): [number, number][] {
    const raw = this.store.value(slot, field);
    if (!Array.isArray(raw) || raw.length === 0) return [];
    return typeof raw[0] === 'number' ? [raw as [number, number]] : (raw as [number, number][]);
  }

  query(request: ParsedSearchRequest): Answer {
    const size = this.store.size;
    if (this.relevanceOf.length < size) {
      this.relevanceOf = new Float64Array(Math.max(size, this.relevanceOf.length * 2));
      this.distanceOf = new Float64Array(this.relevanceOf.length);
      this.seenBy = new Uint32Array(this.relevanceOf.length);
      this.gathered = new Int32Array(this.relevanceOf.length);
    }
    const relevanceOf = this.relevanceOf;
    const distanceOf = this.distanceOf;
    const q = request.q.trim();
    const textual = q !== MATCH_ALL && q !== '';
    const relevance = textual ? (slot: number) => relevanceOf[slot]! : () => 0;
    const distance = (slot: number) => distanceOf[slot]!;
    const answer = (found: number, slots: number[], distanceFor = distance): Answer => ({
      found,
      slots,
      index: this,
      relevance,
      distance: distanceFor,
    });
    const needed = request.page * request.perPage;

    let candidates: ArrayLike<number> | null = null;
    if (textual) {
      const matches = this.match(request, q);
      for (let i = 0; i < matches.slots.length; i++) relevanceOf[matches.slots[i]!] = matches.scores[i]!;
      candidates = matches.slots;
    } else {
      let selection: Selection | null = null;
      let by: PartitionIndex | null = null;
      for (const p of this.partitions) {
        selection = p.select(request.filters, request.geo);
        by = p;
        if (selection) break;
      }
      const listed = this.smallestListed(request);
      if (selection && (!listed || selection.total <= listed.length))
        return this.fromPartitions(by!, request, selection, answer);
      const near = request.geo && this.points.get(request.geo.field);
      if (near && (!listed || listed.length > FEW_LISTED)) return this.fromPoints(near, request, answer);
      candidates = listed;
    }

    // Gather: test every candidate (or every live slot), then order the page's worth.
    const tests = request.filters.map((f) => compileFilter(this.store, f));
    const measure = request.geo ? compileDistance(this.store, request.geo) : null;
    const radius = request.geo?.radiusMiles ?? 0;
    const matched = this.gathered;
    let found = 0;
    const consider = (slot: number) => {
      for (const test of tests) if (!test(slot)) return;
      if (measure) {
        const d = measure(slot);
        if (!(d <= radius)) return;
        distanceOf[slot] = d;
      }
      matched[found++] = slot;
    };
    if (candidates) for (let i = 0; i < candidates.length; i++) consider(candidates[i]!);
    else for (let slot = 0; slot < size; slot++) if (this.store.live[slot]) consider(slot);
    if (needed === 0) return answer(found, []);
    const order = compileOrder(this.store, request.sort, relevance, distance);
    // Ranked by relevance first (suggestions, results): a slot less relevant than the last one kept is out at once.
    const lead = request.sort[0]?.by === TEXT_MATCH && request.sort[0].order === 'desc' ? relevance : undefined;
    return answer(found, firstInOrder(matched.subarray(0, found), needed, order, lead));
  }

  private match(request: ParsedSearchRequest, q: string): TextMatches {
    const fields = request.queryBy;
    // Earlier fields weigh more: each field counts twice the one after it, unless weights are given.
    const weights = request.queryByWeights ?? fields.map((_, i) => 2 ** (fields.length - 1 - i));
    const terms = queryTerms(q);
    if (terms.length === 0 || !this.text) return { slots: new Int32Array(0), scores: new Float64Array(0) };
    return this.text.match(terms, fields, weights, this.store.size);
  }

  /**
   * A radius over a point index: each point in range is measured once and its documents tested once (a
   * document seen again through another point only takes the smaller distance), then the page's worth ordered.
   */
  private fromPoints(
    near: PointIndex,
    request: ParsedSearchRequest,
    respond: (found: number, slots: number[]) => Answer,
  ): Answer {
    const tests = request.filters.map((f) => compileFilter(this.store, f));
    const distanceOf = this.distanceOf;
    const seenBy = this.seenBy;
    if (++this.seenMark === 2 ** 32) {
      seenBy.fill(0);
      this.seenMark = 1;
    }
    const mark = this.seenMark;
    const matched: number[] = [];
    near.within(request.geo!, (slots, length, miles) => {
      for (let i = 0; i < length; i++) {
        const slot = slots[i]!;
        if (seenBy[slot] === mark) {
          if (miles < distanceOf[slot]!) distanceOf[slot] = miles;
          continue;
        }
        seenBy[slot] = mark;
        distanceOf[slot] = miles;
        let passes = true;
        for (const test of tests) if (!test(slot)) passes = false;
        if (passes) matched.push(slot);
      }
    });
    const needed = request.page * request.perPage;
    if (needed === 0) return respond(matched.length, []);
    const order = compileOrder(
      this.store,
      request.sort,
      () => 0,
      (slot) => distanceOf[slot]!,
    );
    return respond(matched.length, firstInOrder(matched, needed, order));
  }

  /** The shortest slot list an exact filter narrows the query to, when an index has one. */
  private smallestListed(request: ParsedSearchRequest): Int32Array | null {
    let best: Int32Array | null = null;
    for (const f of request.filters) {
      const map = this.postings.get(f.field);
      if (!map || (f.op !== 'eq' && f.op !== 'in')) continue;
      const values = f.op === 'eq' ? [f.value] : f.values;
      const lists = values.flatMap((v) => {
        const posting = typeof v === 'boolean' ? undefined : map.get(v);
        return posting === undefined ? [] : [typeof posting === 'number' ? Int32Array.of(posting) : posting.view()];
      });
      const list = union(lists);
      if (!best || list.length < best.length) best = list;
    }
    return best;
  }

  /**
   * A query the partitions answer: the count is arithmetic on the windows (or a walk of them when some filter
   * is not a partition's), and the page comes from a merge across partitions in the list order the sort
   * starts with, or from gathering the windows when they are few.
   */
  private fromPartitions(
    partitions: PartitionIndex,
    request: ParsedSearchRequest,
    selection: Selection,
    respond: (found: number, slots: number[], distance: (slot: number) => number) => Answer,
  ): Answer {
    const geo = request.geo;
    // Every document of a partition is at its point: distance is the partition's.
    const distance = geo ? (slot: number) => partitions.distanceOf(slot, geo.lat, geo.lng) : () => 0;
    const residual = selection.residual.map((f) => compileFilter(this.store, f));
    const passes = (slot: number) => residual.every((test) => test(slot));
    const needed = request.page * request.perPage;
    let found = selection.total;
    if (residual.length > 0) {
      found = 0;
      for (const w of selection.windows) {
        const data = w.partition.slots;
        for (let p = w.lo; p < w.hi; p++) if (passes(data[p]!)) found++;
      }
    }
    if (needed === 0 || found === 0) return respond(found, [], distance);
    const keys = request.sort.filter((k) => k.by !== TEXT_MATCH);
    const order = compileOrder(this.store, request.sort, () => 0, distance);
    const plan = partitions.plan;
    // Soonest first: merge the windows by start time.
    if (keys[0]?.by === plan.order && keys[0].order === 'asc') {
      const sources = selection.windows.map((w) => ({ data: w.partition.slots, at: w.lo, end: w.hi }));
      const tie = tieRule(this.store, keys, [{ by: plan.order, order: 'asc' }]);
      return respond(found, mergeInOrder(sources, partitions.orderBefore, passes, needed, tie, order), distance);
    }
    // Most popular first: merge the partitions' popularity lists, keeping what falls in the window.
    const ranked = plan.ranked.findIndex((listKeys) => tieLength(keys, listKeys) > 0);
    if (ranked >= 0 && found > this.gatherBelow) {
      const tie = tieRule(this.store, keys, plan.ranked[ranked]!);
      // List 0 is by start time; ranked order r is list r + 1.
      const sources = selection.windows.map(({ partition: p }) => ({
        data: p.slots,
        at: p.start(ranked + 1),
        end: p.start(ranked + 1) + p.length,
      }));
      const accept = (slot: number) => selection.inWindow(slot) && passes(slot);
      return respond(
        found,
        mergeInOrder(sources, partitions.rankedBefore[ranked]!, accept, needed, tie, order),
        distance,
      );
    }
    const matched: number[] = [];
    for (const w of selection.windows) {
      const data = w.partition.slots;
      for (let p = w.lo; p < w.hi; p++) if (passes(data[p]!)) matched.push(data[p]!);
    }
    return respond(found, firstInOrder(matched, needed, order), distance);
  }
}

/** How many leading keys a request shares with a list's order (0: the list does not help). */
function tieLength(keys: readonly SortKey[], listKeys: readonly SortKey[]): number {
  let n = 0;
  while (
    n < keys.length &&
    n < listKeys.length &&
    keys[n]!.by === listKeys[n]!.by &&
    keys[n]!.order === listKeys[n]!.order
  )
    n++;
  return n;
}

/**
 * How a list's order relates to a request's: null when it is the request's whole order (the merge order is
 * final), else the test for two slots tied on the keys they share (a tied run is taken whole, then sorted).
 */
function tieRule(
  store: ColumnStore,
  keys: readonly SortKey[],
  listKeys: readonly SortKey[],
): ((a: number, b: number) => boolean) | null {
  const shared = tieLength(keys, listKeys);
  if (shared === keys.length && shared === listKeys.length) return null;
  const columns = listKeys.slice(0, shared).map((k) => store.numbers(k.by));
  return (a, b) =>
    columns.every(({ data }) => data[a] === data[b] || (Number.isNaN(data[a]!) && Number.isNaN(data[b]!)));
}

interface Source {
  data: Int32Array;
  at: number;
  end: number;
}

/**
 * The first `needed` accepted slots of sorted sources, merged with a heap. Without a tie rule the merge order
 * is final; with one, every slot tied with the last one taken is taken too and the lot is sorted by `order`.
 */
function mergeInOrder(
  sources: Source[],
  before: (a: number, b: number) => boolean,
  accept: SlotTest,
  needed: number,
  tied: ((a: number, b: number) => boolean) | null,
  order: (a: number, b: number) => number,
): number[] {
  const heap = sources.filter((s) => s.at < s.end);
  const head = (s: Source) => s.data[s.at]!;
  const less = (i: number, j: number) => before(head(heap[i]!), head(heap[j]!));
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && less(l, m)) m = l;
      if (r < heap.length && less(r, m)) m = r;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m]!, heap[i]!];
      i = m;
    }
  };
  for (let i = (heap.length >> 1) - 1; i >= 0; i--) down(i);
  const taken: number[] = [];
  while (heap.length > 0) {
    const source = heap[0]!;
    const slot = head(source);
    if (taken.length >= needed && (!tied || !tied(slot, taken[taken.length - 1]!))) break;
    source.at++;
    if (source.at >= source.end) {
      heap[0] = heap[heap.length - 1]!;
      heap.pop();
    }
    if (heap.length > 0) down(0);
    if (accept(slot)) taken.push(slot);
  }
  return tied ? taken.sort(order).slice(0, needed) : taken;
}

/** The first `needed` slots in order: a bounded insertion when few of many are wanted, else a full sort. */
function firstInOrder(
  slots: number[] | Int32Array,
  needed: number,
  order: (a: number, b: number) => number,
  lead?: (slot: number) => number,
): number[] {
  if (needed * 8 >= slots.length) return Array.from(slots).sort(order).slice(0, needed);
  const top: number[] = [];
  for (const slot of slots) {
    // `lead` is the order's first key, descending: a lower value sorts after the last kept whatever follows.
    if (top.length === needed && lead && lead(slot) < lead(top[needed - 1]!)) continue;
    if (top.length === needed && order(slot, top[needed - 1]!) >= 0) continue;
    let lo = 0;
    let hi = top.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (order(slot, top[mid]!) < 0) hi = mid;
      else lo = mid + 1;
    }
    top.splice(lo, 0, slot);
    if (top.length > needed) top.pop();
  }
  return top;
}

/** Sorted, distinct union of sorted slot lists. */
function union(lists: Int32Array[]): Int32Array {
  if (lists.length === 0) return new Int32Array(0);
  if (lists.length === 1) return lists[0]!;
  const all = new Int32Array(lists.reduce((n, l) => n + l.length, 0));
  let at = 0;
  for (const l of lists) {
    all.set(l, at);
    at += l.length;
  }
  all.sort();
  let out = 0;
  for (let i = 0; i < all.length; i++) if (i === 0 || all[i] !== all[i - 1]) all[out++] = all[i]!;
  return all.subarray(0, out);
}

/** A map of slot lists (or single slots) as its keys and its lists packed (see `packLists`). */
function packMap<K>(map: Map<K, number | SlotList>, writer: SnapshotWriter): unknown {
  return { keys: [...map.keys()], lists: packLists([...map.values()], writer) };
}

/** The entries `packMap` stored; a one-slot list comes back as the slot. */
function unpackMap(tree: unknown, reader: SnapshotReader): [string | number, number | SlotList][] {
  if (!tree) throw new SnapshotError('the snapshot lacks an index');
  const { keys, lists } = tree as { keys: (string | number)[]; lists: unknown };
  const unpacked = unpackLists(lists, reader, true);
  if (unpacked.length !== keys.length) throw new SnapshotError('the snapshot has an index of unequal length');
  return keys.map((key, i) => [key, unpacked[i] ?? new SlotList()]);
}

function addPosting<K>(map: Map<K, number | SlotList>, key: K, slot: number): void {
  const posting = map.get(key);
  if (posting === undefined) map.set(key, slot);
  else if (typeof posting === 'number') {
    if (posting === slot) return;
    const list = new SlotList(2);
    list.insert(posting);
    list.insert(slot);
    map.set(key, list);
  } else posting.insert(slot);
}

function dropPosting<K>(map: Map<K, number | SlotList>, key: K, slot: number): void {
  const posting = map.get(key);
  if (posting === undefined) return;
  if (typeof posting === 'number') {
    if (posting === slot) map.delete(key);
    return;
  }
  posting.remove(slot);
  if (posting.length === 1) map.set(key, posting.data[0]!);
}

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
