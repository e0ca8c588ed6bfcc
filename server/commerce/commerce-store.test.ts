import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../http/errors.js';
import type { Sql } from '../store/sql.js';
import { TEST_STORES } from '../store/test-stores.js';
import { CommerceStore } from './commerce-store.js';

describe.each(TEST_STORES)('CommerceStore on $name', ({ open }) => {
  let sql: Sql;
  let store: CommerceStore;
  beforeAll(async () => {
    sql = await open();
    store = new CommerceStore(sql);
  });
  afterAll(() => sql.close());

  const now = new Date('2026-11-21T12:00:00Z');
  const later = (ms: number) => new Date(now.getTime() + ms);
  const hold = (listingId: number, quantity: number, guest = 'g', expiresAt = later(600_000)) =>
    store.createHold({ id: randomUUID(), guestId: guest, listing: { id: listingId, eventId: 1, listed: 2 }, quantity, pricePerTicketCents: 5000, now, expiresAt });

  it('gives 20 concurrent shoppers exactly the 2 last tickets, the rest a clear 409', async () => {
    const results = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => hold(1001, 1, `guest-${i}`)));
    const won = results.filter((r) => r.status === 'fulfilled');
    const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(won).toHaveLength(2);
    expect(lost).toHaveLength(18);
    for (const l of lost) {
      expect(l.reason).toBeInstanceOf(AppError);
      expect(l.reason).toMatchObject({ status: 409, code: 'not_enough_tickets' });
    }
    expect((await store.usage(1)).get(1001)).toEqual({ listed: 2, taken: 2 });
  });

  it('never sells more than listed when holds race to purchase', async () => {
    const a = await hold(1002, 2, 'a');
    await expect(hold(1002, 1, 'b')).rejects.toMatchObject({ status: 409 });
    const order = (id: string) => ({
      id, access_code_hash: 'x', status: 'pending_seller_confirmation' as const, subtotal_cents: 10000, discount_cents: 0, service_fee_cents: 1800,
      fulfillment_fee_cents: 0, total_cents: 11800, promo_code: null, email: 'a@b.co', billing: {}, payment_method: 'card', charge_id: 'ch_1',
    });
    const attempts = await Promise.allSettled([1, 2, 3].map((n) => store.purchase({ holdId: a.id, guestId: 'a', now, order: order(`ORD-${n}`), history: [] })));
    expect(attempts.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const rows = await sql.query<{ held: number; sold: number }>('SELECT held, sold FROM listing_inventory WHERE listing_id = 1002');
    expect(rows[0]).toEqual({ held: 0, sold: 2 });
  });

  it('releases an expired hold so the tickets can be held again', async () => {
    await hold(1003, 2, 'slow', later(1_000));
    await expect(hold(1003, 1, 'other')).rejects.toMatchObject({ status: 409 });
    const afterExpiry = new Date(now.getTime() + 2_000);
    const next = await store.createHold({ id: randomUUID(), guestId: 'other', listing: { id: 1003, eventId: 1, listed: 2 }, quantity: 2, pricePerTicketCents: 5000, now: afterExpiry, expiresAt: later(600_000) });
    expect(next.status).toBe('active');
  });

  it('refuses to purchase an expired hold, leaving no order', async () => {
    const h = await hold(1004, 1, 'late', later(1_000));
    await expect(
      store.purchase({ holdId: h.id, guestId: 'late', now: later(5_000), order: { id: 'ORD-LATE', access_code_hash: 'x', status: 'pending_seller_confirmation', subtotal_cents: 1, discount_cents: 0, service_fee_cents: 0, fulfillment_fee_cents: 0, total_cents: 1, promo_code: null, email: 'a@b.co', billing: {}, payment_method: 'card', charge_id: 'c' }, history: [] }),
    ).rejects.toMatchObject({ status: 410 });
    expect(await store.order('ORD-LATE')).toBeNull();
  });

  it('sweeps expired holds back on sale', async () => {
    await hold(1005, 2, 'gone', later(1_000));
    expect(await store.releaseExpired(later(10_000))).toBeGreaterThanOrEqual(2);
    expect((await store.usage(1)).get(1005)).toEqual({ listed: 2, taken: 0 });
  });
});
