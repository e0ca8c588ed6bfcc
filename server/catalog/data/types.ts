/** Shared record shapes for the catalog generator's static reference data. */
import type { VenueKind } from '../../../shared/catalog/taxonomy.js';

export type { VenueKind };

export type League = 'NFL' | 'MLB' | 'NBA' | 'NHL' | 'MLS';

/** A real place: city, region, country, coordinates, IANA time zone and a postal code. */
export interface PlaceFact {
  city: string;
  /** US: 2-letter state code; Canada: province code; UK: "ENG"; Mexico: "CDMX". */
  state: string;
  stateName: string;
  country: 'US' | 'CA' | 'GB' | 'MX';
  lat: number;
  lng: number;
  timeZone: string;
  zip: string;
}

/** A professional team and its home venue for the 2026 season. */
export interface TeamFact extends PlaceFact {
  league: League;
  name: string;
  venue: string;
  capacity: number;
}


/** A real non-team venue. */
export interface VenueFact extends PlaceFact {
  name: string;
  kind: VenueKind;
  capacity: number;
}

/** A real city with its population (roughly as of the 2020 census) and city-centre coordinates. */
export interface CityFact {
  city: string;
  stateName: string;
  stateId: string;
  population: number;
  lat: number;
  lng: number;
  timeZone: string;
  zip: string;
}
