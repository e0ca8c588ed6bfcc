import type { ClientRateLimitInfo, Options, Store } from 'express-rate-limit';
import type { Sql } from '../store/sql.js';
import { StoreUnavailableError } from '../store/store-errors.js';
import { ExpiredRowSweeper } from '../store/sweeper.js';

// One statement per hit, atomic on PGlite and PostgreSQL alike: a new client starts a window, a client whose
// window has ended starts another, anyone else adds one. The database's clock decides, so every node agrees.
const INCREMENT = `
  INSERT INTO rate_limit_hits AS h (key, hits, reset_at)
  VALUES ($1, 1, now() + make_interval(secs => $2::double precision / 1000))
  ON CONFLICT (key) DO UPDATE SET
    hits     = CASE WHEN h.reset_at <= now() THEN 1 ELSE h.hits + 1 END,
    reset_at = CASE WHEN h.reset_at <= now() THEN excluded.reset_at ELSE h.reset_at END
  RETURNING hits, reset_at`;

interface HitsRow extends Record<string, unknown> {
  hits: number;
  reset_at: Date | string;
}

const info = (row: HitsRow): ClientRateLimitInfo => ({
  totalHits: Number(row.hits),
  resetTime: new Date(row.reset_at),
});

/**
 * One limiter's counts in the `rate_limit_hits` table, so every node on the database counts a client against
 * one limit. Keys are prefixed by the limiter's name, so two limiters never share a count.
 */
export class SqlRateLimitStore implements Store {
  readonly localKeys = false;
  readonly prefix: string;
  /** The limiter's window, from `init` (express-rate-limit calls it before any increment). */
  private windowMs = 0;

  constructor(
    private readonly sql: Sql,
    name: string,
    private readonly sweeper: ExpiredRowSweeper,
  ) {
    this.prefix = `${name}:`;
  }

  init(options: Options): void {
    this.windowMs = options.windowMs;
  }

  async get(key: string): Promise<ClientRateLimitInfo | undefined> {
    const [row] = await this.query<HitsRow>(
      'SELECT hits, reset_at FROM rate_limit_hits WHERE key = $1 AND reset_at > now()',
      [this.prefix + key],
    );
    return row ? info(row) : undefined;
  }

  async increment(key: string): Promise<ClientRateLimitInfo> {
    const [row] = await this.query<HitsRow>(INCREMENT, [this.prefix + key, this.windowMs]);
    this.sweeper.maybeSweep();
    if (!row) throw new Error('rate_limit_hits: the increment returned no row');
    return info(row);
  }

  async decrement(key: string): Promise<void> {
    await this.query('UPDATE rate_limit_hits SET hits = hits - 1 WHERE key = $1 AND hits > 0 AND reset_at > now()', [
      this.prefix + key,
    ]);
  }

  async resetKey(key: string): Promise<void> {
    await this.query('DELETE FROM rate_limit_hits WHERE key = $1', [this.prefix + key]);
  }

  async resetAll(): Promise<void> {
    await this.query('DELETE FROM rate_limit_hits WHERE starts_with(key, $1)', [this.prefix]);
  }

  /** A store already known to be down fails at once instead of making each request wait for a connection. */
  private query<R extends Record<string, unknown>>(text: string, params: unknown[]): Promise<R[]> {
    const health = this.sql.health?.();
    if (health && !health.available) return Promise.reject(new StoreUnavailableError(new Error(health.detail)));
    return this.sql.query<R>(text, params);
  }
}

/** A store per limiter over one database, with one sweep of expired counts between them. */
export function sqlRateLimitStores(sql: Sql, options: { sweepEveryMs?: number } = {}): (name: string) => Store {
  const sweeper = new ExpiredRowSweeper(
    sql,
    'DELETE FROM rate_limit_hits WHERE reset_at <= now()',
    options.sweepEveryMs,
  );
  return (name) => new SqlRateLimitStore(sql, name, sweeper);
}
