import type { SnapshotReader, SnapshotWriter } from './snapshot.js';

/**
 * A growable list of slots kept in an order (ascending slot by default), with insert and remove by binary
 * search: one document's change costs O(log n) comparisons and one move of the tail, never a rebuild.
 */
export class SlotList {
  data: Int32Array;
  length = 0;

  constructor(capacity = 4) {
    this.data = new Int32Array(capacity);
  }

  /** A full list over `data` as it is (a snapshot's view): its first insert moves it to an array of its own. */
  static over(data: Int32Array): SlotList {
    const list = new SlotList(0);
    list.data = data;
    list.length = data.length;
    return list;
  }

  /** Appends a slot known to sort last (bulk building in order). */
  push(slot: number): void {
    if (this.length === this.data.length) this.grow();
    this.data[this.length++] = slot;
  }

  /** The first position whose slot does not sort before `slot` under `before`. */
  lowerBound(slot: number, before: (a: number, b: number) => boolean = ascending): number {
    let lo = 0;
    let hi = this.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (before(this.data[mid]!, slot)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  insert(slot: number, before: (a: number, b: number) => boolean = ascending): void {
    const at = this.lowerBound(slot, before);
    if (this.data[at] === slot && at < this.length) return;
    if (this.length === this.data.length) this.grow();
    this.data.copyWithin(at + 1, at, this.length);
    this.data[at] = slot;
    this.length++;
  }

  /** Removes a slot; `before` must be the order it was inserted under, with its values as they were then. */
  remove(slot: number, before: (a: number, b: number) => boolean = ascending): boolean {
    const at = this.lowerBound(slot, before);
    if (at >= this.length || this.data[at] !== slot) return false;
    this.data.copyWithin(at, at + 1, this.length);
    this.length--;
    return true;
  }

  view(): Int32Array {
    return this.data.subarray(0, this.length);
  }

  private grow(): void {
    const data = new Int32Array(Math.max(4, this.data.length * 2));
    data.set(this.data);
    this.data = data;
  }
}

const ascending = (a: number, b: number) => a < b;

/** Many lists as one array of slots and their end offsets (an absent list is empty, a number a one-slot list). */
export function packLists(lists: readonly (SlotList | number | undefined)[], writer: SnapshotWriter) {
  const lengthOf = (list: SlotList | number | undefined) =>
    list === undefined ? 0 : typeof list === 'number' ? 1 : list.length;
  const ends = new Int32Array(lists.length);
  let total = 0;
  lists.forEach((list, i) => (ends[i] = total += lengthOf(list)));
  const slots = new Int32Array(total);
  lists.forEach((list, i) => {
    if (typeof list === 'number') slots[ends[i]! - 1] = list;
    else if (list) slots.set(list.view(), ends[i]! - list.length);
  });
  return { ends: writer.array(ends), slots: writer.array(slots) };
}

/**
 * The lists `packLists` stored, as views of the snapshot; an empty one comes back undefined, and with `single`
 * a one-slot list comes back as its slot (no object for each of a million ids).
 */
export function unpackLists(state: unknown, reader: SnapshotReader): (SlotList | undefined)[];
export function unpackLists(state: unknown, reader: SnapshotReader, single: true): (SlotList | number | undefined)[];
export function unpackLists(state: unknown, reader: SnapshotReader, single = false): (SlotList | number | undefined)[] {
  const { ends: endsRef, slots: slotsRef } = state as Record<'ends' | 'slots', unknown>;
  const ends = reader.array(endsRef, Int32Array);
  const slots = reader.array(slotsRef, Int32Array);
  const lists: (SlotList | number | undefined)[] = [];
  let start = 0;
  for (const end of ends) {
    lists.push(
      end === start
        ? undefined
        : single && end - start === 1
          ? slots[start]!
          : SlotList.over(slots.subarray(start, end)),
    );
    start = end;
  }
  return lists;
}
