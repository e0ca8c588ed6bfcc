import { listingTerms } from '../../shared/rules/disclosures.js';
import type { Order, OrderRefund } from '../../shared/schemas/commerce.js';
import type { EventDocument } from '../../shared/schemas/documents.js';
import { quoteCart } from '../../shared/rules/pricing.js';
import {
  ADMITTED_STATUSES,
  IN_HAND_RULE,
  eventDay,
  isReady,
  readyByDate,
  ticketState,
  ticketStateText,
  venueDay,
} from './domain/delivery.js';
import type { GeneratedListing } from './domain/listings.js';
import { orderDetailEntries } from './domain/order-detail.js';
import { ORDER_STATUS_LABELS, refundEligibility } from './domain/order-lifecycle.js';
import type { RefundReasonCode } from './domain/refunds.js';
import type { RefundRow } from './refund-store.js';
import type { OrderRow, OrderWithEvents } from './store-rows.js';

/** The order's ready-by day (the in-hand rule) and today, both venue-local. */
export function deliveryDays(
  row: Pick<OrderRow, 'created_at'>,
  event: EventDocument,
  listing: GeneratedListing,
  now: Date,
): { readyBy: string | null; today: string } {
  const offset = event.venue_time_zone_offset;
  const readyBy = readyByDate({
    inHandDate: listing.inHandDate,
    orderDay: venueDay(row.created_at, offset),
    eventDay: eventDay(event.event_local_timestamp),
  });
  return { readyBy, today: venueDay(now, offset) };
}

const REFUND_REASON_TEXT: Record<RefundReasonCode, string> = {
  event_cancelled: 'The event was cancelled',
  event_rescheduled: 'You asked for a refund after the event moved',
  operator: 'Refund',
};

/** RULES 19.1–19.3: an order's refunds as its buyer reads them. */
export function refundsView(refunds: readonly RefundRow[]): OrderRefund[] {
  return refunds.map((r) => ({
    amount: { value: r.amount_cents / 100 },
    status: r.status,
    reason: r.reason === 'operator' && r.note ? r.note : REFUND_REASON_TEXT[r.reason],
    requestedAt: r.created_at,
    refundedAt: r.refunded_at,
  }));
}

/** What of the order's after-sale the page shows: its refunds, and the full refund the buyer may still ask for. */
export interface OrderAfterSale {
  refunds: readonly RefundRow[];
  /** The end of the refund window a change of the event opened (RULES 19.2), if any. */
  windowUntil: string | null;
}

/** An order's price as it was quoted at checkout (RULES 3.4, 3.5): the same line items the cart showed. */
export function orderQuote(
  row: Pick<OrderRow, 'subtotal_cents' | 'quantity' | 'promo_code'>,
  listing: Pick<GeneratedListing, 'deliveryMethod'>,
) {
  return quoteCart({
    pricePerTicket: row.subtotal_cents / row.quantity / 100,
    quantity: row.quantity,
    deliveryMethod: listing.deliveryMethod,
    promoCode: row.promo_code,
  });
}

/** An order as its buyer sees it at `now`: its price, detail, history, tickets and how they are delivered. */
export function orderView(
  { order: row, events, tickets = [] }: OrderWithEvents,
  resolved: { event: EventDocument; listing: GeneratedListing },
  now: Date,
  afterSale: OrderAfterSale = { refunds: [], windowUntil: null },
): Order {
  const quote = orderQuote(row, resolved.listing);
  const { readyBy, today } = deliveryDays(row, resolved.event, resolved.listing, now);
  const method = resolved.listing.deliveryMethod;
  // RULES 20.1: what the listing said when the order was paid (the listing as it is now for older orders), with the
  // order's own ready-by day as its in-hand date.
  const terms = { ...(row.terms ?? listingTerms(resolved.listing)), inHandDate: readyBy ?? '' };
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
      listing: terms,
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
        companion: t.companion,
        state,
        stateText: ticketStateText({
          method,
          state,
          readyBy,
          // RULES 21.3: an erased order no longer knows the address its transfer went to.
          email: row.erased_at ? 'the email address you gave' : row.email,
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
        method === 'eticket' && tickets.length > 0 && ADMITTED_STATUSES.includes(row.status) && isReady(readyBy, today),
    },
    refunds: refundsView(afterSale.refunds),
    refundOffer: refundOffer(row, resolved.event, afterSale, now),
    terms,
    erasedAt: row.erased_at ?? null,
  };
}

/** The full refund the buyer may ask for now (RULES 19.2): while the window is open and nothing is refunded yet. */
function refundOffer(row: OrderRow, event: EventDocument, afterSale: OrderAfterSale, now: Date): Order['refundOffer'] {
  const { windowUntil, refunds } = afterSale;
  if (!windowUntil || Date.parse(windowUntil) <= now.getTime()) return null;
  if (refunds.some((r) => r.full_refund && r.status !== 'failed')) return null;
  const eligible = refundEligibility(event.event_status, row.status, { windowOpen: true });
  if (eligible.reason !== 'event_rescheduled') return null;
  const refunded = refunds.filter((r) => r.status !== 'failed').reduce((sum, r) => sum + r.amount_cents, 0);
  return { until: windowUntil, amount: { value: (row.total_cents - refunded) / 100 } };
}
