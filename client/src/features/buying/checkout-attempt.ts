import type { CheckoutRequest, Order } from '../../../../shared/schemas/commerce.js';
import { BuyingApiError } from './buying-api.js';

/**
 * One checkout attempt, sent exactly once however often it is retried: it carries an `Idempotency-Key` that
 * is kept for the cart (in this tab's sessionStorage, so the back button and a reload keep it too) until the
 * server gives a definite answer. A lost answer, a double click or a retry after the network came back reuses
 * the key, and the server answers with the order it already made instead of charging again.
 */
const KEY_PREFIX = 'checkout-attempt:';
/** Pauses before retrying an answer that may go differently in a moment (network, 503, the first try still running). */
export const CHECKOUT_RETRY_DELAYS_MS = [1_000, 2_000, 4_000] as const;

export interface AttemptDeps {
  send: (request: CheckoutRequest, idempotencyKey: string) => Promise<Order>;
  storage?: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null;
  sleep?: (ms: number) => Promise<void>;
  newKey?: () => string;
}

function sessionStore(): AttemptDeps['storage'] {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    return null;
  }
}

/**
 * Worth sending again with the same key: nothing definite came back. The server's own 502 `payment_error` is
 * definite (the processor refused); any other 5xx (a proxy's 502, a node that died mid-way) is not.
 */
function transient(err: unknown): boolean {
  if (!(err instanceof BuyingApiError)) return true;
  if (err.status === 409) return err.code === 'idempotency_key_in_use';
  if (err.status === 502) return err.code !== 'payment_error';
  return err.status >= 500 || err.status === 429;
}

export async function placeOrder(request: CheckoutRequest, deps: AttemptDeps): Promise<Order> {
  const storage = deps.storage === undefined ? sessionStore() : deps.storage;
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const newKey = deps.newKey ?? (() => crypto.randomUUID());
  const slot = KEY_PREFIX + request.cartId;
  const remembered = (() => {
    try {
      return storage?.getItem(slot) ?? null;
    } catch {
      return null;
    }
  })();
  const remember = (key: string | null) => {
    try {
      if (key) storage?.setItem(slot, key);
      else storage?.removeItem(slot);
    } catch {
      // Private mode: the key lives for this page only.
    }
  };
  let key = remembered ?? newKey();
  remember(key);
  let renewed = false;
  for (let retry = 0; ; retry++) {
    try {
      const order = await deps.send(request, key);
      remember(null);
      return order;
    } catch (err) {
      // The kept key went with other details (another card after a lost answer): a new attempt, once.
      if (err instanceof BuyingApiError && err.status === 422 && err.code === 'idempotency_key_reused' && !renewed) {
        renewed = true;
        key = newKey();
        remember(key);
        continue;
      }
      if (transient(err) && retry < CHECKOUT_RETRY_DELAYS_MS.length) {
        await sleep(CHECKOUT_RETRY_DELAYS_MS[retry]!);
        continue;
      }
      // A definite answer ends the attempt; a transient one keeps its key for the shopper's own retry.
      if (!transient(err)) remember(null);
      throw err;
    }
  }
}
