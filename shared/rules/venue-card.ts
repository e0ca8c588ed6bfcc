import type { VenueCard } from '../schemas/cards.js';
import type { VenueDocument } from '../schemas/documents.js';
import { cityRegion } from './address.js';
import { venuePath } from './site-paths.js';

/** A venue's artwork (drawn by the media routes from its name): its picture in search and on its page. */
export function venueImage(venueId: number): string {
  return `/media/venues/${venueId}.svg`;
}

/** RULES 5.7: the venue card; address is the city, then the state (US) or country code. */
export function venueCard(doc: VenueDocument): VenueCard {
  return {
    id: doc.venue_id,
    name: doc.venue_name,
    address: cityRegion(doc),
    url: venuePath(doc.venue_name, doc.venue_id),
  };
}
