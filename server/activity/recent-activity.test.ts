import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../store/migrations.js';
import type { Sql } from '../store/sql.js';
import { TEST_STORES } from '../store/test-stores.js';
import { RECENT_ACTIVITY_KEPT, RECENT_ACTIVITY_SHOWN, RecentActivity } from './recent-activity.js';

const item = (id: number) => ({
  type: 'performer' as const,
  id,
  name: `P${id}`,
  url: `/performers/p-${id}`,
  image: null,
});

describe.each(TEST_STORES)('RecentActivity on $name', ({ open }) => {
  let sql: Sql;
  beforeAll(async () => {
    sql = await open();
  });
  afterAll(() => sql.close());

  it('lists newest first, moves a repeat view to the top, and keeps a bounded history per guest', async () => {
    const activity = new RecentActivity(sql);
    const t0 = Date.UTC(2026, 10, 21);
    for (let i = 1; i <= RECENT_ACTIVITY_KEPT + 10; i++) await activity.record('g1', item(i), new Date(t0 + i * 1000));
    await activity.record('g1', item(3), new Date(t0 + 999_000));
    const list = await activity.list('g1');
    expect(list).toHaveLength(RECENT_ACTIVITY_SHOWN);
    expect(list.map((x) => x.id).slice(0, 3)).toEqual([3, RECENT_ACTIVITY_KEPT + 10, RECENT_ACTIVITY_KEPT + 9]);
    const kept = await sql.query<{ n: number }>('SELECT count(*)::int AS n FROM recent_activity WHERE guest_id = $1', [
      'g1',
    ]);
    expect(kept[0]!.n).toBe(RECENT_ACTIVITY_KEPT);
    expect(await activity.list('someone-else')).toEqual([]);
  });

  it('runs the migrations once', async () => {
    expect(await migrate(sql)).toEqual([]);
  });
});
