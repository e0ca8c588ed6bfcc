import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { EventCard as EventCardData } from '../../../shared/schemas/cards.js';
import { EventCard, EventList, PerformerCard } from './cards.js';

const html = (card: React.ReactNode) => renderToString(<MemoryRouter>{card}</MemoryRouter>);

describe('a card drawn on the server', () => {
  it('writes its price as one text node, with no `<!-- -->` between its parts', () => {
    const performer = html(
      <PerformerCard
        card={{ id: 1, name: 'Mets', eventCount: '3 Events', pathPicture: '', minPrice: 36.8, url: '/performers/m-1' }}
      />,
    );
    const event = html(
      <EventCard
        card={{
          id: 7,
          name: 'Mets at Cubs',
          badges: [],
          address: 'Wrigley Field, Chicago, IL',
          day: 'SAT',
          date: 'Jan 5',
          time: '07:30 PM',
          year: '2027',
          url: '/events/mets-at-cubs-7',
          minPrice: 1234.5,
        }}
      />,
    );
    expect(performer).toContain('<span class="card__price">From $36.80 <small>incl. fees</small></span>');
    expect(event).toContain('<span class="event-card__price">From $1,234.50 <small>incl. fees</small></span>');
    for (const markup of [performer, event]) expect(markup).not.toContain('<!-- -->');
  });
});

describe('a list of events', () => {
  const card = (id: number, date: string, year: string): EventCardData => ({
    id,
    name: `Show ${id}`,
    badges: [],
    address: 'Hall, Austin, TX',
    day: 'SAT',
    date,
    time: '07:30 PM',
    year,
    url: `/events/show-${id}`,
    minPrice: 20,
  });

  const yearsOf = (markup: string) =>
    [...markup.matchAll(/<li( class="event-list__year" aria-hidden="true")?>(\d{4})?/g)].map(([, year, text]) =>
      year ? text : 'card',
    );

  it('in date order across years, sets each year above its first card, hidden from screen readers', () => {
    const markup = html(
      <EventList
        empty=""
        events={[
          card(1, 'Dec 30', '2026'),
          card(2, 'Jun 10', '2027'),
          card(3, 'Nov 27', '2027'),
          card(4, 'Jan 2', '2028'),
          card(5, 'TBD', ''),
        ]}
      />,
    );
    expect(yearsOf(markup)).toEqual(['2026', 'card', '2027', 'card', 'card', '2028', 'card', 'card']);
    expect(markup).toContain('<span class="sr-only">SAT Nov 27 2027 07:30 PM</span>');
  });

  it('sets no year in a list within one year, nor in one in another order than the dates', () => {
    const oneYear = [card(1, 'Jun 10', '2027'), card(2, 'Nov 27', '2027')];
    const byRelevance = [card(1, 'Jun 10', '2027'), card(2, 'Dec 30', '2026'), card(3, 'Jan 2', '2027')];
    for (const events of [oneYear, byRelevance])
      expect(yearsOf(html(<EventList empty="" events={events} />))).toEqual(events.map(() => 'card'));
  });
});
