/**
 * One partition's documents, in every order its index keeps: list 0 by the plan's order, then one list per
 * ranked order. Every list holds the same slots, so the lists share one length and live as runs of `capacity`
 * places in one array: a partition is two objects however many orders there are.
 */
export class Partition {
  /** Its place in its index's list of partitions (and in the index's arrays of partition values). */
  number = 0;
  capacity: number;

  constructor(
    readonly key: string,
    readonly lookupValue: unknown,
    /** How many lists: 1 + the plan's ranked orders. */
    readonly lists: number,
    public slots: Int32Array = new Int32Array(lists * 4),
    public length = 0,
  ) {
    this.capacity = slots.length / lists;
  }

  /** Where list `list` starts in `slots`. */
  start(list: number): number {
    return list * this.capacity;
  }

  /** Files a slot in every list, each under its order (`before[list]`). */
  insert(slot: number, before: readonly ((a: number, b: number) => boolean)[]): void {
    if (this.length === this.capacity) this.grow();
    for (let list = 0; list < this.lists; list++) {
      const start = this.start(list);
      const at = this.lowerBound(start, slot, before[list]!);
      this.slots.copyWithin(at + 1, at, start + this.length);
      this.slots[at] = slot;
    }
    this.length++;
  }

  /**
   * Takes a slot out of every list; each order must be the one it was filed under, with its values as they
   * were then. False (and nothing changed) when a list does not hold it.
   */
  remove(slot: number, before: readonly ((a: number, b: number) => boolean)[]): boolean {
    const places: number[] = [];
    for (let list = 0; list < this.lists; list++) {
      const at = this.lowerBound(this.start(list), slot, before[list]!);
      if (at >= this.start(list) + this.length || this.slots[at] !== slot) return false;
      places.push(at);
    }
    places.forEach((at, list) => this.slots.copyWithin(at, at + 1, this.start(list) + this.length));
    this.length--;
    return true;
  }

  /** The first place in the list starting at `start` whose slot does not sort before `slot`. */
  private lowerBound(start: number, slot: number, before: (a: number, b: number) => boolean): number {
    let lo = start;
    let hi = start + this.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (before(this.slots[mid]!, slot)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private grow(): void {
    const capacity = Math.max(4, this.capacity * 2);
    const slots = new Int32Array(this.lists * capacity);
    for (let list = 0; list < this.lists; list++)
      slots.set(this.slots.subarray(this.start(list), this.start(list) + this.length), list * capacity);
    this.slots = slots;
    this.capacity = capacity;
  }
}
