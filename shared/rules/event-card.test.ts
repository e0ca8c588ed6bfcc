import { EVENT_DETAIL_FIELDS } from '../schemas/cards.js';
import { describe, expect, it } from 'vitest';
import { eventDocument as eventDoc } from '../../server/test/documents.js';
import { EventCardSchema } from '../schemas/cards.js';
import type { EventDocument } from '../schemas/documents.js';
import { eventCard, eventTime, eventWhen } from './event-card.js';

describe('eventCard (RULES 5.5 event card)', () => {
  it('builds the whole card from the venue-local start', () => {
    const card = eventCard(eventDoc());
    expect(card).toEqual({
      id: 501,
      name: 'New York Rangers vs. Boston Bruins',
      badges: [],
      address: 'Madison Square Garden, New York, NY',
      day: 'SAT',
      date: 'Jan 2',
      time: '07:30 PM',
      year: '2027',
      url: '/events/new-york-rangers-vs-boston-bruins-501',
      // The lowest all-in price: $89 plus the 18% service fee.
      minPrice: 105.02,
    });
    expect(EventCardSchema.parse(card)).toEqual(card);
  });

  it('carries the shopper’s view of the document as detail only when asked: no sales counter', () => {
    const doc = eventDoc();
    expect(eventCard(doc)).not.toHaveProperty('detail');
    const detail = eventCard(doc, { includeDetail: true }).detail!;
    expect(Object.keys(detail).sort()).toEqual([...EVENT_DETAIL_FIELDS].sort());
    for (const field of EVENT_DETAIL_FIELDS) expect(detail[field], field).toEqual(doc[field]);
    expect(detail).not.toHaveProperty('event_orders_d1');
    expect(detail).not.toHaveProperty('event_cart_d1');
  });

  it('omits minPrice when there is no positive price, and says the event is sold out', () => {
    const card = eventCard(eventDoc({ min_ticket_price: 0 }));
    expect(card).not.toHaveProperty('minPrice');
    expect(card.unavailable).toBe('Sold out');
  });

  it.each<[string, Partial<EventDocument>]>([
    ['no ticket group left (a sold-out event keeps a price in the feed)', { ticket_groups_available: 0 }],
    ['no ticket left', { tickets_available: 0 }],
    ['generated with no groups and no tickets', { ticket_groups_available: 0, tickets_available: 0 }],
  ])('says "Sold out" and shows no "From" for %s', (_, fields) => {
    const card = eventCard(eventDoc({ min_ticket_price: 146.74 / 1.18, ...fields }));
    expect(card).not.toHaveProperty('minPrice');
    expect(card.unavailable).toBe('Sold out');
    expect(EventCardSchema.parse(card)).toEqual(card);
  });

  it('says "Cancelled" and shows no "From" for a cancelled event, whatever it had listed', () => {
    const card = eventCard(eventDoc({ event_status: 'cancelled' }));
    expect(card).not.toHaveProperty('minPrice');
    expect(card.unavailable).toBe('Cancelled');
  });

  it('has a "From" and nothing unavailable while a group is on sale', () => {
    const card = eventCard(eventDoc({ ticket_groups_available: 1, tickets_available: 2 }));
    expect(card.minPrice).toBe(105.02);
    expect(card).not.toHaveProperty('unavailable');
  });

  it('carries the RULES 5.1 badges', () => {
    expect(eventCard(eventDoc({ event_orders_d1: 2, event_cart_d1: 6, tickets_available: 12 })).badges).toEqual([
      { type: 'hotEvent', label: 'Selling fast' },
      { type: 'ticketLeft', label: 'Only 12 tickets left' },
    ]);
  });

  describe('address: venue, city, and state (US) or country code otherwise', () => {
    it.each<[string, Partial<EventDocument>, string]>([
      ['US venue', {}, 'Madison Square Garden, New York, NY'],
      [
        'London',
        {
          venue_name: 'Palladium',
          venue_city: 'London',
          venue_state: '',
          venue_state_province_short: '',
          venue_country_short: 'GB',
          venue_zip: 'W1F 7TF',
        },
        'Palladium, London, GB',
      ],
      [
        'Toronto: the province is known but the country code is shown',
        {
          venue_name: 'Scotiabank Arena',
          venue_city: 'Toronto',
          venue_state: 'Ontario',
          venue_state_province_short: 'ON',
          venue_country_short: 'CA',
        },
        'Scotiabank Arena, Toronto, CA',
      ],
      [
        'US venue without a state code falls back to the state name',
        { venue_state_province_short: '' },
        'Madison Square Garden, New York, New York',
      ],
      [
        'US venue without any state',
        { venue_state_province_short: '', venue_state: '' },
        'Madison Square Garden, New York',
      ],
    ])('%s', (_case, extra, address) => {
      expect(eventCard(eventDoc(extra)).address).toBe(address);
    });
  });

  describe('day, date, time and year are the venue’s local clock, never the server’s or UTC', () => {
    it.each<[string, string, number, [string, string, string, string]]>([
      [
        '23:59 in New York is already the next day in UTC',
        '2027-01-02T23:59:00',
        -5,
        ['SAT', 'Jan 2', '11:59 PM', '2027'],
      ],
      [
        '00:30 in New York is still the previous day in UTC',
        '2027-01-03T00:30:00',
        -5,
        ['SUN', 'Jan 3', '12:30 AM', '2027'],
      ],
      ['00:30 in Tokyo is the previous day in UTC', '2027-01-03T00:30:00', 9, ['SUN', 'Jan 3', '12:30 AM', '2027']],
      [
        'New Year’s Eve at 23:30 stays in the old year',
        '2026-12-31T23:30:00',
        -5,
        ['THU', 'Dec 31', '11:30 PM', '2026'],
      ],
      [
        'New York, night clocks go forward (14 Mar 2027), 20:00 EDT',
        '2027-03-14T20:00:00',
        -4,
        ['SUN', 'Mar 14', '08:00 PM', '2027'],
      ],
      [
        'New York, night clocks go forward, 01:30 EST just before the change',
        '2027-03-14T01:30:00',
        -5,
        ['SUN', 'Mar 14', '01:30 AM', '2027'],
      ],
      [
        'New York, night clocks go back (7 Nov 2027), 01:30 (happens twice)',
        '2027-11-07T01:30:00',
        -4,
        ['SUN', 'Nov 7', '01:30 AM', '2027'],
      ],
      ['New York, night clocks go back, 19:00 EST', '2027-11-07T19:00:00', -5, ['SUN', 'Nov 7', '07:00 PM', '2027']],
      ['London', '2027-06-05T19:45:00', 1, ['SAT', 'Jun 5', '07:45 PM', '2027']],
      ['Toronto', '2027-10-12T19:00:00', -4, ['TUE', 'Oct 12', '07:00 PM', '2027']],
      ['leap day', '2028-02-29T14:00:00', -5, ['TUE', 'Feb 29', '02:00 PM', '2028']],
    ])('%s', (_case, local, offset, [day, date, time, year]) => {
      expect(eventCard(eventDoc({ event_local_timestamp: local, venue_time_zone_offset: offset }))).toMatchObject({
        day,
        date,
        time,
        year,
      });
    });
  });

  it('gives the same card whatever zone the server runs in', () => {
    const doc = eventDoc({ event_local_timestamp: '2027-01-02T23:59:00' });
    const saved = process.env.TZ;
    try {
      const cards = ['UTC', 'Pacific/Kiritimati', 'Pacific/Pago_Pago', 'America/New_York'].map((tz) => {
        process.env.TZ = tz;
        return eventCard(doc);
      });
      for (const card of cards) expect(card).toEqual(cards[0]);
      expect(cards[0]).toMatchObject({ day: 'SAT', date: 'Jan 2', time: '11:59 PM' });
    } finally {
      if (saved === undefined) delete process.env.TZ;
      else process.env.TZ = saved;
    }
  });

  describe('TBD', () => {
    it("RULES 4.1: no timestamp gives date 'TBD', with no day, time or year", () => {
      const card = eventCard(eventDoc({ event_local_timestamp: null, event_timestamp: null }));
      expect(card).toMatchObject({ day: '', date: 'TBD', time: '', year: '' });
      expect(EventCardSchema.parse(card)).toEqual(card);
    });

    it.each(['2027-01-02T03:30:00', '2027-01-02T03:30:59'])(
      "RULES 4.2: a start at 03:30 AM (%s) shows the time as '(TBD)' and keeps the date",
      (local) => {
        expect(eventWhen(local)).toEqual({ day: 'SAT', date: 'Jan 2', time: '(TBD)', year: '2027' });
      },
    );

    it('15:30 is a real time', () => {
      expect(eventWhen('2027-01-02T15:30:00').time).toBe('03:30 PM');
    });
  });

  describe('RULES 4.1: time as hh:mm AM/PM', () => {
    it.each<[number, number, string]>([
      [0, 0, '12:00 AM'],
      [0, 5, '12:05 AM'],
      [0, 59, '12:59 AM'],
      [1, 0, '01:00 AM'],
      [3, 29, '03:29 AM'],
      [3, 31, '03:31 AM'],
      [11, 59, '11:59 AM'],
      [12, 0, '12:00 PM'],
      [12, 45, '12:45 PM'],
      [13, 0, '01:00 PM'],
      [23, 59, '11:59 PM'],
    ])('%i:%i → %s', (hour, minute, text) => {
      expect(eventTime({ hour, minute })).toBe(text);
    });
  });
});
