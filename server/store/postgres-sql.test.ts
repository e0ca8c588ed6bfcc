import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openPostgres } from './postgres-sql.js';

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
    const ended = await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [name]);
    expect(ended.rowCount).toBeGreaterThan(0);
    await admin.end();
    await new Promise((r) => setTimeout(r, 200));
    expect(errors.length).toBeGreaterThan(0);
    expect(await sql.query<{ n: number }>('SELECT 1 AS n')).toEqual([{ n: 1 }]);
    await sql.close();
  });
});
