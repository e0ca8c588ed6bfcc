import { createHash } from 'node:crypto';
import type { Brand } from '../../shared/schemas/brand-registry.js';
import type { Logger } from '../../shared/logger.js';
import { repeat } from '../background/repeat.js';
import type { MailSender } from '../config/env.js';
import { AppError } from '../http/errors.js';
import type { Sql, SqlTx } from '../store/sql.js';
import { MAIL_KINDS, type MailAttachments, type MailLinks, type OutgoingMail } from './mail-kinds.js';
import { renderMail } from './messages.js';
import { withoutCredentials, type MailEnvelope, type MailTransport } from './transport.js';

/** RULES 19.9: the first wait after a failed send; each further failure doubles it, up to `MAIL_RETRY_MAX_SECONDS`. */
export const MAIL_FIRST_RETRY_SECONDS = 5;
/** RULES 19.9: a message the SMTP server has not taken after this long is marked failed (an operator may retry it). */
export const MAIL_GIVE_UP_MS = 3 * 24 * 3_600_000;
/** RULES 19.8: how long a node holds a claimed message: longer than any one send (the SMTP timeouts). */
export const MAIL_LEASE_MS = 5 * 60_000;
/** How often each node looks for due mail. */
export const MAIL_TICK_MS = 1_000;
/** Messages one tick claims (and sends side by side). */
export const MAIL_BATCH = 10;
/** After an enqueue, the local worker looks this soon (once the enqueuing transaction has likely committed). */
const WAKE_DELAY_MS = 50;

export const MAIL_STATES = ['queued', 'sending', 'sent', 'failed'] as const;
export type MailState = (typeof MAIL_STATES)[number];

/** Started workers in this process: an enqueue wakes them rather than waiting for the next tick. */
const wakers = new Set<() => void>();

/**
 * RULES 19.7, 19.8: queues a message once: a second call with the same key does nothing (false). Runs inside the
 * caller's transaction, as one INSERT: the mail is sent only if that transaction commits, and never by the request
 * itself (the worker sends it).
 */
export async function enqueueMail(db: SqlTx, mail: OutgoingMail, now: Date): Promise<boolean> {
  if (!mail.key || mail.key.length > 200) throw new Error('a mail key is 1 to 200 characters');
  if (!(MAIL_KINDS as readonly string[]).includes(mail.kind)) throw new Error(`unknown mail kind ${mail.kind}`);
  if (!/^[^\s@]+@[^\s@]+$/.test(mail.to)) throw new Error(`mail ${mail.key} has no recipient address`);
  const rows = await db.query(
    `INSERT INTO mail_outbox (key, kind, brand, recipient, data, state, attempts, next_attempt_at, give_up_at,
                              created_at)
     VALUES ($1, $2, $3, $4, $5, 'queued', 0, $6, $7, $6)
     ON CONFLICT (key) DO NOTHING
     RETURNING id`,
    [
      mail.key,
      mail.kind,
      mail.brand,
      mail.to,
      JSON.stringify(mail.data),
      now.toISOString(),
      new Date(now.getTime() + MAIL_GIVE_UP_MS).toISOString(),
    ],
  );
  if (rows.length > 0) for (const wake of wakers) wake();
  return rows.length > 0;
}

/** A message as operators see it: no order data beyond the recipient. */
export interface MailRecord {
  id: number;
  key: string;
  kind: string;
  brand: string;
  to: string;
  state: MailState;
  attempts: number;
  createdAt: string;
  nextAttemptAt: string | null;
  sentAt: string | null;
  lastError: string | null;
  messageId: string | null;
}

export interface MailOutboxOptions {
  /** The sender address (`MAIL_FROM`); each message shows its brand's name with it. */
  from: MailSender;
  /** `MAIL_RETRY_MAX_SECONDS`. */
  retryMaxSeconds: number;
  leaseMs?: number;
  tickMs?: number;
  batch?: number;
}

export interface MailOutboxDeps {
  sql: Sql;
  transport: MailTransport;
  /** The brand a message names (the registry's default for one that is gone). */
  brands: (id: string) => Brand;
  links: MailLinks;
  attachments: MailAttachments;
  logger: Logger;
  now?: () => Date;
  options: MailOutboxOptions;
}

type Row = Record<string, unknown>;

const iso = (v: unknown): string | null => (v == null ? null : new Date(v as string | Date).toISOString());

function toRecord(r: Row): MailRecord {
  const state = r.state as MailState;
  return {
    id: Number(r.id),
    key: String(r.key),
    kind: String(r.kind),
    brand: String(r.brand),
    to: String(r.recipient),
    state,
    attempts: Number(r.attempts),
    createdAt: iso(r.created_at)!,
    nextAttemptAt: state === 'queued' ? iso(r.next_attempt_at) : null,
    sentAt: iso(r.sent_at),
    lastError: (r.last_error as string | null) ?? null,
    messageId: (r.message_id as string | null) ?? null,
  };
}

const LISTED = `id, key, kind, brand, recipient, state, attempts, created_at, next_attempt_at, sent_at, last_error,
  message_id`;

/**
 * The one Message-ID of an outbox row, whichever node sends it and however often: a message sent again after a
 * node died between the SMTP server's acceptance and our mark reaches the receiver with the same id.
 */
export function outboxMessageId(id: number, key: string, from: MailSender): string {
  const host = from.address.slice(from.address.lastIndexOf('@') + 1) || 'localhost';
  const digest = createHash('sha256').update(key).digest('hex').slice(0, 16);
  return `<outbox-${id}.${digest}@${host}>`;
}

/** The wait before try `attempts + 1`: 5 s, 10 s, 20 s… up to `maxSeconds`. */
export function retryDelayMs(attempts: number, maxSeconds: number): number {
  const seconds = MAIL_FIRST_RETRY_SECONDS * 2 ** Math.min(Math.max(attempts - 1, 0), 30);
  return Math.min(seconds, maxSeconds) * 1000;
}

/**
 * The mail room's worker: claims due messages with a lease (so two nodes never send one at once), renders each
 * at send time (links signed then, the tickets PDF read then), hands it to the transport, and records the
 * outcome. Delivery is exactly once unless a node stops between the SMTP server's acceptance and its mark; then
 * the message goes again after the lease, at least once, with the same Message-ID.
 */
export class MailOutbox {
  private readonly now: () => Date;
  private readonly leaseMs: number;
  private readonly tickMs: number;
  private readonly batch: number;
  private running: Promise<number> | null = null;
  private again = false;
  /**
   * Outcomes of sends this node made but could not record (the store went away just then), by row, with the end
   * of the row's lease: recorded before the next claim, so the row does not wait out its lease (a message sent
   * would go again). Once the lease is over the row is any node's again, and the outcome is dropped.
   */
  private readonly unrecorded = new Map<number, { write: () => Promise<void>; until: number }>();

  constructor(private readonly deps: MailOutboxDeps) {
    this.now = deps.now ?? (() => new Date());
    this.leaseMs = deps.options.leaseMs ?? MAIL_LEASE_MS;
    this.tickMs = deps.options.tickMs ?? MAIL_TICK_MS;
    this.batch = deps.options.batch ?? MAIL_BATCH;
  }

  /** Sends due mail every second (and soon after a local enqueue) until the returned function is called. */
  start(): () => void {
    const stopRepeat = repeat(
      () => this.tick(),
      this.tickMs,
      (err) => this.deps.logger.warn({ err }, 'mail outbox tick failed; retrying'),
    );
    let pending: NodeJS.Timeout | undefined;
    const wake = () => {
      pending ??= setTimeout(() => {
        pending = undefined;
        this.tick().catch(() => {});
      }, WAKE_DELAY_MS).unref();
    };
    wakers.add(wake);
    return () => {
      stopRepeat();
      wakers.delete(wake);
      if (pending) clearTimeout(pending);
      void (this.running ?? Promise.resolve()).finally(() => this.deps.transport.close());
    };
  }

  /**
   * Claims the due messages (and those whose sender's lease ran out) and sends them; returns how many were
   * claimed. A tick asked for while one runs runs once more after it.
   */
  async tick(): Promise<number> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      let total = 0;
      do {
        this.again = false;
        total += await this.claimAndSend();
      } while (this.again);
      return total;
    })();
    try {
      return await this.running;
    } finally {
      this.running = null;
    }
  }

  private async claimAndSend(): Promise<number> {
    // Throws while the store is still away: nothing is claimed before what was done is on record.
    for (const [id, { write, until }] of this.unrecorded) {
      if (this.now().getTime() < until) await write();
      this.unrecorded.delete(id);
    }
    const now = this.now();
    const until = now.getTime() + this.leaseMs;
    // FOR UPDATE SKIP LOCKED: two nodes claiming at once take different rows; the lease keeps a row claimed once
    // the statement commits.
    const rows = await this.deps.sql.query(
      `UPDATE mail_outbox SET state = 'sending', locked_until = $2
       WHERE id IN (
         SELECT id FROM mail_outbox
         WHERE (state = 'queued' AND next_attempt_at <= $1) OR (state = 'sending' AND locked_until < $1)
         ORDER BY next_attempt_at, id
         LIMIT $3
         FOR UPDATE SKIP LOCKED)
       RETURNING id, key, kind, brand, recipient, data, attempts, give_up_at`,
      [now.toISOString(), new Date(until).toISOString(), this.batch],
    );
    await Promise.all(rows.map((row) => this.sendOne(row, until)));
    return rows.length;
  }

  private async sendOne(row: Row, until: number): Promise<void> {
    const id = Number(row.id);
    const key = String(row.key);
    const from = this.deps.options.from;
    const messageId = outboxMessageId(id, key, from);
    try {
      const envelope = await this.envelope(row, messageId);
      await this.deps.transport.send(envelope);
    } catch (err) {
      await this.record(id, until, () => this.failed(row, err));
      return;
    }
    const sentAt = this.now().toISOString();
    await this.record(id, until, async () => {
      await this.deps.sql.query(
        `UPDATE mail_outbox SET state = 'sent', sent_at = $2, message_id = $3, locked_until = NULL
         WHERE id = $1 AND state = 'sending'`,
        [id, sentAt, messageId],
      );
      this.deps.logger.info({ mail: id, kind: row.kind, messageId }, 'mail sent');
    });
  }

  /** Records a send's outcome; when the store does not take it, keeps it for the next tick (see `unrecorded`). */
  private async record(id: number, until: number, write: () => Promise<void>): Promise<void> {
    try {
      await write();
    } catch (err) {
      this.unrecorded.set(id, { write, until });
      this.deps.logger.warn({ err, mail: id }, 'mail outcome not recorded; recorded on the next tick');
    }
  }

  private async envelope(row: Row, messageId: string): Promise<MailEnvelope> {
    const data: unknown = typeof row.data === 'string' ? JSON.parse(row.data) : row.data;
    const mail = { key: row.key, brand: row.brand, to: row.recipient, kind: row.kind, data } as OutgoingMail;
    const brand = this.deps.brands(mail.brand);
    const from = this.deps.options.from;
    const supportEmail = brand.supportEmail ?? from.address;
    const rendered = renderMail(mail, { name: brand.name, theme: brand.theme, supportEmail }, this.deps.links);
    const attachments: MailEnvelope['attachments'] = [];
    if (mail.kind === 'tickets_ready') {
      // Without a PDF (not made yet, or gone) the mail still goes: its button links to the tickets.
      const pdf = await this.deps.attachments.ticketsPdf(mail.data.orderId);
      if (pdf) attachments.push({ ...pdf, contentType: 'application/pdf' });
    }
    return {
      key: mail.key,
      from: { name: brand.name, address: from.address },
      to: mail.to,
      replyTo: supportEmail,
      messageId,
      date: this.now(),
      attachments,
      ...rendered,
    };
  }

  private async failed(row: Row, err: unknown): Promise<void> {
    const id = Number(row.id);
    const now = this.now();
    const attempts = Number(row.attempts) + 1;
    const error = withoutCredentials(err);
    const giveUp = now.getTime() >= new Date(row.give_up_at as string | Date).getTime();
    const next = new Date(now.getTime() + retryDelayMs(attempts, this.deps.options.retryMaxSeconds));
    await this.deps.sql.query(
      `UPDATE mail_outbox SET state = $2, attempts = $3, next_attempt_at = $4, last_error = $5, locked_until = NULL
       WHERE id = $1 AND state = 'sending'`,
      [id, giveUp ? 'failed' : 'queued', attempts, next.toISOString(), error],
    );
    const fields = { mail: id, kind: row.kind, attempts, error };
    if (giveUp) this.deps.logger.error(fields, 'mail failed for good: an operator may retry it');
    else this.deps.logger.warn({ ...fields, nextAttemptAt: next.toISOString() }, 'mail not sent; will retry');
  }

  /** The newest messages first, in one state or all, without their data. */
  list(query: { state?: MailState; limit: number }): Promise<MailRecord[]> {
    return listMail(this.deps.sql, query);
  }

  /**
   * Queues a failed message again, due now, with a fresh three days before it fails again; a queued one is made
   * due now. A message being sent or already sent is a 409, an unknown id a 404.
   */
  async retry(id: number): Promise<MailRecord> {
    return retryMail(this.deps.sql, id, this.now());
  }
}

/** `MailOutbox.retry` without a worker (the CLI's store access). */
export async function retryMail(sql: Sql, id: number, now: Date): Promise<MailRecord> {
  const rows = await sql.query(
    `UPDATE mail_outbox
     SET state = 'queued', next_attempt_at = $2, locked_until = NULL,
         attempts = CASE WHEN state = 'failed' THEN 0 ELSE attempts END,
         give_up_at = CASE WHEN state = 'failed' THEN $3 ELSE give_up_at END
     WHERE id = $1 AND state IN ('failed', 'queued') AND recipient <> ''
     RETURNING ${LISTED}`,
    [id, now.toISOString(), new Date(now.getTime() + MAIL_GIVE_UP_MS).toISOString()],
  );
  if (rows[0]) {
    for (const wake of wakers) wake();
    return toRecord(rows[0]);
  }
  const [found] = await sql.query<{ state: string; recipient: string }>(
    'SELECT state, recipient FROM mail_outbox WHERE id = $1',
    [id],
  );
  if (!found) throw new AppError(404, 'mail_not_found', `No mail with id ${id} in the outbox.`);
  if (found.recipient === '')
    throw new AppError(
      409,
      'mail_erased',
      `Mail ${id} was erased at its buyer's request (RULES 21.3): it is not sent.`,
    );
  throw new AppError(
    409,
    'mail_not_retryable',
    `Mail ${id} is ${found.state}: only a failed or queued message can be retried.`,
  );
}

/** What an erased message says of itself in the outbox (RULES 21.3). */
export const ERASED_MAIL_NOTE = "Erased at the buyer's request: not sent";

/**
 * RULES 21.3: erases the messages of these orders inside the caller's transaction: each keeps its key, kind, brand,
 * state and times (the fact that it was sent, and when), and loses its recipient and its facts (the order id
 * stays). One not yet sent (queued, failed, or being sent) is marked failed and is never sent or retried; a send
 * already under way on a node may still go out. Says how many messages were erased.
 */
export async function eraseOrderMail(db: SqlTx, orderIds: readonly string[]): Promise<number> {
  if (orderIds.length === 0) return 0;
  const rows = await db.query(
    `UPDATE mail_outbox
     SET recipient = '', data = jsonb_build_object('orderId', data->>'orderId'), locked_until = NULL,
         state = CASE WHEN state = 'sent' THEN 'sent' ELSE 'failed' END,
         last_error = CASE WHEN state = 'sent' THEN last_error ELSE $2 END
     WHERE data->>'orderId' = ANY ($1::text[]) AND recipient <> ''
     RETURNING id`,
    [orderIds, ERASED_MAIL_NOTE],
  );
  return rows.length;
}

/** `MailOutbox.list` without a worker (the CLI's store access). */
export async function listMail(sql: Sql, query: { state?: MailState; limit: number }): Promise<MailRecord[]> {
  const rows = query.state
    ? await sql.query(`SELECT ${LISTED} FROM mail_outbox WHERE state = $1 ORDER BY id DESC LIMIT $2`, [
        query.state,
        query.limit,
      ])
    : await sql.query(`SELECT ${LISTED} FROM mail_outbox ORDER BY id DESC LIMIT $1`, [query.limit]);
  return rows.map(toRecord);
}
