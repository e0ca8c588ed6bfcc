import { z } from 'zod';
import { AppError } from '../http/errors.js';
import type { PaymentProvider } from './domain/payments.js';
import { MAX_REFUND_NOTE_LENGTH } from './domain/refunds.js';
import type { RefundRow, RefundStore } from './refund-store.js';
import type { RefundService } from './refund-service.js';
import { stored } from './store-unavailable.js';

/** An operator's refund (RULES 19.3): the whole of what is left, or an amount in dollars and cents, with a reason. */
export const OperatorRefundSchema = z.object({
  amount: z
    .number({ error: 'amount must be a number of dollars, such as 12.50' })
    .positive('amount must be more than $0')
    .max(1_000_000, 'amount must be at most $1,000,000')
    .refine((n) => Math.abs(Math.round(n * 100) - n * 100) < 1e-6, 'amount must be whole cents, such as 12.50')
    .optional(),
  reason: z
    .string({ error: 'reason is required: say why the money goes back' })
    .trim()
    .min(3, 'reason is required: say why the money goes back (at least 3 characters)')
    .max(MAX_REFUND_NOTE_LENGTH, `reason must be at most ${MAX_REFUND_NOTE_LENGTH} characters`),
});
export type OperatorRefund = z.infer<typeof OperatorRefundSchema>;

export const ORDER_ID = /^ORD-[A-Z0-9]{10}$/;

/** One event's money, by our records and by the processor's (RULES 19.5). */
export interface EventMoney {
  eventId: number;
  orders: number;
  chargedCents: number;
  refundedCents: number;
  /** Refunds recorded and not yet made. */
  pendingCents: number;
  netCents: number;
  failedRefunds: number;
  processor: { chargedCents: number; refundedCents: number };
  /** Whether both records say the same. */
  agrees: boolean;
  /** The charges on which they differ, with both sides. */
  mismatches: { orderId: string; chargeId: string; ours: string; processor: string }[];
}

export interface OrderAdminOptions {
  refunds: RefundService;
  store: RefundStore;
  processor: PaymentProvider;
}

/** What an operator does with orders after the sale: refunds and reconciliation. */
export class OrderAdmin {
  constructor(private readonly options: OrderAdminOptions) {}

  /** Records an operator's refund of an order; it is made on the next tick of any node. */
  async refund(orderId: string, input: OperatorRefund): Promise<RefundRow> {
    if (!ORDER_ID.test(orderId))
      throw new AppError(400, 'invalid_order', 'order must be an order id such as ORD-AB12CD34EF');
    const row = await stored('order', () =>
      this.options.refunds.request({
        orderId,
        amountCents: input.amount === undefined ? undefined : Math.round(input.amount * 100),
        reason: 'operator',
        note: input.reason,
        requestedBy: 'operator',
      }),
    );
    return row!;
  }

  /**
   * Refunds every charged order of an event in full, with the operator's reason (an event called off before the
   * catalog says so); the number of refunds recorded.
   */
  refundEvent(eventId: number, reason: string): Promise<number> {
    return stored('order', () =>
      this.options.refunds.refundEvent(eventId, 'operator', { note: reason, requestedBy: 'operator' }),
    );
  }

  /** Makes the refunds that are due now (a command line that cannot wait for a node's next tick). */
  makeDue(): Promise<number> {
    return this.options.refunds.tick();
  }

  /** An order's refunds, newest last. */
  refundsOf(orderId: string): Promise<RefundRow[]> {
    return stored('order', () => this.options.store.ofOrder(orderId));
  }

  /**
   * Per event: charged, refunded and net as our records have them, each captured charge compared with the
   * processor's own record of it (what it captured and refunded).
   */
  async reconcile(eventId?: number): Promise<EventMoney[]> {
    const charges = await stored('order', () => this.options.store.ledger(eventId));
    const byEvent = new Map<number, EventMoney>();
    for (const c of charges) {
      let e = byEvent.get(c.eventId);
      if (!e) {
        e = {
          eventId: c.eventId,
          orders: 0,
          chargedCents: 0,
          refundedCents: 0,
          pendingCents: 0,
          netCents: 0,
          failedRefunds: 0,
          processor: { chargedCents: 0, refundedCents: 0 },
          agrees: true,
          mismatches: [],
        };
        byEvent.set(c.eventId, e);
      }
      e.orders++;
      e.chargedCents += c.chargedCents;
      e.refundedCents += c.refundedCents;
      e.pendingCents += c.pendingCents;
      e.failedRefunds += c.failedRefunds;
      e.netCents = e.chargedCents - e.refundedCents;
      const theirs = await this.options.processor.charge(c.chargeId);
      const captured = theirs?.status === 'captured' ? theirs.amountCents : 0;
      const refunded = theirs?.refunds.reduce((sum, r) => sum + r.amountCents, 0) ?? 0;
      e.processor.chargedCents += captured;
      e.processor.refundedCents += refunded;
      if (captured !== c.chargedCents || refunded !== c.refundedCents) {
        e.agrees = false;
        e.mismatches.push({
          orderId: c.orderId,
          chargeId: c.chargeId,
          ours: `charged ${c.chargedCents}, refunded ${c.refundedCents}`,
          processor: theirs ? `captured ${captured}, refunded ${refunded}` : 'no such charge',
        });
      }
    }
    return [...byEvent.values()];
  }
}
