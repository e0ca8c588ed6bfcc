import {
  contentKey,
  Subscribers,
  validatePayload,
  type FlagPayload,
  type FlagProblem,
  type FlagSource,
  type FlagSourceStatus,
} from './flags-file.js';
import { DEFAULT_TIMEOUT_MS } from '../config/flags.js';
import type { Logger } from '../../shared/logger.js';

/** RULES 9.2, feature-flag cache: stale after 60 s, max age 4 hours, up to 10 entries. */
export const STALE_AFTER_MS = 60_000;
export const MAX_AGE_MS = 4 * 60 * 60_000;
export const MAX_ENTRIES = 10;

export type CacheState = 'fresh' | 'stale';

export interface CacheEntry {
  payload: FlagPayload;
  fetchedAt: number;
}

export interface PayloadCacheOptions {
  staleAfterMs?: number;
  maxAgeMs?: number;
  maxEntries?: number;
  now?: () => number;
}

/**
 * Payloads by source URL. An entry is fresh for `staleAfterMs`, then stale (still served, refreshed in the
 * background) until `maxAgeMs`, then gone. The least recently used entry goes first when the cache is full.
 */
export class PayloadCache {
  private readonly entries = new Map<string, CacheEntry>();
  readonly staleAfterMs: number;
  readonly maxAgeMs: number;
  readonly maxEntries: number;
  private readonly now: () => number;

  constructor(options: PayloadCacheOptions = {}) {
    this.staleAfterMs = options.staleAfterMs ?? STALE_AFTER_MS;
    this.maxAgeMs = options.maxAgeMs ?? MAX_AGE_MS;
    this.maxEntries = options.maxEntries ?? MAX_ENTRIES;
    this.now = options.now ?? Date.now;
  }

  get(key: string): (CacheEntry & { state: CacheState }) | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    const age = this.now() - entry.fetchedAt;
    if (age >= this.maxAgeMs) {
      this.entries.delete(key);
      return undefined;
    }
    this.entries.delete(key);
    this.entries.set(key, entry);
    return { ...entry, state: age < this.staleAfterMs ? 'fresh' : 'stale' };
  }

  set(key: string, payload: FlagPayload): void {
    this.entries.delete(key);
    this.entries.set(key, { payload, fetchedAt: this.now() });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }

  get size(): number {
    return this.entries.size;
  }
}

export interface RemoteSourceOptions {
  /** GrowthBook API or proxy base address, e.g. `https://cdn.growthbook.io`. */
  host: string;
  clientKey: string;
  /** Served until the first fetch succeeds, and after the last good payload passes the cache's max age. */
  fallback: FlagPayload;
  fetch?: typeof globalThis.fetch;
  timeoutMs?: number;
  logger?: Logger;
  cache?: PayloadCache;
  now?: () => number;
}

/**
 * Flags from a remote GrowthBook (API, CDN or proxy), read with `GET {host}/api/features/{clientKey}`.
 *
 * Refresh is poll-based: `start()` refetches every 60 s (RULES 9.2), and a read of a stale payload triggers a
 * background refetch as well; nothing subscribes to the upstream event stream. A failed or invalid fetch keeps
 * the last good payload until it is 4 hours old (RULES 9.2); after that the embedded `fallback` serves until
 * GrowthBook answers again. Subscribers hear about every change of what is served.
 */
export class RemoteFlagSource implements FlagSource {
  readonly url: string;
  private readonly fetchFn: typeof globalThis.fetch;
  private readonly timeoutMs: number;
  private readonly now: () => number;
  private readonly cache: PayloadCache;
  private readonly subscribers: Subscribers<FlagPayload>;
  private inflight: Promise<void> | null = null;
  private served: FlagPayload;
  private servedKey: string;
  private lastError: FlagProblem | null = null;
  private lastAttemptAt = Number.NEGATIVE_INFINITY;
  private poller: NodeJS.Timeout | null = null;

  constructor(private readonly options: RemoteSourceOptions) {
    const host = options.host.replace(/\/+$/, '');
    this.url = `${host}/api/features/${encodeURIComponent(options.clientKey)}`;
    this.fetchFn = options.fetch ?? globalThis.fetch;
    this.now = options.now ?? Date.now;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.cache = options.cache ?? new PayloadCache(options.now ? { now: options.now } : {});
    this.subscribers = new Subscribers(options.logger);
    this.served = options.fallback;
    this.servedKey = this.keyOf(options.fallback);
  }

  /** The first fetch; never throws: when GrowthBook cannot be reached, the fallback serves meanwhile. */
  async load(): Promise<FlagPayload> {
    await this.refresh();
    return this.payload();
  }

  payload(): FlagPayload {
    const entry = this.cache.get(this.url);
    // While GrowthBook is down, requests must not each start a fetch: one attempt per stale period.
    if (entry?.state !== 'fresh' && this.now() - this.lastAttemptAt >= this.cache.staleAfterMs) void this.refresh();
    this.serve(entry?.payload ?? this.options.fallback);
    return this.served;
  }

  /** Fetches now unless a fetch is already under way, in which case it waits for that one. */
  refresh(): Promise<void> {
    this.inflight ??= this.fetchOnce().finally(() => {
      this.inflight = null;
    });
    return this.inflight;
  }

  /** Starts polling; returns the function that stops it. */
  start(): () => void {
    this.stop();
    this.poller = setInterval(() => void this.refresh(), this.cache.staleAfterMs);
    this.poller.unref();
    return () => this.stop();
  }

  subscribe(fn: (payload: FlagPayload) => void): () => void {
    return this.subscribers.add(fn);
  }

  get subscriberCount(): number {
    return this.subscribers.size;
  }

  status(): FlagSourceStatus & { url: string; cache: 'fresh' | 'stale' | 'fallback' } {
    const entry = this.cache.get(this.url);
    return {
      source: 'remote',
      url: this.url,
      ok: this.lastError === null && entry !== undefined,
      cache: entry?.state ?? 'fallback',
      dateUpdated: this.served.dateUpdated,
      problems: this.lastError ? [this.lastError] : [],
    };
  }

  close(): void {
    this.stop();
  }

  private stop(): void {
    if (this.poller) clearInterval(this.poller);
    this.poller = null;
  }

  private async fetchOnce(): Promise<void> {
    this.lastAttemptAt = this.now();
    try {
      const res = await this.fetchFn(this.url, {
        headers: { Accept: 'application/json' },
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      if (!res.ok) throw new RemoteFlagsError('', `HTTP ${res.status}`);
      let raw: unknown;
      try {
        raw = await res.json();
      } catch (err) {
        throw new RemoteFlagsError('', `not valid JSON: ${(err as Error).message}`);
      }
      const result = validatePayload(raw);
      if (!result.ok) {
        const first = result.problems[0]!;
        throw new RemoteFlagsError(
          first.path,
          result.problems.map((p) => `${p.path || '(root)'}: ${p.message}`).join('; '),
        );
      }
      this.cache.set(this.url, result.payload);
      this.lastError = null;
      this.serve(result.payload);
    } catch (err) {
      const reason =
        err instanceof RemoteFlagsError
          ? err.message
          : (err as Error).name === 'TimeoutError'
            ? `no answer within ${this.timeoutMs} ms`
            : `unreachable: ${(err as Error).message}`;
      const found: FlagProblem = {
        file: this.url,
        path: err instanceof RemoteFlagsError ? err.path : '',
        message: reason,
      };
      this.lastError = found;
      const keeps = this.cache.get(this.url) ? 'the last good payload keeps serving' : 'the embedded flags serve';
      this.options.logger?.warn(
        { file: found.file, path: found.path },
        `remote flags rejected: ${found.message}; ${keeps}`,
      );
      this.serve(this.cache.get(this.url)?.payload ?? this.options.fallback);
    }
  }

  private serve(payload: FlagPayload): void {
    const key = this.keyOf(payload);
    if (key === this.servedKey) return;
    this.served = payload;
    this.servedKey = key;
    this.options.logger?.info({ url: this.url, dateUpdated: payload.dateUpdated }, 'remote flags changed');
    this.subscribers.notify(payload);
  }

  private keyOf(payload: FlagPayload): string {
    return `${payload.dateUpdated}\n${contentKey(payload)}`;
  }
}

class RemoteFlagsError extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
    this.name = 'RemoteFlagsError';
  }
}
