import type { Order } from '../../shared/schemas/commerce.js';
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
import { ORDER_STATUS_LABELS } from './domain/order-lifecycle.js';
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

/** An order as its buyer sees it at `now`: its price, detail, history, tickets and how they are delivered. */
export function orderView(
  { order: row, events, tickets = [] }: OrderWithEvents,
  resolved: { event: EventDocument; listing: GeneratedListing },
  now: Date,
): Order {
  const quote = quoteCart({
    pricePerTicket: row.subtotal_cents / row.quantity / 100,
    quantity: row.quantity,
    deliveryMethod: resolved.listing.deliveryMethod,
    promoCode: row.promo_code,
  });
  const { readyBy, today } = deliveryDays(row, resolved.event, resolved.listing, now);
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
        method === 'eticket' && tickets.length > 0 && ADMITTED_STATUSES.includes(row.status) && isReady(readyBy, today),
    },
  };
}
