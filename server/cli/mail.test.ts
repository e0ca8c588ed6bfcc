import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEnv } from '../config/env.js';
import { mailOfEveryKind } from '../mail/mail.cases.js';
import { enqueueMail, listMail, MailOutbox } from '../mail/outbox.js';
import { openStore } from '../store/open-store.js';
import { testAppWithSegments } from '../test/test-app.js';
import { runMailCli } from './mail.js';

const ADMIN_KEY = 'admin-key-for-the-mail-cli';
const queuedAt = new Date('2026-11-27T08:00:00Z');
let dir: string;

async function run(argv: string[], env: NodeJS.ProcessEnv = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runMailCli(
    argv,
    { DATA_DIR: dir, ...env },
    { out: (l) => out.push(l), err: (l) => err.push(l), now: () => new Date('2026-11-30T09:00:00Z') },
  );
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** Five messages: the first sent, the second failed for good, the rest queued (one after a failed try). */
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'mail-cli-'));
  const sql = await openStore({ dataDir: dir });
  await sql.transaction(async (tx) => {
    for (const mail of mailOfEveryKind('base')) await enqueueMail(tx, mail, queuedAt);
  });
  await sql.query(
    `UPDATE mail_outbox SET state = 'sent', sent_at = '2026-11-27T08:00:02Z', message_id = '<outbox-1.x@localhost>'
     WHERE id = 1`,
  );
  await sql.query(
    `UPDATE mail_outbox SET state = 'failed', attempts = 437, last_error = 'connect ECONNREFUSED 127.0.0.1:2525'
     WHERE id = 2`,
  );
  await sql.query(
    `UPDATE mail_outbox SET attempts = 1, next_attempt_at = '2026-11-27T08:00:05Z',
       last_error = '421 Service not available' WHERE id = 3`,
  );
  await sql.close();
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('npm run mail -- outbox', () => {
  it('prints a table: id, state, attempts, kind, to, created, next attempt or sent at, last error', async () => {
    const { code, out } = await run(['outbox']);
    expect(code).toBe(0);
    const lines = out.split('\n');
    expect(lines[0]).toMatch(/^id\s+state\s+attempts\s+kind\s+to\s+created\s+next attempt \/ sent\s+last error$/);
    expect(lines.slice(1).map((l) => l.split(/\s+/)[0])).toEqual(['5', '4', '3', '2', '1']);
    const queued = ['3', 'queued', '1', 'refund', 'ada@example\\.com', '2026-11-27T08:00:00Z', '2026-11-27T08:00:05Z'];
    expect(out).toMatch(new RegExp(`^${queued.join('\\s+')}\\s+421 Service not available$`, 'm'));
    expect(out).toMatch(/^2\s+failed\s+437\s+tickets_ready\s+.*–\s+connect ECONNREFUSED 127\.0\.0\.1:2525$/m);
    expect(out).toMatch(/^1\s+sent\s+0\s+order_confirmation\s+.*sent 2026-11-27T08:00:02Z$/m);
  });

  it('lists one state, a few, or JSON, and explains a bad state or limit', async () => {
    expect((await run(['outbox', '--state', 'failed'])).out.split('\n')).toHaveLength(2);
    expect((await run(['outbox', '--limit', '2'])).out.split('\n')).toHaveLength(3);
    const json = JSON.parse((await run(['outbox', '--json', '--state', 'sent'])).out);
    expect(json).toMatchObject([{ id: 1, state: 'sent', messageId: '<outbox-1.x@localhost>' }]);
    expect(json[0]).not.toHaveProperty('data');
    const bad = await run(['outbox', '--state', 'lost']);
    expect(bad).toMatchObject({ code: 2 });
    expect(bad.err).toMatch(/state must be one of queued, sending, sent, failed/);
    expect((await run(['outbox', '--limit', '0'])).err).toMatch(/limit must be at least 1/);
    expect((await run(['bogus'])).code).toBe(2);
    expect((await run(['retry', 'x'])).err).toMatch(/retry takes one mail id/);
  });
});

describe('npm run mail -- retry', () => {
  it('queues a failed message again, and says why it will not for a sent one or an unknown id', async () => {
    const sent = await run(['retry', '1']);
    expect(sent.code).toBe(1);
    expect(sent.err).toMatch(/Mail 1 is sent: only a failed or queued message can be retried/);
    expect((await run(['retry', '99'])).err).toMatch(/No mail with id 99/);
    const { code, out } = await run(['retry', '2']);
    expect(code).toBe(0);
    expect(out).toBe('Mail 2 (tickets_ready to ada@example.com) is queued to go at once.');
    const again = JSON.parse((await run(['outbox', '--json', '--state', 'queued'])).out);
    expect(again.find((m: { id: number }) => m.id === 2)).toMatchObject({
      attempts: 0,
      nextAttemptAt: '2026-11-30T09:00:00.000Z',
    });
  });
});

describe('npm run mail -- --url', () => {
  it('answers the same through a running storefront’s admin API, and needs the key', async () => {
    const fromStore = JSON.parse((await run(['outbox', '--json'])).out);
    const sql = await openStore({ dataDir: dir });
    const silent = { info: () => {}, warn: () => {}, error: () => {} };
    const outbox = new MailOutbox({
      sql,
      transport: { send: async () => {}, close: () => {}, description: 'nowhere' },
      brands: () => {
        throw new Error('nothing is sent here');
      },
      links: { order: () => '', tickets: () => '', guarantee: () => '' },
      attachments: { ticketsPdf: async () => null },
      logger: silent,
      options: { from: { name: null, address: 'orders@localhost' }, retryMaxSeconds: 600 },
    });
    const env = parseEnv({ NODE_ENV: 'test', CATALOG_ADMIN_KEY: ADMIN_KEY });
    const { app } = await testAppWithSegments({ sql, env, mail: outbox });
    const server: Server = createServer(app).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
      const listed = await run(['outbox', '--json', '--url', url], { CATALOG_ADMIN_KEY: ADMIN_KEY });
      expect(listed.code).toBe(0);
      expect(JSON.parse(listed.out)).toEqual(fromStore);
      const refused = await run(['outbox', '--url', url], { CATALOG_ADMIN_KEY: 'a-wrong-key-of-some-length' });
      expect(refused).toMatchObject({ code: 1 });
      expect(refused.err).toMatch(/answered 401/);
      const badState = await fetch(`${url}/api/admin/mail?state=lost`, {
        headers: { 'x-typesense-api-key': ADMIN_KEY },
      });
      expect(badState.status).toBe(400);
      expect(((await badState.json()) as { error: { message: string } }).error.message).toMatch(/state must be one of/);
      const conflict = await run(['retry', '1', '--url', url], { CATALOG_ADMIN_KEY: ADMIN_KEY });
      expect(conflict.err).toMatch(/answered 409: Mail 1 is sent/);
      const retried = await run(['retry', '3', '--url', url], { CATALOG_ADMIN_KEY: ADMIN_KEY });
      expect(retried.out).toBe('Mail 3 (refund to ada@example.com) is queued to go at once.');
      expect((await listMail(sql, { state: 'queued', limit: 10 })).map((m) => m.id).sort()).toEqual([2, 3, 4, 5]);
    } finally {
      await new Promise((r) => server.close(r));
      await sql.close();
    }
  });
});
