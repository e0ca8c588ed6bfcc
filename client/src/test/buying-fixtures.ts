import type { EventCard } from '../../../shared/schemas/cards.js';
import type { Cart, Listing, Order } from '../../../shared/schemas/commerce.js';

export const EVENT: EventCard = {
  id: 501,
  name: 'New York Yankees vs Boston Red Sox',
  badges: [{ type: 'hotEvent', label: 'Hot event' }],
  address: 'Yankee Stadium, Bronx, NY',
  day: 'SAT',
  date: 'Jan 2',
  time: '07:30 PM',
  year: '2027',
  url: '/events/new-york-yankees-vs-boston-red-sox-501',
  minPrice: 40,
  detail: {
    event_status: 'scheduled',
    venue_name: 'Yankee Stadium',
    venue_city: 'Bronx',
    venue_state_province_short: 'NY',
    venue_country_short: 'US',
    venue_zip: '10451',
    event_local_timestamp: '2027-01-02T19:30:00',
    venue_time_zone_offset: -5,
    category: 'mlb',
    performer_names: ['New York Yankees', 'Boston Red Sox'],
  },
};

export const SLUG = 'new-york-yankees-vs-boston-red-sox-501';

export function listing(overrides: Partial<Listing> = {}): Listing {
  const base: Omit<Listing, 'serviceFeePerTicket' | 'shippingPerTicket'> & Partial<Listing> = {
    id: 11,
    eventId: 501,
    section: 'Section 112',
    row: 'F',
    quantityAvailable: 4,
    splits: [1, 2, 4],
    pricePerTicket: 100,
    allInPricePerTicket: 118,
    deliveryMethod: 'eticket',
    sellerNotes: 'Aisle seats',
    inHandDate: '2026-12-20',
    accessible: false,
    obstructedView: false,
    faceValue: null,
    ticketsHeld: true,
    ageRestriction: null,
    companionSeats: 0,
    dealRating: { rating: 'fair', median: 118, comparedWith: 'Lower Level', comparables: 3 },
    ...overrides,
  };
  const feeCents = Math.round(base.allInPricePerTicket * 100) - Math.round(base.pricePerTicket * 100);
  return {
    serviceFeePerTicket: Math.max(0, feeCents) / 100,
    shippingPerTicket: base.deliveryMethod === 'physical_mail' ? 2.5 : 0,
    ...base,
  };
}

export const FEES = { serviceFeeRate: 0.18, fulfillmentFeePerTicket: 2.5 };

export function listingsBody(listings: Listing[]) {
  return {
    eventId: 501,
    seatMap: { layout: 'ballpark' as const },
    listings,
    fees: FEES,
    sale: { onSale: true as const, dateToBeAnnounced: false },
  };
}

/** `GET /api/listings/:id`: one listing, its event and the fee breakdown. */
export function listingDetail(overrides: Partial<Listing> = {}) {
  return { listing: listing(overrides), event: EVENT, fees: FEES };
}

export const CART_ID = '8f0c1c6e-5b1a-4c1e-9d36-2a3f4b5c6d7e';

export function cart(overrides: Partial<Cart> = {}): Cart {
  return {
    id: CART_ID,
    eventId: 501,
    listingId: 11,
    quantitySelected: 2,
    companions: 0,
    totalPrice: { value: 236 },
    lineItems: [
      { key: 'Tickets (2 × $100)', value: '$200' },
      { key: 'Service Fee', value: '$36' },
      { key: 'Total', value: '$236' },
    ],
    expiresAt: new Date(Date.now() + 10 * 60_000).toISOString(),
    status: 'active',
    promoCode: null,
    ticketsHeld: true,
    ...overrides,
  };
}

export function order(overrides: Partial<Order> = {}): Order {
  return {
    refunds: [],
    refundOffer: null,
    terms: null,
    id: 'ord_123',
    accessCode: 'ACCESS-9',
    status: 'pending_seller_confirmation',
    eventId: 501,
    eventName: EVENT.name,
    quantity: 2,
    totalPrice: { value: 236 },
    lineItems: cart().lineItems,
    detail: [
      { type: 'date', month: 'JAN', day: '2', time: '07:30 PM' },
      { type: 'header', title: 'Event Location' },
      { type: 'header', title: 'Yankee Stadium, Bronx, NY' },
      { type: 'row', title: 'Section', value: '112' },
      { type: 'row', title: 'Row', value: 'F' },
      { type: 'row', title: 'Order Status', value: 'Awaiting Seller Confirmation' },
      { type: 'row', title: 'Order Date', value: 'Dec 1, 2026' },
      { type: 'row', title: 'Order Id', value: 'ord_123' },
      { type: 'rowSubtitle', title: 'Important Notes', subtitle: 'Aisle seats' },
      { type: 'rowSubtitle', title: 'eTicket', subtitle: 'Tickets ready by Dec 20, 2026' },
      { type: 'rowSubtitle', title: 'Method', subtitle: 'Download your tickets from this page.' },
    ],
    tickets: [
      {
        id: 'TAAAAAAAAAAAAA2',
        section: '112',
        row: 'F',
        seat: 7,
        companion: false,
        state: 'awaiting_seller',
        stateText: 'Waiting for the seller to confirm; ready by Dec 20, 2026',
      },
      {
        id: 'TAAAAAAAAAAAAA3',
        section: '112',
        row: 'F',
        seat: 8,
        companion: false,
        state: 'awaiting_seller',
        stateText: 'Waiting for the seller to confirm; ready by Dec 20, 2026',
      },
    ],
    delivery: {
      method: 'eticket',
      readyBy: '2026-12-20',
      rule:
        'Tickets are ready on the seller’s in-hand date, never before the day you ' +
        'ordered and never after the event day.',
      downloadable: false,
    },
    timeline: [
      { status: 'pending_seller_confirmation', at: '2026-12-01T15:00:05.000Z', note: 'Payment received' },
      { status: 'reserved', at: '2026-12-01T15:00:00.000Z', note: 'Tickets held' },
    ],
    tracking: { event: 'purchase', phet: 22420 },
    ...overrides,
  };
}
