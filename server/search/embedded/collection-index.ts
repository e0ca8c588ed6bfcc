import { COLLECTION_SCHEMAS, type CollectionName } from '../../../shared/schemas/documents.js';
import { MATCH_ALL, TEXT_MATCH, type ParsedSearchRequest } from '../../../shared/schemas/search.js';
import { SEARCHABLE_FIELDS } from '../search-engine.js';
import { ColumnStore } from './columns.js';
import { compileDistance, compileFilter, compileOrder } from './filters.js';
import { firstInOrder } from './first-in-order.js';
import { INDEX_PLANS } from './index-plans.js';
import { answerFromPartitions } from './partition-answer.js';
import { PartitionIndex, type Selection } from './partitions.js';
import { PointIndex } from './points.js';
import { addPosting, dropPosting, packMap, union, unpackMap } from './postings.js';
import type { SlotList } from './slot-list.js';
import { SnapshotError, type SnapshotReader, type SnapshotWriter } from './snapshot.js';
import { queryTerms, TextIndex, type TextMatches } from './text-index.js';

type Doc = Record<string, unknown>;

/** An exact filter's list this short is tested whole rather than going through the point index for a radius. */
const FEW_LISTED = 256;

export interface Answer {
  found: number;
  /** The first page × perPage slots in order (fewer when fewer were found). */
  slots: number[];
  index: CollectionIndex;
  relevance: (slot: number) => number;
  distance: (slot: number) => number;
}

/**
 * One collection's documents in columns and the indexes its plan asks for (`index-plans.ts`), kept in step as
 * documents are upserted and deleted, and the query planner choosing among them: partitions, postings, the
 * point index, or a scan of the columns.
 */
export class CollectionIndex {
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

    let candidates: ArrayLike<number> | null;
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
      if (selection && (!listed || selection.total <= listed.length)) {
        const partitioned = answerFromPartitions(this.store, by!, request, selection, this.gatherBelow);
        return answer(partitioned.found, partitioned.slots, partitioned.distance);
      }
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
}
