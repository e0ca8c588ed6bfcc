import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DELIVERY_METHODS } from '../schemas/commerce.js';
import { FF20_DISCOUNT_FACTOR } from './constants.js';
import {
  FULFILLMENT_FEES,
  PromoCodeError,
  SERVICE_FEE_RATE,
  allInPrice,
  applyPromo,
  formatMoney,
  lowestAllInPrice,
  normalizePromoCode,
  perTicketPrices,
  quoteCart,
  type QuoteInput,
} from './pricing.js';

const money = (value: string) => {
  const m = /^(-?)\$([\d,]+(?:\.\d{2})?)$/.exec(value);
  if (!m) throw new Error(`not a money value: ${value}`);
  return Math.round(Number(m[2]!.replace(/,/g, '')) * 100) * (m[1] ? -1 : 1);
};

describe('fees (product decisions)', () => {
  it('takes an 18% service fee per ticket in whole cents, a half cent rounded up ($1.25 → 23¢ a ticket)', () => {
    const quote = quoteCart({ pricePerTicket: 1.25, quantity: 2, deliveryMethod: 'eticket' });
    expect(quote.cents).toEqual({ subtotal: 250, discount: 0, serviceFee: 46, fulfillmentFee: 0, total: 296 });
    expect(quoteCart({ pricePerTicket: 1.24, quantity: 1, deliveryMethod: 'eticket' }).cents.serviceFee).toBe(22);
    expect(quoteCart({ pricePerTicket: 0.75, quantity: 1, deliveryMethod: 'eticket' }).cents.serviceFee).toBe(14);
  });

  it('ships mailed tickets at $2.50 each at full price, FF20 coming off the tickets alone', () => {
    const quote = quoteCart({ pricePerTicket: 10, quantity: 3, deliveryMethod: 'physical_mail', promoCode: 'FF20' });
    expect(quote.cents).toEqual({ subtotal: 3000, discount: 600, serviceFee: 432, fulfillmentFee: 750, total: 3582 });
    expect(quote.lineItems.map((l) => [l.key, l.value])).toEqual([
      ['Tickets (3 × $10)', '$30'],
      ['Service Fee', '$4.32'],
      ['Delivery', '$7.50'],
      ['Promo FF20', '-$6'],
      ['Total', '$35.82'],
    ]);
  });
});

describe('applyPromo (RULES 3.4: FF20 = 0.8, on the ticket subtotal)', () => {
  it('takes exactly a fifth off with FF20, to the nearest cent', () => {
    expect(applyPromo('FF20', 50)).toBe(40);
    expect(applyPromo('FF20', 0.03)).toBe(0.02);
    expect(applyPromo('FF20', 0.07)).toBe(0.06);
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

describe('allInPrice', () => {
  it.each<[number, number]>([
    [100, 118],
    [129.98, 153.38],
    [50, 59],
    [0.25, 0.3],
    [0.01, 0.01],
  ])('%d → %d', (price, allIn) => {
    expect(allInPrice(price)).toBe(allIn);
  });

  it.each([0, -5, NaN, Infinity, 0.004])('refuses a price of %d', (price) => {
    expect(() => allInPrice(price)).toThrow(RangeError);
  });

  it('is the lowest all-in price of a document whose cheapest ticket costs that much, and none without a price', () => {
    expect(lowestAllInPrice(206.51)).toBe(243.68);
    expect(lowestAllInPrice(0)).toBeUndefined();
    expect(lowestAllInPrice(NaN)).toBeUndefined();
  });
});

describe('perTicketPrices', () => {
  it('puts the service fee inside the all-in price and shipping beside it, for mailed tickets only', () => {
    expect(perTicketPrices({ pricePerTicket: 50, deliveryMethod: 'physical_mail' })).toEqual({
      allInPricePerTicket: 59,
      serviceFeePerTicket: 9,
      shippingPerTicket: 2.5,
    });
    for (const deliveryMethod of DELIVERY_METHODS.filter((m) => m !== 'physical_mail')) {
      expect(perTicketPrices({ pricePerTicket: 129.98, deliveryMethod })).toEqual({
        allInPricePerTicket: 153.38,
        serviceFeePerTicket: 23.4,
        shippingPerTicket: 0,
      });
    }
  });

  it('adds up, times the quantity, to the cart total without a promo', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000_000 }),
        fc.integer({ min: 1, max: 12 }),
        fc.constantFrom(...DELIVERY_METHODS),
        (cents, quantity, deliveryMethod) => {
          const p = perTicketPrices({ pricePerTicket: cents / 100, deliveryMethod });
          const quote = quoteCart({ pricePerTicket: cents / 100, quantity, deliveryMethod });
          expect(quote.cents.total).toBe(
            (Math.round(p.allInPricePerTicket * 100) + Math.round(p.shippingPerTicket * 100)) * quantity,
          );
          expect(Math.round(p.allInPricePerTicket * 100)).toBe(cents + Math.round(p.serviceFeePerTicket * 100));
        },
      ),
    );
  });
});

describe('quoteCart', () => {
  it.each<
    [
      QuoteInput,
      { subtotal: number; discount: number; serviceFee: number; fulfillmentFee: number; total: number },
      [string, string][],
    ]
  >([
    [
      { pricePerTicket: 100, quantity: 2, deliveryMethod: 'eticket' },
      { subtotal: 200, discount: 0, serviceFee: 36, fulfillmentFee: 0, total: 236 },
      [
        ['Tickets (2 × $100)', '$200'],
        ['Service Fee', '$36'],
        ['Total', '$236'],
      ],
    ],
    [
      { pricePerTicket: 129.98, quantity: 2, deliveryMethod: 'mobile_transfer' },
      { subtotal: 259.96, discount: 0, serviceFee: 46.8, fulfillmentFee: 0, total: 306.76 },
      [
        ['Tickets (2 × $129.98)', '$259.96'],
        ['Service Fee', '$46.80'],
        ['Total', '$306.76'],
      ],
    ],
    [
      { pricePerTicket: 129.98, quantity: 2, deliveryMethod: 'eticket', promoCode: 'FF20' },
      { subtotal: 259.96, discount: 51.99, serviceFee: 37.44, fulfillmentFee: 0, total: 245.41 },
      [
        ['Tickets (2 × $129.98)', '$259.96'],
        ['Service Fee', '$37.44'],
        ['Promo FF20', '-$51.99'],
        ['Total', '$245.41'],
      ],
    ],
    [
      { pricePerTicket: 50, quantity: 3, deliveryMethod: 'physical_mail' },
      { subtotal: 150, discount: 0, serviceFee: 27, fulfillmentFee: 7.5, total: 184.5 },
      [
        ['Tickets (3 × $50)', '$150'],
        ['Service Fee', '$27'],
        ['Delivery', '$7.50'],
        ['Total', '$184.50'],
      ],
    ],
    [
      { pricePerTicket: 1234.5, quantity: 4, deliveryMethod: 'physical_mail', promoCode: ' ff20 ' },
      { subtotal: 4938, discount: 987.6, serviceFee: 711.08, fulfillmentFee: 10, total: 4671.48 },
      [
        ['Tickets (4 × $1,234.50)', '$4,938'],
        ['Service Fee', '$711.08'],
        ['Delivery', '$10'],
        ['Promo FF20', '-$987.60'],
        ['Total', '$4,671.48'],
      ],
    ],
    [
      { pricePerTicket: 19.99, quantity: 3, deliveryMethod: 'will_call', promoCode: '' },
      { subtotal: 59.97, discount: 0, serviceFee: 10.8, fulfillmentFee: 0, total: 70.77 },
      [
        ['Tickets (3 × $19.99)', '$59.97'],
        ['Service Fee', '$10.80'],
        ['Total', '$70.77'],
      ],
    ],
  ])('%j', (input, amounts, lines) => {
    const quote = quoteCart(input);
    expect(quote).toMatchObject(amounts);
    expect(quote.lineItems.map((l) => [l.key, l.value])).toEqual(lines);
  });

  it('gives the Service Fee line a dollar-prefixed amount with thousands separators (RULES 3.5, 3.6)', () => {
    const fee = quoteCart({ pricePerTicket: 4999.99, quantity: 10, deliveryMethod: 'eticket' }).lineItems.find(
      (l) => l.key === 'Service Fee',
    );
    expect(fee?.value).toBe('$9,000');
    for (const price of [0.5, 12.34, 99.99, 812.37]) {
      const line = quoteCart({ pricePerTicket: price, quantity: 3, deliveryMethod: 'eticket' }).lineItems.find(
        (l) => l.key === 'Service Fee',
      );
      expect(line?.value).toMatch(/^\$\d{1,3}(,\d{3})*(\.\d{2})?$/);
    }
  });

  it('takes FF20 off the ticket subtotal only (RULES 3.4: × 0.8)', () => {
    const plain = quoteCart({ pricePerTicket: 100, quantity: 2, deliveryMethod: 'physical_mail' });
    const promo = quoteCart({ pricePerTicket: 100, quantity: 2, deliveryMethod: 'physical_mail', promoCode: 'FF20' });
    expect(promo.subtotal - promo.discount).toBe(plain.subtotal * FF20_DISCOUNT_FACTOR);
    expect(promo.fulfillmentFee).toBe(plain.fulfillmentFee);
    expect(promo.serviceFee).toBe(28.8);
    expect(promo.promoCode).toBe('FF20');
    expect(plain.promoCode).toBeNull();
  });

  it('refuses an unknown promo code with a typed 400 error', () => {
    expect(() =>
      quoteCart({ pricePerTicket: 10, quantity: 1, deliveryMethod: 'eticket', promoCode: 'FREE100' }),
    ).toThrow(PromoCodeError);
    const err = (() => {
      try {
        normalizePromoCode(' FF21 ');
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(PromoCodeError);
    expect(err).toMatchObject({ status: 400, code: 'invalid_promo_code', promoCode: 'FF21' });
    expect(normalizePromoCode('   ')).toBeNull();
    expect(normalizePromoCode(undefined)).toBeNull();
  });

  it.each([0, -1, 1.5, NaN])('refuses a quantity of %d', (quantity) => {
    expect(() => quoteCart({ pricePerTicket: 10, quantity, deliveryMethod: 'eticket' })).toThrow(RangeError);
  });

  it('rounds to whole cents, half up, with no float drift', () => {
    expect(quoteCart({ pricePerTicket: 0.25, quantity: 1, deliveryMethod: 'eticket' }).serviceFee).toBe(0.05);
    expect(quoteCart({ pricePerTicket: 0.1, quantity: 3, deliveryMethod: 'eticket' }).total).toBe(0.36);
    expect(quoteCart({ pricePerTicket: 0.01, quantity: 1, deliveryMethod: 'eticket', promoCode: 'FF20' }).total).toBe(
      0.01,
    );
  });

  it('adds up: total = subtotal − discount + fees, in cents and in the line items (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000_000 }),
        fc.integer({ min: 1, max: 20 }),
        fc.constantFrom(...DELIVERY_METHODS),
        fc.constantFrom(undefined, 'FF20', 'ff20'),
        (priceCents, quantity, deliveryMethod, promoCode) => {
          const q = quoteCart({ pricePerTicket: priceCents / 100, quantity, deliveryMethod, promoCode });
          const c = q.cents;
          for (const v of Object.values(c)) expect(Number.isInteger(v)).toBe(true);
          expect(c.subtotal).toBe(priceCents * quantity);
          expect(c.total).toBe(c.subtotal - c.discount + c.serviceFee + c.fulfillmentFee);
          expect(q.total).toBe(c.total / 100);
          expect(Math.abs(c.serviceFee - (c.subtotal - c.discount) * SERVICE_FEE_RATE)).toBeLessThanOrEqual(
            quantity / 2 + 1e-6,
          );
          const lines = new Map(q.lineItems.map((l) => [l.key, money(l.value)]));
          const parts = q.lineItems.filter((l) => l.key !== 'Total').reduce((s, l) => s + money(l.value), 0);
          expect(parts).toBe(lines.get('Total'));
          if (!promoCode)
            expect(c.total).toBe(
              (Math.round(allInPrice(priceCents / 100) * 100) + Math.round(FULFILLMENT_FEES[deliveryMethod] * 100)) *
                quantity,
            );
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('formatMoney', () => {
  it.each<[number, string]>([
    [12.34, '$12.34'],
    [1234.5, '$1,234.50'],
    [1_000_000, '$1,000,000'],
    [-40, '-$40'],
  ])('%d → %s', (n, text) => {
    expect(formatMoney(n)).toBe(text);
  });
});
