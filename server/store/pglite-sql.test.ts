import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite } from './pglite-sql.js';
import type { Sql } from './sql.js';
import { StoreUnavailableError } from './store-errors.js';

describe('PGlite in its worker thread', () => {
  let sql: Sql;
  beforeAll(async () => {
    sql = await openPglite(null);
    await sql.query('CREATE TABLE seats (id int PRIMARY KEY, taken_at timestamptz, note jsonb)');
  });
  afterAll(() => sql.close());

  it('passes parameters and rows across as they are: numbers, text, dates, JSON', async () => {
    const at = new Date('2026-11-23T18:00:00Z');
    await sql.query('INSERT INTO seats VALUES ($1, $2, $3)', [1, at, JSON.stringify({ row: 'A' })]);
    const [row] = await sql.query<{ id: number; taken_at: Date; note: { row: string } }>(
      'SELECT * FROM seats WHERE id = $1',
      [1],
    );
    expect(row).toEqual({ id: 1, taken_at: at, note: { row: 'A' } });
    expect(row!.taken_at).toBeInstanceOf(Date);
  });

  it("rejects a wrong statement with PostgreSQL's error and code, not as the store being away", async () => {
    const err = await sql.query('INSERT INTO seats VALUES (1, NULL, NULL)').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err).not.toBeInstanceOf(StoreUnavailableError);
    expect((err as { code?: string }).code).toBe('23505');
    expect(await sql.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
  });

  it('commits a transaction whole, and rolls it back whole when its function throws, with that error', async () => {
    await sql.transaction(async (tx) => {
      await tx.query('INSERT INTO seats VALUES (2, NULL, NULL)');
      await tx.query('INSERT INTO seats VALUES (3, NULL, NULL)');
    });
    const refusal = new Error('sold out meanwhile');
    const thrown = await sql
      .transaction(async (tx) => {
        await tx.query('INSERT INTO seats VALUES (4, NULL, NULL)');
        throw refusal;
      })
      .catch((e: unknown) => e);
    expect(thrown).toBe(refusal);
    // A statement failing inside a transaction ends it too, and the store goes on.
    await expect(
      sql.transaction(async (tx) => tx.query('INSERT INTO seats VALUES (2, NULL, NULL)')),
    ).rejects.toMatchObject({ code: '23505' });
    expect((await sql.query<{ id: number }>('SELECT id FROM seats ORDER BY id')).map((r) => r.id)).toEqual([1, 2, 3]);
  });

  it('leaves the event loop free while a long statement runs', async () => {
    let turns = 0;
    let running = true;
    const turn = () => {
      turns++;
      if (running) setImmediate(turn);
    };
    setImmediate(turn);
    const [row] = await sql.query<{ n: string }>('SELECT count(*) AS n FROM generate_series(1, 3000000)');
    running = false;
    expect(Number(row!.n)).toBe(3_000_000);
    // In the server's own thread the statement would have run as one task: no turn in between.
    expect(turns).toBeGreaterThan(10);
  });

  it('answers every call after it was closed as the store being away', async () => {
    const other = await openPglite(null);
    await other.close();
    await expect(other.query('SELECT 1')).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(other.health?.().available).toBe(false);
  });
});
