import type { Cart } from '../../../../shared/schemas/commerce.js';
import { sendOnce, type KeyedDeps } from './keyed-attempt.js';

/** What a shopper asks to hold: seats of a listing, with an accessible listing's companion seats (RULES 10.16). */
export interface CartRequest {
  listingId: number;
  quantity: number;
  companions: number;
}

export interface CartAttemptDeps extends KeyedDeps {
  send: (request: CartRequest, idempotencyKey: string) => Promise<Cart>;
}

const KEY_PREFIX = 'cart-attempt:';

/**
 * Holds tickets once however often the request is retried (RULES 10.6): a hold whose commit landed as the
 * connection broke is answered on the retry under the same key, rather than a second hold taking the shopper's
 * share. The key is kept per listing, quantity and companions until a definite answer.
 */
export function holdTickets(request: CartRequest, deps: CartAttemptDeps): Promise<Cart> {
  const slot = `${KEY_PREFIX}${request.listingId}:${request.quantity}:${request.companions}`;
  return sendOnce(slot, (key) => deps.send(request, key), deps);
}
