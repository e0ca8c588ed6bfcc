import { describe, expect, it } from 'vitest';
import type { EventCard } from '../../../../shared/schemas/cards.js';
import type { Listing, SaleState } from '../../../../shared/schemas/commerce.js';
import type { EventDocument } from '../../../../shared/schemas/documents.js';
import type { EventPerformer } from '../../../../shared/schemas/entities.js';
import {
  eventDescription,
  eventJsonLd,
  eventStartDate,
  formatOffset,
  GOOGLE_REQUIRED_EVENT_FIELDS,
  jsonLdText,
  ticketPrices,
  type EventJsonLd,
  type EventJsonLdInput,
} from './event-jsonld.js';
import { EVENT, listing } from '../../test/buying-fixtures.js';

const ORIGIN = 'https://tickets.example';
const VENUE = { id: 7, name: 'Yankee Stadium', address: 'Bronx, NY', url: '/venues/yankee-stadium-7' };
const YANKEES: EventPerformer = {
  id: 1,
  name: 'New York Yankees',
  eventCount: '81 Events',
  pathPicture: '/media/performers/1.svg',
  minPrice: 20,
  url: '/performers/new-york-yankees-1',
  kind: 'team',
};
const RED_SOX: EventPerformer = {
  id: 2,
  name: 'Boston Red Sox',
  eventCount: '81 Events',
  pathPicture: '/media/performers/2.svg',
  minPrice: 25,
  url: '/performers/boston-red-sox-2',
  kind: 'team',
};
const ON_SALE: SaleState = { onSale: true, dateToBeAnnounced: false };
const LISTINGS = [
  listing(),
  listing({ id: 12, allInPricePerTicket: 61.5, pricePerTicket: 52.12 }),
  listing({ id: 13, quantityAvailable: 0, allInPricePerTicket: 10, pricePerTicket: 8.47 }),
  listing({ id: 14, allInPricePerTicket: 236, pricePerTicket: 200 }),
];

const withDetail = (detail: Partial<EventDocument>, card: Partial<EventCard> = {}): EventCard => ({
  ...EVENT,
  ...card,
  detail: { ...EVENT.detail!, ...detail },
});
const input = (over: Partial<EventJsonLdInput> = {}): EventJsonLdInput => ({
  event: EVENT,
  venue: VENUE,
  performers: [YANKEES, RED_SOX],
  listings: { listings: LISTINGS, sale: ON_SALE },
  origin: ORIGIN,
  ...over,
});
const build = (over: Partial<EventJsonLdInput> = {}): EventJsonLd => {
  const doc = eventJsonLd(input(over));
  if (!doc) throw new Error('expected a JSON-LD document');
  return doc;
};

/** Every key anywhere in the document whose value is null or undefined: an absent field must be left out. */
function emptyFields(value: unknown, path = ''): string[] {
  if (value === null || value === undefined) return [path];
  if (Array.isArray(value)) return value.flatMap((v, i) => emptyFields(v, `${path}[${i}]`));
  if (typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => emptyFields(v, path ? `${path}.${k}` : k));
  return [];
}

/**
 * Google's required Event fields (name, startDate, location with a name and an address), as its Rich Results Test
 * checks them.
 */
function googleProblems(doc: EventJsonLd): string[] {
  const problems = GOOGLE_REQUIRED_EVENT_FIELDS.filter((f) => !doc[f]).map((f) => `missing ${f}`);
  if (!/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2})?$/.test(doc.startDate))
    problems.push(`startDate not ISO 8601: ${doc.startDate}`);
  if (!doc.location.name) problems.push('missing location.name');
  if (!doc.location.address) problems.push('missing location.address');
  return problems;
}

describe('eventJsonLd', () => {
  it('writes every field from the catalog and the listings, typed as schema.org expects', () => {
    expect(build()).toEqual({
      '@context': 'https://schema.org',
      '@type': 'Event',
      name: 'New York Yankees vs Boston Red Sox',
      url: `${ORIGIN}/events/new-york-yankees-vs-boston-red-sox-501`,
      description: 'New York Yankees and Boston Red Sox at Yankee Stadium in Bronx, NY on Jan 2, 2027 at 07:30 PM.',
      startDate: '2027-01-02T19:30:00-05:00',
      eventStatus: 'https://schema.org/EventScheduled',
      eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
      image: [`${ORIGIN}/media/performers/1.svg`, `${ORIGIN}/media/performers/2.svg`],
      location: {
        '@type': 'Place',
        name: 'Yankee Stadium',
        url: `${ORIGIN}/venues/yankee-stadium-7`,
        address: {
          '@type': 'PostalAddress',
          addressLocality: 'Bronx',
          addressRegion: 'NY',
          postalCode: '10451',
          addressCountry: 'US',
        },
      },
      performer: [
        { '@type': 'SportsTeam', name: 'New York Yankees', url: `${ORIGIN}/performers/new-york-yankees-1` },
        { '@type': 'SportsTeam', name: 'Boston Red Sox', url: `${ORIGIN}/performers/boston-red-sox-2` },
      ],
      offers: {
        '@type': 'AggregateOffer',
        priceCurrency: 'USD',
        lowPrice: 61.5,
        highPrice: 236,
        offerCount: 3,
        availability: 'https://schema.org/InStock',
        url: `${ORIGIN}/events/new-york-yankees-vs-boston-red-sox-501`,
      },
    });
  });

  it.each<[string, Partial<EventJsonLdInput>]>([
    ['a scheduled event', {}],
    [
      'a cancelled event',
      {
        event: withDetail({ event_status: 'cancelled' }),
        listings: {
          listings: [],
          sale: { onSale: false, code: 'event_cancelled', message: 'This event is cancelled' },
        },
      },
    ],
    ['a postponed event', { event: withDetail({ event_status: 'postponed' }) }],
    [
      'an event whose time is not set',
      { event: withDetail({ event_local_timestamp: '2027-01-02T03:30:00' }, { time: '(TBD)' }) },
    ],
    [
      'an event abroad with no region or postal code',
      {
        event: withDetail({
          venue_city: 'London',
          venue_state: '',
          venue_state_province_short: '',
          venue_country_short: 'GB',
          venue_zip: '',
          venue_time_zone_offset: 0,
        }),
      },
    ],
    [
      'an event with no venue card, no performer cards and listings still loading',
      { venue: null, performers: [], listings: undefined },
    ],
  ])('has Google’s required fields and no empty one: %s', (_case, over) => {
    const doc = build(over);
    expect(googleProblems(doc)).toEqual([]);
    expect(emptyFields(doc)).toEqual([]);
    expect(doc).not.toHaveProperty('endDate');
    expect(doc).not.toHaveProperty('organizer');
    expect(doc.offers ?? {}).not.toHaveProperty('validFrom');
  });

  it('marks up nothing for an event with no date yet, as Google requires a start', () => {
    expect(
      eventJsonLd(
        input({
          event: withDetail(
            { event_local_timestamp: null, event_timestamp: null },
            { day: '', date: 'TBD', time: '', year: '' },
          ),
        }),
      ),
    ).toBeNull();
  });

  it.each<[EventDocument['event_status'], string]>([
    ['scheduled', 'https://schema.org/EventScheduled'],
    ['postponed', 'https://schema.org/EventPostponed'],
    ['rescheduled', 'https://schema.org/EventRescheduled'],
    ['cancelled', 'https://schema.org/EventCancelled'],
  ])('maps a %s event to %s', (status, eventStatus) => {
    expect(build({ event: withDetail({ event_status: status }) }).eventStatus).toBe(eventStatus);
  });

  it.each<[string, EventPerformer[], { '@type': string; name: string }[]]>([
    [
      'teams of a league are SportsTeams',
      [YANKEES, RED_SOX],
      [
        { '@type': 'SportsTeam', name: 'New York Yankees' },
        { '@type': 'SportsTeam', name: 'Boston Red Sox' },
      ],
    ],
    [
      'any other act is a PerformingGroup',
      [{ ...YANKEES, name: 'Metallica', kind: 'group' }],
      [{ '@type': 'PerformingGroup', name: 'Metallica' }],
    ],
    [
      'a headliner and an opener keep their billing order',
      [
        { ...YANKEES, name: 'Headliner', kind: 'group' },
        { ...RED_SOX, name: 'Opener', kind: 'group' },
      ],
      [
        { '@type': 'PerformingGroup', name: 'Headliner' },
        { '@type': 'PerformingGroup', name: 'Opener' },
      ],
    ],
    [
      'performers the catalog has no page for are named from the event, as groups',
      [],
      [
        { '@type': 'PerformingGroup', name: 'New York Yankees' },
        { '@type': 'PerformingGroup', name: 'Boston Red Sox' },
      ],
    ],
  ])('performers: %s', (_case, performers, expected) => {
    expect(build({ performers }).performer).toMatchObject(expected);
  });

  it('uses each distinct artwork the page shows, absolute, and leaves image out when there is none', () => {
    expect(build({ performers: [YANKEES, { ...RED_SOX, pathPicture: YANKEES.pathPicture }] }).image).toEqual([
      `${ORIGIN}/media/performers/1.svg`,
    ]);
    expect(build({ performers: [{ ...YANKEES, pathPicture: 'https://img.example/a.jpg' }] }).image).toEqual([
      'https://img.example/a.jpg',
    ]);
    expect(build({ performers: [{ ...YANKEES, pathPicture: '' }] })).not.toHaveProperty('image');
  });

  it.each<[string, Listing[]]>([
    ['one listing', [listing()]],
    [
      'several, the cheapest listed last',
      [
        listing({ id: 1, allInPricePerTicket: 300, pricePerTicket: 254.24 }),
        listing({ id: 2 }),
        listing({ id: 3, allInPricePerTicket: 59, pricePerTicket: 50 }),
      ],
    ],
    [
      'a cheaper listing with no ticket left does not count',
      [listing({ id: 1, quantityAvailable: 0, allInPricePerTicket: 11.8, pricePerTicket: 10 }), listing({ id: 2 })],
    ],
    [
      'a dearer listing with no ticket left does not count',
      [
        listing({ id: 1, quantityAvailable: 0, allInPricePerTicket: 1180, pricePerTicket: 1000 }),
        listing({ id: 2 }),
        listing({ id: 3, allInPricePerTicket: 70.8, pricePerTicket: 60 }),
      ],
    ],
  ])('prices the offer as the listings do (all-in per ticket): %s', (_case, listings) => {
    const open = listings.filter((l) => l.quantityAvailable > 0).map((l) => l.allInPricePerTicket);
    const offers = build({ listings: { listings, sale: ON_SALE } }).offers!;
    expect(offers).toMatchObject({
      lowPrice: Math.min(...open),
      highPrice: Math.max(...open),
      offerCount: open.length,
      availability: 'https://schema.org/InStock',
    });
    expect(ticketPrices(listings)).toEqual({
      lowPrice: offers.lowPrice,
      highPrice: offers.highPrice,
      offerCount: offers.offerCount,
    });
  });

  it('offers as its low price only a listing a shopper may buy a quantity of (RULES 3.9, 8.1)', () => {
    const listings = [
      // The cheapest sells only more tickets than one shopper may buy of an event.
      listing({ id: 1, allInPricePerTicket: 50, quantityAvailable: 12, splits: [10, 12] }),
      listing({ id: 2, allInPricePerTicket: 80, quantityAvailable: 3, splits: [1, 3] }),
    ];
    expect(ticketPrices(listings)).toEqual({ lowPrice: 80, highPrice: 80, offerCount: 1 });
    expect(build({ listings: { listings, sale: ON_SALE } }).offers).toMatchObject({ lowPrice: 80, offerCount: 1 });
  });

  it(
    'claims no offer while the listings load, sold out when none has a ticket ' +
      'left, none once the event no longer sells',
    () => {
      expect(build({ listings: undefined })).not.toHaveProperty('offers');
      expect(build({ listings: { listings: [listing({ quantityAvailable: 0 })], sale: ON_SALE } }).offers).toEqual({
        '@type': 'AggregateOffer',
        priceCurrency: 'USD',
        offerCount: 0,
        availability: 'https://schema.org/SoldOut',
        url: `${ORIGIN}${EVENT.url}`,
      });
      expect(ticketPrices([])).toBeUndefined();
      const started = {
        listings: [],
        sale: { onSale: false as const, code: 'event_started' as const, message: 'This event has already started' },
      };
      expect(build({ listings: started })).not.toHaveProperty('offers');
    },
  );

  it('keeps a cancelled event marked up as cancelled, on its date, with nothing offered', () => {
    const doc = build({
      event: withDetail({ event_status: 'cancelled' }),
      listings: { listings: [], sale: { onSale: false, code: 'event_cancelled', message: 'This event is cancelled' } },
    });
    expect(doc).toMatchObject({
      eventStatus: 'https://schema.org/EventCancelled',
      startDate: '2027-01-02T19:30:00-05:00',
    });
    expect(doc).not.toHaveProperty('offers');
  });

  it('uses no browser global, so a server can render it', () => {
    const server = { window: globalThis.window, document: globalThis.document };
    expect(server).toEqual({ window: undefined, document: undefined });
    expect(build().url.startsWith(ORIGIN)).toBe(true);
  });
});

describe('eventStartDate', () => {
  it('writes the start with the venue offset, the day alone when the time is not set, and none without a date', () => {
    expect(formatOffset(-5)).toBe('-05:00');
    expect(formatOffset(5.5)).toBe('+05:30');
    expect(formatOffset(0)).toBe('+00:00');
    expect(eventStartDate(EVENT)).toBe('2027-01-02T19:30:00-05:00');
    expect(eventStartDate(withDetail({ event_local_timestamp: '2027-01-02T03:30:00' }, { time: '(TBD)' }))).toBe(
      '2027-01-02',
    );
    expect(eventStartDate(withDetail({ event_local_timestamp: null }))).toBeUndefined();
    expect(eventStartDate({ ...EVENT, detail: undefined })).toBeUndefined();
  });
});

describe('eventDescription', () => {
  it.each<[string, EventCard, string[], string]>([
    [
      'two teams',
      EVENT,
      ['New York Yankees', 'Boston Red Sox'],
      'New York Yankees and Boston Red Sox at Yankee Stadium in Bronx, NY on Jan 2, 2027 at 07:30 PM.',
    ],
    ['three acts', EVENT, ['A', 'B', 'C'], 'A, B and C at Yankee Stadium in Bronx, NY on Jan 2, 2027 at 07:30 PM.'],
    [
      'no time set yet',
      withDetail({}, { time: '(TBD)' }),
      ['Solo'],
      'Solo at Yankee Stadium in Bronx, NY on Jan 2, 2027.',
    ],
    [
      'no date set yet',
      withDetail({ event_local_timestamp: null }, { date: 'TBD', day: '', time: '', year: '' }),
      ['Solo'],
      'Solo at Yankee Stadium in Bronx, NY, date to be announced.',
    ],
    [
      'abroad: the country stands for the region',
      withDetail({
        venue_name: 'O2 Arena',
        venue_city: 'London',
        venue_state_province_short: '',
        venue_country_short: 'GB',
      }),
      ['Band'],
      'Band at O2 Arena in London, GB on Jan 2, 2027 at 07:30 PM.',
    ],
    [
      'no performer named: the event’s name',
      EVENT,
      [],
      'New York Yankees vs Boston Red Sox at Yankee Stadium in Bronx, NY on Jan 2, 2027 at 07:30 PM.',
    ],
  ])('%s', (_case, event, names, text) => {
    expect(eventDescription(event, names)).toBe(text);
  });
});

describe('jsonLdText', () => {
  it('cannot be closed early by a name containing a script end tag', () => {
    const text = jsonLdText({ name: '</script><script>alert(1)</script>' });
    expect(text).not.toContain('</script');
    expect(JSON.parse(text)).toEqual({ name: '</script><script>alert(1)</script>' });
  });
});
