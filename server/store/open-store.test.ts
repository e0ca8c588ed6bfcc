import { createConnection, createServer, type Server } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../test/postgres.js';
import { openStore } from './open-store.js';
import { StoreUnavailableError } from './store-errors.js';

const url = process.env.TEST_DATABASE_URL;

/** Forwards `port` to the real database: the database "comes back" on that port. */
function forward(port: number, target: URL, tracked: Set<import('node:net').Socket>): Promise<Server> {
  const srv = createServer((client) => {
    tracked.add(client);
    const upstream = createConnection({ host: target.hostname, port: Number(target.port) });
    client.pipe(upstream).pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  return new Promise((r) => srv.listen(port, '127.0.0.1', () => r(srv)));
}

describe.skipIf(!url)('openStore on PostgreSQL', () => {
  const servers: Server[] = [];
  const sockets = new Set<import('node:net').Socket>();
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  });

  it(
    'starts while the database is unreachable, answers StoreUnavailableError, ' + 'and opens the store once it is back',
    async () => {
      const port = await freePort();
      const target = new URL(url!);
      const away = new URL(url!);
      away.port = String(port);
      const dataDir = await mkdtemp(path.join(os.tmpdir(), 'open-store-'));
      let sql: Awaited<ReturnType<typeof openStore>> | undefined;
      try {
        sql = await openStore({ databaseUrl: away.toString(), dataDir });
        expect(sql.health!()).toMatchObject({ available: false, detail: expect.stringMatching(/ECONNREFUSED/) });
        await expect(sql.query('SELECT 1')).rejects.toBeInstanceOf(StoreUnavailableError);

        servers.push(await forward(port, target, sockets));
        const until = Date.now() + 20_000;
        let answer: unknown;
        while (Date.now() < until) {
          answer = await sql.query<{ n: number }>('SELECT 1 AS n').catch((err: unknown) => err);
          if (Array.isArray(answer)) break;
          await new Promise((r) => setTimeout(r, 200));
        }
        expect(answer).toEqual([{ n: 1 }]);
        expect(sql.health!().available).toBe(true);
        // Migrated on opening.
        expect((await sql.query('SELECT count(*)::int AS n FROM schema_migrations'))[0]!.n).toBeGreaterThan(0);
      } finally {
        await sql?.close();
        await rm(dataDir, { recursive: true, force: true });
      }
    },
  );

  it('stops the start with the reason when the database refuses us for good', async () => {
    const missing = new URL(url!);
    missing.pathname = '/no_such_database_here';
    const err = await openStore({ databaseUrl: missing.toString(), dataDir: os.tmpdir() }).catch((e: unknown) => e);
    expect(err).not.toBeInstanceOf(StoreUnavailableError);
    expect(String((err as Error).message)).toMatch(/does not exist/);
  });
});
