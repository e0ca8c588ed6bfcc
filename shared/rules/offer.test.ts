import { describe, expect, it } from 'vitest';
import { buyableQuantities, cheapestOffer, offerQuantity } from './offer.js';

const listing = (id: number, price: number, splits: number[]) => ({ id, price, splits });

describe('the offer every "From" price names (RULES 3.9, 8.1)', () => {
  it('keeps the quantities one shopper may take of an event (at most 8)', () => {
    expect(buyableQuantities([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12])).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(buyableQuantities([10, 12])).toEqual([]);
  });

  it('is the cheapest listing that sells a quantity a shopper may buy', () => {
    const offers = [listing(1, 90, [10, 12]), listing(2, 120, [1, 3]), listing(3, 100, [])];
    const offer = cheapestOffer(offers, (l) => l.price)!;
    // The $90 group sells only more than one shopper may take, and the $100 one has nothing a buyer may take.
    expect(offer.listing.id).toBe(2);
    expect(offer.price).toBe(120);
    expect(offer.quantities).toEqual([1, 3]);
  });

  it('is none when nothing can be bought', () => {
    expect(cheapestOffer([listing(1, 90, [])], (l) => l.price)).toBeUndefined();
    expect(cheapestOffer([], () => 1)).toBeUndefined();
  });

  it('breaks a tie on price by the lower id', () => {
    expect(cheapestOffer([listing(7, 50, [2]), listing(3, 50, [2])], (l) => l.price)!.listing.id).toBe(3);
  });

  it('shows the offer at the quantity asked for when it sells it, else at the nearest it sells', () => {
    expect(offerQuantity([1, 2, 4], 2)).toBe(2);
    expect(offerQuantity([1, 3], 2)).toBe(1);
    expect(offerQuantity([4, 6], 2)).toBe(4);
    expect(offerQuantity([1, 3, 5], 4)).toBe(3);
  });
});
