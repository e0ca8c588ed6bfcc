import { venueAddress } from '../../shared/rules/address.js';
import { ADMITTED_STATUSES, eventStartText } from './domain/delivery.js';
import { GENERAL_ADMISSION_ROW } from './domain/seats.js';
import type { TicketBarcodes } from './domain/ticket-barcode.js';
import type { ListingCatalog } from './listing-catalog.js';
import type { OrderStore } from './order-store.js';
import { stored } from './store-unavailable.js';

/** What a venue's scanner is told of a barcode (`POST /api/tickets/scan`). */
export type ScanAnswer =
  | {
      result: 'valid' | 'already_used';
      ticket: { id: string; event: string; venue: string; date: string; section: string; row: string; seat: string };
      firstScannedAt: string;
    }
  | { result: 'unknown' };

export interface ScannerServiceOptions {
  orders: OrderStore;
  catalog: ListingCatalog;
  barcodes: TicketBarcodes;
  now: () => Date;
}

/** Tickets at the venue's door: each signed ticket of a standing order admitted once. */
export class ScannerService {
  constructor(private readonly options: ScannerServiceOptions) {}

  /**
   * A venue scanner's check of a barcode: `valid` the first time a signed ticket of a standing order is
   * scanned (recorded at once, on any node), `already_used` after that, `unknown` for anything else.
   */
  async scan(barcode: string): Promise<ScanAnswer> {
    const ticketId = this.options.barcodes.verify(barcode);
    if (!ticketId) return { result: 'unknown' };
    const outcome = await stored('scan', () =>
      this.options.orders.scanTicket(ticketId, this.options.now(), ADMITTED_STATUSES),
    );
    if (outcome.result === 'unknown') return outcome;
    const { event, listing } = await this.options.catalog.listingWithEvent(outcome.order.listing_id, 'scan');
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
}
