import type { ClientRateLimitInfo, Options, Store } from 'express-rate-limit';
import type { Sql } from '../store/sql.js';
import { StoreUnavailableError } from '../store/store-errors.js';
import { ExpiredRowSweeper } from '../store/sweeper.js';
import {
  LeaseKeeper,
  LeasedRateLimitStore,
  type RateLimitLedger,
  type Taken,
  type TokenReturn,
} from './leased-rate-limit-store.js';

// One statement per take, atomic on PGlite and PostgreSQL alike: a new client starts a window, a client whose
// window has ended starts another, anyone else adds $3 hits. The database's clock decides, so every node agrees;
// the window's end is also answered as text (to the microsecond) to name the window tokens go back to.
const TAKE = `
  INSERT INTO rate_limit_hits AS h (key, hits, reset_at)
  VALUES ($1, $3, now() + make_interval(secs => $2::double precision / 1000))
  ON CONFLICT (key) DO UPDATE SET
    hits     = CASE WHEN h.reset_at <= now() THEN excluded.hits ELSE h.hits + excluded.hits END,
    reset_at = CASE WHEN h.reset_at <= now() THEN excluded.reset_at ELSE h.reset_at END
  RETURNING hits, reset_at, reset_at::text AS window, extract(epoch FROM reset_at - now())::float8 * 1000 AS ms_left`;

// Unused tokens of many keys back in one statement, each to the window it was taken from (a window that has
// ended and been started again is left alone).
const GIVE_BACK = `
  UPDATE rate_limit_hits AS h SET hits = GREATEST(h.hits - r.n, 0)
  FROM unnest($1::text[], $2::int[], $3::text[]) AS r(key, n, window_end)
  WHERE h.key = r.key AND h.reset_at = r.window_end::timestamptz`;

interface HitsRow extends Record<string, unknown> {
  hits: number;
  reset_at: Date | string;
}

interface TakenRow extends HitsRow {
  window: string;
  ms_left: number;
}

const info = (row: HitsRow): ClientRateLimitInfo => ({
  totalHits: Number(row.hits),
  resetTime: new Date(row.reset_at),
});

/**
 * One limiter's counts in the `rate_limit_hits` table, so every node on the database counts a client against
 * one limit. Keys are prefixed by the limiter's name, so two limiters never share a count.
 */
export class SqlRateLimitStore implements RateLimitLedger {
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
    return info(await this.takeRow(key, 1));
  }

  async take(key: string, n: number): Promise<Taken> {
    const row = await this.takeRow(key, n);
    return { hits: Number(row.hits), window: row.window, msLeft: Number(row.ms_left) };
  }

  private async takeRow(key: string, n: number): Promise<TakenRow> {
    const [row] = await this.query<TakenRow>(TAKE, [this.prefix + key, this.windowMs, n]);
    this.sweeper.maybeSweep();
    if (!row) throw new Error('rate_limit_hits: the increment returned no row');
    return row;
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

/** Hands unused tokens of many keys back in one statement. */
export const giveBackTokens =
  (sql: Sql) =>
  async (returns: TokenReturn[]): Promise<void> => {
    if (sql.health?.().available === false) return;
    await sql.query(GIVE_BACK, [returns.map((r) => r.key), returns.map((r) => r.n), returns.map((r) => r.window)]);
  };

/**
 * A store per limiter over one database, with one sweep of expired counts and one keeper of leases between them:
 * each counts on this node from leases of the shared count (RULES 8.6), so most requests cost no round trip.
 */
export function sqlRateLimitStores(sql: Sql, options: { sweepEveryMs?: number } = {}): (name: string) => Store {
  const sweeper = new ExpiredRowSweeper(
    sql,
    'DELETE FROM rate_limit_hits WHERE reset_at <= now()',
    options.sweepEveryMs,
  );
  const keeper = new LeaseKeeper(giveBackTokens(sql));
  return (name) => new LeasedRateLimitStore(new SqlRateLimitStore(sql, name, sweeper), keeper);
}
