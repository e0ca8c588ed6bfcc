import { randomUUID } from 'node:crypto';
import type { OrderStatus } from '../../shared/schemas/commerce.js';
import { AppError } from '../http/errors.js';
import type { Sql, SqlTx } from '../store/sql.js';
import { canTransition } from './domain/order-lifecycle.js';
import {
  refundAmount,
  refundedNote,
  refundRequestedNote,
  type RefundReasonCode,
  type RefundRequester,
} from './domain/refunds.js';
import { iso, noteOrder, num, orderRow, type OrderRow } from './store-rows.js';

export interface RefundRow {
  /** Ours, and the processor's idempotency key for this refund. */
  id: string;
  order_id: string;
  payment_id: string;
  amount_cents: number;
  /** The refund that leaves nothing of the charge: the order is called off with it. */
  full_refund: boolean;
  reason: RefundReasonCode;
  note: string;
  requested_by: RefundRequester;
  status: 'pending' | 'refunded' | 'failed';
  processor_refund_id: string | null;
  last_error: string | null;
  attempts: number;
  next_attempt_at: string;
  created_at: string;
  refunded_at: string | null;
}

/** What an order's money stands at, as a refund request sees it under the order's lock. */
export interface OrderMoney {
  order: OrderRow;
  /** The payment the money was taken with, when it was (captured, or authorized with its capture under way). */
  payment: { id: string; status: string; amount_cents: number } | null;
  /** Refunded or on its way back (failed refunds excluded). */
  refundedCents: number;
  /** Whether a full refund is already asked for. */
  closing: boolean;
  /** The end of the latest refund window a change of the event opened, if any (RULES 19.2). */
  windowUntil: string | null;
}

export interface RefundRequest {
  orderId: string;
  /** Cents asked for; the whole of what is left when absent. */
  amountCents?: number;
  reason: RefundReasonCode;
  note: string;
  requestedBy: RefundRequester;
  now: Date;
  /** The policy: refuses (throws an AppError) a request the requester may not make. */
  check?: (money: OrderMoney) => void;
}

/** Statuses from which a full refund calls the order off at once (its tickets void; RULES 19.1). */
const CALLED_OFF_FROM: readonly OrderStatus[] = ['pending_seller_confirmation', 'confirmed', 'delivered'];
/** Statuses whose orders may still get money back. */
const REFUNDABLE: readonly OrderStatus[] = [...CALLED_OFF_FROM, 'cancelled', 'rejected', 'completed'];

/** How long a refund a node took stays its own before another node may try it (the processor call is idempotent). */
const REFUND_LEASE_MS = 30_000;

/**
 * Refunds in SQL: requested under the order's row lock (so two requests, on any node, never add up to more than
 * was charged, and an order gets one full refund), taken by one node at a time for a lease, and completed in one
 * transaction with the order's move and whatever must be told of it.
 */
export class RefundStore {
  constructor(readonly sql: Sql) {}

  /**
   * Records a refund of an order: `null` when there is nothing to do (a full refund of an order already being
   * refunded in full, or of one never charged, for the system's requests), else the refund. Refused requests
   * throw a 4xx AppError naming why.
   */
  request(input: RefundRequest): Promise<RefundRow | null> {
    return this.sql.transaction(async (tx) => {
      const money = await orderMoney(tx, input.orderId);
      if (!money) throw new AppError(404, 'not_found', `There is no order ${input.orderId}`);
      input.check?.(money);
      const { order } = money;
      if (input.amountCents === undefined && (money.closing || !money.payment)) {
        if (input.requestedBy === 'system') return null;
        throw new AppError(
          409,
          money.closing ? 'refund_in_progress' : 'not_charged',
          money.closing ? 'This order is already being refunded in full' : 'This order was never charged',
        );
      }
      if (!money.payment) throw new AppError(409, 'not_charged', 'This order was never charged');
      if (!REFUNDABLE.includes(order.status))
        throw new AppError(409, 'not_refundable', `An order that is ${order.status} cannot be refunded`);
      const amount = refundAmount({
        chargedCents: money.payment.amount_cents,
        refundedCents: money.refundedCents,
        requestedCents: input.amountCents,
      });
      if (!amount.ok) throw new AppError(409, amount.code, amount.message);
      if (amount.closesOrder && order.status === 'completed')
        throw new AppError(
          409,
          'not_refundable',
          'A completed order can be refunded in part only: the event took place and its tickets were used or could be',
        );
      const id = `rf_${randomUUID()}`;
      const at = input.now.toISOString();
      const [row] = await tx.query(
        `INSERT INTO refunds (id, order_id, payment_id, amount_cents, full_refund, reason, note, requested_by, status,
                              next_attempt_at, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'pending', $9, $9) RETURNING *`,
        [
          id,
          order.id,
          money.payment.id,
          amount.amountCents,
          amount.closesOrder,
          input.reason,
          input.note,
          input.requestedBy,
          at,
        ],
      );
      const text = refundRequestedNote(input.reason, amount.amountCents, input.note);
      if (amount.closesOrder && CALLED_OFF_FROM.includes(order.status))
        await moveOrder(tx, order.id, order.status, 'cancelled', at, text);
      else await noteOrder(tx, order.id, order.status, at, text);
      return refundRow(row!);
    });
  }

  /** Orders of an event that may still need a full refund: charged, and no full refund asked for yet. */
  async ordersToRefund(eventId: number, limit = 1_000): Promise<string[]> {
    const rows = await this.sql.query(
      `SELECT o.id FROM orders o
       WHERE o.event_id = $1 AND o.status = ANY ($2)
         AND EXISTS (SELECT 1 FROM payments p WHERE p.order_id = o.id AND p.status IN ('authorized', 'captured'))
         AND NOT EXISTS (SELECT 1 FROM refunds r WHERE r.order_id = o.id AND r.full_refund AND r.status <> 'failed')
       ORDER BY o.created_at LIMIT $3`,
      [eventId, REFUNDABLE.filter((s) => s !== 'completed'), limit],
    );
    return rows.map((r) => String(r.id));
  }

  /** Takes due refunds for this node for a lease (others skip the rows while it holds them). */
  async claimDue(now: Date, limit = 50): Promise<RefundRow[]> {
    const rows = await this.sql.query(
      `UPDATE refunds SET next_attempt_at = $2, attempts = attempts + 1
       WHERE id IN (SELECT id FROM refunds WHERE status = 'pending' AND next_attempt_at <= $1
                    ORDER BY next_attempt_at LIMIT $3 FOR UPDATE SKIP LOCKED)
       RETURNING *`,
      [now.toISOString(), new Date(now.getTime() + REFUND_LEASE_MS).toISOString(), limit],
    );
    return rows.map(refundRow);
  }

  /**
   * Marks a refund done with the processor's id: once, whichever node gets here first. A closing refund moves
   * the order to `refunded`; `then` runs in the same transaction (what the buyer must be told). False when
   * another node had already marked it.
   */
  complete(
    id: string,
    processorRefundId: string,
    now: Date,
    then?: (tx: SqlTx, refund: RefundRow, order: OrderRow) => Promise<void>,
  ): Promise<boolean> {
    return this.sql.transaction(async (tx) => {
      const [marked] = await tx.query(
        `UPDATE refunds SET status = 'refunded', processor_refund_id = $2, refunded_at = $3, last_error = NULL
         WHERE id = $1 AND status = 'pending' RETURNING *`,
        [id, processorRefundId, now.toISOString()],
      );
      if (!marked) return false;
      const refund = refundRow(marked);
      const [o] = await tx.query('SELECT * FROM orders WHERE id = $1 FOR UPDATE', [refund.order_id]);
      const order = orderRow(o!);
      const text = refundedNote(refund.amount_cents, refund.full_refund);
      if (refund.full_refund && canTransition(order.status, 'refunded'))
        await moveOrder(tx, order.id, order.status, 'refunded', now.toISOString(), text);
      else await noteOrder(tx, order.id, order.status, now.toISOString(), text);
      await then?.(tx, refund, { ...order, status: refund.full_refund ? 'refunded' : order.status });
      return true;
    });
  }

  /** Puts a refund back for a later attempt, saying why this one did not go through. */
  async retryLater(id: string, error: string, at: Date): Promise<void> {
    await this.sql.query(
      "UPDATE refunds SET next_attempt_at = $2, last_error = $3 WHERE id = $1 AND status = 'pending'",
      [id, at.toISOString(), error],
    );
  }

  /** A refund the processor refused for good: kept, with why, for an operator (reconcile shows it). */
  async fail(id: string, error: string): Promise<boolean> {
    const rows = await this.sql.query(
      "UPDATE refunds SET status = 'failed', last_error = $2 WHERE id = $1 AND status = 'pending' RETURNING id",
      [id, error],
    );
    return rows.length > 0;
  }

  /** The refunds of an order, oldest first; an order there is not is a 404, as a refund of it is. */
  async ofOrder(orderId: string): Promise<RefundRow[]> {
    const rows = await this.sql.query(
      'SELECT r.* FROM orders o LEFT JOIN refunds r ON r.order_id = o.id WHERE o.id = $1 ORDER BY r.created_at, r.id',
      [orderId],
    );
    if (rows.length === 0) throw new AppError(404, 'not_found', `There is no order ${orderId}`);
    return rows.filter((r) => r.id !== null).map(refundRow);
  }

  /** The end of the latest refund window an event change opened for this order, if any. */
  windowOf(orderId: string): Promise<string | null> {
    return windowEnd(this.sql, orderId);
  }

  /**
   * Per event, the money as our records have it: charged (captured payments of its orders), refunded (refunds the
   * processor made) and still on its way; with each captured charge's processor id and our refunds' total, for
   * checking against the processor's records.
   */
  async ledger(eventId?: number): Promise<LedgerCharge[]> {
    const rows = await this.sql.query(
      `SELECT o.event_id, o.id AS order_id, p.authorization_id, p.amount_cents,
              coalesce(sum(r.amount_cents) FILTER (WHERE r.status = 'refunded'), 0) AS refunded_cents,
              coalesce(sum(r.amount_cents) FILTER (WHERE r.status = 'pending'), 0) AS pending_cents,
              count(r.id) FILTER (WHERE r.status = 'failed') AS failed
       FROM orders o JOIN payments p ON p.order_id = o.id AND p.status = 'captured'
       LEFT JOIN refunds r ON r.order_id = o.id
       WHERE ($1::bigint IS NULL OR o.event_id = $1)
       GROUP BY o.event_id, o.id, p.authorization_id, p.amount_cents
       ORDER BY o.event_id, o.id`,
      [eventId ?? null],
    );
    return rows.map((r) => ({
      eventId: num(r.event_id),
      orderId: String(r.order_id),
      chargeId: String(r.authorization_id),
      chargedCents: num(r.amount_cents),
      refundedCents: num(r.refunded_cents),
      pendingCents: num(r.pending_cents),
      failedRefunds: num(r.failed),
    }));
  }
}

/** One captured charge in our records, for reconciliation. */
export interface LedgerCharge {
  eventId: number;
  orderId: string;
  chargeId: string;
  chargedCents: number;
  refundedCents: number;
  pendingCents: number;
  failedRefunds: number;
}

/** The end of the latest refund window a change of the event opened for this order (RULES 19.2), if any. */
async function windowEnd(q: SqlTx, orderId: string): Promise<string | null> {
  const [row] = await q.query('SELECT max(refund_until) AS until FROM order_notices WHERE order_id = $1', [orderId]);
  return row?.until == null ? null : iso(row.until);
}

async function orderMoney(tx: SqlTx, orderId: string): Promise<OrderMoney | null> {
  const [o] = await tx.query('SELECT * FROM orders WHERE id = $1 FOR UPDATE', [orderId]);
  if (!o) return null;
  const [payment] = await tx.query(
    "SELECT id, status, amount_cents FROM payments WHERE order_id = $1 AND status IN ('authorized', 'captured')",
    [orderId],
  );
  const [sums] = await tx.query(
    `SELECT coalesce(sum(amount_cents) FILTER (WHERE status <> 'failed'), 0) AS refunded,
            bool_or(full_refund AND status <> 'failed') AS closing
     FROM refunds WHERE order_id = $1`,
    [orderId],
  );
  return {
    order: orderRow(o),
    payment: payment
      ? { id: String(payment.id), status: String(payment.status), amount_cents: num(payment.amount_cents) }
      : null,
    refundedCents: num(sums?.refunded ?? 0),
    closing: sums?.closing === true,
    windowUntil: await windowEnd(tx, orderId),
  };
}

/** Moves a locked order and records the move. */
async function moveOrder(tx: SqlTx, id: string, from: OrderStatus, to: OrderStatus, at: string, note: string) {
  // Called off or refunded: nothing the housekeeping does moves it on any more.
  await tx.query('UPDATE orders SET status = $3, due_at = NULL WHERE id = $1 AND status = $2', [id, from, to]);
  await noteOrder(tx, id, to, at, note);
}

export function refundRow(r: Record<string, unknown>): RefundRow {
  return {
    id: String(r.id),
    order_id: String(r.order_id),
    payment_id: String(r.payment_id),
    amount_cents: num(r.amount_cents),
    full_refund: r.full_refund === true,
    reason: r.reason as RefundReasonCode,
    note: String(r.note),
    requested_by: r.requested_by as RefundRequester,
    status: r.status as RefundRow['status'],
    processor_refund_id: r.processor_refund_id == null ? null : String(r.processor_refund_id),
    last_error: r.last_error == null ? null : String(r.last_error),
    attempts: num(r.attempts),
    next_attempt_at: iso(r.next_attempt_at),
    created_at: iso(r.created_at),
    refunded_at: r.refunded_at == null ? null : iso(r.refunded_at),
  };
}
