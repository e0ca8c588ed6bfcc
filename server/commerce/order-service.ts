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
import type { RefundStore } from './refund-store.js';
import type { OrderMailCodes } from './order-mail.js';
import type { RefundService } from './refund-service.js';
import { ticketsPdf, type PrintedTicket } from './ticket-pdf.js';

/** Who may see an order: the guest who placed it, or anyone holding its access code. */
export interface OrderAccess {
  guestId?: string;
  code?: string;
}

export interface OrderServiceOptions {
  orders: OrderStore;
  refunds: RefundStore;
  refunding: RefundService;
  catalog: ListingCatalog;
  barcodes: TicketBarcodes;
  now: () => Date;
  /** The codes order emails carry in their links (RULES 19.4). */
  mailCodes?: OrderMailCodes;
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
    // RULES 19.4: the code an order's emails carry opens it as its access code does.
    const byCode =
      access.code !== undefined &&
      (safeEqual(sha256(access.code), found.order.access_code_hash) ||
        (this.options.mailCodes !== undefined && safeEqual(access.code, this.options.mailCodes.code(id))));
    if (!byGuest && !byCode) throw notFound('Order');
    return found;
  }

  /** An order, for the guest who placed it or anyone holding its access code; otherwise as if it did not exist. */
  async order(id: string, access: OrderAccess): Promise<Order> {
    const found = await this.authorizedOrder(id, access);
    return this.view(found);
  }

  private async view(found: OrderWithEvents): Promise<Order> {
    const resolved = await this.options.catalog.listingWithEvent(found.order.listing_id, 'order');
    const { refunds } = this.options;
    const [list, windowUntil] = await stored('order', () =>
      Promise.all([refunds.ofOrder(found.order.id), refunds.windowOf(found.order.id)]),
    );
    return orderView(found, resolved, this.options.now(), { refunds: list, windowUntil });
  }

  /**
   * The buyer asks for the full refund a change of their event offers (RULES 19.2): while its window is open, for an
   * order not yet refunded. The order is called off at once (its tickets void) and the money returned on the next
   * tick; the order as it then stands. A 409 names why when there is nothing to ask for.
   */
  async requestRefund(id: string, access: OrderAccess): Promise<Order> {
    await this.authorizedOrder(id, access);
    const now = this.options.now();
    await stored('order', () =>
      this.options.refunding.request({
        orderId: id,
        reason: 'event_rescheduled',
        note: '',
        requestedBy: 'buyer',
        check: ({ order, windowUntil, closing }) => {
          if (closing) throw new AppError(409, 'refund_in_progress', 'This order is already being refunded in full');
          if (!windowUntil || Date.parse(windowUntil) <= now.getTime())
            throw new AppError(
              409,
              'not_refundable',
              windowUntil
                ? `The refund window for this order closed on ${displayDate(windowUntil.slice(0, 10))}`
                : 'This order can be refunded only if its event is cancelled, postponed or moved',
            );
          if (!['pending_seller_confirmation', 'confirmed', 'delivered'].includes(order.status))
            throw new AppError(409, 'not_refundable', `An order that is ${order.status} cannot be refunded`);
        },
      }),
    );
    const found = await stored('order', () => this.options.orders.order(id));
    return this.view(found!);
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
      companion: t.companion,
      orderId: row.id,
      holder: row.billing.name ?? '',
    }));
    return {
      filename: `tickets-${row.id}.pdf`,
      pdf: await ticketsPdf(printed, `Tickets ${row.id}: ${event.event_name}`),
    };
  }
}
