import type { EventCard, VenueCard } from '../../../../shared/schemas/cards.js';
import type { Listing, SaleState } from '../../../../shared/schemas/commerce.js';
import type { EventDocument } from '../../../../shared/schemas/documents.js';
import type { EventPerformer, PerformerKind } from '../../../../shared/schemas/entities.js';
import { buyableQuantities } from '../../../../shared/rules/offer.js';

/**
 * The event page's schema.org Event (JSON-LD) with the fields Google's Event structured data requires (name,
 * startDate, location) and recommends, drawn only from what the catalog and the listings say. Pure: no
 * `window`, no `document`, the site's origin passed in, so a server can render the same block.
 *
 * Left out because the catalog has no source for them: `endDate` (events carry a start only), `organizer`,
 * `offers.validFrom` (no on-sale date is kept) and `previousStartDate` of a rescheduled event.
 */

const EVENT_STATUS: Record<EventDocument['event_status'], string> = {
  scheduled: 'https://schema.org/EventScheduled',
  postponed: 'https://schema.org/EventPostponed',
  rescheduled: 'https://schema.org/EventRescheduled',
  cancelled: 'https://schema.org/EventCancelled',
};

/** schema.org type of each performer kind the event API names (`shared/rules/performer-kind.ts`). */
const PERFORMER_TYPES: Record<PerformerKind, string> = {
  team: 'SportsTeam',
  group: 'PerformingGroup',
};

/** Every event the storefront sells takes place at its venue, in person. */
const ATTENDANCE_MODE = 'https://schema.org/OfflineEventAttendanceMode';
/** Listing prices are US dollars (`shared/schemas/commerce.ts`). */
export const PRICE_CURRENCY = 'USD';
const IN_STOCK = 'https://schema.org/InStock';
const SOLD_OUT = 'https://schema.org/SoldOut';
/**
 * RULES 4.1, 4.2: the card's date of an event not dated yet, and its time of a 03:30 AM start, "time not set"
 * (`shared/schemas/cards.ts`).
 */
const DATE_TBD = 'TBD';
const TIME_TBD = '(TBD)';

/**
 * The fields Google requires of an Event (Search Central, "Event structured data"); without them nothing is marked up.
 */
export const GOOGLE_REQUIRED_EVENT_FIELDS = ['name', 'startDate', 'location'] as const;

export interface PostalAddressJsonLd {
  '@type': 'PostalAddress';
  addressLocality: string;
  addressRegion?: string;
  postalCode?: string;
  addressCountry: string;
}

export interface AggregateOfferJsonLd {
  '@type': 'AggregateOffer';
  priceCurrency: typeof PRICE_CURRENCY;
  lowPrice?: number;
  highPrice?: number;
  offerCount: number;
  availability: string;
  url: string;
}

export interface EventJsonLd {
  '@context': 'https://schema.org';
  '@type': 'Event';
  name: string;
  url: string;
  description: string;
  startDate: string;
  eventStatus?: string;
  eventAttendanceMode: string;
  image?: string[];
  location: { '@type': 'Place'; name: string; url?: string; address: PostalAddressJsonLd | string };
  performer?: { '@type': string; name: string; url?: string }[];
  offers?: AggregateOfferJsonLd;
}

/** `-05:00`, `+05:30` for a UTC offset in hours. */
export function formatOffset(hours: number): string {
  const minutes = Math.round(Math.abs(hours) * 60);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${hours < 0 ? '-' : '+'}${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
}

/**
 * The venue-local start with the venue's offset (`2027-01-02T19:30:00-05:00`); only the day (`2027-01-02`) when
 * the time is not set yet, so no 03:30 AM placeholder is claimed; undefined when the event is not dated.
 */
export function eventStartDate(event: Pick<EventCard, 'time' | 'detail'>): string | undefined {
  const detail = event.detail;
  if (!detail?.event_local_timestamp) return undefined;
  if (event.time === TIME_TBD) return detail.event_local_timestamp.slice(0, 'YYYY-MM-DD'.length);
  return `${detail.event_local_timestamp}${formatOffset(detail.venue_time_zone_offset)}`;
}

/** The place line under the venue's name: city and region (or country), from the event document when there is one. */
export function eventPlace(event: Pick<EventCard, 'address' | 'detail'>): string {
  const d = event.detail;
  if (!d) return event.address;
  return [d.venue_city, d.venue_state_province_short || d.venue_country_short].filter(Boolean).join(', ');
}

/** The lowest and highest all-in price per ticket among the listings on offer, and how many are on offer. */
export interface TicketPrices {
  lowPrice: number;
  highPrice: number;
  offerCount: number;
}

/**
 * The prices of the listings a shopper can take now (all-in per ticket, `shared/rules/pricing.ts`), or
 * undefined when none has a ticket left. The page's "See tickets from" and the JSON-LD offer both read this, and
 * the low price is the listing the listings panel names when it opens at another quantity (RULES 3.9,
 * `shared/rules/offer.ts`): one that sells a quantity one shopper may buy.
 */
export function ticketPrices(listings: readonly Listing[]): TicketPrices | undefined {
  const open = listings.filter((l) => l.quantityAvailable > 0 && buyableQuantities(l.splits).length > 0);
  if (open.length === 0) return undefined;
  const prices = open.map((l) => l.allInPricePerTicket);
  return { lowPrice: Math.min(...prices), highPrice: Math.max(...prices), offerCount: open.length };
}

/** The event's unfiltered listings answer: its listings and whether it is on sale. */
export interface ListingsAnswer {
  listings: readonly Listing[];
  sale: SaleState;
}

/**
 * The offer: none while the listings load or once the event no longer sells (cancelled or started: nothing is
 * offered, and the page lists nothing); sold out when no listing has a ticket left.
 */
export function aggregateOffer(answer: ListingsAnswer | undefined, url: string): AggregateOfferJsonLd | undefined {
  if (!answer?.sale.onSale) return undefined;
  const prices = ticketPrices(answer.listings);
  return {
    '@type': 'AggregateOffer',
    priceCurrency: PRICE_CURRENCY,
    ...(prices ? { lowPrice: prices.lowPrice, highPrice: prices.highPrice } : {}),
    offerCount: prices?.offerCount ?? 0,
    availability: prices ? IN_STOCK : SOLD_OUT,
    url,
  };
}

/** `A`, `A and B`, `A, B and C`. */
function listNames(names: readonly string[]): string {
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)!}`;
}

/**
 * One factual sentence from the catalog: who, where and when, as the page shows them
 * (`New York Yankees and Boston Red Sox at Yankee Stadium in Bronx, NY on Jan 2, 2027 at 07:30 PM.`).
 */
export function eventDescription(event: EventCard, performerNames: readonly string[]): string {
  const who = performerNames.length > 0 ? listNames(performerNames) : event.name;
  const where = event.detail ? `${event.detail.venue_name} in ${eventPlace(event)}` : event.address;
  if (event.date === DATE_TBD) return `${who} at ${where}, date to be announced.`;
  const at = event.time && event.time !== TIME_TBD ? ` at ${event.time}` : '';
  return `${who} at ${where} on ${event.date}, ${event.year}${at}.`;
}

export interface EventJsonLdInput {
  event: EventCard;
  venue: VenueCard | null;
  performers: readonly EventPerformer[];
  /** The event's listings answer, unfiltered; undefined while it loads, so no offer is claimed yet. */
  listings: ListingsAnswer | undefined;
  /** The site's origin (`https://tickets.example`), for absolute addresses. */
  origin: string;
}

/**
 * schema.org Event for search engines, or null for an event with no date yet (Google requires `startDate`).
 * A data block, never executed, so the CSP allows it.
 */
export function eventJsonLd({ event, venue, performers, listings, origin }: EventJsonLdInput): EventJsonLd | null {
  const startDate = eventStartDate(event);
  if (!startDate) return null;
  const detail = event.detail;
  const absolute = (path: string) => new URL(path, origin).href;
  const url = absolute(event.url);
  const performerNames = performers.length > 0 ? performers.map((p) => p.name) : (detail?.performer_names ?? []);
  const images = [
    ...new Set(
      performers
        .map((p) => p.pathPicture)
        .filter((src) => src !== '')
        .map(absolute),
    ),
  ];
  const address: PostalAddressJsonLd | string = detail
    ? {
        '@type': 'PostalAddress',
        addressLocality: detail.venue_city,
        ...(detail.venue_state_province_short ? { addressRegion: detail.venue_state_province_short } : {}),
        ...(detail.venue_zip.trim() ? { postalCode: detail.venue_zip.trim() } : {}),
        addressCountry: detail.venue_country_short,
      }
    : event.address;
  const offers = aggregateOffer(listings, url);
  return {
    '@context': 'https://schema.org',
    '@type': 'Event',
    name: event.name,
    url,
    description: eventDescription(event, performerNames),
    startDate,
    ...(detail ? { eventStatus: EVENT_STATUS[detail.event_status] } : {}),
    eventAttendanceMode: ATTENDANCE_MODE,
    ...(images.length > 0 ? { image: images } : {}),
    location: {
      '@type': 'Place',
      name: detail?.venue_name ?? venue?.name ?? event.address,
      ...(venue ? { url: absolute(venue.url) } : {}),
      address,
    },
    ...(performers.length > 0
      ? { performer: performers.map((p) => ({ '@type': PERFORMER_TYPES[p.kind], name: p.name, url: absolute(p.url) })) }
      : performerNames.length > 0
        ? { performer: performerNames.map((name) => ({ '@type': PERFORMER_TYPES.group, name })) }
        : {}),
    ...(offers ? { offers } : {}),
  };
}

/** JSON safe inside a script element: no `</script>` or comment opener can end it early. */
export function jsonLdText(doc: unknown): string {
  return JSON.stringify(doc).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
}
