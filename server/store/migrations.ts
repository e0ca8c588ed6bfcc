import type { Sql } from './sql.js';

/** Schema changes in order; each runs once, in a transaction, recorded in schema_migrations. Never edit one that shipped: add another. */
export const MIGRATIONS: readonly { id: number; name: string; sql: string }[] = [
  {
    id: 1,
    name: 'recent activity',
    sql: `
      CREATE TABLE recent_activity (
        guest_id    text        NOT NULL,
        entity_type text        NOT NULL CHECK (entity_type IN ('performer', 'event')),
        entity_id   bigint      NOT NULL,
        name        text        NOT NULL,
        url         text        NOT NULL,
        image       text,
        viewed_at   timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (guest_id, entity_type, entity_id)
      );
      CREATE INDEX recent_activity_by_guest ON recent_activity (guest_id, viewed_at DESC);
    `,
  },
];

export async function migrate(sql: Sql): Promise<number[]> {
  await sql.query(`CREATE TABLE IF NOT EXISTS schema_migrations (id integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
  const applied = new Set((await sql.query<{ id: number }>('SELECT id FROM schema_migrations')).map((r) => Number(r.id)));
  const ran: number[] = [];
  for (const m of MIGRATIONS) {
    if (applied.has(m.id)) continue;
    await sql.transaction(async (tx) => {
      // Two nodes starting together: the second waits here, then finds the migration applied.
      await tx.query('LOCK TABLE schema_migrations IN EXCLUSIVE MODE');
      const again = await tx.query('SELECT 1 FROM schema_migrations WHERE id = $1', [m.id]);
      if (again.length > 0) return;
      for (const statement of m.sql.split(';').map((s) => s.trim()).filter(Boolean)) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (id, name) VALUES ($1, $2)', [m.id, m.name]);
      ran.push(m.id);
    });
  }
  return ran;
}
