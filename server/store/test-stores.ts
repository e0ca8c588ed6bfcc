import { randomBytes } from 'node:crypto';
import pg from 'pg';
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
    open: async (migrations = MIGRATIONS) => {
      const sql = await openPglite(null);
      await migrate(sql, migrations);
      return sql;
    },
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
