import { describe, expect, it, vi } from 'vitest';
import type { Cart } from '../../../../shared/schemas/commerce.js';
import { BuyingApiError } from './buying-api.js';
import { holdTickets, type CartRequest } from './cart-attempt.js';

const pair: CartRequest = { listingId: 11, quantity: 2, companions: 0 };
const held = { id: '11111111-1111-4111-8111-111111111111' } as Cart;

function deps(answers: (Cart | Error)[]) {
  const sent: { request: CartRequest; key: string }[] = [];
  let n = 0;
  const data = new Map<string, string>();
  return {
    sent,
    data,
    storage: {
      getItem: (k: string) => data.get(k) ?? null,
      setItem: (k: string, v: string) => void data.set(k, v),
      removeItem: (k: string) => void data.delete(k),
    },
    sleep: vi.fn(async (_ms: number) => {}),
    newKey: () => `key-${++n}`,
    send: async (request: CartRequest, key: string) => {
      sent.push({ request, key });
      const next = answers.shift();
      if (!next) throw new Error('no more answers');
      if (next instanceof Error) throw next;
      return next;
    },
  };
}

describe('holdTickets (RULES 10.6)', () => {
  it('retries a hold whose answer was lost (a 503) under the same key, and forgets the key once held', async () => {
    const d = deps([new BuyingApiError(503, 'store_unavailable', 'later', []), new TypeError('Failed to fetch'), held]);
    expect(await holdTickets(pair, d)).toBe(held);
    expect(d.sent.map((s) => s.key)).toEqual(['key-1', 'key-1', 'key-1']);
    expect(d.data.size).toBe(0);
  });

  it('keeps the key for the shopper’s own retry when no definite answer came, and uses it again', async () => {
    const lost = () => new BuyingApiError(503, 'store_unavailable', 'later', []);
    const d = deps([lost(), lost(), lost(), lost()]);
    await expect(holdTickets(pair, d)).rejects.toMatchObject({ status: 503 });
    expect(d.data.get('cart-attempt:11:2:0')).toBe('key-1');
    const again = { ...d, send: async (r: CartRequest, key: string) => (d.sent.push({ request: r, key }), held) };
    expect(await holdTickets(pair, again)).toBe(held);
    expect(d.sent.at(-1)!.key).toBe('key-1');
  });

  it('ends the attempt on a definite refusal, and asks for another quantity under a key of its own', async () => {
    const d = deps([new BuyingApiError(409, 'not_enough_tickets', 'Only 1 ticket is left', []), held]);
    await expect(holdTickets(pair, d)).rejects.toMatchObject({ code: 'not_enough_tickets' });
    expect(d.data.size).toBe(0);
    expect(await holdTickets({ ...pair, quantity: 1 }, d)).toBe(held);
    expect(d.sent.map((s) => s.key)).toEqual(['key-1', 'key-2']);
  });
});
