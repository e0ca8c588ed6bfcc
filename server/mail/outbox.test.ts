import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Sql } from '../store/sql.js';
import { StoreUnavailableError } from '../store/store-errors.js';
import { TEST_STORES } from '../store/test-stores.js';
import { TestSmtpServer } from '../test/smtp-server.js';
import { brandLookup, mailOfEveryKind, numberedMail, testAttachments, testLinks } from './mail.cases.js';
import {
  enqueueMail,
  MAIL_GIVE_UP_MS,
  MAIL_LEASE_MS,
  MailOutbox,
  outboxMessageId,
  retryDelayMs,
  type MailOutboxOptions,
} from './outbox.js';
import { smtpTransport, withoutCredentials, type MailTransport } from './transport.js';

const silent = { info: () => {}, warn: () => {}, error: () => {} };
const options: MailOutboxOptions = {
  from: { name: null, address: 'orders@tickets.example' },
  retryMaxSeconds: 600,
};

describe('retryDelayMs', () => {
  it('waits 5 s after the first failure, doubling each time up to the maximum', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 20].map((n) => retryDelayMs(n, 600) / 1000)).toEqual([
      5, 10, 20, 40, 80, 160, 320, 600, 600,
    ]);
    expect(retryDelayMs(3, 7)).toBe(7_000);
  });
});

describe('withoutCredentials', () => {
  it('takes the SMTP password and user, and any user:pass@ in a quoted URL, out of an error message', () => {
    const err = new Error('Invalid login for mailer with hunter2-pass at smtp://mailer:hunter2-pass@mail.example:587');
    const text = withoutCredentials(err, ['hunter2-pass', 'mailer']);
    expect(text).not.toMatch(/hunter2|mailer:/);
    expect(text).toMatch(/^Invalid login for \[REDACTED\]/);
    expect(withoutCredentials(new Error('x'.repeat(2000))).length).toBeLessThanOrEqual(500);
  });
});

describe('outboxMessageId', () => {
  it('is the same for the same row and differs between rows, on the sender’s host', () => {
    const id = outboxMessageId(7, 'refund:RF-1', options.from);
    expect(id).toMatch(/^<outbox-7\.[0-9a-f]{16}@tickets\.example>$/);
    expect(outboxMessageId(7, 'refund:RF-1', options.from)).toBe(id);
    expect(outboxMessageId(8, 'refund:RF-2', options.from)).not.toBe(id);
  });
});

describe.each(TEST_STORES)('the mail outbox on $name', ({ open }) => {
  let sql: Sql;
  let smtp: TestSmtpServer;
  let clock: Date;
  const outboxes: { outbox: MailOutbox; transport: MailTransport }[] = [];

  const outbox = (transport: MailTransport = smtpTransport(smtp.url), store: Sql = sql) => {
    const made = new MailOutbox({
      sql: store,
      transport,
      brands: brandLookup(),
      links: testLinks,
      attachments: testAttachments,
      logger: silent,
      now: () => clock,
      options,
    });
    outboxes.push({ outbox: made, transport });
    return made;
  };
  const states = async () =>
    (await sql.query<{ state: string; n: number }>('SELECT state, count(*)::int AS n FROM mail_outbox GROUP BY state'))
      .map((r) => `${r.state}:${r.n}`)
      .sort();
  const later = (ms: number) => (clock = new Date(clock.getTime() + ms));

  // One store for the file (opening one costs seconds), emptied before each test.
  beforeAll(async () => {
    smtp = await new TestSmtpServer().start();
    sql = await open();
  });
  afterAll(async () => {
    await smtp.dispose();
    await sql.close();
  });
  beforeEach(async () => {
    await sql.query('TRUNCATE mail_outbox RESTART IDENTITY');
    clock = new Date('2026-11-27T08:00:00Z');
    await smtp.start();
  });
  afterEach(() => {
    for (const { transport } of outboxes.splice(0)) transport.close();
  });

  it('queues a message once per key: the second enqueue of a key does nothing and says so', async () => {
    const [mail] = mailOfEveryKind('base');
    expect(await sql.transaction((tx) => enqueueMail(tx, mail!, clock))).toBe(true);
    expect(await sql.transaction((tx) => enqueueMail(tx, { ...mail!, to: 'other@example.com' }, clock))).toBe(false);
    const rows = await sql.query('SELECT key, recipient, state, attempts FROM mail_outbox');
    expect(rows).toEqual([{ key: mail!.key, recipient: 'ada@example.com', state: 'queued', attempts: 0 }]);
  });

  it('queues nothing when the enqueuing transaction rolls back', async () => {
    const [mail] = mailOfEveryKind('base');
    await expect(
      sql.transaction(async (tx) => {
        await enqueueMail(tx, mail!, clock);
        throw new Error('the order was not written');
      }),
    ).rejects.toThrow(/not written/);
    expect(await states()).toEqual([]);
  });

  it('sends each of 50 messages exactly once to the SMTP server with two workers claiming at once', async () => {
    const before = (await smtp.messages()).length;
    await sql.transaction(async (tx) => {
      for (let n = 1; n <= 50; n++) await enqueueMail(tx, numberedMail(n), clock);
    });
    const [a, b] = [outbox(), outbox()];
    for (let round = 0; round < 20 && (await states()).join() !== 'sent:50'; round++)
      await Promise.all([a.tick(), b.tick()]);
    expect(await states()).toEqual(['sent:50']);
    const received = (await smtp.messages()).slice(before);
    expect(received).toHaveLength(50);
    const recipients = received.map((m) => m.to).sort();
    expect(new Set(recipients).size).toBe(50);
    expect(recipients).toContain('buyer1@example.com');
    expect(recipients).toContain('buyer50@example.com');
    // The Message-ID the receiver got is the one the outbox recorded.
    const recorded = await sql.query<{ message_id: string }>('SELECT message_id FROM mail_outbox');
    expect(new Set(received.map((m) => m.messageId))).toEqual(new Set(recorded.map((r) => r.message_id)));
  });

  it('keeps mail queued with growing waits while SMTP is down, then delivers each once when it is back', async () => {
    const before = (await smtp.messages()).length;
    const mails = mailOfEveryKind('encore');
    await sql.transaction(async (tx) => {
      for (const mail of mails) await enqueueMail(tx, mail, clock);
    });
    await smtp.stop();
    const worker = outbox();
    const waits: number[] = [];
    for (let attempt = 1; attempt <= 3; attempt++) {
      expect(await worker.tick()).toBe(mails.length);
      const rows = await sql.query<{ state: string; attempts: number; next_attempt_at: Date; last_error: string }>(
        'SELECT state, attempts, next_attempt_at, last_error FROM mail_outbox',
      );
      for (const row of rows) {
        expect(row).toMatchObject({ state: 'queued', attempts: attempt });
        expect(row.last_error).toMatch(/ECONNREFUSED|connect/i);
        expect(row.last_error).not.toContain('s3cret-pass');
      }
      waits.push(new Date(rows[0]!.next_attempt_at).getTime() - clock.getTime());
      // Not due yet: nothing is claimed before the wait is over.
      expect(await worker.tick()).toBe(0);
      later(waits.at(-1)!);
    }
    expect(waits).toEqual([5_000, 10_000, 20_000]);
    await smtp.start();
    expect(await worker.tick()).toBe(mails.length);
    expect(await worker.tick()).toBe(0);
    expect(await states()).toEqual([`sent:${mails.length}`]);
    const received = (await smtp.messages()).slice(before);
    expect(received.map((m) => m.subject).sort()).toEqual(
      [
        'Order confirmed: The Midnight Owls (ORD-7KQ2M9)',
        'Your tickets are ready: The Midnight Owls',
        'Refund of $127.35 for order ORD-7KQ2M9',
        'Cancelled: The Midnight Owls. Your full refund of $254.70 is on its way',
        'New date: The Midnight Owls',
      ].sort(),
    );
    const tickets = received.find((m) => m.subject.startsWith('Your tickets are ready'))!;
    expect(tickets.attachments).toHaveLength(1);
    expect(tickets.attachments[0]).toMatchObject({
      filename: 'tickets-ORD-7KQ2M9.pdf',
      contentType: 'application/pdf',
    });
    expect(tickets.from).toBe('"Encore Seats" <orders@tickets.example>');
    expect(tickets.replyTo).toBe('support@encore-seats.example');
  });

  it('marks a message failed after three days of failing, and a retry queues it to go at once', async () => {
    await sql.transaction((tx) => enqueueMail(tx, numberedMail(1), clock));
    await smtp.stop();
    const worker = outbox();
    const start = clock.getTime();
    // Every try fails; the waits grow to the 10-minute cap, and the message stays queued for three days.
    let tries = 0;
    while (clock.getTime() - start < MAIL_GIVE_UP_MS) {
      tries += await worker.tick();
      later(600_000);
    }
    expect(tries).toBeGreaterThan(400);
    await worker.tick();
    const [failed] = await worker.list({ limit: 10 });
    expect(failed).toMatchObject({ state: 'failed', nextAttemptAt: null });
    expect(failed!.lastError).toMatch(/ECONNREFUSED|connect/i);
    // Failed is for good: the worker leaves it.
    later(3_600_000);
    expect(await worker.tick()).toBe(0);

    await smtp.start();
    const before = (await smtp.messages()).length;
    expect(await worker.retry(failed!.id)).toMatchObject({ state: 'queued', attempts: 0 });
    expect(await worker.tick()).toBe(1);
    expect(await worker.list({ state: 'sent', limit: 10 })).toHaveLength(1);
    expect((await smtp.messages()).slice(before).map((m) => m.to)).toEqual(['buyer1@example.com']);
    await expect(worker.retry(failed!.id)).rejects.toMatchObject({ status: 409 });
    await expect(worker.retry(999_999)).rejects.toMatchObject({ status: 404 });
  });

  it('sends a message whose sender died mid-send again once the lease is over, with the same Message-ID', async () => {
    await sql.transaction((tx) => enqueueMail(tx, numberedMail(2), clock));
    // A node claimed it and died before marking it: it is 'sending' with a lease.
    await sql.query(`UPDATE mail_outbox SET state = 'sending', locked_until = $1`, [
      new Date(clock.getTime() + 60_000).toISOString(),
    ]);
    const worker = outbox();
    expect(await worker.tick()).toBe(0);
    later(60_001);
    const before = (await smtp.messages()).length;
    expect(await worker.tick()).toBe(1);
    const [record] = await worker.list({ limit: 1 });
    expect(record!.state).toBe('sent');
    expect((await smtp.messages()).slice(before).map((m) => m.messageId)).toEqual([record!.messageId]);
  });

  it(
    'records on its next tick the outcome of a send the store did not take, rather than leaving the message ' +
      'to its lease',
    async () => {
      await sql.transaction(async (tx) => {
        await enqueueMail(tx, numberedMail(3), clock);
        await enqueueMail(tx, numberedMail(4), clock);
      });
      // The store goes away just as the worker records what the SMTP server (or its absence) did.
      let away = false;
      const blinking: Sql = {
        ...sql,
        query: (text, params) =>
          away && /^\s*UPDATE mail_outbox SET state = (?:'sent'|\$2)/.test(text)
            ? Promise.reject(new StoreUnavailableError(new Error('connect ECONNREFUSED')))
            : sql.query(text, params),
      };
      const real = smtpTransport(smtp.url);
      const refusing: MailTransport = {
        send: async (mail) => {
          if (mail.to === 'buyer4@example.com') throw new Error('connect ECONNREFUSED 127.0.0.1:25');
          await real.send(mail);
        },
        close: () => real.close(),
        description: 'SMTP, refusing buyer4',
      };
      const worker = outbox(refusing, blinking);
      const before = (await smtp.messages()).length;
      away = true;
      expect(await worker.tick()).toBe(2);
      expect(await states()).toEqual(['sending:2']);
      away = false;
      // Still within the lease: nothing is claimed again, and what happened is recorded.
      later(1_000);
      expect(await worker.tick()).toBe(0);
      const rows = await sql.query<{ recipient: string; state: string; attempts: number }>(
        'SELECT recipient, state, attempts FROM mail_outbox ORDER BY recipient',
      );
      expect(rows).toEqual([
        { recipient: 'buyer3@example.com', state: 'sent', attempts: 0 },
        { recipient: 'buyer4@example.com', state: 'queued', attempts: 1 },
      ]);
      expect((await smtp.messages()).slice(before).map((m) => m.to)).toEqual(['buyer3@example.com']);
    },
  );

  it('drops an outcome it could not record once the lease is over: the message is any node’s again', async () => {
    await sql.transaction((tx) => enqueueMail(tx, numberedMail(5), clock));
    let away = false;
    const blinking: Sql = {
      ...sql,
      query: (text, params) =>
        away && /^\s*UPDATE mail_outbox SET state = 'sent'/.test(text)
          ? Promise.reject(new StoreUnavailableError(new Error('connect ECONNREFUSED')))
          : sql.query(text, params),
    };
    const worker = outbox(smtpTransport(smtp.url), blinking);
    const before = (await smtp.messages()).length;
    away = true;
    expect(await worker.tick()).toBe(1);
    away = false;
    // The store was away past the lease: the row is claimed again (by this node here) and sent once more, with
    // the same Message-ID, as after any lease that ran out.
    later(MAIL_LEASE_MS + 1);
    expect(await worker.tick()).toBe(1);
    expect(await states()).toEqual(['sent:1']);
    const ids = (await smtp.messages()).slice(before).map((m) => m.messageId);
    expect(ids).toHaveLength(2);
    expect(new Set(ids).size).toBe(1);
  });

  it('lists the newest first without the order data, in one state when asked', async () => {
    await sql.transaction(async (tx) => {
      for (const mail of mailOfEveryKind('base')) await enqueueMail(tx, mail, clock);
    });
    const listed = await outbox().list({ limit: 3 });
    expect(listed.map((m) => m.kind)).toEqual(['event_changed', 'event_cancelled', 'refund']);
    expect(Object.keys(listed[0]!).sort()).toEqual(
      [
        'attempts',
        'brand',
        'createdAt',
        'id',
        'key',
        'kind',
        'lastError',
        'messageId',
        'nextAttemptAt',
        'sentAt',
        'state',
        'to',
      ].sort(),
    );
    expect(await outbox().list({ state: 'sent', limit: 10 })).toEqual([]);
  });
});
