import path from 'node:path';
import { migrate } from './migrations.js';
import { openPglite } from './pglite-sql.js';
import { openPostgres } from './postgres-sql.js';
import type { Probe } from '../health/readiness.js';
import type { Sql } from './sql.js';

/** PostgreSQL when `DATABASE_URL` is set, otherwise PGlite in `<DATA_DIR>/db`; migrated either way. */
export async function openStore(options: { databaseUrl?: string; dataDir: string; logger?: { warn(obj: object, msg: string): void } }): Promise<Sql> {
  const onIdleError = (err: Error) => options.logger?.warn({ err }, 'a pooled database connection failed; it will be replaced');
  const sql = options.databaseUrl ? await openPostgres(options.databaseUrl, undefined, onIdleError) : await openPglite(path.join(options.dataDir, 'db'));
  await migrate(sql);
  return sql;
}

/**
 * What `/readyz` says of the store. A shared database that is down is reported (`degraded`, with the driver's
 * reason) but does not make the node unready: every node shares it, so taking nodes out of the load balancer
 * would only add browsing and search, which need no database, to what is already down.
 */
export function storeDegradation(sql: Sql): Probe {
  return () => {
    const health = sql.health?.();
    return health && !health.available ? { degraded: true, detail: `${health.detail} (since ${health.since})` } : { degraded: false, detail: health?.detail ?? '' };
  };
}
