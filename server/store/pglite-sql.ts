import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { classifyStoreError } from './store-errors.js';
import type { Sql, SqlTx } from './sql.js';

/**
 * PostgreSQL's buffer cache inside PGlite. Its default (128 MB) is sized for a database server; the embedded
 * store holds a sandbox's carts, holds and orders, and the smaller cache takes about 120 MB off the process.
 */
const SHARED_BUFFERS = '16MB';

/** The embedded default: PGlite with its files in `dir` (or in memory when `dir` is null, for tests). */
export async function openPglite(dir: string | null): Promise<Sql> {
  if (dir) await mkdir(dir, { recursive: true });
  const options = { startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${SHARED_BUFFERS}`] };
  const db = dir ? new PGlite(dir, options) : new PGlite(options);
  await db.waitReady;
  const query = async <R extends Record<string, unknown>>(text: string, params: unknown[] = []) =>
    (await db.query<R>(text, params).catch(classifyStoreError)).rows;
  return {
    kind: 'pglite',
    query,
    transaction: (fn) =>
      db
        .transaction(async (tx) => {
          const scoped: SqlTx = { query: async <R extends Record<string, unknown>>(text: string, params: unknown[] = []) => (await tx.query<R>(text, params)).rows };
          return fn(scoped);
        })
        .catch(classifyStoreError),
    close: () => db.close(),
    // In-process: it is there as long as the process is.
    health: () => ({ available: !db.closed, since: new Date(0).toISOString(), detail: db.closed ? 'PGlite closed' : 'PGlite in process' }),
  };
}
