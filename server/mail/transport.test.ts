import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Sql } from '../store/sql.js';
import { brandLookup, mailOfEveryKind, TEST_PDF, testAttachments, testLinks } from './mail.cases.js';
import { enqueueMail, MailOutbox } from './outbox.js';
import { emlFileTransport } from './transport.js';
import { openMigratedPglite } from '../store/test-stores.js';

const silent = { info: () => {}, warn: () => {}, error: () => {} };

describe('mail without SMTP_URL', () => {
  let dir: string;
  let sql: Sql;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'mail-eml-'));
    sql = await openMigratedPglite();
  });
  afterEach(async () => {
    await sql.close();
    await rm(dir, { recursive: true, force: true });
  });

  const outbox = (attachments = testAttachments) =>
    new MailOutbox({
      sql,
      transport: emlFileTransport(path.join(dir, 'mail')),
      brands: brandLookup(),
      links: testLinks,
      attachments,
      logger: silent,
      now: () => new Date('2026-11-27T08:00:00.250Z'),
      options: { from: { name: null, address: 'orders@localhost' }, retryMaxSeconds: 600 },
    });

  it('writes each message as an .eml file named by time and key, which mailparser reads whole', async () => {
    const mails = mailOfEveryKind('base');
    await sql.transaction(async (tx) => {
      for (const mail of mails) await enqueueMail(tx, mail, new Date('2026-11-27T08:00:00Z'));
    });
    expect(await outbox().tick()).toBe(mails.length);
    const files = (await readdir(path.join(dir, 'mail'))).sort();
    expect(files).toEqual(
      [
        '2026-11-27T08-00-00Z-event_cancelled-ORD-7KQ2M9.eml',
        '2026-11-27T08-00-00Z-event_changed-ORD-7KQ2M9-1.eml',
        '2026-11-27T08-00-00Z-order_confirmation-ORD-7KQ2M9.eml',
        '2026-11-27T08-00-00Z-refund-RF-1.eml',
        '2026-11-27T08-00-00Z-tickets_ready-ORD-7KQ2M9.eml',
      ].sort(),
    );
    const parsed = await simpleParser(
      await readFile(path.join(dir, 'mail', '2026-11-27T08-00-00Z-tickets_ready-ORD-7KQ2M9.eml')),
    );
    expect(parsed.subject).toBe('Your tickets are ready: The Midnight Owls');
    expect(parsed.from?.text).toBe('"Ticket Storefront" <orders@localhost>');
    expect(parsed.messageId).toMatch(/^<outbox-\d+\.[0-9a-f]{16}@localhost>$/);
    expect(parsed.html).toContain('background:#5b21b6');
    expect(parsed.text).toContain('Download your tickets: https://shop.example/base/order/ORD-7KQ2M9/tickets.pdf');
    expect(parsed.attachments).toHaveLength(1);
    expect(parsed.attachments[0]!.filename).toBe('tickets-ORD-7KQ2M9.pdf');
    expect(new Uint8Array(parsed.attachments[0]!.content)).toEqual(TEST_PDF);
    const states = await sql.query<{ state: string }>('SELECT DISTINCT state FROM mail_outbox');
    expect(states).toEqual([{ state: 'sent' }]);
  });

  it('sends the tickets mail with the link alone when there is no PDF', async () => {
    await sql.transaction((tx) => enqueueMail(tx, mailOfEveryKind('encore')[1]!, new Date('2026-11-27T08:00:00Z')));
    expect(await outbox({ ticketsPdf: async () => null }).tick()).toBe(1);
    const [file] = await readdir(path.join(dir, 'mail'));
    const parsed = await simpleParser(await readFile(path.join(dir, 'mail', file!)));
    expect(parsed.attachments).toEqual([]);
    expect(parsed.html).toContain('Download your tickets');
    expect(parsed.html).toContain('background:#b91c1c');
  });
});
