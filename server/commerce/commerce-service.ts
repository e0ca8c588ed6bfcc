import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { z } from 'zod';
import {
  DELIVERY_LABELS,
  ListingsQuerySchema,
  type Cart,
  type CheckoutRequest,
  type Listing,
  type Order,
} from '../../shared/schemas/commerce.js';
import type { EventDocument } from '../../shared/schemas/documents.js';
import { AppError, notFound } from '../http/errors.js';
import { IdempotencyStore, type StoredAnswer } from '../http/idempotency.js';
import { isStoreUnavailable } from '../store/store-errors.js';
import { repeat } from '../background/repeat.js';
import { purchaseTrackingEvent } from '../../shared/rules/commerce.js';
import { eventCard } from '../../shared/rules/event-card.js';
import { idFromSlug } from '../../shared/rules/slug.js';
import type { SearchEngine } from '../search/search-engine.js';
import {
  CHECKOUT_CLAIM_SECONDS,
  CommerceStore,
  type HoldRow,
  type OrderRow,
  type OrderWithEvents,
  type TicketRow,
} from './commerce-store.js';
import {
  ADMITTED_STATUSES,
  IN_HAND_RULE,
  displayDate,
  eventDay,
  eventStartText,
  isReady,
  readyByDate,
  ticketState,
  ticketStateText,
  venueDay,
} from './domain/delivery.js';
import { venueAddress } from '../../shared/rules/address.js';
import { GENERAL_ADMISSION_ROW, seatBlockStart } from './domain/seats.js';
import { TicketBarcodes } from './domain/ticket-barcode.js';
import { ticketsPdf, type PrintedTicket } from './ticket-pdf.js';
import {
  asListed,
  availableSplits,
  canBuyQuantity,
  eventIdOfListing,
  layoutFor,
  listingsForEvent,
  type GeneratedListing,
  type ListedAvailability,
} from './domain/listings.js';
import { dealRatings } from './domain/deal-rating.js';
import { zoneOfSection } from '../../shared/schemas/seat-maps.js';
import { newOrder, transition } from './domain/order-lifecycle.js';
import { orderDetailEntries } from './domain/order-detail.js';
import { ORDER_STATUS_LABELS } from './domain/order-lifecycle.js';
import type { PaymentProvider } from './domain/payments.js';
import { PURCHASE_LIMITS, type PurchaseLimits } from './domain/purchase-limits.js';
import { assertOnSale, saleState } from './domain/sale-window.js';
import { SERVICE_FEE_RATE } from '../../shared/rules/all-in-price.js';
import { formatMoney, fulfillmentFeePerTicket, perTicketPrices, PromoCodeError, quoteCart } from './domain/pricing.js';
import type { Logger } from '../../shared/logger.js';

/** How long a cart holds its tickets (product decision: long enough to pay, short enough not to block others). */
export const HOLD_MINUTES = 10;
/** How long the sandbox seller takes to confirm an order. */
export const SANDBOX_SELLER_DELAY_MS = 1_500;
/** What the fee disclosure shows: the service fee rate, and the per-ticket fee of shipped tickets. */
const FEES = { serviceFeeRate: SERVICE_FEE_RATE, fulfillmentFeePerTicket: fulfillmentFeePerTicket('physical_mail') };

export interface CommerceServiceOptions {
  store: CommerceStore;
  engine: () => SearchEngine;
  payments: PaymentProvider;
  logger: Logger;
  now?: () => Date;
  sellerDelayMs?: number;
  /** The fair-share limits (tests narrow or widen them). */
  limits?: PurchaseLimits;
  /** Signs and checks ticket barcodes; a random key per process when absent (tests). */
  barcodes?: TicketBarcodes;
}

/** What a venue's scanner is told of a barcode (`POST /api/tickets/scan`). */
export type ScanAnswer =
  | {
      result: 'valid' | 'already_used';
      ticket: { id: string; event: string; venue: string; date: string; section: string; row: string; seat: string };
      firstScannedAt: string;
    }
  | { result: 'unknown' };

/** Who asks: the guest, and the client address their request came from (for the per-address limits). */
export interface Buyer {
  guestId: string;
  clientKey: string;
}

/**
 * What a shopper is told when the order store cannot answer, by what they were doing: only a shopper who
 * may be holding tickets is told about a hold.
 */
const STORE_UNAVAILABLE_MESSAGES = {
  listings: 'Ticket availability cannot be loaded for a moment; please try again shortly.',
  // Not "nothing was held": a hold whose commit landed as the connection broke may exist, and runs out on its own.
  createCart: 'Tickets cannot be reserved for a moment, and nothing was charged. Please try again in a moment.',
  cart:
    'Your cart cannot be loaded for a moment; if you were holding tickets, ' +
    'they are still held. Please try again shortly.',
  releaseCart: 'Your cart cannot be released for a moment; it is released on its own when its hold ends.',
  checkout:
    'Orders cannot be placed for a moment. Your held tickets are kept and you ' +
    'have not been charged; please try again in a moment.',
  checkoutUnconfirmed:
    'Your order could not be confirmed just now. You are only charged for an ' +
    'order that is confirmed; please try again in a moment and you will not ' +
    'be charged twice.',
  order: 'Your order is safe, but it cannot be shown for a moment; please try again shortly.',
  scan: 'Tickets cannot be checked for a moment; try the scan again shortly.',
} as const;

/** How long a payment may stay authorized (its order written) or voiding before the housekeeping finishes it. */
const SETTLE_AFTER_MS = 5_000;
/**
 * How old a payment still `authorizing` must be before any node treats its checkout as over: twice the claim a
 * checkout holds on its cart, after which that checkout can no longer write its order.
 */
const ABANDONED_AFTER_MS = 2 * CHECKOUT_CLAIM_SECONDS * 1000;

type ListingsQuery = z.infer<typeof ListingsQuerySchema>;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const ORDER_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
function randomCode(length: number): string {
  const bytes = randomBytes(length);
  return Array.from(bytes, (b) => ORDER_ALPHABET[b % ORDER_ALPHABET.length]).join('');
}

/**
 * Listings, carts (holds), checkout and orders. Every step that changes what is available goes through the
 * store's single conditional statements. Money moves once per cart: a checkout first claims the cart in the
 * store (one checkout at a time, on any node), the card is then authorized, the order is written, and only
 * then is the authorization captured; when the order cannot be written, the authorization is voided.
 */
/** What a hold costs, at the price per ticket it was taken at; an unknown promo code is a 400 naming it. */
function quoteHold(hold: HoldRow, listing: GeneratedListing, promoCode?: string | null) {
  try {
    return quoteCart({
      pricePerTicket: hold.price_per_ticket_cents / 100,
      quantity: hold.quantity,
      deliveryMethod: listing.deliveryMethod,
      promoCode,
    });
  } catch (err) {
    if (err instanceof PromoCodeError)
      throw new AppError(400, 'invalid_promo_code', `“${err.promoCode}” is not a valid promo code`, [
        { path: 'promoCode', message: 'This promo code is not valid' },
      ]);
    throw err;
  }
}

export class CommerceService {
  private readonly now: () => Date;
  /** Payments of this node's checkouts that ended without their last step: settled on the next tick. */
  private readonly settleSoon = new Set<string>();

  private readonly idempotency: IdempotencyStore;
  private readonly barcodes: TicketBarcodes;
  /** The imported catalog whose own listings are sold (`useOperatorListings`); undefined: generated listings. */
  private operatorCatalog: string | undefined;

  constructor(private readonly options: CommerceServiceOptions) {
    this.now = options.now ?? (() => new Date());
    // Checkout keys live in the order store's own database, shared by every node like the orders.
    this.idempotency = new IdempotencyStore(options.store.sql, this.now);
    this.barcodes = options.barcodes ?? new TicketBarcodes(new Uint8Array(randomBytes(32)));
  }

  private get store() {
    return this.options.store;
  }

  /**
   * Runs store work; a store that does not answer is a 503 saying what it means for this request, never a
   * 500 (the error middleware logs it once, with the driver's reason as its cause).
   */
  private async stored<T>(what: keyof typeof STORE_UNAVAILABLE_MESSAGES, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (!isStoreUnavailable(err)) throw err;
      throw Object.assign(new AppError(503, 'store_unavailable', STORE_UNAVAILABLE_MESSAGES[what]), { cause: err });
    }
  }

  private async event(eventId: number): Promise<EventDocument> {
    let result;
    try {
      result = await this.options
        .engine()
        .search({ collection: 'Event', filters: [{ op: 'eq', field: 'event_id', value: eventId }], perPage: 1 });
    } catch (err) {
      // The catalog not answering is not the event being gone: a 503 a retry may get past, never a 404.
      if (err instanceof AppError) throw err;
      this.options.logger.warn({ err }, 'search engine unavailable for an event lookup');
      throw new AppError(
        503,
        'search_unavailable',
        'Event details cannot be loaded for a moment; please try again shortly.',
      );
    }
    const doc = result.hits[0]?.document as EventDocument | undefined;
    if (!doc) throw notFound(`Event ${eventId}`);
    return doc;
  }

  private async eventBySlug(slug: string): Promise<EventDocument> {
    const id = idFromSlug(slug);
    if (id === null) throw notFound(`Event "${slug}"`);
    return this.event(id);
  }

  private withAvailability(
    listing: GeneratedListing,
    taken: number,
    event: EventDocument,
  ): Omit<Listing, 'dealRating'> {
    const quantityAvailable = Math.max(0, listing.quantity - taken);
    const { quantity: _listed, ...rest } = listing;
    // The in-hand rule with today as the order day: a listing never shows an in-hand date already gone.
    const inHand = readyByDate({
      inHandDate: listing.inHandDate,
      orderDay: venueDay(this.now(), event.venue_time_zone_offset),
      eventDay: eventDay(event.event_local_timestamp),
    });
    return {
      ...rest,
      inHandDate: inHand ?? listing.inHandDate,
      quantityAvailable,
      splits: availableSplits(listing.splits, quantityAvailable),
      ...perTicketPrices(listing),
    };
  }

  /**
   * An event's listings as they stand (`usage`: seats held and sold), with a deal rating against the others
   * on offer. A listing whose seats left are no quantity its seller sells (one seat of a pairs-only seller)
   * is not on offer; `keep` is a listing to answer for all the same (the ticket page of a listing just sold).
   */
  private onOffer(
    event: EventDocument,
    generated: readonly GeneratedListing[],
    usage: Map<number, { taken: number }>,
    keep?: number,
  ): Listing[] {
    const offered = generated
      .map((l) => this.withAvailability(l, usage.get(l.id)?.taken ?? 0, event))
      .filter((l) => (l.quantityAvailable > 0 && l.splits.length > 0) || l.id === keep);
    const layout = layoutFor(event);
    const ratings = dealRatings(offered, (l) => zoneOfSection(layout, l.section));
    return offered.map((l, i) => ({ ...l, dealRating: ratings[i]! }));
  }

  async listings(slug: string, query: ListingsQuery) {
    const event = await this.eventBySlug(slug);
    const sale = saleState(event, this.now());
    const seatMap = { layout: layoutFor(event) };
    if (!sale.onSale)
      return {
        eventId: event.event_id,
        seatMap,
        listings: [],
        fees: FEES,
        sale: { onSale: false, code: sale.code, message: sale.message },
      };
    const [usage, generated] = await this.stored('listings', () =>
      Promise.all([this.store.usage(event.event_id), this.listingsOf(event)]),
    );
    let listings = this.onOffer(event, generated, usage);
    if (query.quantity)
      listings = listings.filter((l) => canBuyQuantity(l.splits, l.quantityAvailable, query.quantity!));
    if (query.minPrice !== undefined) listings = listings.filter((l) => l.allInPricePerTicket >= query.minPrice!);
    if (query.maxPrice !== undefined) listings = listings.filter((l) => l.allInPricePerTicket <= query.maxPrice!);
    const bySection = (a: Listing, b: Listing) =>
      a.section.localeCompare(b.section, 'en', { numeric: true }) ||
      a.row.localeCompare(b.row, 'en', { numeric: true });
    listings.sort(
      query.sort === 'section'
        ? bySection
        : query.sort === 'price_desc'
          ? (a, b) => b.allInPricePerTicket - a.allInPricePerTicket || a.id - b.id
          : (a, b) => a.allInPricePerTicket - b.allInPricePerTicket || a.id - b.id,
    );
    return {
      eventId: event.event_id,
      seatMap,
      listings,
      fees: FEES,
      sale: { onSale: true, dateToBeAnnounced: sale.dateToBeAnnounced },
    };
  }

  /**
   * Sells an imported catalog's own listings (loaded into the store under the catalog's name) instead of
   * generated ones; undefined goes back to generated.
   */
  useOperatorListings(catalog: string | undefined): void {
    this.operatorCatalog = catalog;
  }

  /** An event's listings as listed: the operator's own, or generated from the event as it was listed. */
  private async listingsOf(event: EventDocument): Promise<GeneratedListing[]> {
    if (this.operatorCatalog) return this.store.operatorListings(this.operatorCatalog, event.event_id);
    return listingsForEvent(asListed(event, await this.store.listedAvailability(event.event_id)));
  }

  /** The same, given the availability as listed (the demand signals keep it): what tickets there are to sell. */
  listingsAsListed(event: EventDocument, listed: ListedAvailability): Promise<GeneratedListing[]> {
    if (this.operatorCatalog) return this.store.operatorListings(this.operatorCatalog, event.event_id);
    return Promise.resolve(listingsForEvent(asListed(event, listed)));
  }

  /** A listing and its event; `during` says what the shopper is told should the store not answer. */
  private async listingWithEvent(
    listingId: number,
    during: keyof typeof STORE_UNAVAILABLE_MESSAGES = 'listings',
  ): Promise<{ listing: GeneratedListing; event: EventDocument; seatBlockStart: number | null }> {
    const eventId = eventIdOfListing(listingId);
    const event = await this.event(eventId).catch((err: unknown) => {
      if (err instanceof AppError && err.status === 404) throw notFound(`Listing ${listingId}`);
      throw err;
    });
    const all = await this.stored(during, () => this.listingsOf(event));
    const listing = all.find((l) => l.id === listingId);
    if (!listing) throw notFound(`Listing ${listingId}`);
    return { listing, event, seatBlockStart: seatBlockStart(all, listingId) };
  }

  async listing(listingId: number) {
    const { event } = await this.listingWithEvent(listingId);
    const [usage, generated] = await this.stored('listings', () =>
      Promise.all([this.store.usage(event.event_id), this.listingsOf(event)]),
    );
    const listing = this.onOffer(event, generated, usage, listingId).find((l) => l.id === listingId);
    if (!listing) throw notFound(`Listing ${listingId}`);
    return { listing, event: eventCard(event), fees: FEES };
  }

  /**
   * The cart as charged: the price per ticket held with the tickets (whatever the listing costs now), so the
   * price shown is the price paid for as long as the hold lasts; with a promo code when one is given.
   */
  private cartOf(hold: HoldRow, listing: GeneratedListing, promoCode?: string): Cart {
    const quote = quoteHold(hold, listing, promoCode);
    const expired = hold.status === 'active' && new Date(hold.expires_at).getTime() <= this.now().getTime();
    return {
      id: hold.id,
      eventId: hold.event_id,
      listingId: hold.listing_id,
      quantitySelected: hold.quantity,
      totalPrice: { value: quote.total },
      lineItems: quote.lineItems,
      expiresAt: hold.expires_at,
      status: expired ? 'expired' : hold.status,
      promoCode: quote.promoCode,
    };
  }

  async createCart(buyer: Buyer, input: { listingId: number; quantity: number }): Promise<Cart> {
    const { listing, event } = await this.listingWithEvent(input.listingId, 'createCart');
    const now = this.now();
    assertOnSale(event, now);
    const hold = await this.stored('createCart', () =>
      this.store.createHold({
        id: randomUUID(),
        guestId: buyer.guestId,
        clientKey: buyer.clientKey,
        limits: this.options.limits ?? PURCHASE_LIMITS,
        listing: { id: listing.id, eventId: event.event_id, listed: listing.quantity, splits: listing.splits },
        quantity: input.quantity,
        pricePerTicketCents: Math.round(listing.pricePerTicket * 100),
        now,
        expiresAt: new Date(now.getTime() + HOLD_MINUTES * 60_000),
      }),
    );
    return this.cartOf(hold, listing);
  }

  private async ownHold(
    guestId: string,
    cartId: string,
    during: 'cart' | 'releaseCart' | 'checkout',
  ): Promise<HoldRow> {
    const hold = await this.stored(during, () => this.store.hold(cartId));
    // Another guest's cart is as unknown as a cart that does not exist.
    if (!hold || hold.guest_id !== guestId) throw notFound('Cart');
    return hold;
  }

  async cart(guestId: string, cartId: string, promoCode?: string): Promise<Cart> {
    const hold = await this.ownHold(guestId, cartId, 'cart');
    const { listing } = await this.listingWithEvent(hold.listing_id, 'cart');
    return this.cartOf(hold, listing, promoCode);
  }

  async releaseCart(guestId: string, cartId: string): Promise<void> {
    await this.ownHold(guestId, cartId, 'releaseCart');
    await this.stored('releaseCart', () => this.store.releaseHold(cartId, guestId));
  }

  /**
   * A checkout under an `Idempotency-Key` (when the shopper's client sent one): the first request with a key
   * runs, a repeat gets its answer. The order is 201 when this request wrote it, 200 when the cart had been
   * bought already. The key's attempt id lets a retry take the cart over from a run that died mid-way.
   */
  async checkoutOnce(
    guestId: string,
    request: CheckoutRequest,
    key: { key?: string; fingerprint: string },
  ): Promise<StoredAnswer> {
    const attempt = key.key === undefined ? randomUUID() : uuidFrom(`${guestId}\n${key.key}`);
    return this.stored('checkout', () =>
      // The access code goes to the first answer only: a replay (its first answer lost) shows the order to its
      // guest without it, so no code is ever kept in the clear.
      this.idempotency.run(
        { scope: guestId, key: key.key, fingerprint: key.fingerprint, keep: withoutAccessCode },
        async () => {
          const { order, created } = await this.checkout(guestId, request, attempt);
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
  ): Promise<{ order: Order; created: boolean }> {
    const hold = await this.ownHold(guestId, request.cartId, 'checkout');
    const { listing, event, seatBlockStart: firstSeat } = await this.listingWithEvent(hold.listing_id, 'checkout');
    if (hold.status === 'purchased') return this.existingOrder(hold.id, event, listing);
    const now = this.now();
    assertOnSale(event, now);
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
    const claim = await this.store.claimCheckout({ holdId: hold.id, guestId, attempt, now });
    if ('purchased' in claim) return { order: await this.orderView(claim.purchased, event, listing), created: false };
    if ('busy' in claim)
      throw new AppError(
        409,
        'checkout_in_progress',
        'This cart is already being paid for in another window or request; wait a moment and check your order',
      );
    if ('ended' in claim)
      throw new AppError(410, 'hold_expired', 'The hold on these tickets has ended; choose your tickets again');

    // The payment is on record before the processor is asked, so whatever happens next, some node settles it.
    const paymentId = `pay_${randomUUID()}`;
    const log = { payment: paymentId, cart: hold.id, amountCents: quote.cents.total };
    await this.store
      .paymentIntent({ id: paymentId, holdId: hold.id, amountCents: quote.cents.total, now })
      .catch((err: unknown) => {
        // Its row may have been written though the answer was lost: settled (to nothing) on the next tick.
        this.settleSoon.add(paymentId);
        throw err;
      });
    let auth;
    try {
      auth = await this.options.payments.authorize({
        amountCents: quote.cents.total,
        currency: 'USD',
        payment: request.payment,
        idempotencyKey: paymentId,
      });
    } catch (err) {
      // No answer from the processor: whatever it may have reserved is found by its key and released.
      this.settleSoon.add(paymentId);
      this.options.logger.error({ err, ...log }, 'payment processor did not answer');
      await this.store.releaseClaim(hold.id, attempt).catch(() => {});
      throw new AppError(
        502,
        'payment_error',
        'The payment service did not answer; nothing was charged, and anything ' +
          'reserved on your card is released. Please try again.',
        { reason: 'processor_unreachable', paymentType: request.payment.method },
      );
    }
    if (auth.status !== 'authorized') {
      await this.store.movePayment(paymentId, 'authorizing', 'failed', now).catch(() => this.settleSoon.add(paymentId));
      await this.store.releaseClaim(hold.id, attempt).catch(() => {});
      if (auth.status === 'declined')
        throw new AppError(402, 'payment_declined', declineMessage(auth.reason), {
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
    this.options.logger.info({ ...log, authorization: auth.authorizationId }, 'payment authorized');

    const orderId = `ORD-${randomCode(10)}`;
    const accessCode = randomCode(20);
    const lifecycle = transition(
      newOrder(now, 'Tickets held'),
      'pending_seller_confirmation',
      now,
      'Payment received; waiting for the seller to confirm',
    );
    let row: OrderRow & { tickets: TicketRow[] };
    try {
      row = await this.store.purchase({
        holdId: hold.id,
        guestId,
        attempt,
        // The time of writing, not of the start: the claim must still be live after the processor answered.
        now: this.now(),
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
          charge_id: auth.authorizationId,
        },
        history: lifecycle.history.map((h) => ({ status: h.status, at: new Date(h.at), note: h.note })),
        payment: { id: paymentId, authorizationId: auth.authorizationId },
        seatBlockStart: firstSeat,
      });
    } catch (err) {
      // Written or not, the payment row says so once the store answers: captured if the order is there, else voided.
      this.settleSoon.add(paymentId);
      if (err instanceof AppError) {
        // Refused inside the transaction, so rolled back for sure: release the money now.
        await this.settle(paymentId).catch(() => {});
        throw err;
      }
      this.options.logger.warn(
        { err, ...log },
        'order store failed while writing an order; its payment is settled when the store answers',
      );
      if (isStoreUnavailable(err))
        throw new AppError(503, 'store_unavailable', STORE_UNAVAILABLE_MESSAGES.checkoutUnconfirmed);
      throw err;
    }
    // Its order is written and its authorization known: captured at once, without reading the row back.
    await this.capture({
      id: paymentId,
      hold_id: hold.id,
      amount_cents: quote.cents.total,
      authorization_id: auth.authorizationId,
    }).catch((err: unknown) =>
      this.options.logger.warn({ err, ...log }, 'capture not done yet; the housekeeping retries it'),
    );
    this.options.logger.info(
      { orderId, eventId: event.event_id, quantity: hold.quantity, totalCents: quote.cents.total },
      'order placed',
    );
    const events = lifecycle.history.map((h, i) => ({
      seq: i + 1,
      status: h.status,
      at: new Date(h.at).toISOString(),
      note: h.note,
    }));
    const order = await this.orderView({ order: row, events, tickets: row.tickets }, event, listing);
    return { order: { ...order, accessCode, tracking: purchaseTrackingEvent(quote.total) }, created: true };
  }

  /** The order a cart already became (its access code went to the first answer and is not kept in the clear). */
  private async existingOrder(
    holdId: string,
    event: EventDocument,
    listing: GeneratedListing,
  ): Promise<{ order: Order; created: boolean }> {
    const found = await this.store.orderOfHold(holdId);
    if (!found)
      throw new AppError(409, 'checkout_in_progress', 'This cart is being paid for; check your order in a moment');
    return { order: await this.orderView(found, event, listing), created: false };
  }

  /**
   * Brings a payment to its end, from whatever step it is at; safe to call again, from any node. An authorized
   * payment (its order is written) is captured; one still `authorizing` belongs to an attempt that ended without
   * an order and is voided, after its row has moved to `voiding` (a commit still under way holds the row and wins
   * or loses cleanly against that move). Each end is logged once, when its row moves.
   */
  private async settle(paymentId: string): Promise<void> {
    const p = await this.store.paymentOf(paymentId);
    if (!p) return;
    if (p.status === 'authorized') return this.capture({ ...p, authorization_id: p.authorization_id! });
    const log = { payment: p.id, cart: p.hold_id, amountCents: p.amount_cents };
    const now = () => this.now(); // each step at its own time: a processor call may take a while
    if (p.status === 'authorizing' && !(await this.store.movePayment(p.id, 'authorizing', 'voiding', now())))
      return this.settle(paymentId);
    if (p.status !== 'authorizing' && p.status !== 'voiding') return;
    const authorizationId = p.authorization_id ?? (await this.options.payments.findAuthorization(p.id));
    if (authorizationId) {
      const result = await this.options.payments.void(authorizationId);
      if (
        result.status === 'error' &&
        result.reason !== 'unknown_authorization' &&
        result.reason !== 'already_voided'
      ) {
        this.options.logger.error({ ...log, result }, 'payment void refused');
        await this.store.touchPayment(p.id, now());
        return;
      }
    }
    if ((await this.store.movePayment(p.id, 'voiding', 'voided', now())) && authorizationId)
      this.options.logger.info(log, 'payment voided');
  }

  /** Captures an authorized payment whose order is written; logged once, when its row moves. */
  private async capture(p: {
    id: string;
    hold_id: string;
    amount_cents: number;
    authorization_id: string;
  }): Promise<void> {
    const log = { payment: p.id, cart: p.hold_id, amountCents: p.amount_cents };
    const result = await this.options.payments.capture(p.authorization_id);
    if (result.status === 'captured') {
      if (await this.store.movePayment(p.id, 'authorized', 'captured', this.now()))
        this.options.logger.info(log, 'payment captured');
      return;
    }
    // The processor will not take it (the authorization lapsed): the order is not confirmed without money.
    await this.store.movePayment(p.id, 'authorized', 'capture_failed', this.now());
    this.options.logger.error({ ...log, result }, 'payment capture refused; the order stays unconfirmed');
  }

  /**
   * Settles what this node's checkouts left open (at once), then every payment of any node that is still open
   * after its checkout can no longer be running; one payment's failure does not stop the others.
   */
  private async settlePayments(now: Date): Promise<void> {
    for (const id of [...this.settleSoon]) {
      try {
        await this.settle(id);
        this.settleSoon.delete(id);
      } catch (err) {
        // Still away (the store or the processor): kept for the next tick, and the rest goes on.
        this.options.logger.warn({ err, payment: id }, 'payment not settled yet; retried next tick');
      }
    }
    const open = await this.store.unsettledPayments({
      settledBefore: new Date(now.getTime() - SETTLE_AFTER_MS),
      abandonedBefore: new Date(now.getTime() - ABANDONED_AFTER_MS),
    });
    for (const p of open) {
      await this.settle(p.id).catch(async (err: unknown) => {
        this.options.logger.warn({ err, payment: p.id }, 'payment not settled yet; retried later');
        await this.store.touchPayment(p.id, this.now()).catch(() => {});
      });
    }
  }

  /** The order's ready-by day (the in-hand rule) and today, both venue-local. */
  private delivery(
    row: Pick<OrderRow, 'created_at'>,
    event: EventDocument,
    listing: GeneratedListing,
  ): { readyBy: string | null; today: string } {
    const offset = event.venue_time_zone_offset;
    const readyBy = readyByDate({
      inHandDate: listing.inHandDate,
      orderDay: venueDay(row.created_at, offset),
      eventDay: eventDay(event.event_local_timestamp),
    });
    return { readyBy, today: venueDay(this.now(), offset) };
  }

  private async orderView(
    { order: row, events, tickets = [] }: OrderWithEvents,
    event?: EventDocument,
    listing?: GeneratedListing,
  ): Promise<Order> {
    const resolved = event && listing ? { event, listing } : await this.listingWithEvent(row.listing_id, 'order');
    const quote = quoteCart({
      pricePerTicket: row.subtotal_cents / row.quantity / 100,
      quantity: row.quantity,
      deliveryMethod: resolved.listing.deliveryMethod,
      promoCode: row.promo_code,
    });
    const { readyBy, today } = this.delivery(row, resolved.event, resolved.listing);
    const method = resolved.listing.deliveryMethod;
    return {
      id: row.id,
      status: row.status,
      eventId: row.event_id,
      eventName: resolved.event.event_name,
      quantity: row.quantity,
      totalPrice: { value: row.total_cents / 100 },
      lineItems: quote.lineItems,
      detail: orderDetailEntries({
        event: resolved.event,
        // The detail's "ready by" is the order's ready-by day, not the seller's in-hand date.
        listing: { ...resolved.listing, inHandDate: readyBy ?? '' },
        order: { id: row.id, status: row.status, createdAt: row.created_at },
      }),
      timeline: events.map((e) => ({ status: e.status, at: e.at, note: e.note })),
      tickets: tickets.map((t) => {
        const state = ticketState({ orderStatus: row.status, readyBy, today, scannedAt: t.scanned_at });
        return {
          id: t.id,
          section: resolved.listing.section,
          row: resolved.listing.row,
          seat: t.seat,
          state,
          stateText: ticketStateText({
            method,
            state,
            readyBy,
            email: row.email,
            eventLocalTimestamp: resolved.event.event_local_timestamp,
            orderStatusLabel: ORDER_STATUS_LABELS[row.status],
          }),
        };
      }),
      delivery: {
        method,
        readyBy,
        rule: IN_HAND_RULE,
        downloadable:
          method === 'eticket' &&
          tickets.length > 0 &&
          ADMITTED_STATUSES.includes(row.status) &&
          isReady(readyBy, today),
      },
    };
  }

  /**
   * The order, for the guest who placed it or anyone holding its access code; otherwise a 404 as if it did not exist.
   */
  private async authorizedOrder(id: string, access: { guestId?: string; code?: string }): Promise<OrderWithEvents> {
    const found = await this.stored('order', () => this.store.order(id));
    if (!found) throw notFound('Order');
    const byGuest = access.guestId !== undefined && access.guestId === found.order.guest_id;
    const byCode = access.code !== undefined && safeEqual(sha256(access.code), found.order.access_code_hash);
    if (!byGuest && !byCode) throw notFound('Order');
    return found;
  }

  /** An order, for the guest who placed it or anyone holding its access code; otherwise as if it did not exist. */
  async order(id: string, access: { guestId?: string; code?: string }): Promise<Order> {
    return this.orderView(await this.authorizedOrder(id, access));
  }

  /**
   * The order's eTickets as one PDF, a page per ticket, for whoever may see the order: a 404 for an order whose
   * tickets are not eTickets, a 409 saying when while they are not ready (the in-hand rule) or no longer valid.
   */
  async ticketsPdf(
    id: string,
    access: { guestId?: string; code?: string },
  ): Promise<{ filename: string; pdf: Uint8Array }> {
    const found = await this.authorizedOrder(id, access);
    const { order: row, tickets = [] } = found;
    const { event, listing } = await this.listingWithEvent(row.listing_id, 'order');
    if (listing.deliveryMethod !== 'eticket') {
      throw new AppError(
        404,
        'not_etickets',
        `This order’s tickets are not eTickets ` +
          `(${DELIVERY_LABELS[listing.deliveryMethod].toLowerCase()}): the order ` +
          `page says how they reach you`,
      );
    }
    const { readyBy, today } = this.delivery(row, event, listing);
    const state = ticketState({ orderStatus: row.status, readyBy, today, scannedAt: null });
    if (state === 'void')
      throw new AppError(
        409,
        'tickets_void',
        `This order is ${ORDER_STATUS_LABELS[row.status].toLowerCase()}: its tickets are no longer valid`,
      );
    if (state === 'awaiting_seller')
      throw new AppError(
        409,
        'tickets_not_ready',
        'The seller has not confirmed this order yet; your eTickets can be downloaded once they do.',
      );
    if (state === 'scheduled') {
      throw new AppError(
        409,
        'tickets_not_ready',
        readyBy
          ? `Your eTickets can be downloaded from ${displayDate(readyBy)}.`
          : 'Your eTickets can be downloaded once the event’s date is set.',
        { readyBy },
      );
    }
    if (tickets.length === 0)
      throw new AppError(
        409,
        'tickets_not_issued',
        'This order has no eTickets to download; contact support with your order id.',
      );
    const printed: PrintedTicket[] = tickets.map((t) => ({
      barcode: this.barcodes.sign(t.id),
      eventName: event.event_name,
      venue: venueAddress(event),
      when: eventStartText(event.event_local_timestamp),
      section: listing.section,
      row: listing.row,
      seat: t.seat === null ? GENERAL_ADMISSION_ROW : String(t.seat),
      orderId: row.id,
      holder: row.billing.name ?? '',
    }));
    return {
      filename: `tickets-${row.id}.pdf`,
      pdf: await ticketsPdf(printed, `Tickets ${row.id}: ${event.event_name}`),
    };
  }

  /**
   * A venue scanner's check of a barcode: `valid` the first time a signed ticket of a standing order is
   * scanned (recorded at once, on any node), `already_used` after that, `unknown` for anything else.
   */
  async scan(barcode: string): Promise<ScanAnswer> {
    const ticketId = this.barcodes.verify(barcode);
    if (!ticketId) return { result: 'unknown' };
    const outcome = await this.stored('scan', () => this.store.scanTicket(ticketId, this.now(), ADMITTED_STATUSES));
    if (outcome.result === 'unknown') return outcome;
    const { event, listing } = await this.listingWithEvent(outcome.order.listing_id, 'scan');
    return {
      result: outcome.result,
      ticket: {
        id: outcome.ticket.id,
        event: event.event_name,
        venue: venueAddress(event),
        date: eventStartText(event.event_local_timestamp),
        section: listing.section,
        row: listing.row,
        seat: outcome.ticket.seat === null ? GENERAL_ADMISSION_ROW : String(outcome.ticket.seat),
      },
      firstScannedAt: outcome.ticket.scanned_at!,
    };
  }

  /**
   * The embedded sandbox's side of the marketplace: expired holds go back on sale, the seller confirms paid
   * orders after a short delay, e-delivered tickets are delivered on confirmation, and orders complete once
   * their event has started. Production replaces the seller step with the partner's confirmations.
   */
  async tick(): Promise<void> {
    const now = this.now();
    await this.store.releaseExpired(now);
    await this.settlePayments(now).catch((err: unknown) =>
      this.options.logger.warn({ err }, 'settling payments failed; retried next tick'),
    );
    await this.idempotency.freePending();
    const delay = this.options.sellerDelayMs ?? SANDBOX_SELLER_DELAY_MS;
    for (const o of await this.store.paidOrdersAwaitingSeller(new Date(now.getTime() - delay))) {
      await this.store.advance(
        o.id,
        'pending_seller_confirmation',
        'confirmed',
        now,
        'The seller confirmed your tickets',
      );
    }
    for (const o of await this.store.ordersIn('confirmed', now)) {
      const { listing, event } = await this.listingWithEvent(o.listing_id).catch(() => ({
        listing: null,
        event: null,
      }));
      if (!listing || !event) continue;
      // Delivered on the ready-by day (the in-hand rule), not before.
      if (!isReady(this.delivery(o, event, listing).readyBy, venueDay(now, event.venue_time_zone_offset))) continue;
      if (listing.deliveryMethod === 'eticket' || listing.deliveryMethod === 'mobile_transfer') {
        await this.store.advance(
          o.id,
          'confirmed',
          'delivered',
          now,
          listing.deliveryMethod === 'eticket'
            ? 'Your eTickets are ready'
            : 'Your tickets were transferred to your phone',
        );
      }
    }
    for (const o of await this.store.ordersIn('delivered', now)) {
      const event = await this.event(o.event_id).catch(() => null);
      if (event?.event_timestamp && event.event_timestamp * 1000 <= now.getTime()) {
        await this.store.advance(o.id, 'delivered', 'completed', now, 'Enjoy the show');
      }
    }
  }

  /** Runs `tick` every `intervalMs` until stopped; a failing tick is logged and retried next time. */
  start(intervalMs = 1_000): () => void {
    return repeat(
      () => this.tick(),
      intervalMs,
      (err) => this.options.logger.warn({ err }, 'order housekeeping failed; retrying'),
    );
  }
}

function declineMessage(reason: string): string {
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

/** A UUID-shaped id derived from a text (the checkout attempt of an idempotency key). */
function uuidFrom(text: string): string {
  const h = sha256(text);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
