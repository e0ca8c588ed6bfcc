import { describe, expect, it } from 'vitest';
import type { Payment } from '../../../schemas/commerce.js';
import {
  SANDBOX_APPLE_PAY_SUCCESS_TOKEN,
  SANDBOX_TEST_CARDS,
  SandboxPaymentProvider,
  cardExpired,
  luhnValid,
  paymentFailedEvent,
  type ChargeInput,
} from './payments.js';

const NOW = new Date('2026-11-21T12:00:00Z');
const card = (cardNumber: string, expMonth = 12, expYear = 2030): Payment => ({ method: 'card', cardNumber, expMonth, expYear, cvc: '123' });
let key = 0;
const input = (payment: Payment, amountCents = 24_541, idempotencyKey = `key-${++key}`): ChargeInput => ({ amountCents, currency: 'USD', payment, idempotencyKey });
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
      ['4242 4242 4242 4242', { status: 'succeeded' }],
      ['4000 0000 0000 0002', { status: 'declined', reason: 'card_declined' }],
      ['4000 0000 0000 9995', { status: 'declined', reason: 'insufficient_funds' }],
      ['4000 0000 0000 0119', { status: 'error', reason: 'processing_error' }],
    ]);
  });

  it.each(SANDBOX_TEST_CARDS.map((c) => [c.number, c.outcome] as const))('%s → %j', async (number, outcome) => {
    const result = await provider().charge(input(card(number)));
    expect(result).toMatchObject(outcome);
    if (result.status === 'succeeded') expect(result.chargeId).toMatch(/^ch_sandbox_/);
  });

  it('charges any other Luhn-valid card', async () => {
    expect(await provider().charge(input(card('5555 5555 5555 4444')))).toMatchObject({ status: 'succeeded' });
  });

  it('declines a Luhn-invalid number as invalid_number', async () => {
    expect(await provider().charge(input(card('4242 4242 4242 4241')))).toEqual({ status: 'declined', reason: 'invalid_number' });
  });

  it('declines a card whose expiry month has passed as expired_card', async () => {
    const p = provider();
    expect(await p.charge(input(card('4242 4242 4242 4242', 10, 2026)))).toEqual({ status: 'declined', reason: 'expired_card' });
    expect(await p.charge(input(card('4242 4242 4242 4242', 11, 2026)))).toMatchObject({ status: 'succeeded' });
  });

  it('uses the clock it is given', async () => {
    const later = new SandboxPaymentProvider({ now: () => new Date('2031-01-01T00:00:00Z') });
    expect(await later.charge(input(card('4242 4242 4242 4242', 12, 2030)))).toEqual({ status: 'declined', reason: 'expired_card' });
  });

  it('accepts the Apple Pay success token and declines any other', async () => {
    const p = provider();
    expect(await p.charge(input({ method: 'applepay', token: SANDBOX_APPLE_PAY_SUCCESS_TOKEN }))).toMatchObject({ status: 'succeeded' });
    expect(await p.charge(input({ method: 'applepay', token: 'applepay-decline' }))).toEqual({ status: 'declined', reason: 'card_declined' });
  });

  it('refuses an amount that is not a positive whole number of cents', async () => {
    expect(await provider().charge(input(card('4242 4242 4242 4242'), 0))).toEqual({ status: 'error', reason: 'invalid_amount' });
    expect(await provider().charge(input(card('4242 4242 4242 4242'), 12.5))).toEqual({ status: 'error', reason: 'invalid_amount' });
  });

  describe('idempotency', () => {
    it('returns the first result for a repeated key and charges once', async () => {
      const p = provider();
      const first = await p.charge(input(card('4242 4242 4242 4242'), 1000, 'cart-1'));
      const again = await p.charge(input(card('4242 4242 4242 4242'), 1000, 'cart-1'));
      expect(again).toEqual(first);
      expect(p.charges).toHaveLength(1);
      expect(p.charges[0]).toMatchObject({ amountCents: 1000, last4: '4242', idempotencyKey: 'cart-1', method: 'card' });
    });

    it('charges once even when the same key arrives twice at the same time', async () => {
      const p = provider();
      const [a, b] = await Promise.all([p.charge(input(card('4242 4242 4242 4242'), 1000, 'k')), p.charge(input(card('4242 4242 4242 4242'), 1000, 'k'))]);
      expect(a).toEqual(b);
      expect(p.charges).toHaveLength(1);
    });

    it('keeps a decline for its key too', async () => {
      const p = provider();
      const first = await p.charge(input(card('4000 0000 0000 0002'), 1000, 'd'));
      expect(await p.charge(input(card('4000 0000 0000 0002'), 1000, 'd'))).toEqual(first);
    });

    it('answers idempotency_key_reused when the key comes back with another amount or card', async () => {
      const p = provider();
      await p.charge(input(card('4242 4242 4242 4242'), 1000, 'r'));
      expect(await p.charge(input(card('4242 4242 4242 4242'), 2000, 'r'))).toEqual({ status: 'error', reason: 'idempotency_key_reused' });
      expect(await p.charge(input(card('5555 5555 5555 4444'), 1000, 'r'))).toEqual({ status: 'error', reason: 'idempotency_key_reused' });
      expect(p.charges).toHaveLength(1);
    });

    it('gives distinct keys distinct charges', async () => {
      const p = provider();
      const a = await p.charge(input(card('4242 4242 4242 4242'), 1000, 'a'));
      const b = await p.charge(input(card('4242 4242 4242 4242'), 1000, 'b'));
      expect(a).not.toEqual(b);
      expect(p.charges).toHaveLength(2);
    });
  });

  it('never keeps a whole card number', async () => {
    const p = provider();
    await p.charge(input(card('4242 4242 4242 4242')));
    expect(JSON.stringify(p.charges)).not.toContain('424242424242');
  });
});

describe('paymentFailedEvent (spec §4)', () => {
  it('names the tracking event after the payment type', () => {
    expect(paymentFailedEvent(card('4242424242424242'))).toBe('card_failed');
    expect(paymentFailedEvent({ method: 'applepay', token: 'x' })).toBe('applepay_failed');
  });
});
