import path from 'node:path';
import { migrate } from './migrations.js';
import { openPglite } from './pglite-sql.js';
import { openPostgres, RECONNECT_PROBE_MS } from './postgres-sql.js';
import { StoreHealthTracker } from './store-health.js';
import { StoreUnavailableError } from './store-errors.js';
import type { Probe } from '../health/readiness.js';
import type { Sql } from './sql.js';
import type { Logger } from '../../shared/logger.js';

/**
 * PostgreSQL when `DATABASE_URL` is set, otherwise PGlite in `<DATA_DIR>/db`; migrated either way. A
 * PostgreSQL that cannot be reached at start does not stop the node: it starts, answers 503 for what needs the
 * store, and opens it as soon as it can (a node restarted during a database outage serves browsing meanwhile).
 * A database that refuses us for good (a wrong password, a missing database) stops the start with its reason.
 */
export async function openStore(options: {
  databaseUrl?: string;
  dataDir: string;
  logger?: Pick<Logger, 'info' | 'warn'>;
}): Promise<Sql> {
  if (!options.databaseUrl) {
    const sql = await openPglite(path.join(options.dataDir, 'db'));
    await migrate(sql);
    return sql;
  }
  const url = options.databaseUrl;
  const onIdleError = (err: Error) =>
    options.logger?.warn({ err }, 'a pooled database connection failed; it will be replaced');
  const open = async () => {
    const sql = await openPostgres(url, undefined, onIdleError);
    try {
      await migrate(sql);
    } catch (err) {
      await sql.close().catch(() => {});
      throw err;
    }
    return sql;
  };
  try {
    return await open();
  } catch (err) {
    if (!(err instanceof StoreUnavailableError)) throw err;
    options.logger?.warn({ err }, 'PostgreSQL is unreachable; serving without it and trying again');
    return reconnecting(open, err, options.logger);
  }
}

/** A store that is not there yet: every use is a StoreUnavailableError until `open` succeeds. */
function reconnecting(open: () => Promise<Sql>, first: unknown, logger?: Pick<Logger, 'info' | 'warn'>): Sql {
  let real: Sql | null = null;
  let closed = false;
  const health = new StoreHealthTracker('PostgreSQL');
  health.failed(first);
  let timer: NodeJS.Timeout | undefined;
  const attempt = () => {
    timer = undefined;
    open().then(
      (sql) => {
        if (closed) return void sql.close();
        real = sql;
        logger?.info({}, 'PostgreSQL reachable again; store opened');
      },
      (err: unknown) => {
        health.failed(err);
        if (!closed) timer = setTimeout(attempt, RECONNECT_PROBE_MS).unref();
      },
    );
  };
  timer = setTimeout(attempt, RECONNECT_PROBE_MS).unref();
  const get = () => {
    if (real) return real;
    throw new StoreUnavailableError(new Error(health.state().detail));
  };
  return {
    kind: 'postgres',
    query: async (text, params) => get().query(text, params),
    transaction: async (fn) => get().transaction(fn),
    close: async () => {
      closed = true;
      if (timer) clearTimeout(timer);
      await real?.close();
    },
    health: () => real?.health?.() ?? health.state(),
  };
}

/**
 * What `/readyz` says of the store. A shared database that is down is reported (`degraded`, with the driver's
 * reason) but does not make the node unready: every node shares it, so taking nodes out of the load balancer
 * would only add browsing and search, which need no database, to what is already down.
 */
export function storeDegradation(sql: Sql): Probe {
  return () => {
    const health = sql.health?.();
    return health && !health.available
      ? { degraded: true, detail: `${health.detail} (since ${health.since})` }
      : { degraded: false, detail: health?.detail ?? '' };
  };
}
