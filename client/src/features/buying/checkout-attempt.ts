import type { CheckoutRequest, Order } from '../../../../shared/schemas/commerce.js';
import { RETRY_DELAYS_MS, sendOnce, type KeyedDeps } from './keyed-attempt.js';

/**
 * One checkout attempt, sent exactly once however often it is retried: its `Idempotency-Key` is kept for the cart
 * until the server gives a definite answer (keyed-attempt.ts), so a lost answer, a double click or a retry after
 * the network came back gets the order already made instead of charging again.
 */
const KEY_PREFIX = 'checkout-attempt:';
/** Pauses before retrying an answer that may go differently in a moment (network, 503, the first try still running). */
export const CHECKOUT_RETRY_DELAYS_MS = RETRY_DELAYS_MS;

export interface AttemptDeps extends KeyedDeps {
  send: (request: CheckoutRequest, idempotencyKey: string) => Promise<Order>;
}

export function placeOrder(request: CheckoutRequest, deps: AttemptDeps): Promise<Order> {
  return sendOnce(KEY_PREFIX + request.cartId, (key) => deps.send(request, key), deps);
}
