import { randomUUID } from 'node:crypto';
import type { CheckoutRequest, Order } from '../../shared/schemas/commerce.js';
import type { EventDocument } from '../../shared/schemas/documents.js';
import { purchaseTrackingEvent } from '../../shared/rules/checkout-tracking.js';
import { listingTerms } from '../../shared/rules/disclosures.js';
import { formatMoney } from '../../shared/rules/pricing.js';
import type { Logger } from '../../shared/logger.js';
import { AppError } from '../http/errors.js';
import type { IdempotencyStore, StoredAnswer } from '../http/idempotency.js';
import { isStoreUnavailable } from '../store/store-errors.js';
import type { SqlTx } from '../store/sql.js';
import { eventShape } from './event-changes.js';
import type { GeneratedListing } from './domain/listings.js';
import { newOrder, transition } from './domain/order-lifecycle.js';
import type { PaymentProvider } from './domain/payments.js';
import { assertOnSale } from './domain/sale-window.js';
import { quoteHold } from './hold-quote.js';
import type { HoldService } from './hold-service.js';
import type { HoldStore } from './hold-store.js';
import type { ListingCatalog } from './listing-catalog.js';
import { randomCode, sha256, uuidFrom } from './order-codes.js';
import type { OrderStore, PurchaseInput } from './order-store.js';
import { orderView } from './order-view.js';
import type { PaymentStore } from './payment-store.js';
import type { SettlementService } from './settlement-service.js';
import type { OrderRow, TicketRow } from './store-rows.js';
import { STORE_UNAVAILABLE_MESSAGES, stored } from './store-unavailable.js';

export interface CheckoutServiceOptions {
  carts: HoldService;
  holds: HoldStore;
  payments: PaymentStore;
  orders: OrderStore;
  processor: PaymentProvider;
  settlement: SettlementService;
  catalog: ListingCatalog;
  idempotency: IdempotencyStore;
  logger: Logger;
  now: () => Date;
  /** Runs inside the transaction that writes an order (its confirmation email is queued there: RULES 19.4). */
  placed?: OrderPlaced;
}

/** What is done with a new order inside the transaction that writes it. */
export type OrderPlaced = (
  tx: SqlTx,
  order: OrderRow & { tickets: TicketRow[] },
  resolved: { event: EventDocument; listing: GeneratedListing },
) => Promise<void>;

/** What the logs say of one payment. */
interface PaymentLog {
  payment: string;
  cart: string;
  amountCents: number;
}

/**
 * Checkout: money moves once per cart. A checkout first claims the cart in the store (one checkout at a time,
 * on any node), the card is then authorized, the order is written, and only then is the authorization
 * captured; when the order cannot be written, the authorization is voided (the settlement finishes it).
 */
export class CheckoutService {
  constructor(private readonly options: CheckoutServiceOptions) {}

  /**
   * A checkout under an `Idempotency-Key` (when the shopper's client sent one): the first request with a key
   * runs, a repeat gets its answer. The order is 201 when this request wrote it, 200 when the cart had been
   * bought already. The key's attempt id lets a retry take the cart over from a run that died mid-way.
   */
  async checkoutOnce(
    guestId: string,
    request: CheckoutRequest,
    key: { key?: string; fingerprint: string },
    brand?: string,
  ): Promise<StoredAnswer> {
    const attempt = key.key === undefined ? randomUUID() : uuidFrom(`${guestId}\n${key.key}`);
    return stored('checkout', () =>
      // The access code goes to the first answer only: a replay (its first answer lost) shows the order to its
      // guest without it, so no code is ever kept in the clear.
      this.options.idempotency.run(
        { scope: guestId, key: key.key, fingerprint: key.fingerprint, keep: withoutAccessCode },
        async () => {
          const { order, created } = await this.checkout(guestId, request, attempt, brand);
          return { status: created ? 201 : 200, body: order };
        },
      ),
    );
  }

  /**
   * Pays for a cart and writes its order, once: `created` is false when the cart had been bought already
   * (a retry whose first answer was lost gets that order). `attempt` names this checkout attempt: a retry
   * with the same idempotency key passes the same one and may take over the cart from a run that died.
   */
  private async checkout(
    guestId: string,
    request: CheckoutRequest,
    attempt: string,
    brand?: string,
  ): Promise<{ order: Order; created: boolean }> {
    const { carts, holds, catalog, logger } = this.options;
    const hold = await carts.ownHold(guestId, request.cartId, 'checkout');
    const {
      listing,
      event,
      seatBlockStart: firstSeat,
      companionBlockStart: firstCompanionSeat,
    } = await catalog.listingWithEvent(hold.listing_id, 'checkout');
    if (hold.status === 'purchased') return this.existingOrder(hold.id, event, listing);
    const now = this.options.now();
    assertOnSale(event, now);
    // RULES 20.3: tickets the seller does not hold yet are sold only to a buyer who confirms having read so.
    if (!listing.ticketsHeld && request.notHeldNoticeRead !== true)
      throw new AppError(
        400,
        'notice_not_confirmed',
        'The seller does not have these tickets yet: confirm you have read that notice before paying',
        [{ path: 'notHeldNoticeRead', message: 'confirm you have read the notice' }],
      );
    const quote = quoteHold(hold, listing, request.promoCode);
    if (request.expectedTotal !== undefined && Math.round(request.expectedTotal * 100) !== quote.cents.total) {
      throw new AppError(
        409,
        'price_changed',
        `The total is ${formatMoney(quote.total)}, not the ${formatMoney(request.expectedTotal)} ` +
          `shown; check it and pay again`,
        { total: quote.total },
      );
    }

    // The whole checkout runs inside `stored('checkout')` (checkoutOnce): store calls here need no wrapping of their
    // own.
    const claim = await holds.claimCheckout({ holdId: hold.id, guestId, attempt, now });
    if ('purchased' in claim)
      return { order: orderView(claim.purchased, { event, listing }, this.options.now()), created: false };
    if ('busy' in claim)
      throw new AppError(
        409,
        'checkout_in_progress',
        'This cart is already being paid for in another window or request; wait a moment and check your order',
      );
    if ('ended' in claim)
      throw new AppError(410, 'hold_expired', 'The hold on these tickets has ended; choose your tickets again');

    const paymentId = `pay_${randomUUID()}`;
    const log: PaymentLog = { payment: paymentId, cart: hold.id, amountCents: quote.cents.total };
    const authorizationId = await this.authorize({ holdId: hold.id, attempt, request, now, log });

    const orderId = `ORD-${randomCode(10)}`;
    const accessCode = randomCode(20);
    const lifecycle = transition(
      newOrder(now, 'Tickets held'),
      'pending_seller_confirmation',
      now,
      'Payment received; waiting for the seller to confirm',
    );
    const row = await this.writeOrder(
      {
        holdId: hold.id,
        guestId,
        attempt,
        // The time of writing, not of the start: the claim must still be live after the processor answered.
        now: this.options.now(),
        order: {
          id: orderId,
          access_code_hash: sha256(accessCode),
          status: lifecycle.status,
          subtotal_cents: quote.cents.subtotal,
          discount_cents: quote.cents.discount,
          service_fee_cents: quote.cents.serviceFee,
          fulfillment_fee_cents: quote.cents.fulfillmentFee,
          total_cents: quote.cents.total,
          promo_code: quote.promoCode,
          email: request.email,
          billing: request.billingAddress,
          payment_method: request.payment.method,
          terms: listingTerms(listing),
        },
        history: lifecycle.history.map((h) => ({ status: h.status, at: new Date(h.at), note: h.note })),
        payment: { id: paymentId, authorizationId },
        seatBlockStart: firstSeat,
        companionBlockStart: firstCompanionSeat,
        brand,
        eventShape: eventShape(event),
        then: this.options.placed ? (tx, order) => this.options.placed!(tx, order, { event, listing }) : undefined,
      },
      log,
    );
    // Its order is written and its authorization known: captured at once, without reading the row back.
    await this.options.settlement
      .capture({
        id: paymentId,
        hold_id: hold.id,
        amount_cents: quote.cents.total,
        authorization_id: authorizationId,
      })
      .catch((err: unknown) => logger.warn({ err, ...log }, 'capture not done yet; the housekeeping retries it'));
    logger.info(
      {
        orderId,
        eventId: event.event_id,
        quantity: hold.quantity + hold.companions,
        companions: hold.companions,
        totalCents: quote.cents.total,
      },
      'order placed',
    );
    const events = lifecycle.history.map((h, i) => ({
      seq: i + 1,
      status: h.status,
      at: new Date(h.at).toISOString(),
      note: h.note,
    }));
    const order = orderView({ order: row, events, tickets: row.tickets }, { event, listing }, this.options.now());
    return { order: { ...order, accessCode, tracking: purchaseTrackingEvent(quote.total) }, created: true };
  }

  /**
   * Authorizes the cart's total and returns the processor's authorization. The payment is on record before the
   * processor is asked, so whatever happens next, some node settles it. A decline is a 402 and a processor that
   * fails or does not answer a 502; either way the cart's claim is let go, so the shopper can pay again at once.
   */
  private async authorize(input: {
    holdId: string;
    attempt: string;
    request: CheckoutRequest;
    now: Date;
    log: PaymentLog;
  }): Promise<string> {
    const { holds, payments, processor, settlement, logger } = this.options;
    const { holdId, attempt, request, now, log } = input;
    const paymentId = log.payment;
    await payments.paymentIntent({ id: paymentId, holdId, amountCents: log.amountCents, now }).catch((err: unknown) => {
      // Its row may have been written though the answer was lost: settled (to nothing) on the next tick.
      settlement.later(paymentId);
      throw err;
    });
    let auth;
    try {
      auth = await processor.authorize({
        amountCents: log.amountCents,
        currency: 'USD',
        payment: request.payment,
        idempotencyKey: paymentId,
      });
    } catch (err) {
      // No answer from the processor: whatever it may have reserved is found by its key and released.
      settlement.later(paymentId);
      // The sandbox keeps its records in our store (RULES 10.7): its failing to answer is the store's outage, a 503.
      if (isStoreUnavailable(err)) throw err;
      logger.error({ err, ...log }, 'payment processor did not answer');
      await holds.releaseClaim(holdId, attempt).catch(() => {});
      throw new AppError(
        502,
        'payment_error',
        'The payment service did not answer; nothing was charged, and anything ' +
          'reserved on your card is released. Please try again.',
        { reason: 'processor_unreachable', paymentType: request.payment.method },
      );
    }
    if (auth.status !== 'authorized') {
      await payments.movePayment(paymentId, 'authorizing', 'failed', now).catch(() => settlement.later(paymentId));
      await holds.releaseClaim(holdId, attempt).catch(() => {});
      if (auth.status === 'declined')
        throw new AppError(402, 'payment_declined', declineMessage(auth.reason, request.payment.method), {
          reason: auth.reason,
          paymentType: request.payment.method,
        });
      throw new AppError(
        502,
        'payment_error',
        'The payment could not be processed; you have not been charged. Please try again.',
        { reason: auth.reason, paymentType: request.payment.method },
      );
    }
    logger.info({ ...log, authorization: auth.authorizationId }, 'payment authorized');
    return auth.authorizationId;
  }

  /** Writes the order of an authorized payment; when it cannot be, the payment is left to be settled. */
  private async writeOrder(input: PurchaseInput, log: PaymentLog): Promise<OrderRow & { tickets: TicketRow[] }> {
    const { settlement, logger } = this.options;
    try {
      return await this.options.orders.purchase(input);
    } catch (err) {
      // Written or not, the payment row says so once the store answers: captured if the order is there, else voided.
      settlement.later(input.payment.id);
      if (err instanceof AppError) {
        // Refused inside the transaction, so rolled back for sure: release the money now.
        await settlement.settle(input.payment.id).catch(() => {});
        throw err;
      }
      logger.warn(
        { err, ...log },
        'order store failed while writing an order; its payment is settled when the store answers',
      );
      if (isStoreUnavailable(err))
        throw new AppError(503, 'store_unavailable', STORE_UNAVAILABLE_MESSAGES.checkoutUnconfirmed);
      throw err;
    }
  }

  /** The order a cart already became (its access code went to the first answer and is not kept in the clear). */
  private async existingOrder(
    holdId: string,
    event: EventDocument,
    listing: GeneratedListing,
  ): Promise<{ order: Order; created: boolean }> {
    const found = await this.options.orders.orderOfHold(holdId);
    if (!found)
      throw new AppError(409, 'checkout_in_progress', 'This cart is being paid for; check your order in a moment');
    return { order: orderView(found, { event, listing }, this.options.now()), created: false };
  }
}

/** Why a payment was declined, in words for the shopper; Apple Pay's by its wallet, a card's by the card. */
function declineMessage(reason: string, method: 'card' | 'applepay'): string {
  if (method === 'applepay')
    return reason === 'insufficient_funds'
      ? 'Apple Pay was declined for insufficient funds. Try another card in your wallet, or pay by card.'
      : 'Apple Pay was declined. Try another card in your wallet, or pay by card.';
  switch (reason) {
    case 'insufficient_funds':
      return 'Your card was declined for insufficient funds. Try another card.';
    case 'expired_card':
      return 'Your card has expired. Check the expiry date or use another card.';
    case 'invalid_number':
      return 'That card number is not valid. Check it and try again.';
    default:
      return 'Your card was declined. Try another card or contact your bank.';
  }
}

function withoutAccessCode(body: unknown): unknown {
  if (!body || typeof body !== 'object' || !('accessCode' in body)) return body;
  const { accessCode: _secret, ...rest } = body as Record<string, unknown>;
  return rest;
}
