import { createHash, randomUUID } from 'node:crypto';
import type { Request } from 'express';
import type { Sql } from '../store/sql.js';
import { ExpiredRowSweeper } from '../store/sweeper.js';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_MAX_LENGTH } from '../../shared/schemas/commerce.js';
import { AppError, toErrorResponse } from './errors.js';

/**
 * `Idempotency-Key` on unsafe requests, with the semantics of the IETF HTTP API draft
 * (draft-ietf-httpapi-idempotency-key-header) and of Stripe: the same key and body replay the first answer
 * for 24 hours, the same key with another body is a 422, and the same key while the first request still
 * runs is a 409. Keys live in the shared store, so a retry that reaches another node is answered alike.
 */
/** Stripe keeps keys 24 hours; so do we. */
export const IDEMPOTENCY_KEY_HOURS = 24;
/**
 * How long a request may own its key before a retry may take it over (a node that died mid-request never
 * finishes it); the checkout's own claim on a cart lasts as long.
 */
export const IDEMPOTENCY_LOCK_SECONDS = 60;

// The draft's value is a structured-field string ("…"); Stripe's clients send it bare. Both are accepted.
const KEY_VALUE = new RegExp(`^"?([\\x21\\x23-\\x7e]{1,${IDEMPOTENCY_KEY_MAX_LENGTH}})"?$`);

/** The request's idempotency key, undefined when it sent none, or a 400 naming what is wrong with it. */
export function idempotencyKeyOf(req: Request): string | undefined {
  const raw = req.get(IDEMPOTENCY_KEY_HEADER);
  if (raw === undefined) return undefined;
  const match = KEY_VALUE.exec(raw.trim());
  if (!match) {
    throw new AppError(
      400,
      'invalid_idempotency_key',
      `${IDEMPOTENCY_KEY_HEADER} must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} ` +
        `printable characters without spaces, such as a UUID`,
    );
  }
  return match[1];
}

export interface StoredAnswer {
  status: number;
  body: unknown;
  /** True when this is the stored answer of an earlier request with the same key. */
  replayed: boolean;
}

/** Answers a handler gives that a retry should not replay: it may go differently next time. */
const retriable = (status: number) => status === 409 || status === 429 || status >= 500;

/** JSON with object keys sorted, so the same body always hashes alike whatever order its fields came in. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value as object)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** What makes two requests "the same": method, path and body (a card number is hashed, never kept). */
export function requestFingerprint(method: string, path: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method} ${path}\n${canonical(body)}`)
    .digest('hex');
}

export class IdempotencyStore {
  private readonly sweeper: ExpiredRowSweeper;
  /**
   * Keys this node could not free because the store was away when their request ended: freed as soon as it
   * answers again (on the next request with a key, or `freePending`), so a shopper's retry after an outage is
   * not told for a minute that the request is still running.
   */
  private readonly unfreed = new Set<string>();

  constructor(
    private readonly sql: Sql,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.sweeper = new ExpiredRowSweeper(sql, 'DELETE FROM idempotency_keys WHERE expires_at <= now()');
  }

  /**
   * Runs `handler` once per scope and key: the first request runs it and its answer is kept; a repeat gets
   * the kept answer. A handler's answer that may differ on a retry (409, 429, 5xx, the store down) is not
   * kept: the key is freed, so the retry runs again.
   */
  async run(
    input: {
      scope: string;
      key: string | undefined;
      fingerprint: string;
      /** What of an answer is kept for replays (a secret the first answer alone may carry is left out). */
      keep?: (body: unknown) => unknown;
    },
    handler: () => Promise<{ status: number; body: unknown }>,
  ): Promise<StoredAnswer> {
    if (input.key === undefined) return { ...(await handler()), replayed: false };
    const key = input.key;
    const now = this.now();
    await this.freePending();
    this.sweeper.maybeSweep();
    // This run's own mark on the key: a run that outlived its lock (and lost the key to a retry) can then
    // neither free nor answer for the run that took it over.
    const owner = randomUUID();
    const owned = await this.sql.query(
      `INSERT INTO idempotency_keys (scope, key, request_hash, state, owner, locked_until, expires_at)
       VALUES ($1, $2, $3, 'running', $7, $4, $5)
       ON CONFLICT (scope, key) DO UPDATE
         SET request_hash = EXCLUDED.request_hash, state = 'running', owner = EXCLUDED.owner,
             response_status = NULL, response_body = NULL,
             locked_until = EXCLUDED.locked_until, expires_at = EXCLUDED.expires_at
         WHERE idempotency_keys.expires_at <= $6
            OR (idempotency_keys.state = 'running' AND idempotency_keys.locked_until <= $6
                AND idempotency_keys.request_hash = EXCLUDED.request_hash)
       RETURNING key`,
      [
        input.scope,
        key,
        input.fingerprint,
        seconds(now, IDEMPOTENCY_LOCK_SECONDS),
        seconds(now, IDEMPOTENCY_KEY_HOURS * 3600),
        now.toISOString(),
        owner,
      ],
    );
    if (owned.length === 0) return this.earlier(input.scope, key, input.fingerprint);

    let answer: { status: number; body: unknown };
    try {
      answer = await handler();
    } catch (err) {
      const { status, body } = toErrorResponse(err);
      if (retriable(status)) {
        await this.free(input.scope, key, owner);
        throw err;
      }
      answer = { status, body };
    }
    if (retriable(answer.status)) {
      await this.free(input.scope, key, owner);
      return { ...answer, replayed: false };
    }
    // If the store fails here the answer still goes out; the key then frees itself when its lock runs out.
    await this.sql
      .query(
        `UPDATE idempotency_keys SET state = 'done', response_status = $3, ` +
          `response_body = $4 WHERE scope = $1 AND key = $2 AND owner = $5`,
        [input.scope, key, answer.status, JSON.stringify(input.keep ? input.keep(answer.body) : answer.body), owner],
      )
      .catch(() => {});
    return { ...answer, replayed: false };
  }

  private async earlier(scope: string, key: string, fingerprint: string): Promise<StoredAnswer> {
    const rows = await this.sql.query(
      'SELECT request_hash, state, response_status, response_body FROM idempotency_keys WHERE scope = $1 AND key = $2',
      [scope, key],
    );
    const row = rows[0];
    if (!row)
      throw new AppError(
        409,
        'idempotency_key_in_use',
        'A request with this Idempotency-Key was just finishing; retry it',
      );
    if (row.request_hash !== fingerprint) {
      throw new AppError(
        422,
        'idempotency_key_reused',
        `This ${IDEMPOTENCY_KEY_HEADER} was already used for a different request; make a new key for a new request`,
      );
    }
    if (row.state !== 'done') {
      throw new AppError(
        409,
        'idempotency_key_in_use',
        `A request with this ${IDEMPOTENCY_KEY_HEADER} is still being processed; retry it in a moment`,
      );
    }
    const body = typeof row.response_body === 'string' ? JSON.parse(row.response_body) : row.response_body;
    return { status: Number(row.response_status), body, replayed: true };
  }

  private async free(scope: string, key: string, owner: string): Promise<void> {
    const entry = [scope, key, owner].join('\n');
    await this.sql
      .query("DELETE FROM idempotency_keys WHERE scope = $1 AND key = $2 AND owner = $3 AND state = 'running'", [
        scope,
        key,
        owner,
      ])
      .then(
        () => this.unfreed.delete(entry),
        () => this.unfreed.add(entry),
      );
  }

  /** Frees the keys an outage left locked; stops at the first failure (the store is still away). */
  async freePending(): Promise<void> {
    for (const entry of [...this.unfreed]) {
      const [scope, key, owner] = entry.split('\n') as [string, string, string];
      await this.free(scope, key, owner);
      if (this.unfreed.has(entry)) return;
    }
  }
}

const seconds = (from: Date, s: number) => new Date(from.getTime() + s * 1000).toISOString();
