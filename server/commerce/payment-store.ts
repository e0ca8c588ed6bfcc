import type { Sql } from '../store/sql.js';
import { iso, num } from './store-rows.js';

/**
 * A payment's life. `authorizing` is written before the processor is asked, so an attempt that never finishes
 * (its node stopped, the processor did not answer, the order could not be written) is found and settled by any
 * node; `voiding` is a void under way. An authorization is only ever voided after its row moved from
 * `authorizing` to `voiding`, and an order only ever written while its row moves from `authorizing` to
 * `authorized`: the two conditional updates take the same row lock, so a void and a late commit can never both win.
 */
export type PaymentStatus =
  'authorizing' | 'authorized' | 'captured' | 'voiding' | 'voided' | 'failed' | 'capture_failed';

export interface PaymentRow {
  /** Ours, and the processor's idempotency key for the authorization. */
  id: string;
  hold_id: string;
  order_id: string | null;
  authorization_id: string | null;
  amount_cents: number;
  status: PaymentStatus;
  updated_at: string;
}

/** Payments in SQL: each a row written before the processor is asked, moved on by conditional updates. */
export class PaymentStore {
  constructor(readonly sql: Sql) {}

  /** Records that a checkout is about to ask the processor for an authorization. */
  async paymentIntent(input: { id: string; holdId: string; amountCents: number; now: Date }): Promise<void> {
    await this.sql.query(
      `INSERT INTO payments (id, hold_id, amount_cents, status, created_at, ` +
        `updated_at) VALUES ($1, $2, $3, 'authorizing', $4, $4)`,
      [input.id, input.holdId, input.amountCents, input.now.toISOString()],
    );
  }

  /** Moves a payment from one status to another; true when this call moved it. */
  async movePayment(id: string, from: PaymentStatus, to: PaymentStatus, now: Date): Promise<boolean> {
    const moved = await this.sql.query(
      'UPDATE payments SET status = $3, updated_at = $4 WHERE id = $1 AND status = $2 RETURNING id',
      [id, from, to, now.toISOString()],
    );
    return moved.length > 0;
  }

  /** Puts a payment at the back of the housekeeping's queue (a step that failed is tried again later). */
  async touchPayment(id: string, now: Date): Promise<void> {
    await this.sql.query('UPDATE payments SET updated_at = $2 WHERE id = $1', [id, now.toISOString()]);
  }

  async paymentOf(id: string): Promise<PaymentRow | null> {
    const rows = await this.sql.query('SELECT * FROM payments WHERE id = $1', [id]);
    return rows[0] ? paymentRow(rows[0]) : null;
  }

  /**
   * Payments the housekeeping should settle: authorized ones not yet captured, voids under way, and
   * authorizations asked for so long ago (`abandonedBefore`) that their checkout is over without an order.
   */
  async unsettledPayments(input: {
    settledBefore: Date;
    abandonedBefore: Date;
    limit?: number;
  }): Promise<PaymentRow[]> {
    const rows = await this.sql.query(
      `SELECT * FROM payments
       WHERE (status IN ('authorized', 'voiding') AND updated_at <= $1) OR (status = 'authorizing' AND updated_at <= $2)
       ORDER BY updated_at LIMIT $3`,
      [input.settledBefore.toISOString(), input.abandonedBefore.toISOString(), input.limit ?? 100],
    );
    return rows.map(paymentRow);
  }
}

function paymentRow(r: Record<string, unknown>): PaymentRow {
  return {
    id: String(r.id),
    hold_id: String(r.hold_id),
    order_id: r.order_id == null ? null : String(r.order_id),
    authorization_id: r.authorization_id == null ? null : String(r.authorization_id),
    amount_cents: num(r.amount_cents),
    status: r.status as PaymentStatus,
    updated_at: iso(r.updated_at),
  };
}
