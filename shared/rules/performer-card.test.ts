import { describe, expect, it } from 'vitest';
import { performerDocument as performerDoc } from '../../server/test/documents.js';
import { PerformerCardSchema } from '../schemas/cards.js';
import { eventCountLabel, performerCard } from './performer-card.js';

describe('eventCountLabel (RULES 5.6: 0 Events, 1 Event, N Events)', () => {
  it.each([
    [0, '0 Events'],
    [1, '1 Event'],
    [2, '2 Events'],
    [999, '999 Events'],
    [1000, '1,000 Events'],
    [1_234_567, '1,234,567 Events'],
  ])('%i → %s', (n, label) => {
    expect(eventCountLabel(n)).toBe(label);
  });
});

describe('performerCard (RULES 5.6 performer card)', () => {
  it('builds the card; minPrice is the first venue’s, not the lowest, all in', () => {
    const card = performerCard(performerDoc());
    expect(card).toEqual({
      id: 1001,
      name: 'Dallas Cowboys',
      eventCount: '12 Events',
      pathPicture: '/media/performers/1001.svg',
      // The first venue's $64 all in (18% service fee).
      minPrice: 75.52,
      url: '/performers/dallas-cowboys-1001',
    });
    expect(PerformerCardSchema.parse(card)).toEqual(card);
  });

  it('minPrice is 0 without venues', () => {
    expect(performerCard(performerDoc({ venues: [], events_available: 0 }))).toMatchObject({
      minPrice: 0,
      eventCount: '0 Events',
    });
  });

  it('carries none of the document: its sales counters stay on the server', () => {
    expect(performerCard(performerDoc())).not.toHaveProperty('detail');
  });
});
