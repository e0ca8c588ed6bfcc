import {
  COLLECTION_NAMES,
  type EventDocument,
  type PerformerDocument,
  type USCityDocument,
  type VenueDocument,
} from '../../../shared/schemas/documents.js';
import type { CatalogCollections } from '../../catalog/load-catalog.js';
import { eventDocument, performerDocument, venueDocument } from '../../test/documents.js';

/** A small hand-made catalog whose answers are known, for the search contract. */

let nextId = 1;

export function performer(name: string, extra: Partial<PerformerDocument> = {}): PerformerDocument {
  const id = extra.performer_id ?? nextId++;
  return performerDocument({
    id: String(id),
    performer_id: id,
    performer_name: name,
    image: `/media/performers/${id}.svg`,
    venues: [],
    venue_locations: [],
    category: 'nba',
    child: 'BASKETBALL',
    grandchild: 'NBA',
    order_rank: id,
    performer_orders_d7: 1,
    performer_orders_t12: 10,
    ...extra,
  });
}

export function venue(
  name: string,
  city: string,
  location: [number, number],
  extra: Partial<VenueDocument> = {},
): VenueDocument {
  const id = extra.venue_id ?? nextId++;
  return venueDocument({
    id: String(id),
    venue_id: id,
    venue_name: name,
    venue_city: city,
    venue_location: location,
    ...extra,
  });
}

export function event(name: string, extra: Partial<EventDocument> = {}): EventDocument {
  const id = extra.event_id ?? nextId++;
  return eventDocument({
    id: String(id),
    event_id: id,
    event_name: name,
    venue_name: 'Some Arena',
    event_timestamp: 1_799_000_000 + id,
    min_ticket_price: 50,
    category: 'nba',
    ...extra,
  });
}

function city(
  name: string,
  state: string,
  stateId: string,
  population: number,
  location: [number, number],
): USCityDocument {
  const id = nextId++;
  return {
    id: String(id),
    city: name,
    state_name: state,
    state_id: stateId,
    population,
    location,
    zip: '10001',
    time_zone: 'America/New_York',
  };
}

/** Madison Square Garden, the centre of the geo cases. */
export const MSG: [number, number] = [40.7505, -73.9934];

export function contractCatalog(): CatalogCollections {
  nextId = 1;
  const collections = Object.fromEntries(COLLECTION_NAMES.map((n) => [n, []])) as unknown as CatalogCollections;
  collections.Performer = [
    performer('Dallas Cowboys', { order_rank: 5, category: 'nfl', performer_orders_t12: 900, performer_orders_d7: 30 }),
    performer('Dallas Mavericks', { order_rank: 9, performer_orders_t12: 400, performer_orders_d7: 40 }),
    performer('Brooklyn Nets', { order_rank: 40, performer_orders_t12: 300 }),
    performer('Netsky Live', { order_rank: 1, category: 'electronic', performer_orders_t12: 2000 }),
    performer('Miami Heat', { order_rank: 20 }),
    performer('New York Yankees', { order_rank: 3, category: 'mlb', events_available: 81 }),
    performer('Los Angeles Kings', { order_rank: 30, category: 'nhl' }),
    performer('The Kinks Revival', { order_rank: 31, category: 'oldies' }),
    performer('Beyoncé Tribute', { order_rank: 50, category: 'pop' }),
    performer("Guns N' Roses Experience", { order_rank: 51, category: 'hard-rock-metal' }),
    performer('Jazz at the Vanguard', { order_rank: 60, category: 'jazz-blues' }),
    performer('Touring Act', {
      order_rank: 70,
      category: 'pop',
      venue_locations: [
        [34.043, -118.2673],
        [40.7505, -73.9934],
      ],
    }),
    performer('Far Away Band', { order_rank: 71, category: 'pop', venue_locations: [[34.043, -118.2673]] }),
  ];
  collections.Venue = [
    venue('Madison Square Garden', 'New York', MSG, { events_available: 40 }),
    venue('Barclays Center', 'Brooklyn', [40.6826, -73.9754], { events_available: 30 }),
    venue('Prudential Center', 'Newark', [40.7335, -74.1711], { events_available: 20 }),
    venue('Lincoln Financial Field', 'Philadelphia', [39.9008, -75.1675], { events_available: 9 }),
    venue('Crypto.com Arena', 'Los Angeles', [34.043, -118.2673], { events_available: 50 }),
    venue('Garden State Hall', 'Trenton', [40.2206, -74.7597], { events_available: 0 }),
  ];
  collections.Event = [
    event('Miami Heat at Brooklyn Nets', {
      venue_name: 'Barclays Center',
      performer_ids: [3, 5],
      category: 'nba',
      event_orders_t12: 50,
      min_ticket_price: 80,
    }),
    event('Garden Party Live', {
      venue_name: 'Hammerstein Ballroom',
      category: 'pop',
      event_orders_t12: 10,
      min_ticket_price: 35,
    }),
    event('Knicks Fan Night', {
      venue_name: 'Madison Square Garden',
      category: 'nba',
      event_orders_t12: 500,
      min_ticket_price: 120,
    }),
    event('Postponed Show', {
      event_timestamp: null,
      event_local_timestamp: null,
      category: 'pop',
      event_status: 'postponed',
    }),
  ];
  collections.USCity = [
    city('New York', 'New York', 'NY', 8_804_190, [40.7128, -74.006]),
    city('Newark', 'New Jersey', 'NJ', 311_549, [40.7357, -74.1724]),
    city('New Orleans', 'Louisiana', 'LA', 383_997, [29.9511, -90.0715]),
    city('Yorktown', 'Virginia', 'VA', 195, [37.2388, -76.5097]),
  ];
  return collections;
}
