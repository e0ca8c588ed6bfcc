import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres } from '../store/postgres-sql.js';
import type { Sql } from '../store/sql.js';
import { createDatabase, havePostgres, startPostgres, type Database, type PostgresCluster } from '../test/postgres.js';
import { TestSmtpServer } from '../test/smtp-server.js';
import { numberedMail } from './mail.cases.js';
import { enqueueMail, type MailRecord } from './outbox.js';

const ADMIN_KEY = 'admin-key-for-the-mail-room';
const within = async <T>(what: string, probe: () => Promise<T | undefined>, ms = 30_000): Promise<T> => {
  const until = Date.now() + ms;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

// The storefront as it runs: its own process, sharing PostgreSQL (where the commerce side enqueues), sending
// through a real SMTP server that goes away and comes back on the same port.
describe.skipIf(!process.env.TEST_DATABASE_URL && !havePostgres())('the mail room of a running storefront', () => {
  let cluster: PostgresCluster | undefined;
  let db: Database;
  let sql: Sql;
  let smtp: TestSmtpServer;
  let dataDir: string;

  beforeAll(async () => {
    const adminUrl = process.env.TEST_DATABASE_URL ?? (cluster = await startPostgres()).url;
    db = await createDatabase(adminUrl);
    smtp = await new TestSmtpServer().start();
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'mail-room-'));
  });
  afterAll(async () => {
    await sql?.close();
    await db?.drop();
    cluster?.stop();
    await smtp?.dispose();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('sends queued mail through SMTP_URL, waits out an SMTP outage, lists it for operators, stops', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      env: {
        ...process.env,
        HOST: '127.0.0.1',
        PORT: '0',
        DATA_DIR: dataDir,
        CATALOG_EVENTS: '100',
        DATABASE_URL: db.url,
        SMTP_URL: smtp.url,
        MAIL_FROM: 'Box Office <box@tickets.example>',
        MAIL_RETRY_MAX_SECONDS: '1',
        CATALOG_ADMIN_KEY: ADMIN_KEY,
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      const url = await within('the storefront to listen', async () => /Storefront running at (\S+)/.exec(out)?.[1]);
      sql = await openPostgres(db.url);
      const admin = async (state?: string) => {
        const res = await fetch(`${url}/api/admin/mail${state ? `?state=${state}` : ''}`, {
          headers: { 'x-typesense-api-key': ADMIN_KEY },
        });
        expect(res.status).toBe(200);
        return ((await res.json()) as { mail: MailRecord[] }).mail;
      };

      await sql.transaction((tx) => enqueueMail(tx, numberedMail(1, 'encore'), new Date()));
      const [first] = await within('the first mail', async () =>
        (await smtp.messages()).length ? smtp.messages() : undefined,
      );
      expect(first!.from).toBe('"Encore Seats" <box@tickets.example>');
      expect(first!.text).toContain(`View your order: ${url}/orders/ORD-N0001`);
      expect((await admin('sent')).map((m) => m.to)).toEqual(['buyer1@example.com']);

      await smtp.stop();
      await sql.transaction((tx) => enqueueMail(tx, numberedMail(2), new Date()));
      const waiting = await within('a failed try', async () =>
        (await admin('queued')).find((m) => m.attempts >= 1 && m.lastError),
      );
      expect(waiting.to).toBe('buyer2@example.com');
      await smtp.start();
      await within('the second mail', async () => ((await smtp.messages()).length === 2 ? true : undefined));
      expect((await smtp.messages()).map((m) => m.to)).toEqual(['buyer1@example.com', 'buyer2@example.com']);
      expect((await admin('sent')).map((m) => m.to)).toEqual(['buyer2@example.com', 'buyer1@example.com']);
      // A mail id is decimal text of an id; the retry address is asked with POST alone.
      const headers = { 'x-typesense-api-key': ADMIN_KEY };
      const badId = await fetch(`${url}/api/admin/mail/0x1/retry`, { method: 'POST', headers });
      expect([badId.status, ((await badId.json()) as { error: { message: string } }).error.message]).toEqual([
        400,
        'the mail id must be a number',
      ]);
      const asRead = await fetch(`${url}/api/admin/mail/1/retry`, { headers });
      expect([asRead.status, asRead.headers.get('allow')]).toEqual([405, 'POST']);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    // Where mail goes is logged, without the SMTP credentials.
    expect(out).toContain(`"mail":"smtp://127.0.0.1:`);
    expect(out).not.toContain('s3cret-pass');
  });
});
