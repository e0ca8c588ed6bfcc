import { packLists, SlotList, unpackLists } from './slot-list.js';
import { SnapshotError, type SnapshotReader, type SnapshotWriter } from './snapshot.js';

/**
 * Exact-value postings: each value maps to the one slot holding it, or to a sorted list when several do (ids
 * are a million single slots).
 */

/** A map of slot lists (or single slots) as its keys and its lists packed (see `packLists`). */
export function packMap<K>(map: Map<K, number | SlotList>, writer: SnapshotWriter): unknown {
  return { keys: [...map.keys()], lists: packLists([...map.values()], writer) };
}

/** The entries `packMap` stored; a one-slot list comes back as the slot. */
export function unpackMap(tree: unknown, reader: SnapshotReader): [string | number, number | SlotList][] {
  if (!tree) throw new SnapshotError('the snapshot lacks an index');
  const { keys, lists } = tree as { keys: (string | number)[]; lists: unknown };
  const unpacked = unpackLists(lists, reader, true);
  if (unpacked.length !== keys.length) throw new SnapshotError('the snapshot has an index of unequal length');
  return keys.map((key, i) => [key, unpacked[i] ?? new SlotList()]);
}

export function addPosting<K>(map: Map<K, number | SlotList>, key: K, slot: number): void {
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

export function dropPosting<K>(map: Map<K, number | SlotList>, key: K, slot: number): void {
  const posting = map.get(key);
  if (posting === undefined) return;
  if (typeof posting === 'number') {
    if (posting === slot) map.delete(key);
    return;
  }
  posting.remove(slot);
  if (posting.length === 1) map.set(key, posting.data[0]!);
}

/** Sorted, distinct union of sorted slot lists. */
export function union(lists: Int32Array[]): Int32Array {
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
