import { TEXT_MATCH, type ParsedSearchRequest, type SortKey } from '../../../shared/schemas/search.js';
import type { ColumnStore } from './columns.js';
import { compileFilter, compileOrder, type SlotTest } from './filters.js';
import { firstInOrder } from './first-in-order.js';
import type { PartitionIndex, Selection } from './partitions.js';

/** A count and the first page × perPage slots in order, with each slot's distance from the radius's centre. */
export interface PartitionAnswer {
  found: number;
  slots: number[];
  distance: (slot: number) => number;
}

/**
 * A query the partitions answer: the count is arithmetic on the windows (or a walk of them when some filter
 * is not a partition's), and the page comes from a merge across partitions in the list order the sort
 * starts with, or from gathering the windows when they are few (`gatherBelow` documents or fewer).
 */
export function answerFromPartitions(
  store: ColumnStore,
  partitions: PartitionIndex,
  request: ParsedSearchRequest,
  selection: Selection,
  gatherBelow: number,
): PartitionAnswer {
  const geo = request.geo;
  // Every document of a partition is at its point: distance is the partition's.
  const distance = geo ? (slot: number) => partitions.distanceOf(slot, geo.lat, geo.lng) : () => 0;
  const residual = selection.residual.map((f) => compileFilter(store, f));
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
  if (needed === 0 || found === 0) return { found, slots: [], distance };
  const keys = request.sort.filter((k) => k.by !== TEXT_MATCH);
  const order = compileOrder(store, request.sort, () => 0, distance);
  const plan = partitions.plan;
  // Soonest first: merge the windows by start time.
  if (keys[0]?.by === plan.order && keys[0].order === 'asc') {
    const sources = selection.windows.map((w) => ({ data: w.partition.slots, at: w.lo, end: w.hi }));
    const tie = tieRule(store, keys, [{ by: plan.order, order: 'asc' }]);
    return { found, slots: mergeInOrder(sources, partitions.orderBefore, passes, needed, tie, order), distance };
  }
  // Most popular first: merge the partitions' popularity lists, keeping what falls in the window.
  const ranked = plan.ranked.findIndex((listKeys) => tieLength(keys, listKeys) > 0);
  if (ranked >= 0 && found > gatherBelow) {
    const tie = tieRule(store, keys, plan.ranked[ranked]!);
    // List 0 is by start time; ranked order r is list r + 1.
    const sources = selection.windows.map(({ partition: p }) => ({
      data: p.slots,
      at: p.start(ranked + 1),
      end: p.start(ranked + 1) + p.length,
    }));
    const accept = (slot: number) => selection.inWindow(slot) && passes(slot);
    const slots = mergeInOrder(sources, partitions.rankedBefore[ranked]!, accept, needed, tie, order);
    return { found, slots, distance };
  }
  const matched: number[] = [];
  for (const w of selection.windows) {
    const data = w.partition.slots;
    for (let p = w.lo; p < w.hi; p++) if (passes(data[p]!)) matched.push(data[p]!);
  }
  return { found, slots: firstInOrder(matched, needed, order), distance };
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
