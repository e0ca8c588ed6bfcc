import type { CollectionName, EventDocument, PerformerDocument, USCityDocument, VenueDocument } from '../../schemas/documents.js';
import type { SuggestResponse } from '../../schemas/suggest.js';
import { eventWhen } from '../rules/event-card.js';
import { normalizeSearchQuery, shouldSearch } from '../rules/format.js';
import { entitySlug, slugify } from '../rules/slug.js';
import { cityRegion } from '../rules/address.js';
import { venueImage } from '../rules/venue-card.js';
import { suggestRequests } from './queries.js';
import type { SearchEngine } from './search-engine.js';

/** The collections suggestions read (those of `suggestRequests`): a change to one makes replayed answers stale. */
export const SUGGEST_COLLECTIONS: readonly CollectionName[] = ['Performer', 'Venue', 'USCity', 'Event'];

/**
 * The search box's suggestions (spec §2, §7): performers and venues, plus cities and events with extra
 * sources. The query is lower-cased and an empty one answers empty groups without searching (spec §5).
 */
export async function suggest(engine: SearchEngine, rawQuery: string, extraSources: boolean, now: Date): Promise<SuggestResponse> {
  const query = normalizeSearchQuery(rawQuery);
  if (!shouldSearch(query)) return { query, performers: [], venues: [], ...(extraSources ? { cities: [], events: [] } : {}) };
  const requests = suggestRequests(query, extraSources, Math.floor(now.getTime() / 1000));
  const [performers, venues, cities, events] = await Promise.all([
    engine.search(requests.performers),
    engine.search(requests.venues),
    requests.cities ? engine.search(requests.cities) : null,
    requests.events ? engine.search(requests.events) : null,
  ]);
  return {
    query,
    performers: performers.hits.map(({ document }) => {
      const p = document as PerformerDocument;
      return { id: p.performer_id, text: p.performer_name, url: `/performers/${entitySlug(p.performer_name, p.performer_id)}`, pathPicture: p.image };
    }),
    venues: venues.hits.map(({ document }) => {
      const v = document as VenueDocument;
      return { id: v.venue_id, text: v.venue_name, subtitle: cityRegion(v), url: `/venues/${entitySlug(v.venue_name, v.venue_id)}`, pathPicture: venueImage(v.venue_id) };
    }),
    ...(cities
      ? {
          cities: cities.hits.map(({ document }) => {
            const c = document as USCityDocument;
            return { id: Number(c.id), text: `${c.city}, ${c.state_id}`, url: `/results-general?kwds=${encodeURIComponent(slugify(c.city).replace(/-/g, ' '))}` };
          }),
        }
      : {}),
    ...(events
      ? {
          events: events.hits.map(({ document }) => {
            const e = document as EventDocument;
            const when = eventWhen(e.event_local_timestamp);
            return { id: e.event_id, text: e.event_name, subtitle: `${when.date} · ${e.venue_name}`, url: `/events/${entitySlug(e.event_name, e.event_id)}` };
          }),
        }
      : {}),
  };
}
