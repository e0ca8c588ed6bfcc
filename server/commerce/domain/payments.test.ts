import { describe, expect, it } from 'vitest';
import type { Payment } from '../../../shared/schemas/commerce.js';
import {
  SANDBOX_APPLE_PAY_SUCCESS_TOKEN,
  SANDBOX_TEST_CARDS,
  SandboxPaymentProvider,
  cardExpired,
  luhnValid,
  paymentFailedEvent,
  type AuthorizeInput,
} from './payments.js';

const NOW = new Date('2026-11-21T12:00:00Z');
const card = (cardNumber: string, expMonth = 12, expYear = 2030): Payment => ({
  method: 'card',
  cardNumber,
  expMonth,
  expYear,
  cvc: '123',
});
let key = 0;
const input = (payment: Payment, amountCents = 24_541, idempotencyKey = `key-${++key}`): AuthorizeInput => ({
  amountCents,
  currency: 'USD',
  payment,
  idempotencyKey,
});
const provider = () => new SandboxPaymentProvider({ now: () => NOW });

describe('luhnValid', () => {
  it.each([
    ['4242 4242 4242 4242', true],
    ['4242424242424242', true],
    ['4000-0000-0000-0002', true],
    ['5555 5555 5555 4444', true],
    ['3782 822463 10005', true],
    ['4242 4242 4242 4241', false],
    ['1234 5678 9012 3456', false],
    ['4242', false],
    ['', false],
    ['4242 4242 4242 424x', false],
  ])('%s → %s', (number, valid) => {
    expect(luhnValid(number)).toBe(valid);
  });
});

describe('cardExpired', () => {
  it('is good through the end of its expiry month', () => {
    expect(cardExpired(11, 2026, NOW)).toBe(false);
    expect(cardExpired(10, 2026, NOW)).toBe(true);
    expect(cardExpired(12, 2025, NOW)).toBe(true);
    expect(cardExpired(1, 2027, NOW)).toBe(false);
  });
});

describe('SandboxPaymentProvider', () => {
  it('documents the four test cards', () => {
    expect(SANDBOX_TEST_CARDS.map((c) => [c.number, c.outcome])).toEqual([
      ['4242 4242 4242 4242', { status: 'authorized' }],
      ['4000 0000 0000 0002', { status: 'declined', reason: 'card_declined' }],
      ['4000 0000 0000 9995', { status: 'declined', reason: 'insufficient_funds' }],
      ['4000 0000 0000 0119', { status: 'error', reason: 'processing_error' }],
    ]);
  });

  it.each(SANDBOX_TEST_CARDS.map((c) => [c.number, c.outcome] as const))('%s → %j', async (number, outcome) => {
    const result = await provider().authorize(input(card(number)));
    expect(result).toMatchObject(outcome);
    if (result.status === 'authorized') expect(result.authorizationId).toMatch(/^ch_sandbox_/);
  });

  it('authorizes any other Luhn-valid card', async () => {
    expect(await provider().authorize(input(card('5555 5555 5555 4444')))).toMatchObject({ status: 'authorized' });
  });

  it('declines a Luhn-invalid number as invalid_number', async () => {
    expect(await provider().authorize(input(card('4242 4242 4242 4241')))).toEqual({
      status: 'declined',
      reason: 'invalid_number',
    });
  });

  it('declines a card whose expiry month has passed as expired_card', async () => {
    const p = provider();
    expect(await p.authorize(input(card('4242 4242 4242 4242', 10, 2026)))).toEqual({
      status: 'declined',
      reason: 'expired_card',
    });
    expect(await p.authorize(input(card('4242 4242 4242 4242', 11, 2026)))).toMatchObject({ status: 'authorized' });
  });

  it('uses the clock it is given', async () => {
    const later = new SandboxPaymentProvider({ now: () => new Date('2031-01-01T00:00:00Z') });
    expect(await later.authorize(input(card('4242 4242 4242 4242', 12, 2030)))).toEqual({
      status: 'declined',
      reason: 'expired_card',
    });
  });

  it('accepts the Apple Pay success token and declines any other', async () => {
    const p = provider();
    expect(await p.authorize(input({ method: 'applepay', token: SANDBOX_APPLE_PAY_SUCCESS_TOKEN }))).toMatchObject({
      status: 'authorized',
    });
    expect(await p.authorize(input({ method: 'applepay', token: 'applepay-decline' }))).toEqual({
      status: 'declined',
      reason: 'card_declined',
    });
  });

  it('refuses an amount that is not a positive whole number of cents', async () => {
    expect(await provider().authorize(input(card('4242 4242 4242 4242'), 0))).toEqual({
      status: 'error',
      reason: 'invalid_amount',
    });
    expect(await provider().authorize(input(card('4242 4242 4242 4242'), 12.5))).toEqual({
      status: 'error',
      reason: 'invalid_amount',
    });
  });

  describe('idempotency', () => {
    it('returns the first result for a repeated key and authorizes once', async () => {
      const p = provider();
      const first = await p.authorize(input(card('4242 4242 4242 4242'), 1000, 'cart-1'));
      const again = await p.authorize(input(card('4242 4242 4242 4242'), 1000, 'cart-1'));
      expect(again).toEqual(first);
      expect(p.authorizations).toHaveLength(1);
      expect(p.authorizations[0]).toMatchObject({
        amountCents: 1000,
        last4: '4242',
        idempotencyKey: 'cart-1',
        method: 'card',
      });
    });

    it('authorizes once even when the same key arrives twice at the same time', async () => {
      const p = provider();
      const [a, b] = await Promise.all([
        p.authorize(input(card('4242 4242 4242 4242'), 1000, 'k')),
        p.authorize(input(card('4242 4242 4242 4242'), 1000, 'k')),
      ]);
      expect(a).toEqual(b);
      expect(p.authorizations).toHaveLength(1);
    });

    it('keeps a decline for its key too', async () => {
      const p = provider();
      const first = await p.authorize(input(card('4000 0000 0000 0002'), 1000, 'd'));
      expect(await p.authorize(input(card('4000 0000 0000 0002'), 1000, 'd'))).toEqual(first);
    });

    it('answers idempotency_key_reused when the key comes back with another amount or card', async () => {
      const p = provider();
      await p.authorize(input(card('4242 4242 4242 4242'), 1000, 'r'));
      expect(await p.authorize(input(card('4242 4242 4242 4242'), 2000, 'r'))).toEqual({
        status: 'error',
        reason: 'idempotency_key_reused',
      });
      expect(await p.authorize(input(card('5555 5555 5555 4444'), 1000, 'r'))).toEqual({
        status: 'error',
        reason: 'idempotency_key_reused',
      });
      expect(p.authorizations).toHaveLength(1);
    });

    it('gives distinct keys distinct authorizations', async () => {
      const p = provider();
      const a = await p.authorize(input(card('4242 4242 4242 4242'), 1000, 'a'));
      const b = await p.authorize(input(card('4242 4242 4242 4242'), 1000, 'b'));
      expect(a).not.toEqual(b);
      expect(p.authorizations).toHaveLength(2);
    });
  });

  it('never keeps a whole card number', async () => {
    const p = provider();
    await p.authorize(input(card('4242 4242 4242 4242')));
    expect(JSON.stringify(p.authorizations)).not.toContain('424242424242');
  });
});

describe('paymentFailedEvent (RULES 9.9)', () => {
  it('names the tracking event after the payment type', () => {
    expect(paymentFailedEvent(card('4242424242424242'))).toBe('card_failed');
    expect(paymentFailedEvent({ method: 'applepay', token: 'x' })).toBe('applepay_failed');
  });
});

describe('SandboxPaymentProvider authorize, capture and void', () => {
  const authorized = async (p: SandboxPaymentProvider, key: string) => {
    const result = await p.authorize(input(card('4242 4242 4242 4242'), 1000, key));
    if (result.status !== 'authorized') throw new Error(`not authorized: ${JSON.stringify(result)}`);
    return result.authorizationId;
  };

  it('moves money only on capture, and a repeated capture moves it once', async () => {
    const p = provider();
    const id = await authorized(p, 'c');
    expect(p.charges).toEqual([]);
    expect(await p.capture(id)).toEqual({ status: 'captured' });
    expect(await p.capture(id)).toEqual({ status: 'captured' });
    expect(p.charges.map((c) => c.id)).toEqual([id]);
  });

  it('voids an authorization, which can then never be captured', async () => {
    const p = provider();
    const id = await authorized(p, 'v');
    expect(await p.void(id)).toEqual({ status: 'voided' });
    expect(await p.void(id)).toEqual({ status: 'voided' });
    expect(await p.capture(id)).toEqual({ status: 'error', reason: 'already_voided' });
    expect(p.charges).toEqual([]);
    expect(p.authorizations.map((a) => a.status)).toEqual(['voided']);
  });

  it('refuses to void a captured authorization and to settle an unknown one', async () => {
    const p = provider();
    const id = await authorized(p, 'x');
    await p.capture(id);
    expect(await p.void(id)).toEqual({ status: 'error', reason: 'already_captured' });
    expect(await p.capture('ch_sandbox_nope')).toEqual({ status: 'error', reason: 'unknown_authorization' });
    expect(await p.void('ch_sandbox_nope')).toEqual({ status: 'error', reason: 'unknown_authorization' });
  });

  it('gives ids that do not repeat across providers (a restart starts a new provider)', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 50; i++) ids.add(await authorized(provider(), 'same-key'));
    expect(ids.size).toBe(50);
  });
});
