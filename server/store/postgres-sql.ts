import pg from 'pg';
import { StoreHealthTracker } from './store-health.js';
import { classifyStoreError, isStoreUnavailable } from './store-errors.js';
import type { Sql, SqlTx } from './sql.js';

/** How long a request waits for a pooled connection before the store counts as unavailable. */
const CONNECT_TIMEOUT_MS = 5_000;
/** While the database is unreachable, how often a quiet node asks again, so `/readyz` recovers by itself. */
export const RECONNECT_PROBE_MS = 2_000;

/** PostgreSQL through a connection pool, for several server nodes sharing one database. */
export async function openPostgres(
  url: string,
  maxConnections = 10,
  onIdleError: (err: Error) => void = () => {},
): Promise<Sql> {
  const pool = new pg.Pool({ connectionString: url, max: maxConnections, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  const health = new StoreHealthTracker('PostgreSQL');
  // An idle connection can die under us (a database restart, an administrator ending it). Without a listener
  // that error would crash the process; the pool drops the connection and opens another on the next query.
  pool.on('error', (err) => {
    health.failed(err);
    onIdleError(err);
  });
  // Fail at start, not on the first shopper's request, when the database is unreachable.
  try {
    const probe = await pool.connect();
    probe.release();
  } catch (err) {
    await pool.end().catch(() => {});
    return classifyStoreError(err);
  }

  const tracked = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      const result = await work();
      health.succeeded();
      return result;
    } catch (err) {
      if (isStoreUnavailable(err)) health.failed(err);
      return classifyStoreError(err);
    }
  };

  const sql: Sql = {
    kind: 'postgres',
    // pool.query checks a client out with an error listener of its own and destroys it when it breaks.
    query: <R extends Record<string, unknown>>(text: string, params: unknown[] = []) =>
      tracked(async () => (await pool.query<R>(text, params)).rows),
    transaction: (fn) => tracked(() => inTransaction(pool, fn)),
    close: async () => {
      clearInterval(reconnect);
      await pool.end();
    },
    health: () => health.state(),
  };
  const reconnect = setInterval(() => {
    if (!health.state().available) void sql.query('SELECT 1').catch(() => {});
  }, RECONNECT_PROBE_MS);
  reconnect.unref();
  return sql;
}

/**
 * One transaction on one checked-out connection. While it is checked out the connection has an error listener
 * of its own (the pool's listener covers idle connections only, and an `error` event nobody listens to ends
 * the process); a connection that failed is handed back with its error, so the pool destroys it rather than
 * lending it to the next request.
 */
async function inTransaction<T>(pool: pg.Pool, fn: (tx: SqlTx) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  const onError = (err: Error) => {
    broken ??= err;
  };
  client.on('error', onError);
  try {
    await client.query('BEGIN');
    const tx: SqlTx = {
      query: async <R extends Record<string, unknown>>(text: string, params: unknown[] = []) => {
        if (broken) throw broken;
        return (await client.query<R>(text, params)).rows;
      },
    };
    const result = await fn(tx);
    if (broken) throw broken;
    await client.query('COMMIT');
    return result;
  } catch (err) {
    if (isStoreUnavailable(err)) broken ??= err as Error;
    if (!broken) await client.query('ROLLBACK').catch((rollbackError: Error) => (broken ??= rollbackError));
    throw err;
  } finally {
    client.removeListener('error', onError);
    client.release(broken);
  }
}
