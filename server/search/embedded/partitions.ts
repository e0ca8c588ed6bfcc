import type { Filter, GeoFilter, SortKey } from '../../../shared/schemas/search.js';
import { ruleOf, type RangeRule } from '../filter-match.js';
import type { ColumnStore } from './columns.js';
import { compileFilter, compareNumbers, type SlotTest } from './filters.js';
import { cellOf, coveringCells, haversineMiles, latitudeSpan } from './geo.js';
import { Partition } from './partition.js';
import { SnapshotError, type SnapshotReader, type SnapshotWriter } from './snapshot.js';

/**
 * How a large collection is partitioned for the storefront's row queries. Events are grouped by the fields
 * that are the same for a venue's run of one category and status, and by the venue's point: a partition's
 * every document passes or fails a key filter or a radius together, so a query tests hundreds of partitions
 * instead of a million events. Inside each partition the documents are kept sorted by start time (a date window
 * is two binary searches, a count is their difference, soonest-first is a merge that stops after k) and by each
 * popularity order the rows sort by (a merge that stops after k).
 */
export interface PartitionPlan {
  /** Fields whose value every document of a partition shares. */
  keys: readonly string[];
  /** The point field every document of a partition shares: then the plan answers only queries with a radius. */
  point?: string;
  /** A key the plan answers only queries naming (`eq`/`in`), looking its partitions up instead of testing all. */
  lookup?: string;
  /** The numeric field each partition is sorted by, ascending, missing values last. */
  order: string;
  /** Further sort orders kept per partition (numeric fields only). */
  ranked: readonly (readonly SortKey[])[];
}

export interface Window {
  partition: Partition;
  /** The date window's positions in the partition's list 0 (by the plan's order): [lo, hi). */
  lo: number;
  hi: number;
}

export interface Selection {
  windows: Window[];
  /** Documents in the windows (before residual filters). */
  total: number;
  /** Filters the partitions do not answer, to test per document. */
  residual: Filter[];
  /** Whether a slot's order value lies in the window (for walks over the ranked lists). */
  inWindow: (slot: number) => boolean;
}

/** Key filters whose verdicts are kept at once (a row's category list, a status); past it they start afresh. */
const VERDICTS_KEPT = 256;

export class PartitionIndex {
  private readonly partitions = new Map<string, Partition>();
  /** Partitions by 1° cell of their point (one cell without a point), then by their lookup value. */
  private readonly cells = new Map<string, Map<unknown, Set<Partition>>>();
  /** Each slot's partition, as a number into `numbered` (0: none), so a million slots are one typed array. */
  private slotPartition = new Int32Array(1024);
  private readonly numbered: (Partition | undefined)[] = [undefined];
  /**
   * Each partition's point, and the order values of its first and last document (NaN when missing, kept as it
   * changes), by partition number: numbers in typed arrays rather than four boxed numbers per partition.
   */
  private lat = new Float64Array(64);
  private lng = new Float64Array(64);
  private first = new Float64Array(64);
  private last = new Float64Array(64);
  readonly orderBefore: (a: number, b: number) => boolean;
  readonly rankedBefore: ((a: number, b: number) => boolean)[];
  /** Every list's order: `orderBefore`, then `rankedBefore`. */
  private readonly listsBefore: ((a: number, b: number) => boolean)[];
  private readonly order: { readonly data: Float64Array };
  /**
   * Each key filter's verdict on each partition, by the filter as JSON and the partition's number (0: not yet
   * known, 1: passes, 2: fails). A partition's keys never change, so a verdict holds for its whole life.
   */
  private readonly verdicts = new Map<string, Uint8Array>();

  constructor(
    private readonly store: ColumnStore,
    readonly plan: PartitionPlan,
  ) {
    this.order = store.numbers(plan.order);
    this.orderBefore = listOrder(store, [{ by: plan.order, order: 'asc' }]);
    this.rankedBefore = plan.ranked.map((keys) => listOrder(store, keys));
    this.listsBefore = [this.orderBefore, ...this.rankedBefore];
  }

  add(slot: number): void {
    const partition = this.partitionFor(slot);
    this.file(slot, partition);
    partition.insert(slot, this.listsBefore);
    this.measure(partition);
  }

  /** Notes the order values at a partition's two ends, so a window covering it whole needs no search. */
  private measure(partition: Partition): void {
    const { slots, length, number } = partition;
    this.first[number] = length > 0 ? this.order.data[slots[0]!]! : NaN;
    this.last[number] = length > 0 ? this.order.data[slots[length - 1]!]! : NaN;
  }

  /** The miles from a point to the point of a slot's partition (every document of a partition is at it). */
  distanceOf(slot: number, lat: number, lng: number): number {
    const number = this.slotPartition[slot]!;
    return haversineMiles(lat, lng, this.lat[number]!, this.lng[number]!);
  }

  /** Takes a slot out, while its columns still hold the values it was filed under. */
  remove(slot: number): void {
    const partition = this.partitionOf(slot);
    if (!partition) return;
    this.slotPartition[slot] = 0;
    partition.remove(slot, this.listsBefore);
    this.measure(partition);
    if (partition.length === 0) {
      this.numbered[partition.number] = undefined;
      this.partitions.delete(partition.key);
      this.cells
        .get(this.cellOf(this.lat[partition.number]!, this.lng[partition.number]!))
        ?.get(partition.lookupValue)
        ?.delete(partition);
    }
  }

  /**
   * The partitions as a snapshot tree: keys, points, lengths, and every partition's lists one after another
   * in one array (each list exactly its length).
   */
  snapshot(writer: SnapshotWriter): unknown {
    const all = [...this.partitions.values()];
    const lists = 1 + this.plan.ranked.length;
    const slots = new Int32Array(all.reduce((sum, p) => sum + lists * p.length, 0));
    let at = 0;
    for (const p of all) {
      for (let list = 0; list < lists; list++, at += p.length)
        slots.set(p.slots.subarray(p.start(list), p.start(list) + p.length), at);
    }
    return {
      keys: all.map((p) => p.key),
      lat: writer.array(Float64Array.from(all, (p) => this.lat[p.number]!)),
      lng: writer.array(Float64Array.from(all, (p) => this.lng[p.number]!)),
      lookupValues: all.map((p) => p.lookupValue ?? null),
      lists,
      lengths: writer.array(Int32Array.from(all, (p) => p.length)),
      slots: writer.array(slots),
    };
  }

  /** Takes the partitions of a snapshot tree (into an empty index over the restored columns). */
  restore(tree: unknown, reader: SnapshotReader): void {
    const state = tree as {
      keys: string[];
      lat: unknown;
      lng: unknown;
      lookupValues: unknown[];
      lists: number;
      lengths: unknown;
      slots: unknown;
    };
    const lists = 1 + this.plan.ranked.length;
    if (state.lists !== lists) throw new SnapshotError('the snapshot keeps other orders');
    const lat = reader.array(state.lat, Float64Array);
    const lng = reader.array(state.lng, Float64Array);
    const lengths = reader.array(state.lengths, Int32Array);
    const slots = reader.array(state.slots, Int32Array);
    let at = 0;
    state.keys.forEach((key, i) => {
      const length = lengths[i]!;
      if (!(length > 0) || at + lists * length > slots.length)
        throw new SnapshotError(`partition ${key} is damaged in the snapshot`);
      // A view of the snapshot: the partition's first insert moves it to an array of its own.
      const view = slots.subarray(at, (at += lists * length));
      const partition = new Partition(key, this.plan.lookup ? state.lookupValues[i] : undefined, lists, view, length);
      this.register(partition, lat[i]!, lng[i]!);
      this.measure(partition);
      for (let p = 0; p < length; p++) this.file(view[p]!, partition);
    });
  }

  private partitionOf(slot: number): Partition | undefined {
    return slot < this.slotPartition.length ? this.numbered[this.slotPartition[slot]!] : undefined;
  }

  private file(slot: number, partition: Partition): void {
    if (slot >= this.slotPartition.length) {
      const larger = new Int32Array(Math.max(2 * this.slotPartition.length, slot + 1));
      larger.set(this.slotPartition);
      this.slotPartition = larger;
    }
    this.slotPartition[slot] = partition.number;
  }

  /**
   * The partitions and date windows a query covers, or null when it filters or locates by something the
   * partitions cannot answer (then another index or a scan does).
   */
  select(filters: readonly Filter[], geo: GeoFilter | undefined): Selection | null {
    if (geo ? geo.field !== this.plan.point : this.plan.point !== undefined) return null;
    let lookupValues: unknown[] | undefined;
    if (this.plan.lookup) {
      const named = filters.find((f) => f.field === this.plan.lookup && (f.op === 'eq' || f.op === 'in'));
      if (!named) return null;
      lookupValues = named.op === 'eq' ? [named.value] : named.op === 'in' ? named.values : [];
    }
    const keyTests: { test: SlotTest; verdicts: Uint8Array }[] = [];
    const residual: Filter[] = [];
    let from = -Infinity;
    let to = Infinity;
    let fromOpen = false;
    let toOpen = false;
    for (const f of filters) {
      const interval = f.field === this.plan.order ? orderInterval(f) : undefined;
      if (this.plan.keys.includes(f.field) && ruleOf(f).kind === 'named')
        keyTests.push({ test: compileFilter(this.store, f), verdicts: this.verdictsOf(f) });
      else if (interval) {
        const { min, max, minOpen, maxOpen } = interval;
        if (min > from || (min === from && minOpen)) [from, fromOpen] = [min, minOpen];
        if (max < to || (max === to && maxOpen)) [to, toOpen] = [max, maxOpen];
      } else residual.push(f);
    }
    const ranged = from !== -Infinity || to !== Infinity;
    const order = this.order.data;
    const below = (slot: number) => (fromOpen ? order[slot]! <= from : order[slot]! < from);
    const notAbove = (slot: number) => (toOpen ? order[slot]! < to : order[slot]! <= to);
    const windows: Window[] = [];
    let total = 0;
    // Partitions plainly out of range in latitude skip the trigonometry.
    const latSpan = geo ? latitudeSpan(geo.radiusMiles) : 0;
    for (const partition of this.candidates(geo, lookupValues)) {
      const { number, slots, length } = partition;
      if (length === 0) continue;
      if (geo && Math.abs(this.lat[number]! - geo.lat) > latSpan) continue;
      let keep = true;
      for (const { test, verdicts } of keyTests) {
        let verdict = verdicts[number]!;
        if (verdict === 0) verdicts[number] = verdict = test(slots[0]!) ? 1 : 2;
        if (verdict === 2) keep = false;
      }
      if (!keep) continue;
      if (geo && !(haversineMiles(geo.lat, geo.lng, this.lat[number]!, this.lng[number]!) <= geo.radiusMiles)) continue;
      // Most partitions lie wholly inside a date window: their ends say so without a search.
      const wholeFrom = fromOpen ? this.first[number]! > from : this.first[number]! >= from;
      const wholeTo = toOpen ? this.last[number]! < to : this.last[number]! <= to;
      const lo = !ranged || wholeFrom ? 0 : lowerBound(slots, length, order, from, fromOpen);
      const hi = !ranged || wholeTo ? length : lowerBound(slots, length, order, to, !toOpen);
      if (hi > lo) {
        windows.push({ partition, lo, hi });
        total += hi - lo;
      }
    }
    const inWindow = ranged
      ? (slot: number) => !Number.isNaN(order[slot]!) && !below(slot) && notAbove(slot)
      : () => true;
    return { windows, total, residual, inWindow };
  }

  /** The verdicts of a key filter, sized for every partition number given so far. */
  private verdictsOf(filter: Filter): Uint8Array {
    const key = JSON.stringify(filter);
    let verdicts = this.verdicts.get(key);
    if (!verdicts || verdicts.length < this.numbered.length) {
      if (this.verdicts.size >= VERDICTS_KEPT) this.verdicts.clear();
      const larger = new Uint8Array(Math.max(this.numbered.length, 2 * (verdicts?.length ?? 0)));
      if (verdicts) larger.set(verdicts);
      this.verdicts.set(key, (verdicts = larger));
    }
    return verdicts;
  }

  private candidates(geo: GeoFilter | undefined, lookupValues: unknown[] | undefined): Partition[] {
    const found: Partition[] = [];
    const take = (cell: Map<unknown, Set<Partition>> | undefined) => {
      if (!cell) return;
      if (lookupValues) for (const v of lookupValues) for (const p of cell.get(v) ?? []) found.push(p);
      else for (const set of cell.values()) for (const p of set) found.push(p);
    };
    const cells = geo ? coveringCells(geo) : null;
    if (cells) for (const cell of cells) take(this.cells.get(cell));
    else for (const cell of this.cells.values()) take(cell);
    return found;
  }

  private cellOf(lat: number, lng: number): string {
    return this.plan.point ? cellOf(lat, lng) : '';
  }

  private partitionFor(slot: number): Partition {
    const point = this.plan.point ? (this.store.value(slot, this.plan.point) as [number, number]) : [0, 0];
    const key = [...this.plan.keys.map((f) => JSON.stringify(this.store.value(slot, f))), point[0], point[1]].join('|');
    let partition = this.partitions.get(key);
    if (!partition) {
      const lookupValue = this.plan.lookup ? this.store.value(slot, this.plan.lookup) : undefined;
      partition = new Partition(key, lookupValue, 1 + this.plan.ranked.length);
      this.register(partition, point[0]!, point[1]!);
    }
    return partition;
  }

  /** Files a new partition under its key, and its cell and lookup value. */
  private register(partition: Partition, lat: number, lng: number): void {
    partition.number = this.numbered.length;
    this.numbered.push(partition);
    if (partition.number >= this.lat.length) {
      const grown = (values: Float64Array) => {
        const larger = new Float64Array(2 * values.length);
        larger.set(values);
        return larger;
      };
      [this.lat, this.lng, this.first, this.last] = [
        grown(this.lat),
        grown(this.lng),
        grown(this.first),
        grown(this.last),
      ];
    }
    this.lat[partition.number] = lat;
    this.lng[partition.number] = lng;
    this.partitions.set(partition.key, partition);
    const cellName = this.cellOf(lat, lng);
    let cell = this.cells.get(cellName);
    if (!cell) this.cells.set(cellName, (cell = new Map()));
    let set = cell.get(partition.lookupValue);
    if (!set) cell.set(partition.lookupValue, (set = new Set()));
    set.add(partition);
  }
}

/** A list's order: its keys, missing values last, then slot. */
function listOrder(store: ColumnStore, keys: readonly SortKey[]): (a: number, b: number) => boolean {
  const columns = keys.map((k) => ({ column: store.numbers(k.by), dir: k.order === 'asc' ? 1 : -1 }));
  return (a, b) => {
    for (const { column, dir } of columns) {
      const values = column.data;
      const c = compareNumbers(values[a]!, values[b]!, dir);
      if (c !== 0) return c < 0;
    }
    return a < b;
  };
}

/** The interval of the order field a filter keeps, when it keeps one: a range, or one number (`eq`). */
function orderInterval(f: Filter): RangeRule | undefined {
  if (f.op === 'eq') {
    if (typeof f.value !== 'number') return undefined;
    return { kind: 'range', min: f.value, max: f.value, minOpen: false, maxOpen: false };
  }
  const rule = ruleOf(f);
  return rule.kind === 'range' ? rule : undefined;
}

/**
 * The first position whose order value is above `bound` (or at it, unless `past`): the list is ascending with
 * missing values (NaN) last, which count as above everything.
 */
function lowerBound(data: Int32Array, length: number, order: Float64Array, bound: number, past: boolean): number {
  let lo = 0;
  let hi = length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const v = order[data[mid]!]!;
    const before = past ? v <= bound : v < bound;
    if (before) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
