import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS, migrate } from './migrations.js';
import { openPostgres } from './postgres-sql.js';
import { StoreUnavailableError } from './store-errors.js';

const url = process.env.TEST_DATABASE_URL;

describe.skipIf(!url)('openPostgres', () => {
  it('survives its idle connections being ended by the server, and reconnects', async () => {
    const errors: Error[] = [];
    // A name of its own, so only this pool's connections are ended (other tests share the server).
    const name = `terminate_test_${process.pid}_${Date.now()}`;
    const withName = new URL(url!);
    withName.searchParams.set('application_name', name);
    const sql = await openPostgres(withName.toString(), 3, (err) => errors.push(err));
    await Promise.all([1, 2, 3].map(() => sql.query('SELECT pg_sleep(0.05)')));
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    const ended = await admin.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1',
      [name],
    );
    expect(ended.rowCount).toBeGreaterThan(0);
    await admin.end();
    await new Promise((r) => setTimeout(r, 200));
    expect(errors.length).toBeGreaterThan(0);
    expect(sql.health!()).toMatchObject({
      available: false,
      detail: expect.stringMatching(/^PostgreSQL unavailable: /),
    });
    expect(await sql.query<{ n: number }>('SELECT 1 AS n')).toEqual([{ n: 1 }]);
    expect(sql.health!()).toMatchObject({ available: true });
    await sql.close();
  });

  it(
    'destroys a connection that breaks inside a transaction, answers ' +
      'StoreUnavailableError, and serves the next one',
    async () => {
      const name = `tx_terminate_${process.pid}_${Date.now()}`;
      const withName = new URL(url!);
      withName.searchParams.set('application_name', name);
      const sql = await openPostgres(withName.toString(), 2);
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      const inside = sql.transaction(async (tx) => {
        await tx.query('SELECT 1');
        // The connection is ended while this transaction holds it (as a database stopping does).
        await admin.query(
          'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE ' +
            'application_name = $1 AND pid <> pg_backend_pid()',
          [name],
        );
        await tx.query('SELECT pg_sleep(0.05)');
      });
      await expect(inside).rejects.toBeInstanceOf(StoreUnavailableError);
      await admin.end();
      // Every pooled connection is usable afterwards: the broken one was not handed back.
      const answers = await Promise.all(
        [1, 2, 3, 4].map((n) => sql.transaction((tx) => tx.query<{ n: number }>('SELECT $1::int AS n', [n]))),
      );
      expect(answers.map((a) => a[0]!.n)).toEqual([1, 2, 3, 4]);
      await sql.close();
    },
  );

  it('refuses a query that is wrong as it is, not as the store being down', async () => {
    const sql = await openPostgres(url!, 1);
    const err = await sql.query('SELECT * FROM no_such_table').then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toMatch(/no_such_table/);
    expect(err).not.toBeInstanceOf(StoreUnavailableError);
    expect(sql.health!().available).toBe(true);
    await sql.close();
  });
});

describe.skipIf(!url)('migrate on a new PostgreSQL', () => {
  it('lets three nodes starting together migrate one database without an error', async () => {
    for (let round = 0; round < 3; round++) {
      const name = `migrate_race_${process.pid}_${Date.now()}_${round}`;
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      const target = new URL(url!);
      target.pathname = `/${name}`;
      const nodes = await Promise.all([1, 2, 3].map(() => openPostgres(target.toString(), 2)));
      const ran = await Promise.all(nodes.map((n) => migrate(n)));
      expect(ran.flat().sort((a, b) => a - b)).toEqual(MIGRATIONS.map((m) => m.id));
      await Promise.all(nodes.map((n) => n.close()));
      await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
      await admin.end();
    }
  });
});
