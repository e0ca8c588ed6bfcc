/**
 * A private PostgreSQL cluster for tests and the fault benchmark, which can be crashed and started again, and
 * fresh databases in it. Nothing here imports the test runner, so the benchmark uses it as well.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export interface PostgresCluster {
  /** The admin URL (database `postgres`). */
  url: string;
  /** `pg_ctl stop -m immediate`: every connection is cut, transactions in flight are lost, no checkpoint. */
  crash(): void;
  /** `pg_ctl start` on the same data directory and port; returns once it accepts connections. */
  restart(): void;
  /** Stops the cluster and removes its folder. */
  stop(): void;
  /** The running postmaster's process id, or null. */
  pid(): number | null;
}

/** `scripts/postgres.mjs` (plain JavaScript, as `npm test` runs it before anything is compiled), typed. */
const postgresScript = (await import(new URL('../../scripts/postgres.mjs', import.meta.url).href)) as {
  havePostgres(): boolean;
  freePort(): Promise<number>;
  startTestPostgres(): Promise<PostgresCluster | null>;
};

/** Whether Debian's PostgreSQL server binaries are installed (what `scripts/postgres.mjs` runs). */
export const havePostgres: () => boolean = postgresScript.havePostgres;

/** A loopback port nothing listens on (yet). */
export const freePort: () => Promise<number> = postgresScript.freePort;

/** A throwaway cluster on a free loopback port (`scripts/postgres.mjs`). */
export async function startPostgres(): Promise<PostgresCluster> {
  const cluster = await postgresScript.startTestPostgres();
  if (!cluster) throw new Error('PostgreSQL did not start (see the lines above)');
  return cluster;
}

export interface Database {
  url: string;
  /** Runs one statement on a connection of its own (so it works across a restart of the cluster). */
  query<R extends Record<string, unknown> = Record<string, unknown>>(text: string, params?: unknown[]): Promise<R[]>;
  drop(): Promise<void>;
}

async function once<R extends Record<string, unknown>>(
  url: string,
  text: string,
  params: unknown[] = [],
): Promise<R[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  client.on('error', () => {});
  await client.connect();
  try {
    return (await client.query<R>(text, params)).rows;
  } finally {
    await client.end().catch(() => {});
  }
}

/** A new, empty database in the cluster; the server nodes migrate it when they start. */
export async function createDatabase(adminUrl: string): Promise<Database> {
  const name = `storefront_${randomBytes(6).toString('hex')}`;
  await once(adminUrl, `CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    query: (text, params) => once(url.toString(), text, params),
    drop: async () => {
      await once(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}
