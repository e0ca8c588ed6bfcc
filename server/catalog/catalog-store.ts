import type { PerformerDocument, VenueDocument } from '../../schemas/documents.js';
import type { Catalog } from './load-catalog.js';

/** The loaded catalog and the lookups by id that pages need; empty until the catalog has loaded. */
export class CatalogStore {
  private current: Catalog | null = null;
  private performers = new Map<number, PerformerDocument>();
  private venues = new Map<number, VenueDocument>();

  get catalog(): Catalog | null {
    return this.current;
  }

  set(catalog: Catalog): void {
    this.current = catalog;
    this.performers = new Map(catalog.collections.Performer.map((p) => [p.performer_id, p]));
    this.venues = new Map(catalog.collections.Venue.map((v) => [v.venue_id, v]));
  }

  performer(id: number): PerformerDocument | undefined {
    return this.performers.get(id);
  }

  venue(id: number): VenueDocument | undefined {
    return this.venues.get(id);
  }
}
