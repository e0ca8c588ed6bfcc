import { LRUCache } from 'lru-cache';
import { TagIndex } from '../cache/tag-index.js';
import type { CollectionName } from '../../shared/schemas/documents.js';
import { parseSearchRequest, type SearchResult } from '../../shared/schemas/search.js';
import { SEARCH_CACHE_TTL_SECONDS } from '../../shared/rules/constants.js';
import type { SearchEngine, SearchRequestFor } from './search-engine.js';

type AnyResult = SearchResult<unknown>;

export interface CachedEngineOptions {
  /** Upper bound of the cache in bytes of serialised results. */
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

/** 64 MiB of results by default: bounded memory whatever the traffic. */
export const DEFAULT_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * A result cache in front of any engine: bounded by size, entries live 12 hours (RULES 13.1), concurrent
 * identical queries share one engine call, a failing call is answered from the stale entry when there is
 * one, and a reindex drops everything tagged with the collection (or any other tag given).
 */
export class CachedEngine implements SearchEngine {
  readonly kind: SearchEngine['kind'];
  private readonly cache: LRUCache<string, AnyResult>;
  /** Engine calls under way, by key: identical queries meanwhile wait for the same call. */
  private readonly inFlight = new Map<string, Promise<AnyResult>>();
  private readonly tags = new TagIndex();
  private readonly stats = { hits: 0, misses: 0, staleServed: 0 };
  private readonly failures: number[] = [];

  constructor(
    private readonly engine: SearchEngine,
    options: CachedEngineOptions = {},
  ) {
    this.kind = engine.kind;
    this.cache = new LRUCache({
      maxSize: options.maxBytes ?? DEFAULT_CACHE_BYTES,
      sizeCalculation: (value) => Math.max(1, JSON.stringify(value).length),
      ttl: options.ttlMs ?? SEARCH_CACHE_TTL_SECONDS * 1000,
      // An expired entry stays until it is replaced or pushed out: it answers when the engine fails.
      noDeleteOnStaleGet: true,
      // Replaced by a fresh answer, a key keeps its tags; pushed out or dropped, it leaves them.
      dispose: (_value, key, reason) => {
        if (reason !== 'set') this.tags.untag(key);
      },
    });
  }

  async search<C extends CollectionName>(request: SearchRequestFor<C>, tags: readonly string[] = []) {
    // The parsed request is the key, so two spellings of the same query share an entry.
    const parsed = parseSearchRequest(request);
    const key = JSON.stringify(parsed);
    // Tagged before the engine is asked, so an invalidation while it answers finds the call too.
    this.tags.tag(key, [parsed.collection, ...tags]);
    const fresh = this.cache.get(key);
    if (fresh) {
      this.stats.hits++;
      return fresh as SearchResult<never>;
    }
    let call = this.inFlight.get(key);
    if (!call) {
      this.stats.misses++;
      call = this.call(key, parsed as SearchRequestFor<C>);
      this.inFlight.set(key, call);
    }
    try {
      return (await call) as SearchResult<never>;
    } catch (err) {
      const stale = this.cache.get(key, { allowStale: true });
      if (!stale) throw err;
      this.stats.staleServed++;
      return stale as SearchResult<never>;
    }
  }

  /** One engine call; its answer is kept unless the key was invalidated while it ran. */
  private call(key: string, request: SearchRequestFor<CollectionName>): Promise<AnyResult> {
    // The callbacks run after `call` is assigned, even when the engine throws at once.
    const call: Promise<AnyResult> = Promise.resolve()
      .then(() => this.engine.search(request) as Promise<AnyResult>)
      .then(
        (result) => {
          if (this.inFlight.get(key) === call) this.cache.set(key, result);
          return result;
        },
        (err: unknown) => {
          this.failures.push(Date.now());
          if (this.failures.length > MAX_FAILURES_KEPT) this.failures.shift();
          throw err;
        },
      )
      .finally(() => {
        if (this.inFlight.get(key) === call) this.inFlight.delete(key);
      });
    return call;
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
