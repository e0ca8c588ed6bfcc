import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { z } from 'zod';
import {
  ListingsQuerySchema,
  type Cart,
  type CheckoutRequest,
  type Listing,
  type Order,
  type OrderStatus,
} from '../../schemas/commerce.js';
import type { EventDocument } from '../../schemas/documents.js';
import { AppError, notFound } from '../http/errors.js';
import { purchaseTrackingEvent } from '../rules/commerce.js';
import { eventCard } from '../rules/event-card.js';
import { idFromSlug } from '../rules/slug.js';
import type { SearchEngine } from '../search/search-engine.js';
import { CommerceStore, type HoldRow, type OrderRow } from './commerce-store.js';
import { availableSplits, canBuyQuantity, eventIdOfListing, listingsForEvent, type GeneratedListing } from './domain/listings.js';
import { newOrder, transition } from './domain/order-lifecycle.js';
import { orderDetailEntries } from './domain/order-detail.js';
import type { PaymentProvider } from './domain/payments.js';
import { allInPrice, fulfillmentFeePerTicket, PromoCodeError, quoteCart, SERVICE_FEE_RATE } from './domain/pricing.js';

/** How long a cart holds its tickets (product decision: long enough to pay, short enough not to block others). */
export const HOLD_MINUTES = 10;
/** How long the sandbox seller takes to confirm an order. */
export const SANDBOX_SELLER_DELAY_MS = 1_500;
/** What the fee disclosure shows: the service fee rate, and the per-ticket fee of shipped tickets. */
const FEES = { serviceFeeRate: SERVICE_FEE_RATE, fulfillmentFeePerTicket: fulfillmentFeePerTicket('physical_mail') };

interface Logger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface CommerceServiceOptions {
  store: CommerceStore;
  engine: () => SearchEngine;
  payments: PaymentProvider;
  logger: Logger;
  now?: () => Date;
  sellerDelayMs?: number;
}

type ListingsQuery = z.infer<typeof ListingsQuerySchema>;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const ORDER_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
function randomCode(length: number): string {
  const bytes = randomBytes(length);
  return Array.from(bytes, (b) => ORDER_ALPHABET[b % ORDER_ALPHABET.length]).join('');
}

/**
 * Listings, carts (holds), checkout and orders. Every step that changes what is available goes through the
 * store's single conditional statements; the payment is charged before the order is written, with an
 * idempotency key, so a retry after a failure never charges twice and a failure never leaves half an order.
 */
export class CommerceService {
  private readonly now: () => Date;

  constructor(private readonly options: CommerceServiceOptions) {
    this.now = options.now ?? (() => new Date());
  }

  private get store() {
    return this.options.store;
  }

  /** Runs a store call; a store that does not answer is a clear 503, never a 500. */
  private async stored<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (err instanceof AppError) throw err;
      this.options.logger.error({ err }, 'order store unavailable');
      throw new AppError(503, 'store_unavailable', 'Orders are unavailable for a moment; your tickets are still held. Please try again.');
    }
  }

  private async event(eventId: number): Promise<EventDocument> {
    const result = await this.options.engine().search({ collection: 'Event', filters: [{ op: 'eq', field: 'event_id', value: eventId }], perPage: 1 });
    const doc = result.hits[0]?.document as EventDocument | undefined;
    if (!doc) throw notFound(`Event ${eventId}`);
    return doc;
  }

  private async eventBySlug(slug: string): Promise<EventDocument> {
    const id = idFromSlug(slug);
    if (id === null) throw notFound(`Event "${slug}"`);
    return this.event(id);
  }

  private withAvailability(listing: GeneratedListing, taken: number): Listing {
    const quantityAvailable = Math.max(0, listing.quantity - taken);
    const { quantity: _listed, ...rest } = listing;
    return {
      ...rest,
      quantityAvailable,
      splits: availableSplits(listing.splits, quantityAvailable),
      allInPricePerTicket: allInPrice(listing.pricePerTicket, listing.deliveryMethod),
    };
  }

  async listings(slug: string, query: ListingsQuery) {
    const event = await this.eventBySlug(slug);
    const usage = await this.stored(() => this.store.usage(event.event_id));
    const sellable = event.event_status !== 'cancelled' && (event.event_timestamp === null || event.event_timestamp * 1000 > this.now().getTime());
    let listings = sellable ? listingsForEvent(event).map((l) => this.withAvailability(l, usage.get(l.id)?.taken ?? 0)) : [];
    listings = listings.filter((l) => l.quantityAvailable > 0);
    if (query.quantity) listings = listings.filter((l) => canBuyQuantity(l.splits, l.quantityAvailable, query.quantity!));
    if (query.minPrice !== undefined) listings = listings.filter((l) => l.allInPricePerTicket >= query.minPrice!);
    if (query.maxPrice !== undefined) listings = listings.filter((l) => l.allInPricePerTicket <= query.maxPrice!);
    const bySection = (a: Listing, b: Listing) => a.section.localeCompare(b.section, 'en', { numeric: true }) || a.row.localeCompare(b.row, 'en', { numeric: true });
    listings.sort(
      query.sort === 'section' ? bySection : query.sort === 'price_desc' ? (a, b) => b.allInPricePerTicket - a.allInPricePerTicket || a.id - b.id : (a, b) => a.allInPricePerTicket - b.allInPricePerTicket || a.id - b.id,
    );
    return { eventId: event.event_id, listings, fees: FEES };
  }

  private async listingWithEvent(listingId: number): Promise<{ listing: GeneratedListing; event: EventDocument }> {
    const eventId = eventIdOfListing(listingId);
    const event = await this.event(eventId).catch(() => {
      throw notFound(`Listing ${listingId}`);
    });
    const listing = listingsForEvent(event).find((l) => l.id === listingId);
    if (!listing) throw notFound(`Listing ${listingId}`);
    return { listing, event };
  }

  async listing(listingId: number) {
    const { listing, event } = await this.listingWithEvent(listingId);
    const usage = await this.stored(() => this.store.usage(event.event_id));
    return { listing: this.withAvailability(listing, usage.get(listing.id)?.taken ?? 0), event: eventCard(event), fees: FEES };
  }

  private cartOf(hold: HoldRow, listing: GeneratedListing): Cart {
    const quote = quoteCart({ pricePerTicket: hold.price_per_ticket_cents / 100, quantity: hold.quantity, deliveryMethod: listing.deliveryMethod });
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
    };
  }

  async createCart(guestId: string, input: { listingId: number; quantity: number }): Promise<Cart> {
    const { listing, event } = await this.listingWithEvent(input.listingId);
    if (event.event_status === 'cancelled') throw new AppError(409, 'event_cancelled', 'This event is cancelled; its tickets are no longer sold');
    const usage = await this.stored(() => this.store.usage(event.event_id));
    const available = listing.quantity - (usage.get(listing.id)?.taken ?? 0);
    if (available >= input.quantity && !canBuyQuantity(listing.splits, available, input.quantity)) {
      const allowed = availableSplits(listing.splits, available);
      throw new AppError(400, 'invalid_quantity', `This seller sells these tickets in quantities of ${allowed.join(', ')}`, [{ path: 'quantity', message: `choose ${allowed.join(', ')}` }]);
    }
    const now = this.now();
    const hold = await this.stored(() =>
      this.store.createHold({
        id: randomUUID(),
        guestId,
        listing: { id: listing.id, eventId: event.event_id, listed: listing.quantity },
        quantity: input.quantity,
        pricePerTicketCents: Math.round(listing.pricePerTicket * 100),
        now,
        expiresAt: new Date(now.getTime() + HOLD_MINUTES * 60_000),
      }),
    );
    return this.cartOf(hold, listing);
  }

  private async ownHold(guestId: string, cartId: string): Promise<HoldRow> {
    const hold = await this.stored(() => this.store.hold(cartId));
    // Another guest's cart is as unknown as a cart that does not exist.
    if (!hold || hold.guest_id !== guestId) throw notFound('Cart');
    return hold;
  }

  async cart(guestId: string, cartId: string): Promise<Cart> {
    const hold = await this.ownHold(guestId, cartId);
    const { listing } = await this.listingWithEvent(hold.listing_id);
    return this.cartOf(hold, listing);
  }

  async releaseCart(guestId: string, cartId: string): Promise<void> {
    await this.ownHold(guestId, cartId);
    await this.stored(() => this.store.releaseHold(cartId, guestId));
  }

  async checkout(guestId: string, request: CheckoutRequest): Promise<Order> {
    const hold = await this.ownHold(guestId, request.cartId);
    const now = this.now();
    if (hold.status !== 'active' || new Date(hold.expires_at).getTime() <= now.getTime()) {
      throw new AppError(410, 'hold_expired', 'The hold on these tickets has ended; choose your tickets again');
    }
    const { listing, event } = await this.listingWithEvent(hold.listing_id);
    let quote;
    try {
      quote = quoteCart({ pricePerTicket: hold.price_per_ticket_cents / 100, quantity: hold.quantity, deliveryMethod: listing.deliveryMethod, promoCode: request.promoCode });
    } catch (err) {
      if (err instanceof PromoCodeError) throw new AppError(400, 'invalid_promo_code', `“${request.promoCode}” is not a valid promo code`, [{ path: 'promoCode', message: 'This promo code is not valid' }]);
      throw err;
    }
    // The same cart, amount and means of payment is the same charge: a retry after a failure cannot charge twice.
    const paymentFingerprint = request.payment.method === 'card' ? `card:${request.payment.cardNumber.replace(/\D/g, '').slice(-4)}:${request.payment.expMonth}/${request.payment.expYear}` : 'applepay';
    const idempotencyKey = `${hold.id}:${sha256(`${paymentFingerprint}:${quote.cents.total}`).slice(0, 16)}`;
    const charge = await this.options.payments.charge({ amountCents: quote.cents.total, currency: 'USD', payment: request.payment, idempotencyKey });
    if (charge.status === 'declined') {
      throw new AppError(402, 'payment_declined', declineMessage(charge.reason), { reason: charge.reason, paymentType: request.payment.method });
    }
    if (charge.status === 'error') {
      throw new AppError(502, 'payment_error', 'The payment could not be processed; you have not been charged. Please try again.', { reason: charge.reason, paymentType: request.payment.method });
    }

    const orderId = `ORD-${randomCode(10)}`;
    const accessCode = randomCode(20);
    const lifecycle = transition(newOrder(now, 'Tickets held'), 'pending_seller_confirmation', now, 'Payment received; waiting for the seller to confirm');
    const row = await this.stored(() =>
      this.store.purchase({
        holdId: hold.id,
        guestId,
        now,
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
          charge_id: charge.chargeId,
        },
        history: lifecycle.history.map((h) => ({ status: h.status, at: new Date(h.at), note: h.note })),
      }),
    );
    this.options.logger.info({ orderId, eventId: event.event_id, quantity: hold.quantity, totalCents: quote.cents.total }, 'order placed');
    const order = await this.orderView(row, lifecycle.history.map((h, i) => ({ seq: i + 1, status: h.status, at: new Date(h.at).toISOString(), note: h.note })), event, listing);
    return { ...order, accessCode, tracking: purchaseTrackingEvent(quote.total) };
  }

  private async orderView(row: OrderRow, events: { status: OrderStatus; at: string; note: string }[], event?: EventDocument, listing?: GeneratedListing): Promise<Order> {
    const resolved = event && listing ? { event, listing } : await this.listingWithEvent(row.listing_id);
    const quote = quoteCart({
      pricePerTicket: (row.subtotal_cents / row.quantity) / 100,
      quantity: row.quantity,
      deliveryMethod: resolved.listing.deliveryMethod,
      promoCode: row.promo_code,
    });
    return {
      id: row.id,
      status: row.status,
      eventId: row.event_id,
      eventName: resolved.event.event_name,
      quantity: row.quantity,
      totalPrice: { value: row.total_cents / 100 },
      lineItems: quote.lineItems,
      detail: orderDetailEntries({ event: resolved.event, listing: resolved.listing, order: { id: row.id, status: row.status, createdAt: row.created_at } }),
      timeline: events.map((e) => ({ status: e.status, at: e.at, note: e.note })),
    };
  }

  /** An order, for the guest who placed it or anyone holding its access code; otherwise as if it did not exist. */
  async order(id: string, access: { guestId?: string; code?: string }): Promise<Order> {
    const found = await this.stored(() => this.store.order(id));
    if (!found) throw notFound('Order');
    const byGuest = access.guestId !== undefined && access.guestId === found.order.guest_id;
    const byCode = access.code !== undefined && safeEqual(sha256(access.code), found.order.access_code_hash);
    if (!byGuest && !byCode) throw notFound('Order');
    return this.orderView(found.order, found.events);
  }

  /**
   * The embedded sandbox's side of the marketplace: expired holds go back on sale, the seller confirms paid
   * orders after a short delay, e-delivered tickets are delivered on confirmation, and orders complete once
   * their event has started. Production replaces the seller step with the partner's confirmations.
   */
  async tick(): Promise<void> {
    const now = this.now();
    await this.store.releaseExpired(now);
    const delay = this.options.sellerDelayMs ?? SANDBOX_SELLER_DELAY_MS;
    for (const o of await this.store.ordersIn('pending_seller_confirmation', new Date(now.getTime() - delay))) {
      await this.store.advance(o.id, 'pending_seller_confirmation', 'confirmed', now, 'The seller confirmed your tickets');
    }
    for (const o of await this.store.ordersIn('confirmed', now)) {
      const { listing, event } = await this.listingWithEvent(o.listing_id).catch(() => ({ listing: null, event: null }));
      if (!listing || !event) continue;
      if (listing.deliveryMethod === 'eticket' || listing.deliveryMethod === 'mobile_transfer') {
        await this.store.advance(o.id, 'confirmed', 'delivered', now, listing.deliveryMethod === 'eticket' ? 'Your eTickets are ready' : 'Your tickets were transferred to your phone');
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
    let running = false;
    const timer = setInterval(() => {
      if (running) return;
      running = true;
      this.tick()
        .catch((err: unknown) => this.options.logger.warn({ err }, 'order housekeeping failed; retrying'))
        .finally(() => {
          running = false;
        });
    }, intervalMs);
    timer.unref();
    return () => clearInterval(timer);
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

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
