import type { z } from 'zod';
import type { Listing, ListingsQuerySchema } from '../../shared/schemas/commerce.js';
import type { EventDocument } from '../../shared/schemas/documents.js';
import { zoneOfSection } from '../../shared/schemas/seat-maps.js';
import { eventCard } from '../../shared/rules/event-card.js';
import { SERVICE_FEE_RATE, fulfillmentFeePerTicket, perTicketPrices } from '../../shared/rules/pricing.js';
import { notFound } from '../http/errors.js';
import { dealRatings } from './domain/deal-rating.js';
import { eventDay, readyByDate, venueDay } from './domain/delivery.js';
import { availableSplits, canBuyQuantity, type GeneratedListing } from './domain/listings.js';
import { saleState } from './domain/sale-window.js';
import { layoutFor } from './domain/venue-layouts.js';
import type { InventoryStore } from './inventory-store.js';
import type { ListingCatalog } from './listing-catalog.js';
import { stored } from './store-unavailable.js';

/** What the fee disclosure shows: the service fee rate, and the per-ticket fee of shipped tickets. */
const FEES = { serviceFeeRate: SERVICE_FEE_RATE, fulfillmentFeePerTicket: fulfillmentFeePerTicket('physical_mail') };

type ListingsQuery = z.infer<typeof ListingsQuerySchema>;

export interface ListingServiceOptions {
  catalog: ListingCatalog;
  inventory: InventoryStore;
  now: () => Date;
}

/** An event's listings as a shopper sees them: what is left of each, priced all in, with a deal rating. */
export class ListingService {
  constructor(private readonly options: ListingServiceOptions) {}

  private withAvailability(
    listing: GeneratedListing,
    taken: { taken: number; companionsTaken: number },
    event: EventDocument,
  ): Omit<Listing, 'dealRating'> {
    const quantityAvailable = Math.max(0, listing.quantity - taken.taken);
    const { quantity: _listed, ...rest } = listing;
    // The in-hand rule with today as the order day: a listing never shows an in-hand date already gone.
    const inHand = readyByDate({
      inHandDate: listing.inHandDate,
      orderDay: venueDay(this.options.now(), event.venue_time_zone_offset),
      eventDay: eventDay(event.event_local_timestamp),
    });
    return {
      ...rest,
      inHandDate: inHand ?? listing.inHandDate,
      quantityAvailable,
      splits: availableSplits(listing.splits, quantityAvailable),
      companionSeats: Math.max(0, listing.companionSeats - taken.companionsTaken),
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
    usage: Map<number, { taken: number; companionsTaken: number }>,
    keep?: number,
  ): Listing[] {
    const offered = generated
      .map((l) => this.withAvailability(l, usage.get(l.id) ?? { taken: 0, companionsTaken: 0 }, event))
      .filter((l) => (l.quantityAvailable > 0 && l.splits.length > 0) || l.id === keep);
    const layout = layoutFor(event);
    const ratings = dealRatings(offered, (l) => zoneOfSection(layout, l.section));
    return offered.map((l, i) => ({ ...l, dealRating: ratings[i]! }));
  }

  /** The listings of the event `slug` names, filtered and sorted as `query` asks. */
  async listings(slug: string, query: ListingsQuery) {
    const { catalog, inventory } = this.options;
    const event = await catalog.eventBySlug(slug);
    const sale = saleState(event, this.options.now());
    const seatMap = { layout: layoutFor(event) };
    // The answer names the filter it was made for, so the page labels its rows with their own quantity.
    const answered = {
      sort: query.sort,
      ...(query.quantity !== undefined ? { quantity: query.quantity } : {}),
      ...(query.minPrice !== undefined ? { minPrice: query.minPrice } : {}),
      ...(query.maxPrice !== undefined ? { maxPrice: query.maxPrice } : {}),
      ...(query.accessible ? { accessible: true } : {}),
    };
    if (!sale.onSale)
      return {
        eventId: event.event_id,
        seatMap,
        listings: [],
        fees: FEES,
        sale: { onSale: false, code: sale.code, message: sale.message },
        query: answered,
      };
    const [usage, generated] = await stored('listings', () =>
      Promise.all([inventory.usage(event.event_id), catalog.listingsOf(event)]),
    );
    let listings = this.onOffer(event, generated, usage);
    if (query.quantity)
      listings = listings.filter((l) => canBuyQuantity(l.splits, l.quantityAvailable, query.quantity!));
    if (query.minPrice !== undefined) listings = listings.filter((l) => l.allInPricePerTicket >= query.minPrice!);
    if (query.maxPrice !== undefined) listings = listings.filter((l) => l.allInPricePerTicket <= query.maxPrice!);
    // RULES 10.15: accessible seating only.
    if (query.accessible) listings = listings.filter((l) => l.accessible);
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
      query: answered,
    };
  }

  /** One listing as it stands, with its event's card (the ticket page). */
  async listing(listingId: number) {
    const { catalog, inventory } = this.options;
    const { event } = await catalog.listingWithEvent(listingId);
    const [usage, generated] = await stored('listings', () =>
      Promise.all([inventory.usage(event.event_id), catalog.listingsOf(event)]),
    );
    const listing = this.onOffer(event, generated, usage, listingId).find((l) => l.id === listingId);
    if (!listing) throw notFound(`Listing ${listingId}`);
    return { listing, event: eventCard(event), fees: FEES };
  }
}
