import type { EventDocument } from '../../shared/schemas/documents.js';
import { venueAddress } from '../../shared/rules/address.js';
import { AppError } from '../http/errors.js';
import { ADMITTED_STATUSES, eventStartText } from './domain/delivery.js';
import { ORDER_STATUS_LABELS, TICKETS_RETURNED_STATUSES } from './domain/order-lifecycle.js';
import { SCAN_LATE_UNTIL_HOUR, eventWhenText, isScanDay, scannedAtText } from './domain/scanning.js';
import { eventIdOfListing } from './domain/listings.js';
import { GENERAL_ADMISSION_ROW } from './domain/seats.js';
import type { TicketBarcodes } from './domain/ticket-barcode.js';
import type { ListingCatalog } from './listing-catalog.js';
import type { ScanStore } from './scan-store.js';
import { scopeCovers, type ScannerScope } from './scanner-keys.js';
import type { TicketRow } from './store-rows.js';
import { stored } from './store-unavailable.js';

/** A ticket as gate staff see it: what it is for and where it seats its holder. */
export interface ScannedTicket {
  id: string;
  eventId: number;
  event: string;
  venue: string;
  date: string;
  section: string;
  row: string;
  seat: string;
}

/**
 * RULES 19.6: what a venue's scanner is told of a barcode scanned for an event (`POST /api/tickets/scan`). Every
 * answer but `valid` says why in `reason`, in words gate staff can read out.
 */
export type ScanAnswer =
  | { result: 'valid'; ticket: ScannedTicket; firstScannedAt: string }
  | { result: 'already_used'; ticket: ScannedTicket; firstScannedAt: string; reason: string }
  | { result: 'wrong_event' | 'not_today' | 'void'; ticket: ScannedTicket; reason: string }
  | { result: 'unknown'; reason: string };

export const UNKNOWN_TICKET: Extract<ScanAnswer, { result: 'unknown' }> = {
  result: 'unknown',
  reason: 'Not one of our tickets: the barcode is forged, damaged or misread',
};

export interface ScannerServiceOptions {
  scans: ScanStore;
  catalog: ListingCatalog;
  barcodes: TicketBarcodes;
  now: () => Date;
}

/** Tickets at the venue's door: each signed ticket of a standing order admitted once, to its own event, on its day. */
export class ScannerService {
  constructor(private readonly options: ScannerServiceOptions) {}

  /**
   * RULES 19.6: the event a key scans for, when its scope covers it: 403 `event_not_allowed` otherwise. A key
   * naming events is refused any other event without a lookup; an event the key could cover (on its list, or any,
   * for a venue's key) that the catalog does not have is 404 `event_not_found` (events are public: this tells a
   * key's holder nothing).
   */
  async eventFor(scope: ScannerScope, eventId: number): Promise<EventDocument> {
    const refused = () => new AppError(403, 'event_not_allowed', `This scanner key does not admit to event ${eventId}`);
    if ('eventIds' in scope && !scope.eventIds.includes(eventId)) throw refused();
    const event = await this.options.catalog.event(eventId).catch((err: unknown) => {
      if (err instanceof AppError && err.status === 404)
        throw new AppError(404, 'event_not_found', `There is no event ${eventId}`);
      throw err;
    });
    if (!scopeCovers(scope, event)) throw refused();
    return event;
  }

  /**
   * RULES 19.6: a scanner's check of a barcode for `event` (one its key covers). `valid` the first time a signed
   * ticket of a standing order for this event is scanned on the event's day (recorded at once, on any node);
   * otherwise nothing is marked, and the answer says why: `void` (its order no longer stands, or not yet),
   * `wrong_event` (the ticket is for another event, named), `not_today` (this event is not on today's date at the
   * venue), `already_used` (with when), `unknown` (no ticket of ours).
   */
  async scan(barcode: string, event: EventDocument): Promise<ScanAnswer> {
    const ticketId = this.options.barcodes.verify(barcode);
    if (!ticketId) return UNKNOWN_TICKET;
    const now = this.options.now();
    const today = isScanDay(now, event.venue_time_zone_offset, event.event_local_timestamp);
    // Only on the event's day is the ticket admitted, by one conditional update naming the event; any other day
    // the ticket is only read.
    const outcome = await stored('scan', () =>
      today
        ? this.options.scans.admit(ticketId, event.event_id, now, ADMITTED_STATUSES)
        : this.options.scans.look(ticketId),
    );
    if (outcome.result === 'unknown') return UNKNOWN_TICKET;
    const { ticket, when } = await this.describe(outcome.ticket);
    if (outcome.result === 'valid') return { result: 'valid', ticket, firstScannedAt: outcome.ticket.scanned_at! };

    const { order } = outcome;
    if (!ADMITTED_STATUSES.includes(order.status)) {
      const label = ORDER_STATUS_LABELS[order.status].toLowerCase();
      const reason = TICKETS_RETURNED_STATUSES.includes(order.status)
        ? `No longer valid: the order is ${label}`
        : `Not valid yet: the order is ${label}`;
      return { result: 'void', ticket, reason };
    }
    if (order.event_id !== event.event_id) {
      return {
        result: 'wrong_event',
        ticket,
        reason: `Ticket for ${ticket.event} on ${when} at ${ticket.venue}, not this event`,
      };
    }
    if (!today) {
      const reason = event.event_local_timestamp
        ? `This event is on ${eventWhenText(event.event_local_timestamp)}, not today: its tickets scan on its day ` +
          `at the venue, and until ${SCAN_LATE_UNTIL_HOUR}:00 AM the morning after`
        : 'This event has no date yet: its tickets scan once it has one, on its day';
      return { result: 'not_today', ticket, reason };
    }
    const scannedAt = outcome.ticket.scanned_at;
    if (scannedAt !== null)
      return {
        result: 'already_used',
        ticket,
        firstScannedAt: scannedAt,
        reason: `Already scanned at ${scannedAtText(scannedAt, event.venue_time_zone_offset)}`,
      };
    // Admittable now, yet not admitted a moment ago: its order moved in between. Nothing was marked.
    return { ...UNKNOWN_TICKET, reason: 'The ticket changed while it was scanned: scan it again' };
  }

  /** The ticket as gate staff see it, and when its event is, as far as the catalog still has its event. */
  private async describe(ticket: TicketRow): Promise<{ ticket: ScannedTicket; when: string }> {
    const seat = ticket.seat === null ? GENERAL_ADMISSION_ROW : String(ticket.seat);
    try {
      const { event, listing } = await this.options.catalog.listingWithEvent(ticket.listing_id, 'scan');
      const scanned: ScannedTicket = {
        id: ticket.id,
        eventId: event.event_id,
        event: event.event_name,
        venue: venueAddress(event),
        date: eventStartText(event.event_local_timestamp),
        section: listing.section,
        row: listing.row,
        seat,
      };
      return { ticket: scanned, when: eventWhenText(event.event_local_timestamp) };
    } catch (err) {
      if (!(err instanceof AppError && err.status === 404)) throw err;
      // An event or listing since taken out of the catalog: the ticket is still told apart by its event's id.
      const eventId = eventIdOfListing(ticket.listing_id);
      const scanned: ScannedTicket = {
        id: ticket.id,
        eventId,
        event: `Event ${eventId}`,
        venue: 'a venue no longer listed',
        date: eventStartText(null),
        section: '',
        row: '',
        seat,
      };
      return { ticket: scanned, when: 'a date no longer listed' };
    }
  }
}
