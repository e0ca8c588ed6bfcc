import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useParams, useSearchParams } from 'react-router';
import type { z } from 'zod';
import { PerformerPageSchema, SearchResultsSchema, VenuePageSchema } from '../../../../schemas/entities.js';
import { EventList, PerformerCard, VenueCard } from '../../features/cards/cards.js';
import { api } from '../../lib/api.js';
import { formatPrice } from '../../../../server/rules/format.js';
import { PageLoading, usePageAnswer } from './page-states.js';

function useEntity<S extends z.ZodType>(kind: string, slug: string, schema: S) {
  return useQuery({ queryKey: [kind, slug], queryFn: ({ signal }) => api(`/api/${kind}/${encodeURIComponent(slug)}`, schema, { signal }) });
}

export function PerformerPage() {
  const params = useParams();
  const slug = params.slug ?? '';
  const q = useEntity('performers', slug, PerformerPageSchema);
  useEffect(() => {
    if (q.data) document.title = `${q.data.performer.name} tickets`;
  }, [q.data]);
  const page = usePageAnswer(q);
  if (page.fallback) return page.fallback;
  const { performer, events, eventsFound } = page.data;
  return (
    <article className="entity-page">
      <header className="entity-hero">
        <img src={performer.pathPicture} alt="" width={640} height={360} />
        <div>
          <h1>{performer.name}</h1>
          <p>
            {performer.eventCount}
            {performer.minPrice > 0 && <> · tickets from ${formatPrice(performer.minPrice)}</>}
          </p>
        </div>
      </header>
      <section aria-labelledby="performer-events">
        <h2 id="performer-events">Upcoming events{eventsFound > events.length ? ` (${events.length} of ${eventsFound})` : ''}</h2>
        <EventList events={events} empty="No upcoming events right now. Check back soon." />
      </section>
    </article>
  );
}

export function VenuePage() {
  const { slug = '' } = useParams();
  const q = useEntity('venues', slug, VenuePageSchema);
  useEffect(() => {
    if (q.data) document.title = `${q.data.venue.name} tickets`;
  }, [q.data]);
  const page = usePageAnswer(q);
  if (page.fallback) return page.fallback;
  const { venue, events } = page.data;
  return (
    <article className="entity-page">
      <h1>{venue.name}</h1>
      <p>{venue.address}</p>
      <section aria-labelledby="venue-events">
        <h2 id="venue-events">Upcoming events</h2>
        <EventList events={events} empty="No upcoming events at this venue right now." />
      </section>
    </article>
  );
}

export function ResultsPage() {
  const [params, setParams] = useSearchParams();
  // Spec §5: an absent parameter reads as empty; plus signs read as spaces (URLSearchParams does both).
  const kwds = params.get('kwds') ?? '';
  const page = Math.max(1, Number(params.get('page') ?? '1') || 1);
  const q = useQuery({
    queryKey: ['results', kwds, page],
    queryFn: ({ signal }) => api(`/api/Searches/get?q=${encodeURIComponent(kwds)}&page=${page}`, SearchResultsSchema, { signal }),
  });
  useEffect(() => {
    document.title = kwds ? `Results for “${kwds}”` : 'Search';
  }, [kwds]);
  return (
    <div className="results-page">
      <h1>{kwds ? `Results for “${kwds}”` : 'Search for an artist, team or venue'}</h1>
      {q.isPending && <PageLoading />}
      {q.isError && <p role="alert">Search is not answering right now. Please try again.</p>}
      {q.data && (
        <>
          {q.data.performers.found + q.data.venues.found + q.data.events.found === 0 && kwds && <p>No results. Try a shorter or different spelling.</p>}
          {q.data.performers.items.length > 0 && (
            <section aria-labelledby="res-performers">
              <h2 id="res-performers">Performers ({q.data.performers.found})</h2>
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
              <h2 id="res-events">Events ({q.data.events.found})</h2>
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
            {page > 1 && (
              <button type="button" onClick={() => setParams({ kwds, page: String(page - 1) })}>
                Previous
              </button>
            )}
            {Math.max(q.data.performers.found, q.data.venues.found, q.data.events.found) > page * q.data.perPage && (
              <button type="button" onClick={() => setParams({ kwds, page: String(page + 1) })}>
                Next
              </button>
            )}
          </nav>
        </>
      )}
    </div>
  );
}
