import type { PerformerDocument, ZipEventDeterminationDocument } from '../../shared/schemas/documents.js';
import { TEXT_MATCH, type SortKey } from '../../shared/schemas/search.js';
import {
  PERFORMER_SEARCH_PER_PAGE,
  SUGGEST_CITIES,
  SUGGEST_CITY_WEIGHTS,
  SUGGEST_EVENTS,
  SUGGEST_PERFORMERS,
  SUGGEST_PERFORMERS_WITH_EXTRA,
  SUGGEST_VENUES,
  SUGGEST_VENUES_WITH_EXTRA,
  TRENDING_MAX_EVENTS_EXCLUSIVE,
  TRENDING_MIN_EVENTS_EXCLUSIVE,
  TRENDING_POOL,
  TSIMAGE_PER_PAGE,
  VENUE_ROW_MIN_EVENTS_EXCLUSIVE,
  ZIP_DETERMINATION_HITS,
  ZIP_DETERMINATION_MIN_GTV,
} from '../../shared/rules/constants.js';
import { rankTrending } from './ranking.js';
import type { SearchEngine, SearchRequestFor } from './search-engine.js';

/** The query catalogue of RULES 6.2, 7.10–7.15: each request exactly as the spec words it. */

/**
 * The orders an events row can ask for: soonest first (then the year's best sellers), the year's best sellers,
 * or the week's; ties go to the sooner event. The embedded engine keeps events presorted in the last two.
 */
export const EVENT_SORTS: Record<'soonest' | 'popular' | 'trending', SortKey[]> = {
  soonest: [
    { by: 'event_timestamp', order: 'asc' },
    { by: 'event_orders_t12', order: 'desc' },
  ],
  popular: [
    { by: 'event_orders_t12', order: 'desc' },
    { by: 'event_timestamp', order: 'asc' },
  ],
  trending: [
    { by: 'event_orders_d7', order: 'desc' },
    { by: 'event_timestamp', order: 'asc' },
  ],
};

/** Performer query: text on performer_name, relevance then order_rank ascending, 10 a page. */
export function performerSearch(q: string, page = 1): SearchRequestFor<'Performer'> {
  return {
    collection: 'Performer',
    q,
    queryBy: ['performer_name'],
    sort: [
      { by: TEXT_MATCH, order: 'desc' },
      { by: 'order_rank', order: 'asc' },
    ],
    page,
    perPage: PERFORMER_SEARCH_PER_PAGE,
  };
}

export interface SuggestRequests {
  performers: SearchRequestFor<'Performer'>;
  venues: SearchRequestFor<'Venue'>;
  cities?: SearchRequestFor<'USCity'>;
  events?: SearchRequestFor<'Event'>;
}

/**
 * Suggestions: performers (6, or 5 with extra sources) and venues with upcoming events (6, or 3); with extra
 * sources also cities (3, city name weighted 5:1 over state, by population) and upcoming events (3, by
 * twelve-month orders, then soonest).
 */
export function suggestRequests(q: string, extraSources: boolean, nowSeconds: number): SuggestRequests {
  const requests: SuggestRequests = {
    performers: {
      collection: 'Performer',
      q,
      queryBy: ['performer_name'],
      sort: [
        { by: TEXT_MATCH, order: 'desc' },
        { by: 'order_rank', order: 'asc' },
      ],
      perPage: extraSources ? SUGGEST_PERFORMERS_WITH_EXTRA : SUGGEST_PERFORMERS,
    },
    venues: {
      collection: 'Venue',
      q,
      queryBy: ['venue_name'],
      filters: [{ op: 'gt', field: 'events_available', value: VENUE_ROW_MIN_EVENTS_EXCLUSIVE }],
      sort: [
        { by: TEXT_MATCH, order: 'desc' },
        { by: 'events_available', order: 'desc' },
      ],
      perPage: extraSources ? SUGGEST_VENUES_WITH_EXTRA : SUGGEST_VENUES,
    },
  };
  if (extraSources) {
    requests.cities = {
      collection: 'USCity',
      q,
      queryBy: ['city', 'state_name'],
      queryByWeights: [...SUGGEST_CITY_WEIGHTS],
      sort: [
        { by: TEXT_MATCH, order: 'desc' },
        { by: 'population', order: 'desc' },
      ],
      perPage: SUGGEST_CITIES,
    };
    requests.events = {
      collection: 'Event',
      q,
      queryBy: ['event_name', 'venue_name'],
      filters: [{ op: 'gte', field: 'event_timestamp', value: nowSeconds }],
      sort: [
        { by: TEXT_MATCH, order: 'desc' },
        { by: 'event_orders_t12', order: 'desc' },
        { by: 'event_timestamp', order: 'asc' },
      ],
      perPage: SUGGEST_EVENTS,
    };
  }
  return requests;
}

/** Trending pool: performers with 5 < events_available < 100, the 200 with most 7-day orders. */
export function trendingPoolRequest(): SearchRequestFor<'Performer'> {
  return {
    collection: 'Performer',
    filters: [
      { op: 'gt', field: 'events_available', value: TRENDING_MIN_EVENTS_EXCLUSIVE },
      { op: 'lt', field: 'events_available', value: TRENDING_MAX_EVENTS_EXCLUSIVE },
    ],
    sort: [{ by: 'performer_orders_d7', order: 'desc' }],
    perPage: TRENDING_POOL,
  };
}

/** The 9 trending performers: the pool ranked by 7-day over 12-month orders. */
export async function trendingPerformers(engine: SearchEngine): Promise<PerformerDocument[]> {
  const pool = await engine.search(trendingPoolRequest());
  return rankTrending(pool.hits.map((h) => h.document as PerformerDocument));
}

/** Zip determination: the key's market when its gross ticket value is above 25,000; up to 100 hits. */
export function zipDeterminationRequest(
  key: string,
  keyType: ZipEventDeterminationDocument['key_type'],
): SearchRequestFor<'ZipEventDetermination'> {
  return {
    collection: 'ZipEventDetermination',
    filters: [
      { op: 'eq', field: 'key', value: key },
      { op: 'eq', field: 'key_type', value: keyType },
      { op: 'gt', field: 'gross_ticket_value', value: ZIP_DETERMINATION_MIN_GTV },
    ],
    sort: [{ by: 'gross_ticket_value', order: 'desc' }],
    perPage: ZIP_DETERMINATION_HITS,
  };
}

/** TSImage lookups read 10 a page. */
export function tsImageRequest(performerIds: readonly number[], page = 1): SearchRequestFor<'TSImage'> {
  return {
    collection: 'TSImage',
    filters: [{ op: 'in', field: 'id', values: performerIds.map(String) }],
    page,
    perPage: TSIMAGE_PER_PAGE,
  };
}
