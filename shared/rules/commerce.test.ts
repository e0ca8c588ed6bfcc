import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { FF20_DISCOUNT_FACTOR } from './constants.js';
import { applyPromo, canOfferApplePay, paymentFailedEventName, purchaseTrackingEvent } from './commerce.js';

describe('applyPromo (spec §9: FF20 = 0.8, on the ticket subtotal)', () => {
  it('FF20 is the spec constant', () => {
    expect(FF20_DISCOUNT_FACTOR).toBe(0.8);
  });

  it.each<[string | null | undefined, number, number]>([
    ['FF20', 100, 80],
    ['ff20', 100, 80],
    [' FF20 ', 100, 80],
    ['FF20', 19.99, 15.99],
    ['FF20', 0.01, 0.01],
    ['FF20', 0, 0],
    ['FF20', 1234.56, 987.65],
    ['FF21', 100, 100],
    ['', 100, 100],
    [null, 100, 100],
    [undefined, 19.99, 19.99],
  ])('%j on %d → %d', (code, subtotal, total) => {
    expect(applyPromo(code, subtotal)).toBe(total);
  });

  it.each([-1, NaN, Infinity])('refuses a subtotal of %d', (subtotal) => {
    expect(() => applyPromo('FF20', subtotal)).toThrow(RangeError);
  });

  it('always lands on whole cents within half a cent of 80%', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), (cents) => {
        const out = applyPromo('FF20', cents / 100);
        expect(Number.isInteger(Math.round(out * 100)) && Math.abs(out * 100 - Math.round(out * 100)) < 1e-6).toBe(
          true,
        );
        expect(Math.abs(out - (cents / 100) * 0.8)).toBeLessThanOrEqual(0.005 + 1e-9);
      }),
    );
  });
});

describe('purchaseTrackingEvent (spec §7, §9: value = 95 × total, field phet)', () => {
  it.each<[number, number]>([
    [100, 9500],
    [12.34, 1172.3],
    [0.1, 9.5],
    [19.99, 1899.05],
    [0, 0],
  ])('total %d → phet %d', (total, phet) => {
    expect(purchaseTrackingEvent(total)).toEqual({ event: 'purchase', phet });
  });
});

describe('paymentFailedEventName (spec §4: payment type plus a failed suffix)', () => {
  it.each([
    ['paypal', 'paypal_failed'],
    ['apple_pay', 'apple_pay_failed'],
    ['credit_card', 'credit_card_failed'],
  ])('%s → %s', (type, name) => {
    expect(paymentFailedEventName(type)).toBe(name);
  });
});

describe('canOfferApplePay (spec §5: version 3 supported and can make payments)', () => {
  const env = (supports: boolean | (() => never), can: boolean | (() => never)) => ({
    supportsVersion: vi.fn((v: number) => (typeof supports === 'function' ? supports() : supports && v === 3)),
    canMakePayments: vi.fn(() => (typeof can === 'function' ? can() : can)),
  });
  const boom = (): never => {
    throw new Error('InvalidAccessError');
  };

  it.each<[string, ReturnType<typeof env> | undefined, boolean]>([
    ['both', env(true, true), true],
    ['no version 3', env(false, true), false],
    ['cannot make payments', env(true, false), false],
    ['no ApplePaySession', undefined, false],
    ['supportsVersion throws', env(boom, true), false],
    ['canMakePayments throws', env(true, boom), false],
  ])('%s → %s', (_case, e, offered) => {
    expect(canOfferApplePay(e)).toBe(offered);
  });

  it('asks about version 3', () => {
    const e = env(true, true);
    canOfferApplePay(e);
    expect(e.supportsVersion).toHaveBeenCalledWith(3);
  });
});
