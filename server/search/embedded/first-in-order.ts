/** The first `needed` slots in order: a bounded insertion when few of many are wanted, else a full sort. */
export function firstInOrder(
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
