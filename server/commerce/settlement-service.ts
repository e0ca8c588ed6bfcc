import type { Logger } from '../../shared/logger.js';
import { repeat } from '../background/repeat.js';
import type { IdempotencyStore } from '../http/idempotency.js';
import { CHECKOUT_CLAIM_SECONDS } from './checkout-claim.js';
import { isReady, venueDay, venueDayStart } from './domain/delivery.js';
import type { PaymentProvider } from './domain/payments.js';
import type { HoldStore } from './hold-store.js';
import type { ListingCatalog } from './listing-catalog.js';
import type { OrderStore } from './order-store.js';
import { deliveryDays } from './order-view.js';
import type { PaymentStore } from './payment-store.js';
import type { SqlTx } from '../store/sql.js';
import type { OrderRow } from './store-rows.js';
import type { EventDocument } from '../../shared/schemas/documents.js';
import type { GeneratedListing } from './domain/listings.js';
import { hasStarted } from '../../shared/rules/lists.js';

/** How long the sandbox seller takes to confirm an order. */
export const SANDBOX_SELLER_DELAY_MS = 1_500;
/** How long a payment may stay authorized (its order written) or voiding before the housekeeping finishes it. */
const SETTLE_AFTER_MS = 5_000;
/**
 * How old a payment still `authorizing` must be before any node treats its checkout as over: twice the claim a
 * checkout holds on its cart, after which that checkout can no longer write its order.
 */
const ABANDONED_AFTER_MS = 2 * CHECKOUT_CLAIM_SECONDS * 1000;
/** When the housekeeping looks again at an order whose listing or event it could not read (gone, or unavailable). */
const LOOK_AGAIN_MS = 5 * 60_000;
/** How often the housekeeping runs by default. */
const TICK_INTERVAL_MS = 1_000;

export interface SettlementServiceOptions {
  holds: HoldStore;
  payments: PaymentStore;
  orders: OrderStore;
  processor: PaymentProvider;
  catalog: ListingCatalog;
  idempotency: IdempotencyStore;
  logger: Logger;
  now: () => Date;
  sellerDelayMs?: number;
  /** Runs inside the transaction that delivers eTickets (their "tickets ready" email is queued there: RULES 19.4). */
  delivered?: (
    tx: SqlTx,
    order: OrderRow,
    resolved: { event: EventDocument; listing: GeneratedListing },
  ) => Promise<void>;
}

/**
 * The order housekeeping: payments brought to their end (captured once their order is written, voided when it
 * never was), expired holds back on sale, and orders moved on through the seller's confirmation, delivery and
 * the event.
 */
export class SettlementService {
  /** Payments of this node's checkouts that ended without their last step: settled on the next tick. */
  private readonly settleSoon = new Set<string>();

  constructor(private readonly options: SettlementServiceOptions) {}

  /** A payment this node's checkout left open: settled on the next tick. */
  later(paymentId: string): void {
    this.settleSoon.add(paymentId);
  }

  /**
   * Brings a payment to its end, from whatever step it is at; safe to call again, from any node. An authorized
   * payment (its order is written) is captured; one still `authorizing` belongs to an attempt that ended without
   * an order and is voided, after its row has moved to `voiding` (a commit still under way holds the row and wins
   * or loses cleanly against that move). Each end is logged once, when its row moves.
   */
  async settle(paymentId: string): Promise<void> {
    const { payments, processor, logger } = this.options;
    const p = await payments.paymentOf(paymentId);
    if (!p) return;
    if (p.status === 'authorized') return this.capture({ ...p, authorization_id: p.authorization_id! });
    const log = { payment: p.id, cart: p.hold_id, amountCents: p.amount_cents };
    const now = () => this.options.now(); // each step at its own time: a processor call may take a while
    if (p.status === 'authorizing' && !(await payments.movePayment(p.id, 'authorizing', 'voiding', now())))
      return this.settle(paymentId);
    if (p.status !== 'authorizing' && p.status !== 'voiding') return;
    const authorizationId = p.authorization_id ?? (await processor.findAuthorization(p.id));
    if (authorizationId) {
      const result = await processor.void(authorizationId);
      if (
        result.status === 'error' &&
        result.reason !== 'unknown_authorization' &&
        result.reason !== 'already_voided'
      ) {
        logger.error({ ...log, result }, 'payment void refused');
        await payments.touchPayment(p.id, now());
        return;
      }
    }
    if ((await payments.movePayment(p.id, 'voiding', 'voided', now())) && authorizationId)
      logger.info(log, 'payment voided');
  }

  /** Captures an authorized payment whose order is written; logged once, when its row moves. */
  async capture(p: { id: string; hold_id: string; amount_cents: number; authorization_id: string }): Promise<void> {
    const { payments, processor, logger } = this.options;
    const log = { payment: p.id, cart: p.hold_id, amountCents: p.amount_cents };
    const result = await processor.capture(p.authorization_id);
    if (result.status === 'captured') {
      if (await payments.movePayment(p.id, 'authorized', 'captured', this.options.now()))
        logger.info(log, 'payment captured');
      return;
    }
    // The processor will not take it (the authorization lapsed): the order is not confirmed without money.
    await payments.movePayment(p.id, 'authorized', 'capture_failed', this.options.now());
    logger.error({ ...log, result }, 'payment capture refused; the order stays unconfirmed');
  }

  /**
   * Settles what this node's checkouts left open (at once), then every payment of any node that is still open
   * after its checkout can no longer be running; one payment's failure does not stop the others.
   */
  private async settlePayments(now: Date): Promise<void> {
    const { payments, logger } = this.options;
    for (const id of [...this.settleSoon]) {
      try {
        await this.settle(id);
        this.settleSoon.delete(id);
      } catch (err) {
        // Still away (the store or the processor): kept for the next tick, and the rest goes on.
        logger.warn({ err, payment: id }, 'payment not settled yet; retried next tick');
      }
    }
    const open = await payments.unsettledPayments({
      settledBefore: new Date(now.getTime() - SETTLE_AFTER_MS),
      abandonedBefore: new Date(now.getTime() - ABANDONED_AFTER_MS),
    });
    for (const p of open) {
      await this.settle(p.id).catch(async (err: unknown) => {
        logger.warn({ err, payment: p.id }, 'payment not settled yet; retried later');
        await payments.touchPayment(p.id, this.options.now()).catch(() => {});
      });
    }
  }

  /**
   * The embedded sandbox's side of the marketplace: expired holds go back on sale, the seller confirms paid
   * orders after a short delay, e-delivered tickets are delivered on confirmation, and orders complete once
   * their event has started. Production replaces the seller step with the partner's confirmations.
   */
  async tick(): Promise<void> {
    const { holds, orders, catalog, logger } = this.options;
    const now = this.options.now();
    await holds.releaseExpired(now);
    await this.settlePayments(now).catch((err: unknown) =>
      logger.warn({ err }, 'settling payments failed; retried next tick'),
    );
    await this.options.idempotency.freePending();
    const delay = this.options.sellerDelayMs ?? SANDBOX_SELLER_DELAY_MS;
    // RULES 10.14: each step takes only the orders whose move is due (`due_at`), the longest due first. A look that
    // finds an order not ready puts its next look where it will be (or nowhere: shipped tickets, a refused
    // capture), so orders that wait never hold back those that can move.
    for (const { order: o, money } of await orders.dueAwaitingSeller(new Date(now.getTime() - delay))) {
      if (money === 'paid')
        await orders.advance(
          o.id,
          'pending_seller_confirmation',
          'confirmed',
          now,
          'The seller confirmed your tickets',
        );
      // A refused capture: the order is not confirmed without money. A capture still to come: after this delay.
      else await orders.dueAt(o, 'pending_seller_confirmation', money === 'refused' ? null : now);
    }
    for (const o of await orders.dueOrders('confirmed', now)) {
      const { listing, event } = await catalog.listingWithEvent(o.listing_id).catch(() => ({
        listing: null,
        event: null,
      }));
      if (!listing || !event) {
        await orders.dueAt(o, 'confirmed', new Date(now.getTime() + LOOK_AGAIN_MS));
        continue;
      }
      // The partner ships or holds the other methods: nothing here delivers them.
      if (listing.deliveryMethod !== 'eticket' && listing.deliveryMethod !== 'mobile_transfer') {
        await orders.dueAt(o, 'confirmed', null);
        continue;
      }
      // Delivered on the ready-by day (the in-hand rule), not before.
      const { readyBy } = deliveryDays(o, event, listing, this.options.now());
      if (!isReady(readyBy, venueDay(now, event.venue_time_zone_offset))) {
        // Ready on its day; no day yet (the event has no date): when it gets one, event-changes.ts wakes the order.
        await orders.dueAt(o, 'confirmed', readyBy ? venueDayStart(readyBy, event.venue_time_zone_offset) : null);
        continue;
      }
      await orders.advance(
        o.id,
        'confirmed',
        'delivered',
        now,
        listing.deliveryMethod === 'eticket'
          ? 'Your eTickets are ready'
          : 'Your tickets were transferred to your phone',
        listing.deliveryMethod === 'eticket' && this.options.delivered
          ? (tx, order) => this.options.delivered!(tx, order, { event, listing })
          : undefined,
      );
    }
    for (const o of await orders.dueOrders('delivered', now)) {
      const event = await catalog.event(o.event_id).catch(() => null);
      if (!event) {
        await orders.dueAt(o, 'delivered', new Date(now.getTime() + LOOK_AGAIN_MS));
        continue;
      }
      const starts = event.event_timestamp ? event.event_timestamp * 1000 : null;
      // Completed once the event has started; due at its start, or (no date yet) when event-changes.ts wakes it.
      if (hasStarted(starts, now)) await orders.advance(o.id, 'delivered', 'completed', now, 'Enjoy the show');
      else await orders.dueAt(o, 'delivered', starts === null ? null : new Date(starts));
    }
  }

  /** Runs `tick` every `intervalMs` until stopped; a failing tick is logged and retried next time. */
  start(intervalMs = TICK_INTERVAL_MS): () => void {
    return repeat(
      () => this.tick(),
      intervalMs,
      (err) => this.options.logger.warn({ err }, 'order housekeeping failed; retrying'),
    );
  }
}
