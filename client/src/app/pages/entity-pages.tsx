import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import type { z } from 'zod';
import { callQueryKey, type ApiCall } from '../../../../shared/schemas/api-calls.js';
import type { EventCard as EventCardData } from '../../../../shared/schemas/cards.js';
import { PerformerPageSchema, SearchResultsSchema, VenuePageSchema } from '../../../../shared/schemas/entities.js';
import { EventList, PerformerCard, VenueCard } from '../../components/cards.js';
import { SearchForm } from '../../components/search-form.js';
import { callApi } from '../../lib/api.js';
import { formatPrice } from '../../../../shared/rules/format.js';
import { decimalNumber } from '../../../../shared/rules/decimal.js';
import { PageLoading, usePageAnswer } from './page-states.js';
import { useServedEntityView } from '../page-context.js';

/** A performer's or venue's page call, one page of its schedule (the server renders with it too). */
export const entityCall = (kind: 'performer' | 'venue', slug: string, page: number): ApiCall => ({
  call: kind,
  slug,
  page,
});

/** The search results page's call. */
export const resultsCall = (q: string, page: number): ApiCall => ({ call: 'results', q, page });

function useEntity<S extends z.ZodType>(kind: 'performer' | 'venue', slug: string, schema: S, page = 1) {
  const call = entityCall(kind, slug, page);
  return useQuery({ queryKey: callQueryKey(call), queryFn: ({ signal }) => callApi(call, schema, { signal }) });
}

/** The schedule page in an address's query (`?page=2`), 1 when absent or not a page number. */
export function schedulePage(params: URLSearchParams): number {
  const page = decimalNumber(params.get('page') ?? '1') ?? 1;
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

/** The results page in an address's query, 1 when absent or not a number. */
export function resultsPage(params: URLSearchParams): number {
  return Math.max(1, Math.floor(decimalNumber(params.get('page') ?? '1') ?? 1) || 1);
}

function useSchedulePage(): number {
  const [params] = useSearchParams();
  return schedulePage(params);
}

interface Schedule {
  events: EventCardData[];
  eventsFound: number;
  page: number;
  perPage: number;
}

/** "Upcoming events (51–100 of 161)" over one page of a schedule, with links to the dates before and after it. */
function ScheduleSection({ id, schedule, empty }: { id: string; schedule: Schedule; empty: string }) {
  const { events, eventsFound, page, perPage } = schedule;
  const first = (page - 1) * perPage + 1;
  const last = first + events.length - 1;
  const pages = Math.ceil(eventsFound / perPage);
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>
        {`Upcoming events${
          eventsFound > perPage && events.length > 0
            ? ` (${first}–${last} of ${eventsFound})`
            : eventsFound > 0
              ? ` (${eventsFound})`
              : ''
        }`}
      </h2>
      <EventList events={events} empty={page > 1 ? 'No more dates on this page.' : empty} />
      {pages > 1 && (
        <nav className="pager" aria-label="Schedule pages">
          {page > 1 && <Link to={`?page=${page - 1}`}>← Earlier dates</Link>}
          <span>{`Page ${Math.min(page, pages)} of ${pages}`}</span>
          {page < pages && <Link to={`?page=${page + 1}`}>Later dates →</Link>}
        </nav>
      )}
    </section>
  );
}

export function PerformerPage() {
  const params = useParams();
  const slug = params.slug ?? '';
  const q = useEntity('performer', slug, PerformerPageSchema, useSchedulePage());
  useEffect(() => {
    if (q.data) document.title = `${q.data.performer.name} tickets`;
  }, [q.data]);
  useServedEntityView('performer', slug, q.data !== undefined);
  const page = usePageAnswer(q);
  if (page.fallback) return page.fallback;
  const { performer } = page.data;
  return (
    <article className="entity-page">
      <header className="entity-hero">
        <img src={performer.pathPicture} alt="" width={640} height={360} />
        <div>
          <h1>{performer.name}</h1>
          <p>
            {performer.minPrice > 0
              ? `${performer.eventCount} · tickets from $${formatPrice(performer.minPrice)}`
              : performer.eventCount}
          </p>
        </div>
      </header>
      <ScheduleSection
        id="performer-events"
        schedule={page.data}
        empty="No upcoming events right now. Check back soon."
      />
    </article>
  );
}

export function VenuePage() {
  const { slug = '' } = useParams();
  const q = useEntity('venue', slug, VenuePageSchema, useSchedulePage());
  useEffect(() => {
    if (q.data) document.title = `${q.data.venue.name} tickets`;
  }, [q.data]);
  const page = usePageAnswer(q);
  if (page.fallback) return page.fallback;
  const { venue } = page.data;
  return (
    <article className="entity-page">
      <header className="entity-hero">
        <img src={venue.pathPicture} alt="" width={640} height={360} />
        <div>
          <h1>{venue.name}</h1>
          <VenueAddress name={venue.name} detail={venue.detail} fallback={venue.address} />
        </div>
      </header>
      <ScheduleSection id="venue-events" schedule={page.data} empty="No upcoming events at this venue right now." />
    </article>
  );
}

/** The venue's postal address as the catalog knows it, and a link to a map with directions. */
function VenueAddress({ name, detail, fallback }: { name: string; detail: Record<string, unknown>; fallback: string }) {
  const text = (key: string) => (typeof detail[key] === 'string' ? (detail[key] as string) : '');
  const city = text('venue_city');
  const region = [text('venue_state_province_short'), text('venue_zip')].filter(Boolean).join(' ');
  const country = text('venue_country_short');
  const point = Array.isArray(detail.venue_location) ? (detail.venue_location as unknown[]) : [];
  const [lat, lng] = point.map(Number);
  const mapUrl =
    lat !== undefined && lng !== undefined && Number.isFinite(lat) && Number.isFinite(lng)
      ? `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lng}#map=16/${lat}/${lng}`
      : null;
  return (
    <>
      <address className="venue-address">
        {city ? [city, region].filter(Boolean).join(', ') : fallback}
        {country && country !== 'US' ? `, ${country}` : ''}
      </address>
      {mapUrl && (
        <p>
          <a href={mapUrl} rel="noopener noreferrer">
            Map and directions to {name}
          </a>
        </p>
      )}
    </>
  );
}

export function ResultsPage() {
  const [params] = useSearchParams();
  // RULES 2.8: an absent parameter reads as empty; plus signs read as spaces (URLSearchParams does both).
  const kwds = params.get('kwds') ?? '';
  const page = resultsPage(params);
  const call = resultsCall(kwds, page);
  const q = useQuery({
    queryKey: callQueryKey(call),
    queryFn: ({ signal }) => callApi(call, SearchResultsSchema, { signal }),
  });
  useEffect(() => {
    document.title = kwds ? `Results for “${kwds}”` : 'Search';
  }, [kwds]);
  return (
    <div className="results-page">
      <h1>{kwds ? `Results for “${kwds}”` : 'Search for an artist, team or venue'}</h1>
      {!kwds && <SearchForm id="results-search" label="Artist, team or venue" />}
      {q.isPending && <PageLoading />}
      {q.isError && <p role="alert">Search is not answering right now. Please try again.</p>}
      {q.data && (
        <>
          {q.data.performers.found + q.data.venues.found + q.data.events.found === 0 && kwds && (
            <>
              <p>No results. Try a shorter or different spelling.</p>
              <SearchForm key={kwds} id="results-search" label="Search again" query={kwds} />
            </>
          )}
          {q.data.performers.items.length > 0 && (
            <section aria-labelledby="res-performers">
              <h2 id="res-performers">{`Performers (${q.data.performers.found})`}</h2>
              <ul className="cards">
                {q.data.performers.items.map((p) => (
                  <li key={p.id}>
                    <PerformerCard card={p} />
                  </li>
                ))}
              </ul>
            </section>
          )}
          {q.data.events.items.length > 0 && (
            <section aria-labelledby="res-events">
              <h2 id="res-events">{`Events (${q.data.events.found})`}</h2>
              <EventList events={q.data.events.items} empty="" />
            </section>
          )}
          {q.data.venues.items.length > 0 && (
            <section aria-labelledby="res-venues">
              <h2 id="res-venues">Venues ({q.data.venues.found})</h2>
              <ul className="venue-list">
                {q.data.venues.items.map((v) => (
                  <li key={v.id}>
                    <VenueCard card={v} />
                  </li>
                ))}
              </ul>
            </section>
          )}
          <nav className="pager" aria-label="Result pages">
            {/* Links, not buttons: the pages are addresses a crawler or a page without its script can follow. */}
            {page > 1 && <Link to={`?${new URLSearchParams({ kwds, page: String(page - 1) })}`}>Previous</Link>}
            {Math.max(q.data.performers.found, q.data.venues.found, q.data.events.found) > page * q.data.perPage && (
              <Link to={`?${new URLSearchParams({ kwds, page: String(page + 1) })}`}>Next</Link>
            )}
          </nav>
        </>
      )}
    </div>
  );
}
