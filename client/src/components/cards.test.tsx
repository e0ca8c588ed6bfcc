import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { EventCard, PerformerCard } from './cards.js';

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
