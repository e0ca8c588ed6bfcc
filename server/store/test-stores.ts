import { createHash, randomBytes } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { inject } from 'vitest';
import { MIGRATIONS, migrate } from './migrations.js';
import { openPglite } from './pglite-sql.js';
import { openPostgres } from './postgres-sql.js';
import type { Sql } from './sql.js';

/**
 * The stores every store test runs against: PGlite always, and PostgreSQL when `TEST_DATABASE_URL` names a
 * server (`npm test` starts one). Each call gets a fresh, migrated database that `close()` drops (migrated up to
 * the last of `migrations` when given: an older schema, to test a migration against).
 */
export const TEST_STORES: { name: string; open: (migrations?: typeof MIGRATIONS) => Promise<Sql> }[] = [
  {
    name: 'pglite',
    open: openMigratedPglite,
  },
  ...(process.env.TEST_DATABASE_URL
    ? [
        {
          name: 'postgres',
          open: (migrations = MIGRATIONS) => freshPostgres(process.env.TEST_DATABASE_URL!, migrations),
        },
      ]
    : []),
];

async function freshPostgres(adminUrl: string, migrations: typeof MIGRATIONS): Promise<Sql> {
  const name = `storefront_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const sql = await openPostgres(url.toString(), 25);
  await migrate(sql, migrations);
  return {
    ...sql,
    close: async () => {
      await sql.close();
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

/** Dumps of migrated PGlite databases in this process, by the migrations they ran. */
const dumps = new Map<string, Promise<Uint8Array<ArrayBuffer>>>();

/**
 * A new in-memory PGlite migrated up to the last of `migrations`. Under Vitest it starts from a dump of a database
 * those migrations ran on, made once in a run and shared by its test files: creating a cluster and migrating it
 * takes seconds of CPU, loading the dump a fraction of that, and the suite opens many. A benchmark reusing a test
 * helper has no run to share a dump with: it migrates a new cluster.
 */
export async function openMigratedPglite(migrations = MIGRATIONS): Promise<Sql> {
  if (!process.env.VITEST) {
    const sql = await openPglite(null);
    await migrate(sql, migrations);
    return sql;
  }
  const key = createHash('sha256').update(JSON.stringify(migrations)).digest('hex').slice(0, 16);
  let dump = dumps.get(key);
  if (!dump) dumps.set(key, (dump = sharedDump(key, migrations)));
  return openPglite(null, await dump);
}

/** The dump for `migrations` from the run's shared folder, made and written there by the first file to ask. */
async function sharedDump(key: string, migrations: typeof MIGRATIONS): Promise<Uint8Array<ArrayBuffer>> {
  const file = path.join(inject('sharedDir'), `pglite-${key}.tar`);
  try {
    return new Uint8Array(await readFile(file));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const dump = await migratedDump(migrations);
  // Written aside and renamed: a file running beside this one reads a whole dump or none (and then makes its own).
  const partial = `${file}.${process.pid}`;
  await writeFile(partial, dump);
  await rename(partial, file);
  return dump;
}

/** A new PGlite database, in this thread, dumped once `migrations` ran on it. */
async function migratedDump(migrations: typeof MIGRATIONS): Promise<Uint8Array<ArrayBuffer>> {
  const db = new PGlite();
  const sql: Sql = {
    kind: 'pglite',
    query: async <R>(text: string, params?: unknown[]) => (await db.query<R>(text, params)).rows,
    transaction: (fn) =>
      db.transaction((tx) =>
        fn({ query: async <R>(text: string, params?: unknown[]) => (await tx.query<R>(text, params)).rows }),
      ),
    close: () => db.close(),
  };
  await migrate(sql, migrations);
  const tar = await db.dumpDataDir('none');
  await db.close();
  return new Uint8Array(await tar.arrayBuffer());
}
