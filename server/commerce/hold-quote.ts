import { PromoCodeError, quoteCart, type CartQuote } from '../../shared/rules/pricing.js';
import { AppError } from '../http/errors.js';
import type { GeneratedListing } from './domain/listings.js';
import type { HoldRow } from './store-rows.js';

/** What a hold costs, at the price per ticket it was taken at; an unknown promo code is a 400 naming it. */
export function quoteHold(hold: HoldRow, listing: GeneratedListing, promoCode?: string | null): CartQuote {
  try {
    return quoteCart({
      pricePerTicket: hold.price_per_ticket_cents / 100,
      // RULES 10.16: a companion seat costs what a seat of the listing costs.
      quantity: hold.quantity + hold.companions,
      deliveryMethod: listing.deliveryMethod,
      promoCode,
    });
  } catch (err) {
    if (err instanceof PromoCodeError)
      throw new AppError(400, 'invalid_promo_code', `“${err.promoCode}” is not a valid promo code`, [
        { path: 'promoCode', message: 'This promo code is not valid' },
      ]);
    throw err;
  }
}
