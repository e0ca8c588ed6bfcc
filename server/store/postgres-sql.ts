import pg from 'pg';
import type { Sql, SqlTx } from './sql.js';

/** PostgreSQL through a connection pool, for several server nodes sharing one database. */
export async function openPostgres(url: string, maxConnections = 10, onIdleError: (err: Error) => void = () => {}): Promise<Sql> {
  const pool = new pg.Pool({ connectionString: url, max: maxConnections, connectionTimeoutMillis: 5_000 });
  // An idle connection can die under us (a database restart, an administrator ending it). Without a listener
  // that error would crash the process; the pool replaces the connection on the next query anyway.
  pool.on('error', onIdleError);
  // Fail at start, not on the first shopper's request, when the database is unreachable.
  const probe = await pool.connect();
  probe.release();
  const query = async <R extends Record<string, unknown>>(text: string, params: unknown[] = []) =>
    (await pool.query<R>(text, params)).rows;
  return {
    kind: 'postgres',
    query,
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const tx: SqlTx = { query: async <R extends Record<string, unknown>>(text: string, params: unknown[] = []) => (await client.query<R>(text, params)).rows };
        const result = await fn(tx);
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {});
        throw err;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
