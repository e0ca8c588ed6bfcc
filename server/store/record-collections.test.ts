import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileRecordStores, sqlRecordStores, type RecordStores } from './record-collections.js';
import type { Sql } from './sql.js';
import { TEST_STORES } from './test-stores.js';

interface Item {
  id: string;
  n: number;
}

const backends: { name: string; open: () => Promise<{ stores: RecordStores; close: () => Promise<void> }> }[] = [
  {
    name: 'files',
    open: async () => {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'records-'));
      return { stores: fileRecordStores(dir), close: () => rm(dir, { recursive: true, force: true }) };
    },
  },
  ...TEST_STORES.map((s) => ({
    name: s.name,
    open: async () => {
      const sql: Sql = await s.open();
      return { stores: sqlRecordStores(sql), close: () => sql.close() };
    },
  })),
];

describe.each(backends)('record collections ($name)', ({ open }) => {
  let stores: RecordStores;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ stores, close } = await open());
  });
  afterAll(() => close());

  it('puts, reads, changes and removes records; a change with nothing to write writes nothing', async () => {
    const items = stores.collection<Item>('items');
    expect(await items.all()).toEqual([]);
    expect(
      await items.update(() => ({
        put: [
          { id: 'a', n: 1 },
          { id: 'b', n: 2 },
        ],
        result: 'ok',
      })),
    ).toBe('ok');
    expect(await items.get('a')).toEqual({ id: 'a', n: 1 });
    await items.update((all) => ({ put: all.map((i) => ({ ...i, n: i.n * 10 })), remove: ['b'], result: null }));
    expect(await items.all()).toEqual([{ id: 'a', n: 10 }]);
    expect(await items.get('b')).toBeNull();
    expect(await items.update(() => ({ result: 7 }))).toBe(7);
    // Collections of other names are apart.
    expect(await stores.collection<Item>('others').all()).toEqual([]);
  });

  it('runs concurrent changes one at a time: no increment is lost', async () => {
    const counter = stores.collection<Item>('counter');
    await Promise.all(
      Array.from({ length: 20 }, () =>
        counter.update((all) => {
          const n = (all[0]?.n ?? 0) + 1;
          return { put: [{ id: 'c', n }], result: n };
        }),
      ),
    );
    expect(await counter.get('c')).toEqual({ id: 'c', n: 20 });
  });

  it('a change that throws writes nothing', async () => {
    const items = stores.collection<Item>('throws');
    await items.update(() => ({ put: [{ id: 'x', n: 1 }], result: null }));
    await expect(
      items.update(() => {
        throw new Error('no');
      }),
    ).rejects.toThrow('no');
    expect(await items.all()).toEqual([{ id: 'x', n: 1 }]);
  });

  it('a log reads back newest first, filtered and limited', async () => {
    const log = stores.log<{ at: string; n: number }>('audit');
    for (let n = 1; n <= 250; n++) await log.append({ at: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(), n });
    expect((await log.recent(3)).map((e) => e.n)).toEqual([250, 249, 248]);
    expect((await log.recent(2, (e) => e.n % 100 === 0)).map((e) => e.n)).toEqual([200, 100]);
    expect(await stores.log('empty').recent(5)).toEqual([]);
  });

  it('refuses names that are not plain words', () => {
    expect(() => stores.collection('../x')).toThrow(/not a record collection name/);
  });
});
