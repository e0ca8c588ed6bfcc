import { BuyingApiError } from './buying-api.js';

/**
 * One request sent exactly once however often it is retried (RULES 10.6): it carries an `Idempotency-Key` that is
 * kept under a slot (in this tab's sessionStorage, so the back button and a reload keep it too) until the server
 * gives a definite answer. A lost answer, a double click or a retry after the network came back reuses the key,
 * and the server answers with what it already did instead of doing it again.
 */
/** Pauses before retrying an answer that may go differently in a moment (network, 503, the first try still running). */
export const RETRY_DELAYS_MS = [1_000, 2_000, 4_000] as const;

export interface KeyedDeps {
  storage?: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null;
  sleep?: (ms: number) => Promise<void>;
  newKey?: () => string;
}

function sessionStore(): KeyedDeps['storage'] {
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

/** Sends `send` under the key kept in `slot` (a new one when none is), retrying what is not definite. */
export async function sendOnce<T>(
  slot: string,
  send: (idempotencyKey: string) => Promise<T>,
  deps: KeyedDeps,
): Promise<T> {
  const storage = deps.storage === undefined ? sessionStore() : deps.storage;
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const newKey = deps.newKey ?? (() => crypto.randomUUID());
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
      const answer = await send(key);
      remember(null);
      return answer;
    } catch (err) {
      // The kept key went with other details (another card after a lost answer): a new attempt, once.
      if (err instanceof BuyingApiError && err.status === 422 && err.code === 'idempotency_key_reused' && !renewed) {
        renewed = true;
        key = newKey();
        remember(key);
        continue;
      }
      if (transient(err) && retry < RETRY_DELAYS_MS.length) {
        await sleep(RETRY_DELAYS_MS[retry]!);
        continue;
      }
      // A definite answer ends the attempt; a transient one keeps its key for the shopper's own retry.
      if (!transient(err)) remember(null);
      throw err;
    }
  }
}
