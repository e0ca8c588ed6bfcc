import type { VenueDocument } from '../schemas/documents.js';

export type Place = Pick<
  VenueDocument,
  'venue_city' | 'venue_state' | 'venue_state_province_short' | 'venue_country_short'
>;

const US = 'US';

/** RULES 5.5, 5.7: the state for a US venue, the country code anywhere else (a Canadian province is not shown). */
export function regionLabel(place: Place): string {
  if (place.venue_country_short === US) return place.venue_state_province_short.trim() || place.venue_state.trim();
  return place.venue_country_short;
}

function joinParts(parts: string[]): string {
  return parts
    .map((p) => p.trim())
    .filter((p) => p !== '')
    .join(', ');
}

/** RULES 5.7, venue card: city, then state (US) or country code ("New York, NY", "London, GB"). */
export function cityRegion(place: Place): string {
  return joinParts([place.venue_city, regionLabel(place)]);
}

/** RULES 5.5, event card: venue, city, and state (US) or country code ("Palladium, London, GB"). */
export function venueAddress(place: Place & Pick<VenueDocument, 'venue_name'>): string {
  return joinParts([place.venue_name, place.venue_city, regionLabel(place)]);
}
