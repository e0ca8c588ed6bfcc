import { LRUCache } from 'lru-cache';

const MiB = 1024 * 1024;

/**
 * RULES 13.12: what each of the server's caches may hold, in bytes, measured as `roughBytes` (or the kept bytes of an
 * answer, `answerBytes`) counts them. Every cache is made here (`byteBounded`), so none is bounded only by a count
 * of entries whose size nobody knows. Their sum, with the catalog's own indexes, is what a node keeps in memory; the
 * heap grows past it only by what requests make and drop (RULES 13.12 on the heap's growth).
 */
export const CACHE_BYTES = {
  /** Layout rows with the search requests they are filed under (`LayoutService`). */
  rows: 16 * MiB,
  /** Whole layout answers (`LayoutAnswers`). */
  layoutAnswers: 12 * MiB,
  /** Guests' home-layout assignments (`LayoutAnswers`). */
  assignments: 4 * MiB,
  /** Answers the API's fast lane replays (layout answers, suggestions, entity answers). */
  apiLane: 24 * MiB,
  /** Rendered pages (`KeptPages`) and the pages' own fast lane, each. */
  pages: 24 * MiB,
  /** Rendered parts of pages (layout rows, the header, the footer) written again as text (`PageService`). */
  fragments: 8 * MiB,
  /** Rendered pages' inline stylesheets, one per brand, page module and set of class names (`PageDocument`). */
  inlineStyles: 2 * MiB,
  /** Search results in front of the engine (`CachedEngine`). */
  searchResults: 24 * MiB,
  /** Built sitemap files. */
  sitemaps: 64 * MiB,
  /** What the layout lane worked out per address, token, site and browser (`server/layout/routes.ts`). */
  laneReads: 8 * MiB,
  /** Verified guest tokens (`SessionTokens`). */
  verifiedTokens: 4 * MiB,
  /** Rate-limit partition keys, by client. */
  partitionKeys: MiB,
} as const;

export type CacheName = keyof typeof CACHE_BYTES;

/** What the cache's bookkeeping takes for an entry (its slots, its place in the key map), about. */
const ENTRY_BYTES = 96;
/** What V8 takes for a heap object's header, an array's or string's header, and a pointer, about. */
const OBJECT_BYTES = 24;
const HEADER_BYTES = 16;
const POINTER_BYTES = 8;

/**
 * About what a JSON-like value takes in the heap: strings by their length, numbers and pointers by 8 bytes, each
 * object and array with its header and a slot per property or element. Property names are shared by every object
 * of a shape, so they are not counted; nor is anything seen twice (a value met again counts nothing).
 */
export function roughBytes(value: unknown): number {
  return bytesOf(value, new Set());
}

function bytesOf(value: unknown, seen: Set<object>): number {
  switch (typeof value) {
    case 'string':
      return HEADER_BYTES + value.length;
    case 'number':
    case 'bigint':
      return POINTER_BYTES;
    case 'object': {
      if (value === null || seen.has(value)) return 0;
      seen.add(value);
      if (Array.isArray(value)) {
        let bytes = HEADER_BYTES + value.length * POINTER_BYTES;
        for (const element of value) bytes += bytesOf(element, seen);
        return bytes;
      }
      let bytes = OBJECT_BYTES;
      for (const key in value) bytes += 2 * POINTER_BYTES + bytesOf((value as Record<string, unknown>)[key], seen);
      return bytes;
    }
    default:
      return 0;
  }
}

/** An answer kept for replay: its body, and room for the compressed copies it may gain (each smaller than it). */
export function answerBytes(body: string): number {
  return Buffer.byteLength(body) * 2 + 512;
}

/** What an entry of `valueBytes` under `key` counts for in its cache: its value, its key and the bookkeeping. */
export function entryBytes(key: unknown, valueBytes: number): number {
  return ENTRY_BYTES + roughBytes(key) + Math.ceil(valueBytes);
}

type Options<K extends NonNullable<unknown>, V extends NonNullable<unknown>> = Omit<
  LRUCache.Options<K, V, unknown>,
  'max' | 'maxSize' | 'sizeCalculation'
>;

/**
 * A least-recently-used cache bounded by bytes: `bytes` in all (a `CACHE_BYTES` entry), each entry counted by
 * `sizeOf`, with its key and the cache's bookkeeping (`entryBytes`, which a `set` naming its own size uses too).
 * An entry larger than a tenth of the whole (or than `maxEntrySize`, when given) is not kept.
 */
export function byteBounded<K extends NonNullable<unknown>, V extends NonNullable<unknown>>(
  bytes: number,
  sizeOf: (value: V, key: K) => number,
  options: Options<K, V> = {},
): LRUCache<K, V> {
  return new LRUCache<K, V>({
    maxEntrySize: Math.floor(bytes / 10),
    ...options,
    maxSize: bytes,
    sizeCalculation: (value, key) => entryBytes(key, sizeOf(value, key)),
  });
}

/** A cache `byteBounded` made. */
export type BoundedCache<K extends NonNullable<unknown>, V extends NonNullable<unknown>> = LRUCache<K, V>;
