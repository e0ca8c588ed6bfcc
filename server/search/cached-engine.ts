import { byteBounded, CACHE_BYTES, roughBytes, type BoundedCache } from '../cache/byte-bounded.js';
import { TagIndex } from '../cache/tag-index.js';
import type { CollectionName } from '../../shared/schemas/documents.js';
import { parseSearchRequest, type SearchResult } from '../../shared/schemas/search.js';
import { SEARCH_CACHE_TTL_SECONDS } from '../../shared/rules/constants.js';
import type { SearchEngine, SearchRequestFor } from './search-engine.js';

type AnyResult = SearchResult<unknown>;
/** A kept result, with when its engine call began and the collection it read (`expire`). */
interface Entry {
  result: AnyResult;
  born: number;
  collection: string;
}
/** An engine call under way, likewise. */
interface Flight {
  call: Promise<AnyResult>;
  born: number;
  collection: string;
}

export interface CachedEngineOptions {
  /** Upper bound of the cache, in bytes of results as `roughBytes` counts them. */
  maxBytes?: number;
  ttlMs?: number;
}

export interface CacheStats {
  entries: number;
  bytes: number;
  hits: number;
  misses: number;
  staleServed: number;
}

const MAX_FAILURES_KEPT = 1_000;

/**
 * A result cache in front of any engine: bounded by size, entries live 12 hours (RULES 13.1), concurrent
 * identical queries share one engine call, a failing call is answered from the stale entry when there is
 * one, and a reindex drops everything tagged with the collection (or any other tag given).
 */
export class CachedEngine implements SearchEngine {
  readonly kind: SearchEngine['kind'];
  private readonly cache: BoundedCache<string, Entry>;
  /** Engine calls under way, by key: identical queries meanwhile wait for the same call. */
  private readonly inFlight = new Map<string, Flight>();
  /** Counts engine calls begun and collections expired: what is older than its collection's expiry is not used. */
  private clock = 0;
  private readonly expiredAt = new Map<string, number>();
  private readonly tags = new TagIndex();
  private readonly stats = { hits: 0, misses: 0, staleServed: 0 };
  private readonly failures: number[] = [];

  constructor(
    private readonly engine: SearchEngine,
    options: CachedEngineOptions = {},
  ) {
    this.kind = engine.kind;
    this.cache = byteBounded<string, Entry>(
      options.maxBytes ?? CACHE_BYTES.searchResults,
      (e) => roughBytes(e.result),
      {
        ttl: options.ttlMs ?? SEARCH_CACHE_TTL_SECONDS * 1000,
        // An expired entry stays until it is replaced or pushed out: it answers when the engine fails.
        noDeleteOnStaleGet: true,
        // Replaced by a fresh answer, a key keeps its tags; pushed out or dropped, it leaves them.
        dispose: (_value, key, reason) => {
          if (reason !== 'set') this.tags.untag(key);
        },
      },
    );
  }

  async search<C extends CollectionName>(request: SearchRequestFor<C>, tags: readonly string[] = []) {
    // The parsed request is the key, so two spellings of the same query share an entry.
    const parsed = parseSearchRequest(request);
    const key = JSON.stringify(parsed);
    // Tagged before the engine is asked, so an invalidation while it answers finds the call too.
    this.tags.tag(key, [parsed.collection, ...tags]);
    const fresh = this.cache.get(key);
    if (fresh && this.current(fresh)) {
      this.stats.hits++;
      return fresh.result as SearchResult<never>;
    }
    let flight = this.inFlight.get(key);
    if (!flight || !this.current(flight)) {
      this.stats.misses++;
      flight = this.call(key, parsed as SearchRequestFor<C>);
      this.inFlight.set(key, flight);
    }
    try {
      return (await flight.call) as SearchResult<never>;
    } catch (err) {
      const stale = this.cache.get(key, { allowStale: true });
      if (!stale || !this.current(stale)) throw err;
      this.stats.staleServed++;
      return stale.result as SearchResult<never>;
    }
  }

  /** Whether a result (or a call) began after its collection last expired. */
  private current(entry: { born: number; collection: string }): boolean {
    return entry.born > (this.expiredAt.get(entry.collection) ?? 0);
  }

  /** One engine call; its answer is kept unless the key was invalidated, or its collection expired, while it ran. */
  private call(key: string, request: SearchRequestFor<CollectionName>): Flight {
    const born = ++this.clock;
    // The callbacks run after `flight` is assigned, even when the engine throws at once.
    const flight: Flight = {
      born,
      collection: request.collection,
      call: Promise.resolve()
        .then(() => this.engine.search(request) as Promise<AnyResult>)
        .then(
          (result) => {
            if (this.inFlight.get(key) === flight && this.current(flight))
              this.cache.set(key, { result, born, collection: request.collection });
            return result;
          },
          (err: unknown) => {
            this.failures.push(Date.now());
            if (this.failures.length > MAX_FAILURES_KEPT) this.failures.shift();
            throw err;
          },
        )
        .finally(() => {
          if (this.inFlight.get(key) === flight) this.inFlight.delete(key);
        }),
    };
    return flight;
  }

  /** Drops every entry carrying the tag (a collection name, or a tag a caller gave). */
  invalidate(tag: string): number {
    const keys = this.tags.take(tag);
    for (const key of keys) {
      this.cache.delete(key);
      // A call under way was answered from the documents before the change: its answer is not kept.
      this.inFlight.delete(key);
    }
    return keys.length;
  }

  /**
   * Stops using every result of a collection read before now, at once whatever their number: none is answered or
   * kept from here on (calls under way included). The entries stay until they are replaced or pushed out (the cache
   * is bounded by bytes either way): dropping tens of thousands at once would hold the loop (RULES 13.11).
   */
  expire(collection: CollectionName): void {
    this.expiredAt.set(collection, ++this.clock);
  }

  health() {
    return this.engine.health();
  }

  /** Engine calls that failed in the last `windowMs` (what `/readyz` reports as degradation). */
  failuresWithin(windowMs: number, now = Date.now()): number {
    return this.failures.filter((t) => now - t <= windowMs).length;
  }

  cacheStats(): CacheStats {
    return { entries: this.cache.size, bytes: this.cache.calculatedSize, ...this.stats };
  }
}

/** Search counts as degraded for a minute after a failed engine call. */
export const SEARCH_DEGRADED_WINDOW_MS = 60_000;

/** The `/readyz` probe of a cached engine: degraded while engine calls have failed in the last minute. */
export function searchDegradation(engine: CachedEngine) {
  return () => {
    const failures = engine.failuresWithin(SEARCH_DEGRADED_WINDOW_MS);
    return {
      degraded: failures > 0,
      detail: `${failures} failed search call(s) in the last minute; answering from cache where possible`,
    };
  };
}
