import type { Logger } from '../../shared/logger.js';
import { repeat } from '../background/repeat.js';
import { AppError } from '../http/errors.js';
import type { SqlTx } from '../store/sql.js';
import type { PaymentProvider } from './domain/payments.js';
import type { RefundReasonCode, RefundRequester } from './domain/refunds.js';
import type { PaymentStore } from './payment-store.js';
import type { RefundRequest, RefundRow, RefundStore } from './refund-store.js';
import type { OrderRow } from './store-rows.js';

/** How often each node looks for refunds to make. */
const REFUND_TICK_MS = 1_000;
/** The first wait after a processor that did not answer; doubled per attempt up to REFUND_RETRY_MAX_MS. */
const REFUND_RETRY_BASE_MS = 2_000;
const REFUND_RETRY_MAX_MS = 5 * 60_000;
/** How long a refund waits for its payment's capture (the housekeeping captures within seconds). */
const AWAIT_CAPTURE_MS = 2_000;

/**
 * What is told of a refund the processor has made (an email): read first (`prepare`, outside any transaction: the
 * catalog), then written inside the transaction that records the refund.
 */
export interface RefundNotice {
  prepare(orderId: string): Promise<unknown>;
  write(tx: SqlTx, refund: RefundRow, order: OrderRow, prepared: unknown): Promise<void>;
}

export interface RefundServiceOptions {
  refunds: RefundStore;
  payments: PaymentStore;
  processor: PaymentProvider;
  logger: Logger;
  now: () => Date;
  /** Tells the buyer (set once the mail room is there). */
  notice?: RefundNotice;
}

/**
 * Money back to buyers (RULES 19.1, 19.3): refunds are recorded first (`RefundStore.request`), then returned
 * through the processor by whichever node takes them, each under its own id as the processor's idempotency key:
 * a node that stops between the processor's answer and our record leaves a refund that the next attempt finishes
 * (the processor answers the same refund again), never one paid twice.
 */
export class RefundService {
  private notice: RefundNotice | undefined;

  constructor(private readonly options: RefundServiceOptions) {
    this.notice = options.notice;
  }

  /** Sets what the buyer is told once a refund is made. */
  tellBuyersWith(notice: RefundNotice): void {
    this.notice = notice;
  }

  /** Records a refund (see RefundStore.request); it is made on the next tick of any node. */
  request(input: Omit<RefundRequest, 'now'>): Promise<RefundRow | null> {
    return this.options.refunds.request({ ...input, now: this.options.now() });
  }

  /**
   * Asks for the full refund of every charged order of a cancelled event (RULES 19.1); each order in its own
   * transaction, so a node stopped half-way leaves the rest to the next pass, and a second pass (any node) adds
   * nothing. The number of refunds recorded.
   */
  async refundEvent(
    eventId: number,
    reason: RefundReasonCode = 'event_cancelled',
    by: { note: string; requestedBy: RefundRequester } = { note: '', requestedBy: 'system' },
  ): Promise<number> {
    let recorded = 0;
    const seen = new Set<string>();
    for (;;) {
      const ids = (await this.options.refunds.ordersToRefund(eventId)).filter((id) => !seen.has(id));
      if (ids.length === 0) return recorded;
      for (const orderId of ids) {
        seen.add(orderId);
        try {
          if (await this.request({ orderId, reason, ...by })) recorded++;
        } catch (err) {
          if (!(err instanceof AppError)) throw err;
          // An order the rules refuse (say, refunded in part to nothing left) stays as it is, and says why.
          this.options.logger.error({ err, order: orderId, event: eventId }, 'order of a cancelled event not refunded');
        }
      }
    }
  }

  /** Makes every refund that is due; one refund's failure does not stop the others. */
  async tick(): Promise<number> {
    const due = await this.options.refunds.claimDue(this.options.now());
    let made = 0;
    for (const refund of due) {
      try {
        if (await this.make(refund)) made++;
      } catch (err) {
        // The store went away between steps: the lease runs out and any node takes the refund again.
        this.options.logger.warn({ err, refund: refund.id }, 'refund not finished; retried');
      }
    }
    return made;
  }

  /** Runs `tick` every second until stopped. */
  start(intervalMs = REFUND_TICK_MS): () => void {
    return repeat(
      () => this.tick(),
      intervalMs,
      (err) => this.options.logger.warn({ err }, 'refunds failed; retrying'),
    );
  }

  /** Returns one refund's money through the processor, and records it; true when this call recorded it. */
  private async make(refund: RefundRow): Promise<boolean> {
    const { payments, processor, refunds, logger } = this.options;
    const log = { refund: refund.id, order: refund.order_id, amountCents: refund.amount_cents, reason: refund.reason };
    const payment = await payments.paymentOf(refund.payment_id);
    if (payment?.status === 'authorized' || payment?.status === 'authorizing') {
      await refunds.retryLater(refund.id, 'waiting for the payment to be captured', this.later(AWAIT_CAPTURE_MS));
      return false;
    }
    if (!payment || payment.status !== 'captured' || !payment.authorization_id) {
      if (await refunds.fail(refund.id, `nothing to refund: the payment is ${payment?.status ?? 'missing'}`))
        logger.error(log, 'refund failed: its payment was never captured');
      return false;
    }
    let result;
    try {
      result = await processor.refund({
        chargeId: payment.authorization_id,
        amountCents: refund.amount_cents,
        idempotencyKey: refund.id,
      });
    } catch (err) {
      const wait = Math.min(REFUND_RETRY_BASE_MS * 2 ** Math.max(0, refund.attempts - 1), REFUND_RETRY_MAX_MS);
      logger.warn({ err, ...log }, 'payment processor did not answer a refund; retried');
      await refunds.retryLater(refund.id, 'the payment processor did not answer', this.later(wait));
      return false;
    }
    if (result.status === 'error') {
      if (await refunds.fail(refund.id, `the processor refused the refund: ${result.reason}`))
        logger.error({ ...log, result }, 'refund refused by the payment processor');
      return false;
    }
    const notice = this.notice;
    const prepared = await notice?.prepare(refund.order_id);
    const recorded = await refunds.complete(
      refund.id,
      result.refundId,
      this.options.now(),
      notice ? (tx, made, order) => notice.write(tx, made, order, prepared) : undefined,
    );
    if (recorded) logger.info({ ...log, processorRefund: result.refundId }, 'refund made');
    return recorded;
  }

  private later(ms: number): Date {
    return new Date(this.options.now().getTime() + ms);
  }
}
