import type { Filter, GeoFilter, SortKey } from '../../../schemas/search.js';
import type { ColumnStore } from './columns.js';
import { compileFilter, compareNumbers, type SlotTest } from './filters.js';
import { cellOf, coveringCells, haversineMiles, latitudeSpan } from './geo.js';
import { packLists, SlotList, unpackLists } from './slot-list.js';
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

export class Partition {
  /** Its place in its index's list of partitions. */
  number = 0;
  /** The order values of its first and last document (NaN when missing), kept as it changes. */
  first = NaN;
  last = NaN;
  constructor(
    readonly key: string,
    readonly lat: number,
    readonly lng: number,
    readonly lookupValue: unknown,
    readonly byOrder: SlotList,
    readonly ranked: SlotList[],
  ) {}
}

export interface Window {
  partition: Partition;
  /** The date window's positions in `byOrder`: [lo, hi). */
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
const RANGE_OPS = new Set(['between', 'gt', 'gte', 'lt', 'lte', 'eq']);
const KEY_OPS = new Set(['eq', 'neq', 'in', 'nin']);

export class PartitionIndex {
  private readonly partitions = new Map<string, Partition>();
  /** Partitions by 1° cell of their point (one cell without a point), then by their lookup value. */
  private readonly cells = new Map<string, Map<unknown, Set<Partition>>>();
  /** Each slot's partition, as a number into `numbered` (0: none), so a million slots are one typed array. */
  private slotPartition = new Int32Array(1024);
  private readonly numbered: (Partition | undefined)[] = [undefined];
  readonly orderBefore: (a: number, b: number) => boolean;
  readonly rankedBefore: ((a: number, b: number) => boolean)[];
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
  }

  add(slot: number): void {
    const partition = this.partitionFor(slot);
    this.file(slot, partition);
    partition.byOrder.insert(slot, this.orderBefore);
    partition.ranked.forEach((list, i) => list.insert(slot, this.rankedBefore[i]));
    this.measure(partition);
  }

  /** Notes the order values at a partition's two ends, so a window covering it whole needs no search. */
  private measure(partition: Partition): void {
    const list = partition.byOrder;
    partition.first = list.length > 0 ? this.order.data[list.data[0]!]! : NaN;
    partition.last = list.length > 0 ? this.order.data[list.data[list.length - 1]!]! : NaN;
  }

  /** Takes a slot out, while its columns still hold the values it was filed under. */
  remove(slot: number): void {
    const partition = this.partitionOf(slot);
    if (!partition) return;
    this.slotPartition[slot] = 0;
    partition.byOrder.remove(slot, this.orderBefore);
    partition.ranked.forEach((list, i) => list.remove(slot, this.rankedBefore[i]));
    this.measure(partition);
    if (partition.byOrder.length === 0) {
      this.numbered[partition.number] = undefined;
      this.partitions.delete(partition.key);
      this.cells.get(this.cellOf(partition.lat, partition.lng))?.get(partition.lookupValue)?.delete(partition);
    }
  }

  /** The partitions as a snapshot tree: keys and points, and each order's lists packed into one array. */
  snapshot(writer: SnapshotWriter): unknown {
    const all = [...this.partitions.values()];
    return {
      keys: all.map((p) => p.key),
      lat: writer.array(Float64Array.from(all, (p) => p.lat)),
      lng: writer.array(Float64Array.from(all, (p) => p.lng)),
      lookupValues: all.map((p) => p.lookupValue ?? null),
      byOrder: packLists(all.map((p) => p.byOrder), writer),
      ranked: this.plan.ranked.map((_, i) => packLists(all.map((p) => p.ranked[i]), writer)),
    };
  }

  /** Takes the partitions of a snapshot tree (into an empty index over the restored columns). */
  restore(tree: unknown, reader: SnapshotReader): void {
    const state = tree as { keys: string[]; lat: unknown; lng: unknown; lookupValues: unknown[]; byOrder: unknown; ranked: unknown[] };
    if (state.ranked.length !== this.plan.ranked.length) throw new SnapshotError('the snapshot keeps other orders');
    const lat = reader.array(state.lat, Float64Array);
    const lng = reader.array(state.lng, Float64Array);
    const byOrder = unpackLists(state.byOrder, reader);
    const ranked = state.ranked.map((r) => unpackLists(r, reader));
    state.keys.forEach((key, i) => {
      const lists = [byOrder[i], ...ranked.map((r) => r[i])];
      if (lists.some((l) => !l)) throw new SnapshotError(`partition ${key} is empty in the snapshot`);
      const partition = new Partition(key, lat[i]!, lng[i]!, this.plan.lookup ? state.lookupValues[i] : undefined, byOrder[i]!, ranked.map((r) => r[i]!));
      this.register(partition);
      this.measure(partition);
      const slots = partition.byOrder.data;
      for (let p = 0; p < partition.byOrder.length; p++) this.file(slots[p]!, partition);
    });
  }

  partitionOf(slot: number): Partition | undefined {
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
      if (this.plan.keys.includes(f.field) && KEY_OPS.has(f.op)) keyTests.push({ test: compileFilter(this.store, f), verdicts: this.verdictsOf(f) });
      else if (f.field === this.plan.order && RANGE_OPS.has(f.op) && (f.op !== 'eq' || typeof f.value === 'number')) {
        const [min, max, minOpen, maxOpen] = bounds(f);
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
      const list = partition.byOrder;
      if (list.length === 0) continue;
      if (geo && Math.abs(partition.lat - geo.lat) > latSpan) continue;
      let keep = true;
      for (const { test, verdicts } of keyTests) {
        let verdict = verdicts[partition.number]!;
        if (verdict === 0) verdicts[partition.number] = verdict = test(list.data[0]!) ? 1 : 2;
        if (verdict === 2) keep = false;
      }
      if (!keep) continue;
      const distance = geo ? haversineMiles(geo.lat, geo.lng, partition.lat, partition.lng) : 0;
      if (geo && !(distance <= geo.radiusMiles)) continue;
      // Most partitions lie wholly inside a date window: their ends say so without a search.
      const wholeFrom = fromOpen ? partition.first > from : partition.first >= from;
      const wholeTo = toOpen ? partition.last < to : partition.last <= to;
      const lo = !ranged || wholeFrom ? 0 : lowerBound(list, order, from, fromOpen);
      const hi = !ranged || wholeTo ? list.length : lowerBound(list, order, to, !toOpen);
      if (hi > lo) {
        windows.push({ partition, lo, hi });
        total += hi - lo;
      }
    }
    const inWindow = ranged ? (slot: number) => !Number.isNaN(order[slot]!) && !below(slot) && notAbove(slot) : () => true;
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
      const ranked = this.plan.ranked.map(() => new SlotList());
      partition = new Partition(key, point[0]!, point[1]!, lookupValue, new SlotList(), ranked);
      this.register(partition);
    }
    return partition;
  }

  /** Files a new partition under its key, and its cell and lookup value. */
  private register(partition: Partition): void {
    partition.number = this.numbered.length;
    this.numbered.push(partition);
    this.partitions.set(partition.key, partition);
    const cellName = this.cellOf(partition.lat, partition.lng);
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

/** [min, max, minOpen, maxOpen] of a range filter. */
function bounds(f: Filter): [number, number, boolean, boolean] {
  switch (f.op) {
    case 'between':
      return [f.min, f.max, false, false];
    case 'gt':
      return [f.value, Infinity, true, false];
    case 'gte':
      return [f.value, Infinity, false, false];
    case 'lt':
      return [-Infinity, f.value, false, true];
    case 'lte':
      return [-Infinity, f.value, false, false];
    case 'eq':
      return [f.value as number, f.value as number, false, false];
    default:
      throw new Error(`${f.op} is not a range`);
  }
}

/**
 * The first position whose order value is above `bound` (or at it, unless `past`): the list is ascending with
 * missing values (NaN) last, which count as above everything.
 */
function lowerBound(list: SlotList, order: Float64Array, bound: number, past: boolean): number {
  const data = list.data;
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const v = order[data[mid]!]!;
    const before = past ? v <= bound : v < bound;
    if (before) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
