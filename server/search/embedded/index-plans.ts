import type { CollectionName } from '../../../shared/schemas/documents.js';
import { EVENT_SORTS } from '../queries.js';
import type { PartitionPlan } from './partitions.js';

/**
 * The indexes each collection keeps, shaped by the queries the storefront makes (RULES 7.10–7.17 and the rows of
 * `server/layout/rows.ts`); anything else is answered by a scan of the columns, which stays correct for every
 * request the port accepts.
 */
export interface IndexPlan {
  /** Exact-value postings for `eq`/`in` lookups: entity pages, carts, the menu. */
  postings?: readonly string[];
  /** Point fields indexed by distinct point (`points.ts`), for "near me" over venues, performers and cities. */
  points?: readonly string[];
  /** Partition plans, tried in order: the first that can answer a query does. */
  partitions?: readonly PartitionPlan[];
}

/** The popularity orders events rows ask for, kept presorted in every partition. */
export const RANKED = [EVENT_SORTS.popular, EVENT_SORTS.trending];

export const INDEX_PLANS: { [C in CollectionName]?: IndexPlan } = {
  Event: {
    postings: ['event_id', 'performer_ids', 'venue_id'],
    partitions: [
      // Near a place, for categories: each venue's run of one category, looked up by the category.
      {
        keys: ['venue_id', 'category', 'major_category', 'event_status'],
        point: 'venue_location',
        lookup: 'category',
        order: 'event_timestamp',
        ranked: RANKED,
      },
      // Near a place, any category: each venue's events by group (sports, concerts…).
      {
        keys: ['venue_id', 'major_category', 'event_status'],
        point: 'venue_location',
        order: 'event_timestamp',
        ranked: RANKED,
      },
      // Anywhere: the nation's events by category.
      { keys: ['category', 'major_category', 'event_status'], order: 'event_timestamp', ranked: RANKED },
    ],
  },
  Performer: { postings: ['performer_id', 'category'], points: ['venue_locations'] },
  Venue: { postings: ['venue_id'], points: ['venue_location'] },
  USCity: { points: ['location'] },
  ZipEventDetermination: { postings: ['key'] },
  TSImage: { postings: ['id'] },
};
