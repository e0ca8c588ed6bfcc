import { describe, expect, it } from 'vitest';
import { paymentFailedEventName, purchaseTrackingEvent } from './checkout-tracking.js';

describe('purchaseTrackingEvent (RULES 9.8: value = 95 × total, field phet)', () => {
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

describe('paymentFailedEventName (RULES 9.9: payment type plus a failed suffix)', () => {
  it.each([
    ['paypal', 'paypal_failed'],
    ['apple_pay', 'apple_pay_failed'],
    ['credit_card', 'credit_card_failed'],
  ])('%s → %s', (type, name) => {
    expect(paymentFailedEventName(type)).toBe(name);
  });
});
