import type { Logger } from 'pino';
import { PURGE_KEY_HEADER } from './surrogate-keys.js';

export interface SharedCachePurgeOptions {
  /** The shared caches' addresses (`http://127.0.0.1:6081`): each gets every purge. */
  urls: readonly string[];
  logger: Logger;
  /** How long keys gather before they go, in one purge per cache. */
  batchMs?: number;
  /** Bound on one purge's header value: more keys go in further purges. */
  maxHeaderBytes?: number;
  /** Tries of one purge before it is given up. */
  attempts?: number;
  /** The wait before the second try; it doubles at each further one. */
  backoffMs?: number;
  /** How long one purge may take. */
  timeoutMs?: number;
}

/** Not a spec figure: a change's keys usually come in one burst; 50 ms gathers it without delaying the purge much. */
const BATCH_MS = 50;
/** Not a spec figure: well under the 8 KB header lines Varnish (and most proxies) accept by default. */
const MAX_HEADER_BYTES = 4_000;
/** Not a spec figure: a cache restarting or briefly unreachable is back within the waits (0.2 + 0.4 + 0.8 s). */
const ATTEMPTS = 4;
const BACKOFF_MS = 200;
const TIMEOUT_MS = 5_000;

/**
 * Purges the shared caches in front (Varnish with xkey, `deploy/varnish/storefront.vcl`) by surrogate key (RULES
 * 13.7): the keys of the tags each change forgets are gathered for a moment and sent as `PURGE /` with the keys in
 * the `xkey-purge` header, to every cache, so a change shows through the cache at once. Nothing here waits on a
 * request: a purge that fails is logged and tried again with growing waits, then given up (the page's own
 * lifetime bounds how long it stays stale).
 */
export class SharedCachePurge {
  private readonly urls: string[];
  private readonly batchMs: number;
  private readonly maxHeaderBytes: number;
  private readonly attempts: number;
  private readonly backoffMs: number;
  private readonly timeoutMs: number;
  private pending = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private readonly inFlight = new Set<Promise<void>>();
  /** The waits before retries, each with what ends it early (on stop). */
  private readonly waits = new Map<NodeJS.Timeout, () => void>();
  private stopped = false;
  /** Purges a cache answered 200 to; for the tests and the logs. */
  sent = 0;

  constructor(private readonly options: SharedCachePurgeOptions) {
    this.urls = options.urls.map((u) => u.replace(/\/+$/, ''));
    this.batchMs = options.batchMs ?? BATCH_MS;
    this.maxHeaderBytes = options.maxHeaderBytes ?? MAX_HEADER_BYTES;
    this.attempts = options.attempts ?? ATTEMPTS;
    this.backoffMs = options.backoffMs ?? BACKOFF_MS;
    this.timeoutMs = options.timeoutMs ?? TIMEOUT_MS;
  }

  /** Purges `key` from every cache with the next batch. */
  add(key: string): void {
    if (this.stopped || this.urls.length === 0 || key === '') return;
    this.pending.add(key);
    this.timer ??= setTimeout(() => this.flush(), this.batchMs);
  }

  /** Sends what has gathered now; resolves when it and every purge in flight (their retries included) are done. */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const keys = [...this.pending];
    this.pending = new Set();
    for (const batch of this.batches(keys)) for (const url of this.urls) this.track(this.send(url, batch, 1));
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  /** Sends what has gathered, then sends nothing more: no further keys, no further retries. */
  async stop(): Promise<void> {
    const last = this.flush();
    this.stopped = true;
    for (const [timer, end] of this.waits) {
      clearTimeout(timer);
      end();
    }
    this.waits.clear();
    await last;
  }

  /** The keys in groups whose header value (space-separated) stays within the bound. */
  private batches(keys: readonly string[]): string[] {
    const out: string[] = [];
    let current = '';
    for (const key of keys) {
      const next = current ? `${current} ${key}` : key;
      if (current && Buffer.byteLength(next) > this.maxHeaderBytes) {
        out.push(current);
        current = key;
      } else current = next;
    }
    if (current) out.push(current);
    return out;
  }

  private track(work: Promise<void>): void {
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work));
  }

  private async send(url: string, keys: string, attempt: number): Promise<void> {
    let problem: string;
    try {
      const res = await fetch(`${url}/`, {
        method: 'PURGE',
        headers: { [PURGE_KEY_HEADER]: keys },
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      await res.arrayBuffer().catch(() => undefined);
      if (res.ok) {
        this.sent++;
        return;
      }
      problem = `answered ${res.status} ${res.statusText}`;
      // A refusal (this node is not among the purgers, a cache without the configuration) will not change by
      // itself: said once, not tried again.
      if (res.status >= 400 && res.status < 500) {
        this.options.logger.warn({ url, status: res.status }, `the shared cache refused a purge: ${problem}`);
        return;
      }
    } catch (err) {
      problem = err instanceof Error ? err.message : String(err);
    }
    const last = attempt >= this.attempts || this.stopped;
    this.options.logger.warn(
      { url, attempt, keys: keys.split(' ').length },
      last
        ? `a shared cache purge failed (${problem}): given up; its pages refresh at their s-maxage`
        : `a shared cache purge failed (${problem}): trying again`,
    );
    if (last) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(
        () => {
          this.waits.delete(timer);
          resolve();
        },
        this.backoffMs * 2 ** (attempt - 1),
      );
      this.waits.set(timer, resolve);
    });
    if (this.stopped) return;
    return this.send(url, keys, attempt + 1);
  }
}
