import { describe, expect, it } from 'vitest';
import { MIGRATIONS, migrate } from './migrations.js';
import { TEST_STORES } from './test-stores.js';

const ONE_AUTHORIZATION_COLUMN = 15;

describe.each(TEST_STORES)("one column for a payment's authorization ($name)", ({ open }) => {
  it('keeps every order’s authorization on its payment, then drops orders.charge_id', async () => {
    const sql = await open(MIGRATIONS.filter((m) => m.id < ONE_AUTHORIZATION_COLUMN));
    try {
      const at = '2026-01-10T12:00:00.000Z';
      await sql.query(`INSERT INTO listing_inventory (listing_id, event_id, listed) VALUES (7001, 70, 10)`);
      for (const i of [0, 1, 2, 3])
        await sql.query(
          `INSERT INTO holds (id, guest_id, listing_id, event_id, quantity, price_per_ticket_cents, status,
             created_at, expires_at) VALUES ($1, 'g', 7001, 70, 1, 5000, 'purchased', $2, $2)`,
          [`00000000-0000-4000-8000-00000000000${i}`, at],
        );
      const order = (id: string, hold: number, charge: string, total = 5000) =>
        sql.query(
          `INSERT INTO orders (id, access_code_hash, guest_id, hold_id, event_id, listing_id, quantity, status,
             subtotal_cents, discount_cents, service_fee_cents, fulfillment_fee_cents, total_cents, email, billing,
             payment_method, charge_id, created_at)
           VALUES ($1, 'h', 'g', $2, 70, 7001, 1, 'confirmed', $4, 0, 0, 0, $4, 'a@b.co', '{}', 'card', $3, $5)`,
          [id, `00000000-0000-4000-8000-00000000000${hold}`, charge, total, at],
        );
      const payment = (id: string, hold: number, orderId: string, authorization: string | null) =>
        sql.query(
          `INSERT INTO payments (id, hold_id, order_id, authorization_id, amount_cents, status, created_at, updated_at)
           VALUES ($1, $2, $3, $4, 5000, 'captured', $5, $5)`,
          [id, `00000000-0000-4000-8000-00000000000${hold}`, orderId, authorization, at],
        );
      // Both columns agree; only the order has it; an order older than payments; an order of nothing to pay.
      await order('ORD-BOTH000000', 0, 'ch_both');
      await payment('pay_both', 0, 'ORD-BOTH000000', 'ch_both');
      await order('ORD-ORDERONLY', 1, 'ch_order_only');
      await payment('pay_order_only', 1, 'ORD-ORDERONLY', null);
      await order('ORD-NOPAYMENT', 2, 'ch_no_payment');
      await order('ORD-FREE000000', 3, 'ch_free', 0);

      expect(await migrate(sql)).toEqual(MIGRATIONS.filter((m) => m.id >= ONE_AUTHORIZATION_COLUMN).map((m) => m.id));
      const payments = await sql.query<{ id: string; order_id: string; authorization_id: string; status: string }>(
        'SELECT id, order_id, authorization_id, status, amount_cents FROM payments ORDER BY order_id',
      );
      expect(payments).toEqual([
        {
          id: 'pay_both',
          order_id: 'ORD-BOTH000000',
          authorization_id: 'ch_both',
          status: 'captured',
          amount_cents: 5000,
        },
        {
          id: 'pay_ORD-NOPAYMENT',
          order_id: 'ORD-NOPAYMENT',
          authorization_id: 'ch_no_payment',
          status: 'captured',
          amount_cents: 5000,
        },
        {
          id: 'pay_order_only',
          order_id: 'ORD-ORDERONLY',
          authorization_id: 'ch_order_only',
          status: 'captured',
          amount_cents: 5000,
        },
      ]);
      const columns = await sql.query<{ column_name: string }>(
        `SELECT column_name FROM information_schema.columns WHERE table_name = 'orders' AND column_name = 'charge_id'`,
      );
      expect(columns).toEqual([]);
    } finally {
      await sql.close();
    }
  });
});
