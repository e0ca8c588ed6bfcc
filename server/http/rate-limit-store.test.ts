import type { Options } from 'express-rate-limit';
import { pino } from 'pino';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEnv } from '../config/env.js';
import type { Sql } from '../store/sql.js';
import { StoreUnavailableError } from '../store/store-errors.js';
import { ExpiredRowSweeper } from '../store/sweeper.js';
import { TEST_STORES } from '../store/test-stores.js';
import { catalogFixture, type CatalogFixture } from '../test/catalog-fixture.js';
import { testApp } from '../test/test-app.js';
import { giveBackTokens, SqlRateLimitStore, sqlRateLimitStores } from './rate-limit-store.js';

/** Several nodes on one database: the app uses the database's store only when `DATABASE_URL` says so. */
const sharedEnv = (limits: Record<string, string>) =>
  parseEnv({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: 'postgres://nodes.example.invalid/storefront',
    ...limits,
  });

const storeFor = (sql: Sql, name: string, windowMs: number, sweepEveryMs?: number) => {
  const store = sqlRateLimitStores(sql, { sweepEveryMs })(name);
  void store.init?.({ windowMs } as Options);
  return store;
};

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(TEST_STORES)('SqlRateLimitStore on $name', ({ open }) => {
  // One database for these tests; each uses limiter names of its own.
  let sql: Sql;
  beforeAll(async () => {
    sql = await open();
  });
  afterAll(() => sql.close());

  it('counts hits in one window and starts a new one when it has ended', async () => {
    const store = storeFor(sql, 'test', 300);
    const first = await store.increment('198.51.100.7');
    expect(first.totalHits).toBe(1);
    expect(first.resetTime!.getTime()).toBeGreaterThan(Date.now());
    expect((await store.increment('198.51.100.7')).totalHits).toBe(2);
    const third = await store.increment('198.51.100.7');
    expect(third.totalHits).toBe(3);
    expect(third.resetTime!.getTime()).toBe(first.resetTime!.getTime());
    await pause(400);
    const fresh = await store.increment('198.51.100.7');
    expect(fresh.totalHits).toBe(1);
    expect(fresh.resetTime!.getTime()).toBeGreaterThan(first.resetTime!.getTime());
  });

  it('keeps the counts of two limiters and two clients apart', async () => {
    const sessions = storeFor(sql, 'sessions', 60_000);
    const search = storeFor(sql, 'search', 60_000);
    await sessions.increment('198.51.100.7');
    await sessions.increment('198.51.100.7');
    expect((await search.increment('198.51.100.7')).totalHits).toBe(1);
    expect((await sessions.increment('203.0.113.9')).totalHits).toBe(1);
    expect((await sessions.get!('198.51.100.7'))?.totalHits).toBe(2);
  });

  it('counts hits from many requests at once exactly', async () => {
    const store = storeFor(sql, 'burst', 60_000);
    const results = await Promise.all(Array.from({ length: 25 }, () => store.increment('198.51.100.7')));
    expect(results.map((r) => r.totalHits).sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
  });

  it('takes a hit back, forgets a client and forgets a whole limiter', async () => {
    const store = storeFor(sql, 'carts', 60_000);
    const other = storeFor(sql, 'cartsx', 60_000);
    await store.increment('a');
    await store.increment('a');
    await store.decrement('a');
    expect((await store.get!('a'))?.totalHits).toBe(1);
    await store.resetKey('a');
    expect(await store.get!('a')).toBeUndefined();
    await store.increment('b');
    await other.increment('b');
    await store.resetAll!();
    expect(await store.get!('b')).toBeUndefined();
    expect((await other.get!('b'))?.totalHits).toBe(1);
  });

  it('deletes expired counts from an increment once the sweep interval has passed', async () => {
    // Two limiters behind one sweep: the count of 'new' is in a minute's window, so it is still live however late
    // on a busy machine the sweep its increment starts reaches the database.
    const stores = sqlRateLimitStores(sql, { sweepEveryMs: 200 });
    const [short, long] = [stores('sweep-short'), stores('sweep-long')];
    void short.init?.({ windowMs: 50 } as Options);
    void long.init?.({ windowMs: 60_000 } as Options);
    await short.increment('old');
    await pause(250);
    // This increment finds the interval over and sweeps the expired count of 'old' away.
    await long.increment('new');
    const keys = async () =>
      (
        await sql.query<{ key: string }>(
          "SELECT key FROM rate_limit_hits WHERE key IN ('sweep-short:old', 'sweep-long:new') ORDER BY key",
        )
      ).map((r) => r.key);
    // The sweep is not awaited by the increment: the rows are read until it has landed.
    await expect.poll(keys, { timeout: 5_000 }).toEqual(['sweep-long:new']);
  });

  it('sweeps once for many increments within the interval, whichever limiter they count for', async () => {
    let sweeps = 0;
    const counting: Sql = {
      ...sql,
      query: (text, params) => {
        if (text.startsWith('DELETE FROM rate_limit_hits WHERE reset_at')) sweeps++;
        return sql.query(text, params);
      },
    };
    const stores = sqlRateLimitStores(counting);
    const [one, two] = [stores('sweep-once-a'), stores('sweep-once-b')];
    for (const store of [one, two]) void store.init?.({ windowMs: 60_000 } as Options);
    for (let i = 0; i < 5; i++) await (i % 2 ? one : two).increment('198.51.100.7');
    expect(sweeps).toBe(1);
  });
});

describe.each(TEST_STORES)('leased counts on $name', ({ open }) => {
  let sql: Sql;
  beforeAll(async () => {
    sql = await open();
  });
  afterAll(() => sql.close());

  const ledgerFor = (name: string, windowMs = 60_000) => {
    const ledger = new SqlRateLimitStore(sql, name, new ExpiredRowSweeper(sql, 'SELECT 1'));
    ledger.init({ windowMs } as Options);
    return ledger;
  };

  it('takes several hits at once and hands them back to their window, many keys in one statement', async () => {
    const ledger = ledgerFor('lease');
    const first = await ledger.take('a', 5);
    expect(first.hits).toBe(5);
    expect(first.msLeft).toBeGreaterThan(0);
    expect(first.msLeft).toBeLessThanOrEqual(60_000);
    expect((await ledger.take('a', 3)).hits).toBe(8);
    const other = await ledger.take('b', 4);
    await giveBackTokens(sql)([
      { key: 'lease:a', n: 6, window: first.window },
      { key: 'lease:b', n: 1, window: other.window },
      // A window that is not the key's current one (it ended and another began) keeps its count.
      { key: 'lease:b', n: 1, window: '2001-02-03 04:05:06.789012+00' },
    ]);
    expect((await ledger.get('a'))?.totalHits).toBe(2);
    expect((await ledger.get('b'))?.totalHits).toBe(3);
  });

  it('admits exactly the limit from two nodes counting requests at once from leases', async () => {
    const limit = 40;
    const stores = [sqlRateLimitStores(sql)('leased'), sqlRateLimitStores(sql)('leased')];
    for (const store of stores) void store.init?.({ windowMs: 60_000, limit } as Options);
    const hits = await Promise.all(Array.from({ length: 60 }, (_, i) => stores[i % 2]!.increment('198.51.100.7')));
    expect(hits.filter((h) => h.totalHits <= limit)).toHaveLength(limit);
  });
});

describe('SqlRateLimitStore on a database that is down', () => {
  it('fails at once, without a query, while the store reports itself unavailable', async () => {
    let queries = 0;
    const down: Sql = {
      kind: 'postgres',
      query: async () => {
        queries++;
        return [];
      },
      transaction: () => Promise.reject(new Error('unused')),
      close: async () => {},
      health: () => ({ available: false, since: new Date().toISOString(), detail: 'connection refused' }),
    };
    const store = storeFor(down, 'sessions', 60_000);
    await expect(store.increment('198.51.100.7')).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(queries).toBe(0);
  });

  it('lets requests through rather than answering 500 when every query fails', async () => {
    const failing: Sql = {
      kind: 'postgres',
      query: () =>
        Promise.reject(Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:5432'), { code: 'ECONNREFUSED' })),
      transaction: () => Promise.reject(new Error('connect ECONNREFUSED 10.0.0.5:5432')),
      close: async () => {},
    };
    const lines: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) });
    const { app } = testApp({
      env: sharedEnv({ RATE_LIMIT_SESSIONS_PER_MINUTE: '1', RATE_LIMIT_LISTINGS_PER_MINUTE: '1' }),
      sql: failing,
      logger,
    });
    for (let i = 0; i < 3; i++) {
      const res = await request(app).post('/api/customers/session');
      expect(res.status).toBe(201);
      expect(res.headers.ratelimit).toBeUndefined();
    }
    const listing = await request(app).get('/api/listings/abc');
    expect(listing.status).toBe(400);
    // Said once per limit, not once per request.
    const storeFailures = lines.filter((line) => line.includes('error from store'));
    expect(storeFailures.filter((line) => line.includes('"limiter":"sessions"'))).toHaveLength(1);
    expect(storeFailures.filter((line) => line.includes('"limiter":"listings"'))).toHaveLength(1);
  });
});

describe.each(TEST_STORES)('rate limits shared by two nodes on $name', ({ open }) => {
  let sql: Sql;
  let fixture: CatalogFixture;
  beforeAll(async () => {
    sql = await open();
    fixture = await catalogFixture(500, 5);
  });
  afterAll(async () => {
    await sql.close();
    await fixture.cleanup();
  });

  it('counts a client against one limit whichever node answers', async () => {
    const env = sharedEnv({ RATE_LIMIT_SESSIONS_PER_MINUTE: '3' });
    const nodeA = testApp({ env, sql }).app;
    const nodeB = testApp({ env, sql }).app;
    expect((await request(nodeA).post('/api/customers/session')).status).toBe(201);
    const second = await request(nodeB).post('/api/customers/session');
    expect(second.status).toBe(201);
    expect(second.headers.ratelimit).toMatch(/r=1/);
    expect((await request(nodeA).post('/api/customers/session')).status).toBe(201);
    const over = await request(nodeB).post('/api/customers/session');
    expect(over.status).toBe(429);
    expect(over.body.error).toMatchObject({ code: 'rate_limited', message: expect.stringContaining('session') });
  });

  it('counts suggestions sent from the fast lane in the same shared limit', async () => {
    const env = sharedEnv({ RATE_LIMIT_SUGGEST_PER_MINUTE: '3' });
    const nodeA = testApp({ env, sql, search: fixture.search }).app;
    const nodeB = testApp({ env, sql, search: fixture.search }).app;
    const url = '/api/suggest?q=new';
    expect((await request(nodeA).get(url)).status).toBe(200);
    const laneBefore = nodeA.fastLane.served;
    expect((await request(nodeA).get(url)).status).toBe(200);
    expect(nodeA.fastLane.served - laneBefore).toBe(1);
    expect((await request(nodeB).get(url)).status).toBe(200);
    const over = await request(nodeA).get(url);
    expect(nodeA.fastLane.served - laneBefore).toBe(2);
    expect(over.status).toBe(429);
    expect(over.body.error.code).toBe('rate_limited');
  });
});
