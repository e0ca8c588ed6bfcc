import { describe, expect, it, vi } from 'vitest';
import type { CheckoutRequest, Order } from '../../../../shared/schemas/commerce.js';
import { BuyingApiError } from './buying-api.js';
import { CHECKOUT_RETRY_DELAYS_MS, placeOrder } from './checkout-attempt.js';

const request = { cartId: '11111111-1111-4111-8111-111111111111' } as CheckoutRequest;
const order = { id: 'ORD-ABCDEFGHJK' } as Order;

function memoryStorage() {
  const data = new Map<string, string>();
  return {
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
    removeItem: (k: string) => void data.delete(k),
    data,
  };
}

function deps(answers: (Order | Error)[]) {
  const keys: string[] = [];
  let n = 0;
  const storage = memoryStorage();
  return {
    keys,
    storage,
    sleep: vi.fn(async (_ms: number) => {}),
    newKey: () => `key-${++n}`,
    send: async (_r: CheckoutRequest, key: string) => {
      keys.push(key);
      const next = answers.shift();
      if (!next) throw new Error('no more answers');
      if (next instanceof Error) throw next;
      return next;
    },
  };
}

describe('placeOrder', () => {
  it('sends a retry after a lost answer with the same key, and forgets the key once the order is in', async () => {
    const d = deps([
      new TypeError('Failed to fetch'),
      new BuyingApiError(503, 'store_unavailable', 'later', []),
      order,
    ]);
    expect(await placeOrder(request, d)).toBe(order);
    expect(d.keys).toEqual(['key-1', 'key-1', 'key-1']);
    // One second, then two (the retry schedule is 1, 2 and 4 s).
    expect(CHECKOUT_RETRY_DELAYS_MS).toEqual([1_000, 2_000, 4_000]);
    expect(d.sleep.mock.calls.map(([ms]) => ms)).toEqual([1_000, 2_000]);
    expect(d.storage.data.size).toBe(0);
  });

  it('waits while the first request with the key still runs (409 idempotency_key_in_use)', async () => {
    const d = deps([new BuyingApiError(409, 'idempotency_key_in_use', 'still running', []), order]);
    expect(await placeOrder(request, d)).toBe(order);
    expect(d.keys).toEqual(['key-1', 'key-1']);
  });

  it('keeps the key across a page reload or the back button, until a definite answer', async () => {
    const d = deps([
      new TypeError('Failed to fetch'),
      new TypeError('Failed to fetch'),
      new TypeError('Failed to fetch'),
      new TypeError('Failed to fetch'),
    ]);
    await expect(placeOrder(request, d)).rejects.toThrow('Failed to fetch');
    expect(d.storage.data.get(`checkout-attempt:${request.cartId}`)).toBe('key-1');
    // The shopper comes back and pays again: the same attempt.
    const again = { ...d, send: async (_r: CheckoutRequest, key: string) => (d.keys.push(key), order) };
    expect(await placeOrder(request, again)).toBe(order);
    expect(d.keys.at(-1)).toBe('key-1');
  });

  it('starts a new attempt after a definite refusal, so another card gets a key of its own', async () => {
    const d = deps([new BuyingApiError(402, 'payment_declined', 'declined', [])]);
    await expect(placeOrder(request, d)).rejects.toMatchObject({ status: 402 });
    expect(d.storage.data.size).toBe(0);
    // The same page (same storage, same key source) pays again with another card.
    expect(await placeOrder(request, { ...d, send: async (_r, key) => (d.keys.push(key), order) })).toBe(order);
    expect(d.keys).toEqual(['key-1', 'key-2']);
  });

  it('makes one new key when the kept one went with other details, and does not loop', async () => {
    const reused = () => new BuyingApiError(422, 'idempotency_key_reused', 'other body', []);
    const d = deps([reused(), order]);
    expect(await placeOrder(request, d)).toBe(order);
    expect(d.keys).toEqual(['key-1', 'key-2']);
    const twice = deps([reused(), reused()]);
    await expect(placeOrder(request, twice)).rejects.toMatchObject({ status: 422 });
    expect(twice.keys).toHaveLength(2);
  });

  it('retries a proxy’s 502 with the same key, but takes the processor’s payment_error as definite', async () => {
    const d = deps([new BuyingApiError(502, 'http_error', '502 Bad Gateway', []), order]);
    expect(await placeOrder(request, d)).toBe(order);
    expect(d.keys).toEqual(['key-1', 'key-1']);
    const refused = deps([new BuyingApiError(502, 'payment_error', 'processing error', [])]);
    await expect(placeOrder(request, refused)).rejects.toMatchObject({ code: 'payment_error' });
    expect(refused.keys).toEqual(['key-1']);
    expect(refused.storage.data.size).toBe(0);
  });
});
