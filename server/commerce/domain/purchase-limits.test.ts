import { describe, expect, it } from 'vitest';
import {
  GUESTS_PER_ADDRESS,
  MAX_OPEN_CARTS,
  MAX_TICKETS_PER_EVENT,
  purchaseAllowance,
  purchaseLimitRefusal,
} from './purchase-limits.js';

const usage = (eventTickets: number, openCarts: number) => ({ eventTickets, openCarts });

describe('the fair-share limits (issue figures: 8 tickets per event, 3 open carts, per guest and per address)', () => {
  it('names its figures', () => {
    expect([MAX_TICKETS_PER_EVENT, MAX_OPEN_CARTS, GUESTS_PER_ADDRESS]).toEqual([8, 3, 4]);
  });

  it.each([
    ['a first cart of 8', 0, 0, 8, null],
    ['a ninth ticket', 8, 1, 1, 'ticket_limit'],
    ['6 held plus 2 more', 6, 1, 2, null],
    ['6 held plus 3 more', 6, 1, 3, 'ticket_limit'],
    ['a third open cart', 2, 2, 1, null],
    ['a fourth open cart', 2, 3, 1, 'cart_limit'],
  ])('per guest: %s → %s', (_case, tickets, carts, quantity, code) => {
    const refusal = purchaseLimitRefusal({ quantity, guest: usage(tickets, carts) });
    expect(refusal?.code ?? null).toBe(code);
    if (code) expect(refusal?.status).toBe(409);
  });

  it.each([
    ['31 tickets at the address plus 1', 31, 0, 1, null],
    ['32 tickets at the address plus 1', 32, 0, 1, 'ticket_limit'],
    ['11 open carts at the address', 0, 11, 1, null],
    ['12 open carts at the address', 0, 12, 1, 'cart_limit'],
  ])('per address, room for 4 guests: %s → %s', (_case, tickets, carts, quantity, code) => {
    const refusal = purchaseLimitRefusal({ quantity, guest: usage(0, 0), byAddress: usage(tickets, carts) });
    expect(refusal?.code ?? null).toBe(code);
  });

  it('says the rule and what is left, in the shopper’s words', () => {
    expect(purchaseLimitRefusal({ quantity: 4, guest: usage(6, 1) })).toMatchObject({
      message: 'You may hold or buy at most 8 tickets for one event; 6 are already held or bought, so at most 2 more',
      details: { limit: 8, alreadyHeldOrBought: 6, left: 2 },
    });
    expect(purchaseLimitRefusal({ quantity: 1, guest: usage(0, 3) })?.message).toBe(
      'You already have 3 open carts, the most allowed at once; check out or release one first',
    );
    expect(purchaseLimitRefusal({ quantity: 1, guest: usage(0, 0), byAddress: usage(32, 0) })?.message).toMatch(
      /^Shoppers on your network may hold or buy at most 32 tickets/,
    );
  });

  describe('the allowance said before checkout (RULES 8.1)', () => {
    it('is what is left of the shopper’s 8 and the network’s 32', () => {
      expect(purchaseAllowance({ eventId: 7, guest: usage(3, 1), byAddress: usage(3, 1) })).toEqual({
        eventId: 7,
        perShopper: { limit: 8, used: 3 },
        perNetwork: { limit: 32, used: 3 },
        left: 5,
        cartsLeft: 2,
      });
      // Others on the network have taken 30: two are left for this shopper, whatever their own share.
      expect(purchaseAllowance({ eventId: 7, guest: usage(0, 0), byAddress: usage(30, 4) }).left).toBe(2);
      // No cart left: nothing can be added just now.
      expect(purchaseAllowance({ eventId: 7, guest: usage(0, 3), byAddress: usage(0, 3) })).toMatchObject({
        left: 0,
        cartsLeft: 0,
      });
    });

    it('allows exactly the quantities the hold allows, for every usage', () => {
      for (let mine = 0; mine <= 9; mine++)
        for (let network = mine; network <= 33; network += 3)
          for (const carts of [0, 2, 3]) {
            const guest = usage(mine, carts);
            const byAddress = usage(network, carts + 1);
            const { left } = purchaseAllowance({ eventId: 1, guest, byAddress });
            for (let quantity = 1; quantity <= 10; quantity++)
              expect(
                purchaseLimitRefusal({ quantity, guest, byAddress }) === null,
                `${mine} ${network} ${carts} ${quantity}`,
              ).toBe(quantity <= left);
          }
    });
  });
});
