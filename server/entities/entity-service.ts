import type { VenueCard } from '../../shared/schemas/cards.js';
import type { VenueDetail } from '../../shared/schemas/entities.js';
import type { EventDocument, PerformerDocument, VenueDocument } from '../../shared/schemas/documents.js';
import {
  RELATED_EVENTS_SHOWN,
  RESULTS_PER_PAGE,
  UPCOMING_EVENTS_SHOWN,
  type Menu,
  type SearchResults,
} from '../../shared/schemas/entities.js';
import type { Filter } from '../../shared/schemas/search.js';
import { CATEGORIES } from '../../shared/catalog/categories.js';
import { notFound } from '../http/errors.js';
import { MAX_YEARS_AHEAD } from '../../shared/rules/constants.js';
import { eventCard } from '../../shared/rules/event-card.js';
import { normalizeSearchQuery, shouldSearch } from '../../shared/rules/format.js';
import { performerCard } from '../../shared/rules/performer-card.js';
import { performerKind } from '../../shared/rules/performer-kind.js';
import { idFromSlug } from '../../shared/rules/slug.js';
import { venueCard, venueImage } from '../../shared/rules/venue-card.js';
import { performerSearch } from '../search/queries.js';
import { popularPerformers } from '../search/ranking.js';
import type { SearchEngine } from '../search/search-engine.js';
import { categoryPath, performerPath } from '../../shared/rules/site-paths.js';

/** Upcoming, dated, not cancelled and not more than 10 years ahead (RULES 5.4). */
export function upcomingFilters(now: Date): Filter[] {
  const horizon = new Date(now);
  horizon.setUTCFullYear(horizon.getUTCFullYear() + MAX_YEARS_AHEAD);
  return [
    {
      op: 'between',
      field: 'event_timestamp',
      min: Math.floor(now.getTime() / 1000),
      max: Math.floor(horizon.getTime() / 1000),
    },
    { op: 'neq', field: 'event_status', value: 'cancelled' },
  ];
}

/** The name a performer's or venue's artwork shows, or null when there is none with that id. */
export async function artworkLabel(
  engine: SearchEngine,
  kind: 'performers' | 'venues',
  id: number,
): Promise<string | null> {
  const [collection, field, name] =
    kind === 'performers'
      ? (['Performer', 'performer_id', 'performer_name'] as const)
      : (['Venue', 'venue_id', 'venue_name'] as const);
  const result = await engine.search({
    collection,
    filters: [{ op: 'eq', field, value: id }],
    perPage: 1,
    includeFields: [name],
  });
  const label = (result.hits[0]?.document as Record<string, unknown> | undefined)?.[name];
  return typeof label === 'string' ? label : null;
}

async function byId<D>(
  engine: SearchEngine,
  collection: 'Performer' | 'Venue' | 'Event',
  field: string,
  slug: string,
  what: string,
): Promise<D> {
  const id = idFromSlug(slug);
  if (id === null) throw notFound(`${what} "${slug}"`);
  const result = await engine.search({ collection, filters: [{ op: 'eq', field, value: id }], perPage: 1 });
  const doc = result.hits[0]?.document as D | undefined;
  if (!doc) throw notFound(`${what} "${slug}"`);
  return doc;
}

async function upcomingEvents(
  engine: SearchEngine,
  filter: Filter,
  now: Date,
  perPage: number,
  exclude?: number,
  page = 1,
) {
  const result = await engine.search({
    collection: 'Event',
    filters: [
      filter,
      ...upcomingFilters(now),
      ...(exclude ? [{ op: 'neq' as const, field: 'event_id', value: exclude }] : []),
    ],
    sort: [{ by: 'event_timestamp', order: 'asc' }],
    perPage,
    page,
  });
  return { events: result.hits.map((h) => eventCard(h.document as EventDocument)), found: result.found };
}

/** A performer and one page of their upcoming events (the whole schedule, UPCOMING_EVENTS_SHOWN a page). */
export async function performerPage(engine: SearchEngine, slug: string, now: Date, page = 1) {
  const doc = await byId<PerformerDocument>(engine, 'Performer', 'performer_id', slug, 'Performer');
  const { events, found } = await upcomingEvents(
    engine,
    { op: 'eq', field: 'performer_ids', value: doc.performer_id },
    now,
    UPCOMING_EVENTS_SHOWN,
    undefined,
    page,
  );
  return {
    performer: performerCard(doc),
    events,
    eventsFound: found,
    page,
    perPage: UPCOMING_EVENTS_SHOWN,
    doc,
  };
}

/** The shopper's view of a venue's document (`VenueDetailSchema`): its address and place, nothing else. */
function venueDetail(doc: VenueDocument): VenueDetail {
  const { venue_city, venue_state_province_short, venue_zip, venue_country_short, venue_location } = doc;
  return { venue_city, venue_state_province_short, venue_zip, venue_country_short, venue_location };
}

/** A venue (its address and place ride along, `venueDetail`) and one page of its upcoming events. */
export async function venuePage(engine: SearchEngine, slug: string, now: Date, page = 1) {
  const doc = await byId<VenueDocument>(engine, 'Venue', 'venue_id', slug, 'Venue');
  const { events, found } = await upcomingEvents(
    engine,
    { op: 'eq', field: 'venue_id', value: doc.venue_id },
    now,
    UPCOMING_EVENTS_SHOWN,
    undefined,
    page,
  );
  return {
    venue: { ...venueCard(doc), pathPicture: venueImage(doc.venue_id), detail: venueDetail(doc) },
    events,
    eventsFound: found,
    page,
    perPage: UPCOMING_EVENTS_SHOWN,
  };
}

/** An event's performers' documents, in the event's order (one search; a performer no longer listed is left out). */
async function eventPerformers(engine: SearchEngine, doc: EventDocument): Promise<PerformerDocument[]> {
  const found = await engine.search({
    collection: 'Performer',
    filters: [{ op: 'in', field: 'performer_id', values: doc.performer_ids }],
    perPage: doc.performer_ids.length,
  });
  const byPerformer = new Map(
    found.hits.map((h) => [(h.document as PerformerDocument).performer_id, h.document as PerformerDocument]),
  );
  return doc.performer_ids.flatMap((id) => byPerformer.get(id) ?? []);
}

export async function eventPage(engine: SearchEngine, slug: string, now: Date) {
  const doc = await byId<EventDocument>(engine, 'Event', 'event_id', slug, 'Event');
  const [venue, performers, morePerformer, moreVenue] = await Promise.all([
    engine.search({ collection: 'Venue', filters: [{ op: 'eq', field: 'venue_id', value: doc.venue_id }], perPage: 1 }),
    eventPerformers(engine, doc),
    upcomingEvents(
      engine,
      { op: 'eq', field: 'performer_ids', value: doc.performer_ids[0]! },
      now,
      RELATED_EVENTS_SHOWN,
      doc.event_id,
    ),
    upcomingEvents(
      engine,
      { op: 'eq', field: 'venue_id', value: doc.venue_id },
      now,
      RELATED_EVENTS_SHOWN,
      doc.event_id,
    ),
  ]);
  const venueDoc = venue.hits[0]?.document as VenueDocument | undefined;
  return {
    event: eventCard(doc, { includeDetail: true }),
    venue: venueDoc ? (venueCard(venueDoc) satisfies VenueCard) : null,
    performers: performers.map((performer) => ({ ...performerCard(performer), kind: performerKind(performer) })),
    morePerformerEvents: morePerformer.events,
    moreVenueEvents: moreVenue.events,
    doc,
  };
}

/** What a guest's view of a performer page adds to their recent activity. */
export function performerActivity({
  doc,
  performer,
}: Pick<Awaited<ReturnType<typeof performerPage>>, 'doc' | 'performer'>) {
  return {
    type: 'performer',
    id: doc.performer_id,
    name: doc.performer_name,
    url: performer.url,
    image: doc.image,
  } as const;
}

/** What a guest's view of an event page adds to their recent activity. */
export function eventActivity({
  doc,
  event,
  performers,
}: Pick<Awaited<ReturnType<typeof eventPage>>, 'doc' | 'event'> & { performers: readonly { pathPicture: string }[] }) {
  return {
    type: 'event',
    id: doc.event_id,
    name: doc.event_name,
    url: event.url,
    image: performers[0]?.pathPicture ?? null,
  } as const;
}

/**
 * What a guest's view of an event or performer page adds to their recent activity (RULES 1.8), read with the
 * searches it needs alone: the document and, for an event, its performers (the first one's picture), not the page's
 * related events.
 */
export async function viewedActivity(engine: SearchEngine, type: 'event' | 'performer', slug: string) {
  if (type === 'performer') {
    const doc = await byId<PerformerDocument>(engine, 'Performer', 'performer_id', slug, 'Performer');
    return performerActivity({ doc, performer: performerCard(doc) });
  }
  const doc = await byId<EventDocument>(engine, 'Event', 'event_id', slug, 'Event');
  const [first] = await eventPerformers(engine, doc);
  return eventActivity({ doc, event: eventCard(doc), performers: first ? [performerCard(first)] : [] });
}

/** `/results-general?kwds=`: performers, venues and upcoming events for a query, 10 of each a page. */
export async function searchResults(
  engine: SearchEngine,
  rawQuery: string,
  page: number,
  now: Date,
): Promise<SearchResults> {
  const query = normalizeSearchQuery(rawQuery);
  const empty = { items: [], found: 0 };
  if (!shouldSearch(query))
    return {
      query,
      page,
      perPage: RESULTS_PER_PAGE,
      topPerformers: [],
      performers: empty,
      venues: empty,
      events: empty,
    };
  const [performers, venues, events] = await Promise.all([
    engine.search(performerSearch(query, page)),
    engine.search({
      collection: 'Venue',
      q: query,
      queryBy: ['venue_name', 'venue_city'],
      sort: [
        { by: '_text_match', order: 'desc' },
        { by: 'events_available', order: 'desc' },
      ],
      page,
      perPage: RESULTS_PER_PAGE,
    }),
    engine.search({
      collection: 'Event',
      q: query,
      queryBy: ['event_name', 'performer_names', 'venue_name', 'venue_city'],
      filters: upcomingFilters(now),
      sort: [
        { by: '_text_match', order: 'desc' },
        { by: 'event_timestamp', order: 'asc' },
      ],
      page,
      perPage: RESULTS_PER_PAGE,
    }),
  ]);
  const performerDocs = performers.hits.map((h) => h.document as PerformerDocument);
  return {
    query,
    page,
    perPage: RESULTS_PER_PAGE,
    topPerformers: page === 1 ? popularPerformers(performerDocs).map((p) => performerCard(p)) : [],
    performers: { items: performerDocs.map((p) => performerCard(p)), found: performers.found },
    venues: { items: venues.hits.map((h) => venueCard(h.document as VenueDocument)), found: venues.found },
    events: { items: events.hits.map((h) => eventCard(h.document as EventDocument)), found: events.found },
  };
}

const SPORTS_SECTIONS = [
  { name: 'NFL', slug: 'nfl' },
  { name: 'MLB', slug: 'mlb' },
  { name: 'NHL', slug: 'nhl' },
  { name: 'NBA', slug: 'nba' },
] as const;
const GROUPS = [
  { name: 'Concerts', group: 'concerts' },
  { name: 'Theater', group: 'theater' },
  { name: 'Other', group: 'other' },
] as const;

/** RULES 12.4, navigation menu: Sports by league ("All" and every team); Concerts, Theater and Other flat. */
export async function menu(engine: SearchEngine): Promise<Menu> {
  const sections = await Promise.all(
    SPORTS_SECTIONS.map(async ({ name, slug }) => {
      const teams = await engine.search({
        collection: 'Performer',
        filters: [{ op: 'eq', field: 'category', value: slug }],
        sort: [{ by: 'performer_name', order: 'asc' }],
        perPage: 250,
        includeFields: ['performer_id', 'performer_name'],
      });
      return {
        name,
        url: categoryPath(slug),
        links: [
          { name: 'All', url: categoryPath(slug) },
          ...teams.hits.map((h) => {
            const p = h.document as Pick<PerformerDocument, 'performer_id' | 'performer_name'>;
            return { name: p.performer_name, url: performerPath(p.performer_name, p.performer_id) };
          }),
        ],
      };
    }),
  );
  return {
    categories: [
      { name: 'Sports', url: '/category/sports', sections },
      ...GROUPS.map(({ name, group }) => ({
        name,
        ...(group === 'other' ? {} : { url: categoryPath(group) }),
        links: CATEGORIES.filter((c) => c.group === group && c.inMenu !== false).map((c) => ({
          name: c.name,
          url: categoryPath(c.slug),
        })),
      })),
    ],
  };
}
