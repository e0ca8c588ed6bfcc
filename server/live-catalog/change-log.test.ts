import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CollectionName } from '../../shared/schemas/documents.js';
import { migrate } from '../store/migrations.js';
import { openPglite } from '../store/pglite-sql.js';
import { openPostgres } from '../store/postgres-sql.js';
import type { Sql } from '../store/sql.js';
import { catalogFixture, type CatalogFixture } from '../test/catalog-fixture.js';
import { logNodeOver } from '../test/live-catalog.js';
import { createDatabase, type Database } from '../test/postgres.js';
import { ChangeLog } from './change-log.js';
import { NODE_STALE_MS, type AppliedChange } from './live-catalog.js';

const MINUTE = 60_000;
let fixture: CatalogFixture;

beforeAll(async () => {
  fixture = await catalogFixture(200, 36);
}, 60_000);
afterAll(async () => {
  await fixture?.cleanup();
});

/** A node: its own embedded engine over the fixture's files, its own clock, the shared log. */
async function nodeOn(sql: Sql, name: string, clock: { now: number }) {
  const applied: AppliedChange[] = [];
  const node = await logNodeOver(fixture, sql, name, { clock, onApplied: (changes) => applied.push(...changes) });
  return { ...node, applied };
}
type Node = Awaited<ReturnType<typeof nodeOn>>;

const update = (node: Node, collection: CollectionName, doc: Record<string, unknown>, demand = false) =>
  node.live.write(collection, 'update', [{ text: JSON.stringify(doc), value: doc }], undefined, { demand });

/** The log's rows now, in order. */
const logRows = (sql: Sql) =>
  sql.query<{ seq: string; doc_id: string; demand: boolean }>(
    'SELECT seq, doc_id, demand FROM catalog_changes ORDER BY seq',
  );

/** Runs the cases on a store opened fresh by `open` for each. */
function cases(open: () => Promise<{ sql: Sql; close: () => Promise<void> }>) {
  let sql: Sql;
  let close: () => Promise<void>;
  const clock = { now: Date.parse('2030-03-01T12:00:00Z') };
  const events = () => fixture.catalog.collections.Event;

  beforeAll(async () => {
    ({ sql, close } = await open());
    await migrate(sql);
  }, 60_000);
  afterAll(() => close?.());

  it('prunes only what every live node has applied: a node behind keeps the changes it still needs', async () => {
    const a = await nodeOn(sql, 'prune-a', clock);
    const b = await nodeOn(sql, 'prune-b', clock);
    await a.live.sync();
    await b.live.sync();
    // B has applied (and recorded) the first two changes; then A writes three more and prunes.
    await update(a, 'Event', { id: events()[0]!.id, event_name: 'First Light' });
    await update(a, 'Event', { id: events()[1]!.id, event_name: 'Second Wind' });
    clock.now += 10_000;
    await b.live.sync();
    const bAt = b.live.appliedThrough;
    await update(a, 'Event', { id: events()[0]!.id, event_name: 'First Light Again' });
    await update(a, 'Event', { id: events()[2]!.id, event_name: 'Third Act' });
    await update(a, 'Event', { id: events()[2]!.id, event_name: 'Third Act, Encore' });
    const pruned = await a.live.prune();
    expect(pruned.through).toBe(bAt);
    const left = await logRows(sql);
    expect(left.map((r) => Number(r.seq)).every((seq) => seq > bAt)).toBe(true);
    expect(left).toHaveLength(3);
    // B applies each of them, in order, as written: none was folded away from it.
    const seen = b.applied.length;
    expect(await b.live.sync()).toBe(3);
    expect(b.applied.slice(seen).map((c) => (c.after as { event_name?: string }).event_name)).toEqual([
      'First Light Again',
      'Third Act',
      'Third Act, Encore',
    ]);
    expect(b.applied.at(-1)!.before).toMatchObject({ event_name: 'Third Act' });
    // Once B has recorded it has them too, they go.
    clock.now += 10_000;
    await b.live.sync();
    await a.live.sync();
    expect((await a.live.prune()).changes).toBe(3);
    expect(await logRows(sql)).toEqual([]);
    await sql.query('DELETE FROM catalog_nodes');
  });

  it(
    'starts a node from the snapshot after pruning: it ends with the same documents as a node that applied ' +
      'every change',
    async () => {
      const a = await nodeOn(sql, 'snap-a', clock);
      await a.live.sync();
      const ids = [3, 4, 5].map((i) => events()[i]!.id);
      for (let round = 0; round < 4; round++)
        for (const id of ids) await update(a, 'Event', { id, event_name: `Round ${round} of ${id}` });
      await a.live.write('Event', 'upsert', [
        { text: '', value: { ...events()[6]!, id: '9936001', event_id: 9936001, event_name: 'Added Late' } },
      ]);
      await a.live.delete('Event', events()[7]!.id);
      await a.live.sync();
      const written = a.live.appliedThrough;
      await a.live.prune();
      expect(await logRows(sql)).toEqual([]);
      expect(await new ChangeLog(sql).prunedThrough()).toBe(written);
      // After pruning, one more change that stays in the log.
      await update(a, 'Event', { id: ids[0]!, event_name: 'After The Fold' });

      // Folded: one row per document (of these, three renamed four times each, one added, one deleted).
      const [folded] = await sql.query<{ n: number }>('SELECT count(*)::int AS n FROM catalog_folded');
      const c = await nodeOn(sql, 'snap-c', clock);
      // From the folded changes, then the log.
      expect(await c.live.sync()).toBe(Number(folded!.n) + 1);
      expect(c.live.appliedThrough).toBe(a.live.appliedThrough);
      for (const id of [...ids, '9936001', events()[7]!.id, events()[8]!.id])
        expect(c.embedded.document('Event', id), id).toEqual(a.embedded.document('Event', id));
      expect(c.embedded.document('Event', events()[7]!.id)).toBeUndefined();
      expect(c.embedded.count('Event')).toBe(a.embedded.count('Event'));
      // What each change replaced is what this node held, not what the writer replaced.
      const renamed = c.applied.find((x) => x.id === ids[1]);
      expect(renamed?.before).toMatchObject({ event_name: events()[4]!.event_name });
      await a.live.prune();
      await sql.query('DELETE FROM catalog_nodes');
    },
  );

  it(
    'lets a node not seen for the stated time no longer hold pruning; ' + 'back, it catches up from the folded changes',
    async () => {
      const a = await nodeOn(sql, 'stale-a', clock);
      const stale = await nodeOn(sql, 'stale-b', clock);
      await a.live.sync();
      await stale.live.sync();
      const id = events()[9]!.id;
      await update(a, 'Event', { id, event_name: 'Held Back' });
      await update(a, 'Event', { id, event_name: 'Let Go' });
      // Within the stated time the silent node holds the log.
      clock.now += NODE_STALE_MS - MINUTE;
      expect((await a.live.prune()).changes).toBe(0);
      expect(await logRows(sql)).toHaveLength(2);
      // Past it, it does not: the log is pruned past what it applied, and its record goes.
      clock.now += 2 * MINUTE;
      expect((await a.live.prune()).changes).toBe(2);
      expect(await logRows(sql)).toEqual([]);
      expect((await new ChangeLog(sql).nodes()).map((n) => n.node)).toEqual(['stale-a']);
      // Back, it reads the document as it now stands, and records itself again.
      expect(await stale.live.sync()).toBe(1);
      expect(stale.embedded.document('Event', id)).toEqual(a.embedded.document('Event', id));
      expect((await new ChangeLog(sql).nodes()).map((n) => n.node)).toEqual(['stale-a', 'stale-b']);
      await sql.query('DELETE FROM catalog_nodes');
    },
  );

  it("goes by the store's clock for a node without a clock of its own", async () => {
    const { live } = await logNodeOver(fixture, sql, 'store-clock');
    await live.sync();
    const doc = { id: events()[12]!.id, event_name: 'By The Store' };
    await live.write('Event', 'update', [{ text: JSON.stringify(doc), value: doc }]);
    expect((await live.prune()).changes).toBe(1);
    expect(await logRows(sql)).toEqual([]);
    expect((await new ChangeLog(sql).nodes()).map((x) => x.node)).toEqual(['store-clock']);
    await sql.query('DELETE FROM catalog_nodes');
  });

  it('keeps one demand change per document in the log, with the latest figures, on every node', async () => {
    const a = await nodeOn(sql, 'demand-a', clock);
    const b = await nodeOn(sql, 'demand-b', clock);
    const lagging = await nodeOn(sql, 'demand-c', clock);
    await Promise.all([a.live.sync(), b.live.sync(), lagging.live.sync()]);
    const [one, two] = [events()[10]!, events()[11]!];
    const before = (await logRows(sql)).length;
    for (let period = 1; period <= 5; period++) {
      await update(a, 'Event', { id: one.id, event_mpv_d1: period * 10 }, true);
      await update(a, 'Event', { id: two.id, event_mpv_d1: period * 20, event_cart_d1: period }, true);
      // B applies every period's; the lagging node none of them.
      await b.live.sync();
      if (period === 3) await update(a, 'Event', { id: one.id, event_name: 'Renamed Between Periods' });
    }
    const rows = (await logRows(sql)).slice(before);
    // The operator's rename stays; of the ten demand changes, the last of each document.
    expect(rows.map((r) => [r.doc_id, r.demand])).toEqual([
      [one.id, false],
      [one.id, true],
      [two.id, true],
    ]);
    await Promise.all([a.live.sync(), b.live.sync(), lagging.live.sync()]);
    for (const node of [a, b, lagging]) {
      expect(node.embedded.document('Event', one.id)).toMatchObject({
        event_mpv_d1: 50,
        event_name: 'Renamed Between Periods',
      });
      expect(node.embedded.document('Event', two.id)).toMatchObject({ event_mpv_d1: 100, event_cart_d1: 5 });
    }
    // The lagging node heard what each document was on it before: the figures it never saw changed are replaced.
    const heard = lagging.applied.filter((c) => c.id === two.id);
    expect(heard).toHaveLength(1);
    expect(heard[0]!.before).toMatchObject({ event_mpv_d1: two.event_mpv_d1 });
    await sql.query('DELETE FROM catalog_nodes');
  });
}

describe('the catalog change log pruned behind its nodes (PGlite)', () => {
  cases(async () => {
    const sql = await openPglite(null);
    return { sql, close: () => sql.close() };
  });
});

describe('pruning the embedded store (PGlite)', () => {
  it('ends with a checkpoint, so the write-ahead log of what it folded out is recycled rather than kept', async () => {
    const sql = await openPglite(null);
    try {
      await migrate(sql);
      const node = await nodeOn(sql, 'checkpoint', { now: Date.parse('2030-03-01T12:00:00Z') });
      await node.live.sync();
      const events = fixture.catalog.collections.Event.slice(0, 20);
      for (const [i, event] of events.entries()) await update(node, 'Event', { id: event.id, event_mpv_d1: i }, true);
      const [written] = await sql.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn');
      expect((await node.live.prune()).changes).toBe(events.length);
      // PGlite never checkpoints by itself: only a checkpoint after the writes lets their segments go.
      const [checkpoint] = await sql.query<{ past: boolean }>(
        'SELECT redo_lsn >= $1::pg_lsn AS past FROM pg_control_checkpoint()',
        [written!.lsn],
      );
      expect(checkpoint?.past).toBe(true);
    } finally {
      await sql.close();
    }
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('the catalog change log pruned behind its nodes (PostgreSQL)', () => {
  cases(async () => {
    const db: Database = await createDatabase(process.env.TEST_DATABASE_URL!);
    const sql = await openPostgres(db.url);
    return {
      sql,
      close: async () => {
        await sql.close();
        await db.drop();
      },
    };
  });
});
