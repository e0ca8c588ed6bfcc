import type { PerformerCard } from '../schemas/cards.js';
import type { PerformerDocument } from '../schemas/documents.js';
import { lowestAllInPrice } from './pricing.js';
import { formatCount } from './format.js';
import { performerPath } from './site-paths.js';

/** RULES 5.6: "0 Events", "1 Event", "N Events" (N grouped by thousands). */
export function eventCountLabel(count: number): string {
  return formatCount(count, 'Event', 'Events');
}

/**
 * RULES 5.6: the performer card; minPrice is the first venue's cheapest ticket, else 0, shown as its all-in price
 * per ticket (`pricing.ts`: the price shown first includes every mandatory fee).
 */
export function performerCard(doc: PerformerDocument): PerformerCard {
  return {
    id: doc.performer_id,
    name: doc.performer_name,
    eventCount: eventCountLabel(doc.events_available),
    pathPicture: doc.image,
    minPrice: lowestAllInPrice(doc.venues[0]?.min_ticket_price ?? 0) ?? 0,
    url: performerPath(doc.performer_name, doc.performer_id),
  };
}
