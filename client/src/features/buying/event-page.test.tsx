// @vitest-environment happy-dom
import { cleanup, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EventPage } from '../../app/pages/event-page.js';
import { eventJsonLd, formatOffset, jsonLdText, startDateWithOffset } from './event-jsonld.js';
import { EVENT, json, listing, listingsBody, mockFetch, renderAt, SLUG } from './test-utils.js';

const VENUE = { id: 7, name: 'Yankee Stadium', address: 'Bronx, NY', url: '/venues/yankee-stadium-7' };
const PERFORMERS = [
  { id: 1, name: 'New York Yankees', eventCount: '81 Events', pathPicture: '', minPrice: 20, url: '/performers/new-york-yankees-1', kind: 'team' as const },
  { id: 2, name: 'Boston Red Sox', eventCount: '81 Events', pathPicture: '', minPrice: 25, url: '/performers/boston-red-sox-2', kind: 'team' as const },
];

function readJsonLd(): Record<string, unknown> {
  const script = document.querySelector('script[type="application/ld+json"]');
  return JSON.parse(script?.textContent ?? 'null') as Record<string, unknown>;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('event JSON-LD', () => {
  it('writes the start with the venue offset, and none without a timestamp', () => {
    expect(formatOffset(-5)).toBe('-05:00');
    expect(formatOffset(5.5)).toBe('+05:30');
    expect(formatOffset(0)).toBe('+00:00');
    expect(startDateWithOffset(EVENT.detail)).toBe('2027-01-02T19:30:00-05:00');
    expect(startDateWithOffset({ event_local_timestamp: null, venue_time_zone_offset: -5 })).toBeUndefined();
    const doc = eventJsonLd({ event: { ...EVENT, detail: { ...EVENT.detail!, event_local_timestamp: null } }, venue: VENUE, performers: [], listings: [], origin: 'https://t.example' });
    expect(doc).not.toHaveProperty('startDate');
  });

  it('maps the event status and the offers, sold out when nothing is available', () => {
    const base = { event: EVENT, venue: VENUE, performers: PERFORMERS, origin: 'https://t.example' };
    expect(eventJsonLd({ ...base, event: { ...EVENT, detail: { ...EVENT.detail!, event_status: 'postponed' } }, listings: undefined })).toMatchObject({ eventStatus: 'https://schema.org/EventPostponed' });
    expect(eventJsonLd({ ...base, listings: undefined })).not.toHaveProperty('offers');
    expect(eventJsonLd({ ...base, listings: [listing({ quantityAvailable: 0 })] }).offers).toEqual({
      '@type': 'AggregateOffer',
      priceCurrency: 'USD',
      offerCount: 0,
      availability: 'https://schema.org/SoldOut',
      url: `https://t.example${EVENT.url}`,
    });
  });

  it('cannot be closed early by a name containing a script end tag', () => {
    const text = jsonLdText({ name: '</script><script>alert(1)</script>' });
    expect(text).not.toContain('</script');
    expect(JSON.parse(text)).toEqual({ name: '</script><script>alert(1)</script>' });
  });
});

describe('event page', () => {
  const pageApi = () =>
    mockFetch({
      [`GET /api/events/${SLUG}/listings`]: () => json(listingsBody([listing()])),
      [`GET /api/events/${SLUG}`]: () => json({ event: EVENT, venue: VENUE, performers: PERFORMERS, morePerformerEvents: [], moreVenueEvents: [] }),
    });

  it('goes back where the shopper came from on this site', async () => {
    pageApi();
    renderAt(<EventPage />, { route: `/events/${SLUG}`, path: 'events/*', from: '/performers/new-york-yankees-1?page=2' });
    const back = await screen.findByRole('link', { name: '← Back' });
    await userEvent.setup().click(back);
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/performers/new-york-yankees-1?page=2'));
  });

  it('goes up to the event’s category for a shopper who arrived from elsewhere', async () => {
    pageApi();
    renderAt(<EventPage />, { route: `/events/${SLUG}`, path: 'events/*' });
    const up = await screen.findByRole('link', { name: '← More events like this' });
    expect(up.getAttribute('href')).toBe(`/category/${EVENT.detail!.category}`);
  });

  it('shows the event, its venue and badges, the listings, and schema.org Event JSON-LD', async () => {
    mockFetch({
      [`GET /api/events/${SLUG}/listings`]: (url) =>
        json(listingsBody(url.searchParams.has('quantity') ? [listing()] : [listing(), listing({ id: 12, allInPricePerTicket: 61.5, pricePerTicket: 50 }), listing({ id: 13, quantityAvailable: 0, allInPricePerTicket: 10 })])),
      [`GET /api/events/${SLUG}`]: () => json({ event: EVENT, venue: VENUE, performers: PERFORMERS, morePerformerEvents: [], moreVenueEvents: [] }),
    });
    renderAt(<EventPage />, { route: `/events/${SLUG}`, path: 'events/*' });
    expect(await screen.findByRole('heading', { level: 1, name: EVENT.name })).toBeTruthy();
    expect(screen.getByText('SAT · Jan 2, 2027 · 07:30 PM').closest('time')?.getAttribute('dateTime')).toBe('2027-01-02T19:30:00-05:00');
    expect(screen.getByRole('link', { name: 'Yankee Stadium' }).getAttribute('href')).toBe('/venues/yankee-stadium-7');
    expect(screen.getByText('Bronx, NY')).toBeTruthy();
    expect(screen.getByText('Hot event')).toBeTruthy();
    // The seat map renders with the list: on a busy machine that can take longer than the default second.
    expect(await screen.findByRole('listitem', { name: 'Section 112, Row F' }, { timeout: 5000 })).toBeTruthy();
    await waitFor(() => expect(readJsonLd()).toHaveProperty('offers'));
    expect(screen.getByRole('link', { name: 'See tickets from $61.50' }).getAttribute('href')).toBe(`/tickets/${SLUG}`);

    expect(readJsonLd()).toEqual({
      '@context': 'https://schema.org',
      '@type': 'Event',
      name: EVENT.name,
      url: `${window.location.origin}${EVENT.url}`,
      startDate: '2027-01-02T19:30:00-05:00',
      eventStatus: 'https://schema.org/EventScheduled',
      location: {
        '@type': 'Place',
        name: 'Yankee Stadium',
        url: `${window.location.origin}/venues/yankee-stadium-7`,
        address: { '@type': 'PostalAddress', addressLocality: 'Bronx', addressRegion: 'NY', addressCountry: 'US' },
      },
      performer: [
        { '@type': 'PerformingGroup', name: 'New York Yankees' },
        { '@type': 'PerformingGroup', name: 'Boston Red Sox' },
      ],
      offers: {
        '@type': 'AggregateOffer',
        priceCurrency: 'USD',
        lowPrice: 61.5,
        offerCount: 2,
        availability: 'https://schema.org/InStock',
        url: `${window.location.origin}${EVENT.url}`,
      },
    });
  });

  it('shows the not-found page for an unknown event', async () => {
    mockFetch({ [`GET /api/events/`]: () => json({ error: { code: 'not_found', message: 'No such event' } }, 404) });
    renderAt(<EventPage />, { route: '/events/nothing-here-1', path: 'events/*' });
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeTruthy();
  });
});
