import type {
  CollectionName,
  EventDocument,
  PerformerDocument,
  USCityDocument,
  VenueDocument,
} from '../../shared/schemas/documents.js';
import type { SuggestResponse } from '../../shared/schemas/suggest.js';
import { eventWhen } from '../../shared/rules/event-card.js';
import { normalizeSearchQuery, shouldSearch } from '../../shared/rules/format.js';
import { slugify } from '../../shared/rules/slug.js';
import { cityRegion } from '../../shared/rules/address.js';
import { venueImage } from '../../shared/rules/venue-card.js';
import { cityForAbbreviation } from '../../shared/rules/city-abbreviations.js';
import { suggestRequests } from './queries.js';
import type { SearchEngine } from './search-engine.js';
import type { SearchResult } from '../../shared/schemas/search.js';
import { eventPath, performerPath, searchResultsPath, venuePath } from '../../shared/rules/site-paths.js';

/** The collections suggestions read (those of `suggestRequests`): a change to one makes replayed answers stale. */
export const SUGGEST_COLLECTIONS: readonly CollectionName[] = ['Performer', 'Venue', 'USCity', 'Event'];

/**
 * The search box's suggestions (RULES 7.2, 7.11): performers and venues, plus cities and events with extra
 * sources. The query is lower-cased and an empty one answers empty groups without searching (RULES 7.6).
 */
/** `first`'s hits, then `then`'s not among them, at most `limit`. */
function merged<D extends { id?: string }>(
  first: SearchResult<D> | null,
  then: SearchResult<D> | null,
  limit = 10,
): SearchResult<D> {
  const hits = [...(first?.hits ?? []), ...(then?.hits ?? [])];
  const seen = new Set<string | undefined>();
  const unique = hits.filter((h) => !seen.has(h.document.id) && seen.add(h.document.id));
  return {
    found: unique.length,
    hits: unique.slice(0, limit),
    page: 1,
    searchTimeMs: (first?.searchTimeMs ?? 0) + (then?.searchTimeMs ?? 0),
  };
}

export async function suggest(
  engine: SearchEngine,
  rawQuery: string,
  extraSources: boolean,
  now: Date,
): Promise<SuggestResponse> {
  const query = normalizeSearchQuery(rawQuery);
  if (!shouldSearch(query))
    return { query, performers: [], venues: [], ...(extraSources ? { cities: [], events: [] } : {}) };
  const nowSeconds = Math.floor(now.getTime() / 1000);
  // "ny", "la": the city's teams and venues first, then whatever the letters themselves match, and the city.
  const city = cityForAbbreviation(query);
  const requests = suggestRequests(query, extraSources, nowSeconds);
  const forCity = city ? suggestRequests(city.toLowerCase(), true, nowSeconds) : null;
  const [own, venuesOwn, citiesOwn, events, cityPerformers, cityVenues, cityCities] = await Promise.all([
    engine.search(requests.performers),
    engine.search(requests.venues),
    requests.cities ? engine.search(requests.cities) : null,
    requests.events ? engine.search(requests.events) : null,
    forCity ? engine.search(forCity.performers) : null,
    // The city's venues by how much is on there (a venue's name seldom says its city).
    forCity
      ? engine.search({
          ...forCity.venues,
          q: '*',
          queryBy: [],
          filters: [...(forCity.venues.filters ?? []), { op: 'eq', field: 'venue_city', value: city! }],
          sort: [{ by: 'events_available', order: 'desc' }],
        })
      : null,
    forCity ? engine.search({ ...forCity.cities!, perPage: 1 }) : null,
  ]);
  const performers = merged(cityPerformers, own, requests.performers.perPage);
  const venues = merged(cityVenues, venuesOwn, requests.venues.perPage);
  const cities = cityCities ? merged(cityCities, citiesOwn, forCity!.cities!.perPage) : citiesOwn;
  return {
    query,
    performers: performers.hits.map(({ document }) => {
      const p = document as PerformerDocument;
      return {
        id: p.performer_id,
        text: p.performer_name,
        url: performerPath(p.performer_name, p.performer_id),
        pathPicture: p.image,
      };
    }),
    venues: venues.hits.map(({ document }) => {
      const v = document as VenueDocument;
      return {
        id: v.venue_id,
        text: v.venue_name,
        subtitle: cityRegion(v),
        url: venuePath(v.venue_name, v.venue_id),
        pathPicture: venueImage(v.venue_id),
      };
    }),
    ...(cities
      ? {
          cities: cities.hits.map(({ document }) => {
            const c = document as USCityDocument;
            return {
              id: Number(c.id),
              text: `${c.city}, ${c.state_id}`,
              url: searchResultsPath(slugify(c.city).replace(/-/g, ' ')),
            };
          }),
        }
      : {}),
    ...(events
      ? {
          events: events.hits.map(({ document }) => {
            const e = document as EventDocument;
            const when = eventWhen(e.event_local_timestamp);
            return {
              id: e.event_id,
              text: e.event_name,
              subtitle: `${when.date} · ${e.venue_name}`,
              url: eventPath(e.event_name, e.event_id),
            };
          }),
        }
      : {}),
  };
}
