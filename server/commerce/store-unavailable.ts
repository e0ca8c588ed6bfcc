import { AppError } from '../http/errors.js';
import { isStoreUnavailable } from '../store/store-errors.js';

/**
 * What a shopper is told when the order store cannot answer, by what they were doing: only a shopper who
 * may be holding tickets is told about a hold.
 */
export const STORE_UNAVAILABLE_MESSAGES = {
  listings: 'Ticket availability cannot be loaded for a moment; please try again shortly.',
  // Not "nothing was held": a hold whose commit landed as the connection broke may exist; a retry under the same
  // Idempotency-Key is answered with it (RULES 10.6), and without a key it runs out on its own.
  createCart: 'Tickets cannot be reserved for a moment, and nothing was charged. Please try again in a moment.',
  cart:
    'Your cart cannot be loaded for a moment; if you were holding tickets, ' +
    'they are still held. Please try again shortly.',
  releaseCart: 'Your cart cannot be released for a moment; it is released on its own when its hold ends.',
  checkout:
    'Orders cannot be placed for a moment. Your held tickets are kept and you ' +
    'have not been charged; please try again in a moment.',
  checkoutUnconfirmed:
    'Your order could not be confirmed just now. You are only charged for an ' +
    'order that is confirmed; please try again in a moment and you will not ' +
    'be charged twice.',
  order: 'Your order is safe, but it cannot be shown for a moment; please try again shortly.',
  purchaseLimits: 'How many more tickets you may buy cannot be checked for a moment; the limits still apply.',
  scan: 'Tickets cannot be checked for a moment; try the scan again shortly.',
  customerData: 'Your data cannot be read or changed for a moment; nothing was changed. Please try again shortly.',
} as const;

/** What a request was doing when it needed the store. */
export type StoreWork = keyof typeof STORE_UNAVAILABLE_MESSAGES;

/**
 * Runs store work; a store that does not answer is a 503 saying what it means for this request, never a
 * 500 (the error middleware logs it once, with the driver's reason as its cause).
 */
export async function stored<T>(what: StoreWork, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (!isStoreUnavailable(err)) throw err;
    throw Object.assign(new AppError(503, 'store_unavailable', STORE_UNAVAILABLE_MESSAGES[what]), { cause: err });
  }
}
