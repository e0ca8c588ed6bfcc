import type { EventCard, PerformerCard, VenueCard } from '../../../../schemas/cards.js';
import type { Listing } from '../../../../schemas/commerce.js';
import type { EventDocument } from '../../../../schemas/documents.js';

const EVENT_STATUS: Record<EventDocument['event_status'], string> = {
  scheduled: 'https://schema.org/EventScheduled',
  postponed: 'https://schema.org/EventPostponed',
  rescheduled: 'https://schema.org/EventRescheduled',
  cancelled: 'https://schema.org/EventCancelled',
};

/** `-05:00`, `+05:30` for a UTC offset in hours. */
export function formatOffset(hours: number): string {
  const minutes = Math.round(Math.abs(hours) * 60);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${hours < 0 ? '-' : '+'}${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
}

/** The venue-local start with the venue's offset (`2027-01-02T19:30:00-05:00`), or undefined when not dated. */
export function startDateWithOffset(detail: Pick<EventDocument, 'event_local_timestamp' | 'venue_time_zone_offset'> | undefined): string | undefined {
  if (!detail?.event_local_timestamp) return undefined;
  return `${detail.event_local_timestamp}${formatOffset(detail.venue_time_zone_offset)}`;
}

export interface EventJsonLdInput {
  event: EventCard;
  venue: VenueCard | null;
  performers: PerformerCard[];
  /** Every listing of the event (no filter); undefined while they load, so no offer is claimed yet. */
  listings: Listing[] | undefined;
  origin: string;
}

/** schema.org Event for search engines; a data block, never executed, so the CSP allows it. */
export function eventJsonLd({ event, venue, performers, listings, origin }: EventJsonLdInput): Record<string, unknown> {
  const detail = event.detail;
  const url = new URL(event.url, origin).href;
  const performerNames = performers.length > 0 ? performers.map((p) => p.name) : (detail?.performer_names ?? []);
  const address: Record<string, string> = { '@type': 'PostalAddress' };
  if (detail) {
    address.addressLocality = detail.venue_city;
    if (detail.venue_state_province_short) address.addressRegion = detail.venue_state_province_short;
    address.addressCountry = detail.venue_country_short;
  }
  const doc: Record<string, unknown> = {
    '@context': 'https://schema.org',
    '@type': 'Event',
    name: event.name,
    url,
  };
  const startDate = startDateWithOffset(detail);
  if (startDate) doc.startDate = startDate;
  if (detail) doc.eventStatus = EVENT_STATUS[detail.event_status];
  doc.location = {
    '@type': 'Place',
    name: detail?.venue_name ?? venue?.name ?? event.address,
    ...(venue ? { url: new URL(venue.url, origin).href } : {}),
    address: detail ? address : event.address,
  };
  if (performerNames.length > 0) doc.performer = performerNames.map((name) => ({ '@type': 'PerformingGroup', name }));
  if (listings) {
    const open = listings.filter((l) => l.quantityAvailable > 0);
    const offers: Record<string, unknown> = {
      '@type': 'AggregateOffer',
      priceCurrency: 'USD',
      offerCount: open.length,
      availability: open.length > 0 ? 'https://schema.org/InStock' : 'https://schema.org/SoldOut',
      url,
    };
    if (open.length > 0) offers.lowPrice = Math.min(...open.map((l) => l.allInPricePerTicket));
    doc.offers = offers;
  }
  return doc;
}

/** JSON safe inside a script element: no `</script>` or comment opener can end it early. */
export function jsonLdText(doc: unknown): string {
  return JSON.stringify(doc).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
}
