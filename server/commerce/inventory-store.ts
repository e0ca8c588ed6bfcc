import type { ListingDocument } from '../../shared/schemas/commerce.js';
import type { Sql } from '../store/sql.js';
import type { GeneratedListing, ListedAvailability } from './domain/listings.js';
import { listingFromDocument } from './operator-listings.js';
import { num } from './store-rows.js';

/** What there is to sell, in SQL: tickets held and sold per listing, operators' listings, availability as listed. */
export class InventoryStore {
  constructor(readonly sql: Sql) {}

  /**
   * Tickets held or sold per listing of an event, and companion seats (RULES 10.16) apart (listings never touched
   * have no row: all available).
   */
  async usage(eventId: number): Promise<Map<number, { listed: number; taken: number; companionsTaken: number }>> {
    const rows = await this.sql.query(
      `SELECT listing_id, listed, held, sold, companions_held, companions_sold
       FROM listing_inventory WHERE event_id = $1`,
      [eventId],
    );
    return new Map(
      rows.map((r) => [
        num(r.listing_id),
        {
          listed: num(r.listed),
          taken: num(r.held) + num(r.sold),
          companionsTaken: num(r.companions_held) + num(r.companions_sold),
        },
      ]),
    );
  }

  /** The operator's own listings of an event in catalog `catalog` (loaded from its `Listing.jsonl`). */
  async operatorListings(catalog: string, eventId: number): Promise<GeneratedListing[]> {
    const rows = await this.sql.query<{ document: unknown }>(
      'SELECT document FROM catalog_listings WHERE catalog = $1 AND event_id = $2 ORDER BY listing_id',
      [catalog, eventId],
    );
    return rows.map((r) =>
      listingFromDocument((typeof r.document === 'string' ? JSON.parse(r.document) : r.document) as ListingDocument),
    );
  }

  /**
   * The event's availability as it was listed, once demand signals have recorded it (`demand_baselines`):
   * its listings are generated from that, not from the availability its document shows now.
   */
  async listedAvailability(eventId: number): Promise<ListedAvailability | undefined> {
    const [row] = await this.sql.query<{ baseline: unknown }>(
      "SELECT baseline FROM demand_baselines WHERE collection = 'Event' AND doc_id = $1",
      [String(eventId)],
    );
    if (!row) return undefined;
    const baseline = (
      typeof row.baseline === 'string' ? JSON.parse(row.baseline) : row.baseline
    ) as Partial<ListedAvailability>;
    if (typeof baseline.tickets_available !== 'number' || typeof baseline.ticket_groups_available !== 'number')
      return undefined;
    return {
      tickets_available: baseline.tickets_available,
      ticket_groups_available: baseline.ticket_groups_available,
      ...(typeof baseline.min_ticket_price === 'number' ? { min_ticket_price: baseline.min_ticket_price } : {}),
    };
  }
}
