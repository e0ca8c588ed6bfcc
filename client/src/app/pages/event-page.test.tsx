// @vitest-environment happy-dom
import { cleanup, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EventPage } from './event-page.js';
import type { EventCard } from '../../../../shared/schemas/cards.js';
import type { Listing, SaleState } from '../../../../shared/schemas/commerce.js';
import { json, mockFetch } from '../../test/fetch-stub.js';
import { renderAt } from '../../test/render-page.js';
import { EVENT, listing, listingsBody, SLUG } from '../../test/buying-fixtures.js';

const VENUE = { id: 7, name: 'Yankee Stadium', address: 'Bronx, NY', url: '/venues/yankee-stadium-7' };
const PERFORMERS = [
  {
    id: 1,
    name: 'New York Yankees',
    eventCount: '81 Events',
    pathPicture: '/media/performers/1.svg',
    minPrice: 20,
    url: '/performers/new-york-yankees-1',
    kind: 'team' as const,
  },
  {
    id: 2,
    name: 'Boston Red Sox',
    eventCount: '81 Events',
    pathPicture: '/media/performers/2.svg',
    minPrice: 25,
    url: '/performers/boston-red-sox-2',
    kind: 'team' as const,
  },
];

function readJsonLd(): Record<string, unknown> {
  const script = document.querySelector('script[type="application/ld+json"]');
  return JSON.parse(script?.textContent ?? 'null') as Record<string, unknown>;
}

/** `$1,234.50` → 1234.5. */
const dollars = (text: string) => Number(text.replace(/[$,]/g, ''));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('event page', () => {
  const pageApi = () =>
    mockFetch({
      [`GET /api/events/${SLUG}/listings`]: () => json(listingsBody([listing()])),
      [`GET /api/events/${SLUG}`]: () =>
        json({ event: EVENT, venue: VENUE, performers: PERFORMERS, morePerformerEvents: [], moreVenueEvents: [] }),
    });

  it('goes back where the shopper came from on this site', async () => {
    pageApi();
    renderAt(<EventPage />, {
      route: `/events/${SLUG}`,
      path: 'events/*',
      from: '/performers/new-york-yankees-1?page=2',
    });
    const back = await screen.findByRole('link', { name: '← Back' });
    await userEvent.setup().click(back);
    await waitFor(() =>
      expect(screen.getByTestId('location').textContent).toBe('/performers/new-york-yankees-1?page=2'),
    );
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
        json(
          listingsBody(
            url.searchParams.has('quantity')
              ? [listing()]
              : [
                  listing(),
                  listing({ id: 12, allInPricePerTicket: 61.5, pricePerTicket: 50 }),
                  listing({ id: 13, quantityAvailable: 0, allInPricePerTicket: 10 }),
                ],
          ),
        ),
      [`GET /api/events/${SLUG}`]: () =>
        json({ event: EVENT, venue: VENUE, performers: PERFORMERS, morePerformerEvents: [], moreVenueEvents: [] }),
    });
    renderAt(<EventPage />, { route: `/events/${SLUG}`, path: 'events/*' });
    expect(await screen.findByRole('heading', { level: 1, name: EVENT.name })).toBeTruthy();
    expect(screen.getByText('SAT · Jan 2, 2027 · 07:30 PM').closest('time')?.getAttribute('dateTime')).toBe(
      '2027-01-02T19:30:00-05:00',
    );
    expect(screen.getByRole('link', { name: 'Yankee Stadium' }).getAttribute('href')).toBe('/venues/yankee-stadium-7');
    expect(screen.getByText('Bronx, NY')).toBeTruthy();
    expect(screen.getByText('Hot event')).toBeTruthy();
    // The seat map renders with the list: on a busy machine that can take longer than the default second.
    expect(await screen.findByRole('listitem', { name: 'Section 112, Row F' })).toBeTruthy();
    await waitFor(() => expect(readJsonLd()).toHaveProperty('offers'));
    expect(screen.getByRole('link', { name: 'See tickets from $61.50' }).getAttribute('href')).toBe(`/tickets/${SLUG}`);

    expect(readJsonLd()).toEqual({
      '@context': 'https://schema.org',
      '@type': 'Event',
      name: EVENT.name,
      url: `${window.location.origin}${EVENT.url}`,
      description: 'New York Yankees and Boston Red Sox at Yankee Stadium in Bronx, NY on Jan 2, 2027 at 07:30 PM.',
      startDate: '2027-01-02T19:30:00-05:00',
      eventStatus: 'https://schema.org/EventScheduled',
      eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
      image: [`${window.location.origin}/media/performers/1.svg`, `${window.location.origin}/media/performers/2.svg`],
      location: {
        '@type': 'Place',
        name: 'Yankee Stadium',
        url: `${window.location.origin}/venues/yankee-stadium-7`,
        address: {
          '@type': 'PostalAddress',
          addressLocality: 'Bronx',
          addressRegion: 'NY',
          postalCode: '10451',
          addressCountry: 'US',
        },
      },
      performer: [
        {
          '@type': 'SportsTeam',
          name: 'New York Yankees',
          url: `${window.location.origin}/performers/new-york-yankees-1`,
        },
        { '@type': 'SportsTeam', name: 'Boston Red Sox', url: `${window.location.origin}/performers/boston-red-sox-2` },
      ],
      offers: {
        '@type': 'AggregateOffer',
        priceCurrency: 'USD',
        lowPrice: 61.5,
        highPrice: 118,
        offerCount: 2,
        availability: 'https://schema.org/InStock',
        url: `${window.location.origin}${EVENT.url}`,
      },
    });
  });

  /**
   * The event page for `event` with these listings; the quantity-filtered answer keeps those with tickets left, as the
   * server does.
   */
  const pageWith = (
    event: EventCard,
    listings: Listing[],
    sale: SaleState = { onSale: true, dateToBeAnnounced: false },
  ) => {
    mockFetch({
      [`GET /api/events/${SLUG}/listings`]: (url) =>
        json({
          ...listingsBody(
            url.searchParams.has('quantity') ? listings.filter((l) => l.quantityAvailable > 0) : listings,
          ),
          sale,
        }),
      [`GET /api/events/${SLUG}`]: () =>
        json({ event, venue: VENUE, performers: PERFORMERS, morePerformerEvents: [], moreVenueEvents: [] }),
    });
    renderAt(<EventPage />, { route: `/events/${SLUG}`, path: 'events/*' });
  };

  it('offers in its JSON-LD the lowest and highest price the page shows, fees included', async () => {
    const listings = [
      listing({ id: 21, allInPricePerTicket: 236, pricePerTicket: 200 }),
      listing({ id: 22, allInPricePerTicket: 70.8, pricePerTicket: 60, section: 'Section 320' }),
      listing({ id: 23, allInPricePerTicket: 1180, pricePerTicket: 1000, section: 'Section 14' }),
      listing({ id: 24, quantityAvailable: 0, allInPricePerTicket: 11.8, pricePerTicket: 10 }),
    ];
    pageWith(EVENT, listings);
    const from = await screen.findByRole('link', { name: /^See tickets from / });
    await screen.findAllByRole('link', { name: /^Select / });
    await waitFor(() => expect(readJsonLd()).toHaveProperty('offers'));
    const shown = [...document.querySelectorAll('.listing__all-in strong')].map((el) => dollars(el.textContent ?? ''));
    expect(shown).toHaveLength(3);
    const offers = readJsonLd().offers as { lowPrice: number; highPrice: number; offerCount: number };
    expect(offers.lowPrice).toBe(dollars(from.textContent!.replace('See tickets from ', '')));
    expect(offers.lowPrice).toBe(Math.min(...shown));
    expect(offers.highPrice).toBe(Math.max(...shown));
    expect(offers.offerCount).toBe(shown.length);
    // The artwork is the performers' pictures the page shows, absolute.
    const pictures = [...document.querySelectorAll('.event-page .card__image')].map(
      (img) => new URL(img.getAttribute('src')!, window.location.origin).href,
    );
    expect(pictures).toHaveLength(2);
    expect(readJsonLd().image).toEqual(pictures);
  });

  it('marks a cancelled event up as cancelled, with no offer, as the page sells nothing', async () => {
    pageWith({ ...EVENT, detail: { ...EVENT.detail!, event_status: 'cancelled' } }, [], {
      onSale: false,
      code: 'event_cancelled',
      message: 'This event is cancelled; its tickets are no longer sold',
    });
    expect(await screen.findByText('This event is cancelled; its tickets are no longer sold.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'See tickets' })).toBeTruthy();
    expect(readJsonLd()).toMatchObject({
      '@type': 'Event',
      eventStatus: 'https://schema.org/EventCancelled',
      startDate: '2027-01-02T19:30:00-05:00',
    });
    expect(readJsonLd()).not.toHaveProperty('offers');
  });

  it('writes no JSON-LD for an event with no date yet', async () => {
    pageWith(
      {
        ...EVENT,
        day: '',
        date: 'TBD',
        time: '',
        year: '',
        detail: { ...EVENT.detail!, event_local_timestamp: null },
      },
      [listing()],
    );
    expect(await screen.findByText('Date to be announced')).toBeTruthy();
    expect(document.querySelector('script[type="application/ld+json"]')).toBeNull();
  });

  it('shows the not-found page for an unknown event', async () => {
    mockFetch({ [`GET /api/events/`]: () => json({ error: { code: 'not_found', message: 'No such event' } }, 404) });
    renderAt(<EventPage />, { route: '/events/nothing-here-1', path: 'events/*' });
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeTruthy();
  });
});
