import { DELIVERY_LABELS, type Order } from '../../shared/schemas/commerce.js';
import { venueAddress } from '../../shared/rules/address.js';
import { AppError, notFound } from '../http/errors.js';
import { displayDate, eventStartText, ticketState } from './domain/delivery.js';
import { ORDER_STATUS_LABELS } from './domain/order-lifecycle.js';
import { GENERAL_ADMISSION_ROW } from './domain/seats.js';
import type { TicketBarcodes } from './domain/ticket-barcode.js';
import type { ListingCatalog } from './listing-catalog.js';
import { safeEqual, sha256 } from './order-codes.js';
import type { OrderStore } from './order-store.js';
import { deliveryDays, orderView } from './order-view.js';
import type { OrderWithEvents } from './store-rows.js';
import { stored } from './store-unavailable.js';
import { ticketsPdf, type PrintedTicket } from './ticket-pdf.js';

/** Who may see an order: the guest who placed it, or anyone holding its access code. */
export interface OrderAccess {
  guestId?: string;
  code?: string;
}

export interface OrderServiceOptions {
  orders: OrderStore;
  catalog: ListingCatalog;
  barcodes: TicketBarcodes;
  now: () => Date;
}

/** Orders after checkout: the order page, and its eTickets as a PDF once they may be delivered. */
export class OrderService {
  constructor(private readonly options: OrderServiceOptions) {}

  /**
   * The order, for the guest who placed it or anyone holding its access code; otherwise a 404 as if it did not exist.
   */
  private async authorizedOrder(id: string, access: OrderAccess): Promise<OrderWithEvents> {
    const found = await stored('order', () => this.options.orders.order(id));
    if (!found) throw notFound('Order');
    const byGuest = access.guestId !== undefined && access.guestId === found.order.guest_id;
    const byCode = access.code !== undefined && safeEqual(sha256(access.code), found.order.access_code_hash);
    if (!byGuest && !byCode) throw notFound('Order');
    return found;
  }

  /** An order, for the guest who placed it or anyone holding its access code; otherwise as if it did not exist. */
  async order(id: string, access: OrderAccess): Promise<Order> {
    const found = await this.authorizedOrder(id, access);
    const resolved = await this.options.catalog.listingWithEvent(found.order.listing_id, 'order');
    return orderView(found, resolved, this.options.now());
  }

  /**
   * The order's eTickets as one PDF, a page per ticket, for whoever may see the order: a 404 for an order whose
   * tickets are not eTickets, a 409 saying when while they are not ready (the in-hand rule) or no longer valid.
   */
  async ticketsPdf(id: string, access: OrderAccess): Promise<{ filename: string; pdf: Uint8Array }> {
    const found = await this.authorizedOrder(id, access);
    const { order: row, tickets = [] } = found;
    const { event, listing } = await this.options.catalog.listingWithEvent(row.listing_id, 'order');
    if (listing.deliveryMethod !== 'eticket') {
      throw new AppError(
        404,
        'not_etickets',
        `This order’s tickets are not eTickets ` +
          `(${DELIVERY_LABELS[listing.deliveryMethod].toLowerCase()}): the order ` +
          `page says how they reach you`,
      );
    }
    const { readyBy, today } = deliveryDays(row, event, listing, this.options.now());
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
      barcode: this.options.barcodes.sign(t.id),
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
}
