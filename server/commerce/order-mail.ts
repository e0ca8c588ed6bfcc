import { GUARANTEE_PATH, listingNotes, listingTerms } from '../../shared/rules/disclosures.js';
import { formatMoney } from '../../shared/rules/pricing.js';
import { createHmac } from 'node:crypto';
import { DELIVERY_LABELS } from '../../shared/schemas/commerce.js';
import type { EventDocument } from '../../shared/schemas/documents.js';
import { venueAddress } from '../../shared/rules/address.js';
import { LINE_ITEM_KEYS } from '../../shared/rules/pricing.js';
import type { Logger } from '../../shared/logger.js';
import type { MailAttachments, MailLinks, OrderMailFacts, OutgoingMail } from '../mail/mail-kinds.js';
import { enqueueMail } from '../mail/outbox.js';
import type { Sql, SqlTx } from '../store/sql.js';
import { eventStartText } from './domain/delivery.js';
import type { GeneratedListing } from './domain/listings.js';
import { isGeneralAdmission } from './domain/seats.js';
import type { ChangeNotice } from './event-changes.js';
import type { ListingCatalog } from './listing-catalog.js';
import { deliveryDays, orderQuote } from './order-view.js';
import type { RefundNotice } from './refund-service.js';
import { num, ticketRow, type OrderRow, type TicketRow } from './store-rows.js';

/** A mail of some kind, before it is addressed to an order's buyer. */
type Unaddressed<M = OutgoingMail> = M extends OutgoingMail ? Omit<M, 'to' | 'brand'> : never;

/** The alphabet of order access codes (RFC 4648 base32): a mail code is read where an access code is. */
const CODE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const CODE_LENGTH = 20;

/**
 * RULES 19.4: the code an order's emails carry in their links, in place of the access code (which is kept only as
 * its digest): 20 characters of HMAC-SHA256 over the order id, with a key derived from the session secret, so every
 * node makes and checks the same one and the outbox never holds it (links are made when a mail is sent).
 */
export class OrderMailCodes {
  private readonly key: Uint8Array;

  constructor(secret: Uint8Array | string) {
    this.key = new Uint8Array(createHmac('sha256', secret).update('order-mail-links').digest());
  }

  code(orderId: string): string {
    const mac = createHmac('sha256', this.key).update(orderId).digest();
    let bits = 0;
    let value = 0;
    let out = '';
    for (const byte of mac) {
      value = (value << 8) | byte;
      bits += 8;
      while (bits >= 5 && out.length < CODE_LENGTH) {
        out += CODE_ALPHABET[(value >>> (bits - 5)) & 31];
        bits -= 5;
      }
      if (out.length === CODE_LENGTH) break;
    }
    return out;
  }
}

/** The links an order's emails carry: its page and its tickets, each opened by the order's mail code. */
export function orderMailLinks(codes: OrderMailCodes, origin: () => string): MailLinks {
  const code = (orderId: string) => encodeURIComponent(codes.code(orderId));
  return {
    order: (orderId) => `${origin()}/orders/${encodeURIComponent(orderId)}?code=${code(orderId)}`,
    tickets: (orderId) => `${origin()}/api/orders/${encodeURIComponent(orderId)}/tickets.pdf?code=${code(orderId)}`,
    guarantee: () => `${origin()}${GUARANTEE_PATH}`,
  };
}

/** What an order's emails show of it. */
export function orderMailFacts(
  order: OrderRow,
  tickets: readonly TicketRow[],
  event: EventDocument,
  listing: GeneratedListing,
): OrderMailFacts {
  const seatsOf = (companion: boolean) =>
    tickets.filter((t) => t.companion === companion).flatMap((t) => (t.seat === null ? [] : [t.seat]));
  const seats = seatsOf(false);
  // RULES 10.16: companion seats are numbered apart from the listing's block, so they are named apart.
  const companionSeats = seatsOf(true);
  const companions =
    companionSeats.length === 0
      ? ''
      : `; companion seat${companionSeats.length === 1 ? '' : 's'} ${companionSeats.join(', ')}`;
  return {
    orderId: order.id,
    eventName: event.event_name,
    venue: venueAddress(event),
    when: event.event_local_timestamp ? eventStartText(event.event_local_timestamp) : 'Date to be announced',
    quantity: order.quantity,
    section: listing.section,
    row: listing.row,
    seats:
      (isGeneralAdmission(listing.row) || seats.length === 0
        ? 'General admission'
        : seats.length === 1
          ? `Seat ${seats[0]}`
          : `Seats ${Math.min(...seats)}–${Math.max(...seats)}`) + companions,
    buyerName: order.billing.name ?? '',
  };
}

/** An order's listing and event, read from the catalog before a transaction. */
type Resolved = { event: EventDocument; listing: GeneratedListing };

export interface OrderMailOptions {
  sql: Sql;
  catalog: ListingCatalog;
  logger: Logger;
  now: () => Date;
}

/**
 * The emails of an order's life (RULES 19.4), each queued in the transaction that decides it, once per key: the
 * confirmation with the order is written, "tickets ready" as eTickets are delivered, a refund notice as money goes
 * back (the cancellation notice for a cancelled event), and a notice when the event moves.
 */
export class OrderMail {
  constructor(private readonly options: OrderMailOptions) {}

  /** The order confirmation, queued with the order. */
  async placed(
    tx: SqlTx,
    order: OrderRow & { tickets: TicketRow[] },
    resolved: { event: EventDocument; listing: GeneratedListing },
  ): Promise<void> {
    const { event, listing } = resolved;
    const facts = orderMailFacts(order, order.tickets, event, listing);
    // The order's own line items (the labels the cart and the order page show), each with its amount in cents.
    const quote = orderQuote(order, listing);
    const centsOf: Record<string, number> = {
      [LINE_ITEM_KEYS.serviceFee]: quote.cents.serviceFee,
      [LINE_ITEM_KEYS.delivery]: quote.cents.fulfillmentFee,
      [LINE_ITEM_KEYS.promo]: -quote.cents.discount,
    };
    const lineItems = quote.lineItems
      .filter((item) => item.key !== LINE_ITEM_KEYS.total)
      .map((item) => ({ label: item.key, cents: centsOf[item.key] ?? quote.cents.subtotal }));
    const { readyBy } = deliveryDays(order, event, listing, this.options.now());
    await this.queue(tx, order, {
      key: `order_confirmation:${order.id}`,
      kind: 'order_confirmation',
      data: {
        ...facts,
        totalCents: order.total_cents,
        lineItems,
        delivery: DELIVERY_LABELS[listing.deliveryMethod],
        readyBy,
        terms: listingNotes(order.terms ?? listingTerms(listing), (dollars) => formatMoney(dollars)).map((l) => l.text),
      },
    });
  }

  /** "Your tickets are ready", with the PDF, as an eTicket order is delivered (its listing already read). */
  async delivered(tx: SqlTx, order: OrderRow, resolved: Resolved): Promise<void> {
    const facts = await this.facts(tx, order, resolved);
    await this.queue(tx, order, { key: `tickets_ready:${order.id}`, kind: 'tickets_ready', data: facts });
  }

  /** The notice of a refund made: for a cancelled event, the cancellation notice. */
  readonly refunded: RefundNotice = {
    prepare: async (orderId) => {
      const [row] = await this.options.sql.query('SELECT listing_id FROM orders WHERE id = $1', [orderId]);
      return row ? this.resolve(num(row.listing_id)) : null;
    },
    write: async (tx, refund, order, prepared) => {
      if (!prepared) return;
      const facts = await this.facts(tx, order, prepared as Resolved);
      const at = refund.refunded_at ?? this.options.now().toISOString();
      if (refund.reason === 'event_cancelled' && refund.full_refund) {
        await this.queue(tx, order, {
          key: `event_cancelled:${order.id}`,
          kind: 'event_cancelled',
          data: { ...facts, amountCents: refund.amount_cents, at },
        });
        return;
      }
      const [sum] = await tx.query(
        "SELECT coalesce(sum(amount_cents), 0) AS refunded FROM refunds WHERE order_id = $1 AND status = 'refunded'",
        [order.id],
      );
      await this.queue(tx, order, {
        key: `refund:${refund.id}`,
        kind: 'refund',
        data: {
          ...facts,
          amountCents: refund.amount_cents,
          refundedCents: num(sum?.refunded ?? refund.amount_cents),
          totalCents: order.total_cents,
          reason:
            refund.reason === 'event_rescheduled'
              ? 'You asked for a refund after your event moved'
              : refund.note || 'A refund from our team',
          at,
        },
      });
    },
  };

  /** The notice of an event that moved, with the refund window it opens. */
  readonly changed: ChangeNotice = {
    prepare: async (eventId) => {
      const rows = await this.options.sql.query('SELECT DISTINCT listing_id FROM orders WHERE event_id = $1', [
        eventId,
      ]);
      const resolved = new Map<number, Resolved>();
      for (const r of rows) {
        const found = await this.resolve(num(r.listing_id));
        if (found) resolved.set(num(r.listing_id), found);
      }
      return resolved;
    },
    write: async (tx, order, change, prepared) => {
      const resolved = (prepared as Map<number, Resolved> | undefined)?.get(order.listing_id);
      if (!resolved) return;
      const facts = await this.facts(tx, order, resolved);
      await this.queue(tx, order, {
        key: `event_changed:${change.noticeId}:${order.id}`,
        kind: 'event_changed',
        data: {
          ...facts,
          when: change.when,
          status: change.status,
          previousWhen: change.previousWhen,
          refundUntil: change.refundUntil.toISOString(),
        },
      });
    },
  };

  /** A listing and its event from the catalog (outside any transaction); null (and logged) when they are gone. */
  private async resolve(listingId: number): Promise<Resolved | null> {
    try {
      const { event, listing } = await this.options.catalog.listingWithEvent(listingId, 'order');
      return { event, listing };
    } catch (err) {
      // The catalog no longer has the listing: the order page still says it all, so the mail is not sent.
      this.options.logger.warn({ err, listing: listingId }, 'order mail not queued: its listing is gone');
      return null;
    }
  }

  /** The order's facts, with its tickets as the transaction sees them. */
  private async facts(tx: SqlTx, order: OrderRow, { event, listing }: Resolved): Promise<OrderMailFacts> {
    const tickets = await tx.query('SELECT * FROM tickets WHERE order_id = $1 ORDER BY seq', [order.id]);
    return orderMailFacts(order, tickets.map(ticketRow), event, listing);
  }

  /** Queues a mail to the order's buyer, in the order's brand (the default brand for an order without one). */
  private async queue(tx: SqlTx, order: OrderRow, mail: Unaddressed): Promise<void> {
    // RULES 21.3: an order whose buyer's details were erased has no one to write to; the order page says it all.
    if (order.erased_at || !order.email) return;
    await enqueueMail(tx, { ...mail, to: order.email, brand: order.brand ?? '' } as OutgoingMail, this.options.now());
  }
}

/** Attaches an order's eTickets to its "tickets ready" mail, read when it is sent. */
export function ticketAttachments(
  pdf: (orderId: string) => Promise<{ filename: string; pdf: Uint8Array }>,
): MailAttachments {
  return {
    ticketsPdf: async (orderId) => {
      try {
        const { filename, pdf: content } = await pdf(orderId);
        return { filename, content };
      } catch {
        // Not ready or no longer valid (the order was called off since): the mail links to the order instead.
        return null;
      }
    },
  };
}
