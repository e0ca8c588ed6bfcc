import {
  EventDocumentSchema,
  PerformerDocumentSchema,
  VenueDocumentSchema,
  type EventDocument,
  type PerformerDocument,
  type VenueDocument,
} from '../../shared/schemas/documents.js';

/** Schema-checked search documents for tests: sensible defaults, any field overridden. */

export function eventDocument(extra: Partial<EventDocument> = {}): EventDocument {
  return EventDocumentSchema.parse({
    id: '501',
    event_id: 501,
    event_name: 'New York Rangers vs. Boston Bruins',
    event_status: 'scheduled',
    venue_id: 77,
    venue_name: 'Madison Square Garden',
    venue_city: 'New York',
    venue_state: 'New York',
    venue_state_province_short: 'NY',
    venue_country_short: 'US',
    venue_zip: '10001',
    venue_location: [40.7505, -73.9934],
    event_local_timestamp: '2027-01-02T19:30:00',
    venue_time_zone_offset: -5,
    event_timestamp: 1_798_936_200,
    event_orders_d1: 0,
    event_cart_d1: 0,
    event_mpv_d1: 0,
    event_orders_d7: 0,
    event_orders_t12: 0,
    tickets_available: 400,
    ticket_groups_available: 40,
    min_ticket_price: 89,
    major_category: 'SPORTS',
    parent_category: 'SPORTS',
    child_category: 'HOCKEY',
    category: 'nhl',
    performer_ids: [1],
    performer_names: ['New York Rangers'],
    ...extra,
  });
}

export function performerDocument(extra: Partial<PerformerDocument> = {}): PerformerDocument {
  return PerformerDocumentSchema.parse({
    id: '1001',
    performer_id: 1001,
    performer_name: 'Dallas Cowboys',
    image: '/media/performers/1001.svg',
    events_available: 12,
    tickets_available: 4000,
    ticket_groups_available: 300,
    total_inventory_value: 900_000,
    venues: [
      { venue_id: 5, venue_name: 'AT&T Stadium', venue_city: 'Arlington', min_ticket_price: 64 },
      { venue_id: 6, venue_name: 'Lincoln Financial Field', venue_city: 'Philadelphia', min_ticket_price: 20 },
    ],
    venue_locations: [[32.7473, -97.0945]],
    category: 'nfl',
    parent: 'SPORTS',
    child: 'FOOTBALL',
    grandchild: 'NFL',
    order_rank: 3,
    expiry_datetime: '',
    performer_orders_d7: 10,
    performer_orders_t12: 900,
    custom_label: '',
    ...extra,
  });
}

export function venueDocument(extra: Partial<VenueDocument> = {}): VenueDocument {
  return VenueDocumentSchema.parse({
    id: '77',
    venue_id: 77,
    venue_name: 'Madison Square Garden',
    venue_kind: 'arena',
    venue_city: 'New York',
    venue_state: 'New York',
    venue_state_province_short: 'NY',
    venue_country_short: 'US',
    venue_zip: '10001',
    venue_time_zone: 'America/New_York',
    venue_location: [40.7505, -73.9934],
    capacity: 19_500,
    events_available: 40,
    total_inventory_value: 2_000_000,
    ...extra,
  });
}

/**
 * A checkout body paying with the sandbox's test card that succeeds, confirming the notice of tickets the seller does
 * not hold yet as a buyer does when the listing has one (RULES 20.3; ignored for other listings).
 */
export function checkoutBody(cartId: string, email = 'grace@example.com') {
  return {
    cartId,
    email,
    notHeldNoticeRead: true,
    billingAddress: {
      name: 'Grace Hopper',
      address1: '1 Navy Way',
      city: 'Arlington',
      state: 'VA',
      countryCode: 'US',
      postalCode: '22202',
      phoneNumber: '703 555 0100',
    },
    payment: {
      method: 'card',
      cardNumber: '4242 4242 4242 4242',
      expMonth: 12,
      expYear: new Date().getFullYear() + 1,
      cvc: '123',
    },
  };
}
