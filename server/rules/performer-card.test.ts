import { describe, expect, it } from 'vitest';
import { PerformerCardSchema } from '../../schemas/cards.js';
import { PerformerDocumentSchema, type PerformerDocument } from '../../schemas/documents.js';
import { eventCountLabel, performerCard } from './performer-card.js';

function performerDoc(extra: Partial<PerformerDocument> = {}): PerformerDocument {
  return PerformerDocumentSchema.parse({
    id: '1001',
    performer_id: 1001,
    performer_name: 'Dallas Cowboys',
    image: '/media/performers/1001.svg',
    events_available: 12,
    tickets_available: 4000,
    ticket_groups_available: 300,
    total_inventory_value: 900_000,
    venues: [
      { venue_id: 5, venue_name: 'AT&T Stadium', venue_city: 'Arlington', min_ticket_price: 64 },
      { venue_id: 6, venue_name: 'Lincoln Financial Field', venue_city: 'Philadelphia', min_ticket_price: 20 },
    ],
    venue_locations: [[32.7473, -97.0945]],
    category: 'nfl',
    parent: 'SPORTS',
    child: 'FOOTBALL',
    grandchild: 'NFL',
    order_rank: 3,
    expiry_datetime: '',
    performer_orders_d7: 10,
    performer_orders_t12: 900,
    custom_label: '',
    ...extra,
  });
}

describe('eventCountLabel (spec §3: 0 Events, 1 Event, N Events)', () => {
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

describe('performerCard (spec §3 performer card)', () => {
  it('builds the card; minPrice is the first venue’s, not the lowest', () => {
    const card = performerCard(performerDoc());
    expect(card).toEqual({
      id: 1001,
      name: 'Dallas Cowboys',
      eventCount: '12 Events',
      pathPicture: '/media/performers/1001.svg',
      minPrice: 64,
      url: '/performers/dallas-cowboys-1001',
    });
    expect(PerformerCardSchema.parse(card)).toEqual(card);
  });

  it('minPrice is 0 without venues', () => {
    expect(performerCard(performerDoc({ venues: [], events_available: 0 }))).toMatchObject({ minPrice: 0, eventCount: '0 Events' });
  });

  it('carries the document as detail only when asked', () => {
    const doc = performerDoc();
    expect(performerCard(doc)).not.toHaveProperty('detail');
    expect(performerCard(doc, { includeDetail: true }).detail).toBe(doc);
  });
});
