import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useDeferredValue, useEffect, useRef, useState } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import { RowSkeleton } from '../../features/rows/rows.js';
import { LayoutRows } from '../../features/rows/layout-rows.js';
import { callApi, ApiError } from '../../lib/api.js';
import { homeLayoutAssignment, keepHomeLayout, reportHomeView } from '../../lib/home-layout.js';
import {
  BASE_VARIATION,
  noteLayoutExperiments,
  pageViewHeaders,
  trackPageView,
  usePageView,
} from '../../lib/analytics.js';
import { pushExposures } from '../../lib/data-layer.js';
import { layoutPageParams } from '../../lib/flags.js';
import { storeLocation } from '../../lib/location.js';
import type { ChosenPlace } from '../../../../shared/rules/location.js';
import { callPath, callQueryKey, type LayoutCall, type QueryParam } from '../../../../shared/schemas/api-calls.js';
import { useGuestSession } from '../../lib/use-guest-session.js';
import { NotFoundPage } from './not-found-page.js';
import { usePlaceReader, useServedPageReport } from '../page-context.js';

/**
 * The layout envelope; rows are parsed one by one so an unknown row cannot sink the page. Loaded with the first
 * layout fetched: a page the server rendered hydrates from its own data, without zod.
 */
const layoutAnswerSchema = () => import('../../lib/schemas.js').then((m) => m.LayoutAnswerSchema);

/**
 * A layout page's call, from the page, the shopper's place and the page URL's own parameters (its experiment
 * overrides among them). The server renders a landing page with the same call, so the client finds its answer in
 * the cache it hydrates.
 */
export function layoutCall(
  kind: 'home' | 'category',
  slug: string,
  place: ChosenPlace,
  pageParams: readonly QueryParam[],
): LayoutCall {
  return kind === 'home'
    ? { call: 'layout', page: 'home', place, pageParams }
    : { call: 'layout', page: 'category', slug, place, pageParams };
}

export function LayoutPage({ kind }: { kind: 'home' | 'category' }) {
  const { slug = '' } = useParams();
  const routerLocation = useLocation();
  const [where, setWhere] = useState<ChosenPlace>(usePlaceReader());
  // The current page URL's experiment overrides (`?home-layout=1`), as GrowthBook reads them: the server forces
  // the variation, lists no exposure for it, and ignores what names no experiment.
  const call = layoutCall(kind, slug, where, layoutPageParams(routerLocation.search));
  // The layout waits for the guest session so the home experiment can follow the guest (RULES 1.6, 9.4). A page
  // the server rendered is already in the cache: it is shown as it came, never refetched for the session (the
  // variation the guest saw first stays for this page view).
  const session = useGuestSession();
  const query = useQuery({
    queryKey: callQueryKey(call),
    // The page view goes along, so the exposures the server records join this page's events; it is not part of
    // the key: a cached answer stays the page's answer.
    queryFn: ({ signal }) => callApi(call, layoutAnswerSchema, { signal, headers: pageViewHeaders() }),
    enabled: session.settled,
  });

  // The rows render in a transition, in slices that leave the main thread free, rather than in the
  // query's synchronous update; until then the skeletons (or the previous rows) stay.
  const data = useDeferredValue(query.data);
  // The answer to this page's own call (not the previous page's, still shown while the new one renders).
  const current = data !== undefined && data === query.data ? data : undefined;
  const variation = current ? (current.variation ?? BASE_VARIATION) : undefined;
  const pageView = usePageView();

  // RULES 9.3: each exposure pushed once per experiment per page view.
  const pushed = useRef(new Set<string>());
  useEffect(() => {
    pushed.current = new Set();
  }, [routerLocation.key]);
  useEffect(() => {
    if (data) pushExposures(data.experiments, pushed.current);
    // The guest's own answer names their assignment: the next home page is drawn with it (RULES 13.7).
    if (data?.assignment) keepHomeLayout(data.assignment);
  }, [data]);
  // A home page the server sent was drawn for the assignment its cookie named, for no one in particular: the
  // browser says what it showed, the server records the exposures when that was the guest's variation, and
  // names the assignment for the next page (RULES 9.4, 16.1).
  const address = callPath(call);
  useServedPageReport(
    'home-exposures',
    kind === 'home' && current && variation !== undefined
      ? () => {
          reportHomeView({ address, assignment: homeLayoutAssignment(), shown: variation }, pageViewHeaders())
            .then((experiments) => pushExposures(experiments, pushed.current))
            .catch((err: unknown) => console.debug('exposures not reported', err));
        }
      : undefined,
  );

  useEffect(() => {
    if (current && variation !== undefined) {
      noteLayoutExperiments(current.experiments.map((e) => e.key));
      trackPageView(variation);
    } else if (query.isError) {
      trackPageView(BASE_VARIATION);
    }
  }, [current, variation, query.isError, pageView]);

  useEffect(() => {
    if (data)
      document.title = kind === 'home' ? `Tickets near ${data.location.city || 'you'}` : `${data.title} tickets`;
  }, [data, kind]);

  const choose = (next: ChosenPlace) => {
    storeLocation(next);
    setWhere(next);
  };

  if (query.error instanceof ApiError && query.error.status === 404) return <NotFoundPage />;
  return (
    <div className="layout-page">
      <div className="page-heading">
        <h1>{kind === 'home' ? 'Find tickets near you' : (data?.title ?? 'Tickets')}</h1>
        {data && <LocationPicker city={data.location.city} state={data.location.state} onChoose={choose} />}
      </div>
      {!data && !query.isError && [0, 1, 2].map((i) => <RowSkeleton key={i} />)}
      {query.isError &&
        !(query.error instanceof ApiError && query.error.status === 404) &&
        (query.error instanceof ApiError && query.error.status === 400 ? (
          // An address the page cannot follow (a variation that does not exist, say): say what, not "try again".
          <p role="alert">
            This address asks for something the page cannot show: {query.error.message}.{' '}
            <Link to="/">See the home page</Link>
          </p>
        ) : (
          <p role="alert">We could not load this page. Please check your connection and try again.</p>
        ))}
      {data && <LayoutRows rows={data.rows} pageView={current ? pageView : undefined} variation={variation} />}
    </div>
  );
}

// The form to change place opens on demand: its code stays out of the first page's script.
const LocationForm = lazy(() => import('./location-form.js').then((m) => ({ default: m.LocationForm })));

function LocationPicker({
  city,
  state,
  onChoose,
}: {
  city: string;
  state: string;
  onChoose: (l: ChosenPlace) => void;
}) {
  const [editing, setEditing] = useState(false);
  return (
    <div className="location-picker">
      <span>
        Near <strong>{city ? `${city}${state ? `, ${state}` : ''}` : 'you'}</strong>
      </span>{' '}
      {!editing ? (
        <button type="button" className="link-button" onClick={() => setEditing(true)}>
          Change location
        </button>
      ) : (
        <Suspense fallback={null}>
          <LocationForm
            city={city}
            state={state}
            onChoose={(next) => {
              onChoose(next);
              setEditing(false);
            }}
          />
        </Suspense>
      )}
    </div>
  );
}
