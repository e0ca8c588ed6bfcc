import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sql } from '../store/sql.js';
import { TEST_STORES } from '../store/test-stores.js';
import { AppError } from './errors.js';
import type { Request } from 'express';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_MAX_LENGTH } from '../../shared/schemas/commerce.js';
import {
  IDEMPOTENCY_KEY_HOURS,
  IDEMPOTENCY_LOCK_SECONDS,
  IdempotencyStore,
  idempotencyKeyOf,
  requestFingerprint,
} from './idempotency.js';

describe.each(TEST_STORES)('IdempotencyStore on $name', ({ open }) => {
  let sql: Sql;
  let clock = Date.parse('2026-11-23T12:00:00Z');
  let store: IdempotencyStore;
  beforeAll(async () => {
    sql = await open();
    store = new IdempotencyStore(sql, () => new Date(clock));
  });
  afterAll(() => sql.close());

  const body = { cartId: 'c', payment: { cardNumber: '4242424242424242' } };
  const print = requestFingerprint('POST', '/api/checkout', body);
  let runs = 0;
  const answer =
    (status = 201) =>
    async () => ({ status, body: { run: ++runs } });

  it('names its figures: 24 hours of replay (as Stripe keeps keys), a 60-second lock', () => {
    expect([IDEMPOTENCY_KEY_HOURS, IDEMPOTENCY_LOCK_SECONDS]).toEqual([24, 60]);
  });

  it('replays the first answer for 24 hours, then treats the key as new', async () => {
    const first = await store.run({ scope: 'g', key: 'day', fingerprint: print }, answer());
    clock += IDEMPOTENCY_KEY_HOURS * 3600_000 - 1_000;
    expect(await store.run({ scope: 'g', key: 'day', fingerprint: print }, answer())).toEqual({
      ...first,
      replayed: true,
    });
    clock += 2_000;
    const later = await store.run({ scope: 'g', key: 'day', fingerprint: print }, answer());
    expect(later.replayed).toBe(false);
    expect(later.body).not.toEqual(first.body);
  });

  it('fingerprints a body whatever the order of its fields, and never keeps the card number', async () => {
    expect(
      requestFingerprint('POST', '/api/checkout', { payment: { cardNumber: '4242424242424242' }, cartId: 'c' }),
    ).toBe(print);
    await store.run({ scope: 'g', key: 'card', fingerprint: print }, answer());
    expect(JSON.stringify(await sql.query("SELECT * FROM idempotency_keys WHERE key = 'card'"))).not.toContain(
      '4242424242424242',
    );
  });

  it(
    'lets a retry take over a key whose run outlived its lock, and the late ' +
      'run then neither answers nor frees for it',
    async () => {
      let release!: () => void;
      const slow = store.run({ scope: 'g', key: 'stuck', fingerprint: print }, async () => {
        await new Promise<void>((r) => (release = r));
        return { status: 410, body: { late: true } };
      });
      await new Promise((r) => setTimeout(r, 20));
      await expect(store.run({ scope: 'g', key: 'stuck', fingerprint: print }, answer())).rejects.toMatchObject({
        status: 409,
        code: 'idempotency_key_in_use',
      });
      clock += IDEMPOTENCY_LOCK_SECONDS * 1000 + 1;
      const takeover = await store.run({ scope: 'g', key: 'stuck', fingerprint: print }, answer());
      release();
      await slow;
      expect(await store.run({ scope: 'g', key: 'stuck', fingerprint: print }, answer())).toEqual({
        ...takeover,
        replayed: true,
      });
    },
  );

  it('keeps what `keep` leaves of an answer, and does not keep answers a retry may change', async () => {
    await store.run({ scope: 'g', key: 'secret', fingerprint: print, keep: () => ({ kept: true }) }, answer());
    expect((await store.run({ scope: 'g', key: 'secret', fingerprint: print }, answer())).body).toEqual({ kept: true });
    for (const status of [409, 429, 503]) {
      await store.run({ scope: 'g', key: `retry-${status}`, fingerprint: print }, answer(status));
      expect((await store.run({ scope: 'g', key: `retry-${status}`, fingerprint: print }, answer())).replayed).toBe(
        false,
      );
    }
    await expect(
      store.run({ scope: 'g', key: 'thrown', fingerprint: print }, () =>
        Promise.reject(new AppError(502, 'payment_error', 'x')),
      ),
    ).rejects.toThrow();
    expect((await store.run({ scope: 'g', key: 'thrown', fingerprint: print }, answer())).status).toBe(201);
  });
});

describe('idempotencyKeyOf', () => {
  const req = (value?: string) =>
    ({ get: (name: string) => (name === IDEMPOTENCY_KEY_HEADER ? value : undefined) }) as unknown as Request;

  it('takes a key of up to 255 printable characters (Stripe’s limit) and refuses one longer', () => {
    expect(IDEMPOTENCY_KEY_MAX_LENGTH).toBe(255);
    expect(idempotencyKeyOf(req('k'.repeat(255)))).toBe('k'.repeat(255));
    expect(() => idempotencyKeyOf(req('k'.repeat(256)))).toThrow(AppError);
    expect(idempotencyKeyOf(req(undefined))).toBeUndefined();
  });
});
