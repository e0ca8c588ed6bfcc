import type { EventDocument } from '../../shared/schemas/documents.js';
import { idFromSlug } from '../../shared/rules/slug.js';
import type { Logger } from '../../shared/logger.js';
import { AppError, notFound } from '../http/errors.js';
import type { SearchEngine } from '../search/search-engine.js';
import {
  asListed,
  eventIdOfListing,
  listingsForEvent,
  type GeneratedListing,
  type ListedAvailability,
} from './domain/listings.js';
import { companionBlockStart, seatBlockStart } from './domain/seats.js';
import type { InventoryStore } from './inventory-store.js';
import { stored, type StoreWork } from './store-unavailable.js';

export interface ListingCatalogOptions {
  inventory: InventoryStore;
  engine: () => SearchEngine;
  logger: Logger;
}

/**
 * The tickets there are to sell and the events they are for: an event from the search engine, and its
 * listings as listed, either generated from the event or an imported catalog's own.
 */
export class ListingCatalog {
  /** The imported catalog whose own listings are sold (`useOperatorListings`); undefined: generated listings. */
  private operatorCatalog: string | undefined;

  constructor(private readonly options: ListingCatalogOptions) {}

  /**
   * Sells an imported catalog's own listings (loaded into the store under the catalog's name) instead of
   * generated ones; undefined goes back to generated.
   */
  useOperatorListings(catalog: string | undefined): void {
    this.operatorCatalog = catalog;
  }

  async event(eventId: number): Promise<EventDocument> {
    let result;
    try {
      result = await this.options
        .engine()
        .search({ collection: 'Event', filters: [{ op: 'eq', field: 'event_id', value: eventId }], perPage: 1 });
    } catch (err) {
      // The catalog not answering is not the event being gone: a 503 a retry may get past, never a 404.
      if (err instanceof AppError) throw err;
      this.options.logger.warn({ err }, 'search engine unavailable for an event lookup');
      throw new AppError(
        503,
        'search_unavailable',
        'Event details cannot be loaded for a moment; please try again shortly.',
      );
    }
    const doc = result.hits[0]?.document as EventDocument | undefined;
    if (!doc) throw notFound(`Event ${eventId}`);
    return doc;
  }

  /**
   * The events among `ids` (at most MAX_IN_VALUES) the catalog has, by id, in one search of the engine (a failure
   * is thrown as it came).
   */
  async events(ids: readonly number[]): Promise<Map<number, EventDocument>> {
    if (ids.length === 0) return new Map();
    const result = await this.options.engine().search({
      collection: 'Event',
      filters: [{ op: 'in', field: 'event_id', values: [...ids] }],
      perPage: ids.length,
    });
    return new Map(result.hits.map((h) => [Number(h.document.event_id), h.document as EventDocument]));
  }

  async eventBySlug(slug: string): Promise<EventDocument> {
    const id = idFromSlug(slug);
    if (id === null) throw notFound(`Event "${slug}"`);
    return this.event(id);
  }

  /** An event's listings as listed: the operator's own, or generated from the event as it was listed. */
  async listingsOf(event: EventDocument): Promise<GeneratedListing[]> {
    const { inventory } = this.options;
    if (this.operatorCatalog) return inventory.operatorListings(this.operatorCatalog, event.event_id);
    return listingsForEvent(asListed(event, await inventory.listedAvailability(event.event_id)));
  }

  /** The same, given the availability as listed (the demand signals keep it): what tickets there are to sell. */
  listingsAsListed(event: EventDocument, listed: ListedAvailability): Promise<GeneratedListing[]> {
    if (this.operatorCatalog) return this.options.inventory.operatorListings(this.operatorCatalog, event.event_id);
    return Promise.resolve(listingsForEvent(asListed(event, listed)));
  }

  /** A listing and its event; `during` says what the shopper is told should the store not answer. */
  async listingWithEvent(
    listingId: number,
    during: StoreWork = 'listings',
  ): Promise<{
    listing: GeneratedListing;
    event: EventDocument;
    seatBlockStart: number | null;
    /** Where its companion seats are numbered from (domain/seats.ts). */
    companionBlockStart: number | null;
  }> {
    const eventId = eventIdOfListing(listingId);
    const event = await this.event(eventId).catch((err: unknown) => {
      if (err instanceof AppError && err.status === 404) throw notFound(`Listing ${listingId}`);
      throw err;
    });
    const all = await stored(during, () => this.listingsOf(event));
    const listing = all.find((l) => l.id === listingId);
    if (!listing) throw notFound(`Listing ${listingId}`);
    return {
      listing,
      event,
      seatBlockStart: seatBlockStart(all, listingId),
      companionBlockStart: companionBlockStart(all, listingId),
    };
  }
}
