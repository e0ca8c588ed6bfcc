import { useQuery } from '@tanstack/react-query';
import { useDeferredValue, useEffect, useRef, useState, type FormEvent } from 'react';
import { useLocation, useParams } from 'react-router';
import { z } from 'zod';
import { LayoutResponseSchema, ResolvedLocationSchema } from '../../../../schemas/layout.js';
import { RowSkeleton } from '../../features/rows/rows.js';
import { LayoutRows } from '../../features/rows/layout-rows.js';
import { api, ApiError } from '../../lib/api.js';
import { pushExposures } from '../../lib/data-layer.js';
import { locationParams, storedLocation, storeLocation, type ShopperLocation } from '../../lib/location.js';
import { useGuestSession } from '../../lib/use-guest-session.js';
import { NotFoundPage } from './not-found-page.js';

/** The layout envelope; rows are parsed one by one so an unknown row cannot sink the page. */
const LayoutEnvelopeSchema = LayoutResponseSchema.extend({ rows: z.array(z.unknown()) });

export function LayoutPage({ kind }: { kind: 'home' | 'category' }) {
  const { slug = '' } = useParams();
  const routerLocation = useLocation();
  const [where, setWhere] = useState<ShopperLocation>(() => storedLocation());
  const params = locationParams(where);
  const path = kind === 'home' ? '/api/layout/home' : `/api/layout/category/${encodeURIComponent(slug)}`;
  // The layout waits for the guest session so the home experiment can follow the guest (spec §4, §7).
  const session = useGuestSession();
  const query = useQuery({
    queryKey: ['layout', path, params, session.token !== null],
    queryFn: ({ signal }) => api(`${path}${params ? `?${params}` : ''}`, LayoutEnvelopeSchema, { signal }),
    enabled: session.settled,
  });

  // The rows render in a transition, in slices that leave the main thread free, rather than in the
  // query's synchronous update; until then the skeletons (or the previous rows) stay.
  const data = useDeferredValue(query.data);

  // Spec §7: each exposure pushed once per experiment per page view.
  const pushed = useRef(new Set<string>());
  useEffect(() => {
    pushed.current = new Set();
  }, [routerLocation.key]);
  useEffect(() => {
    if (data) pushExposures(data.experiments, pushed.current);
  }, [data]);

  useEffect(() => {
    if (data) document.title = kind === 'home' ? `Tickets near ${data.location.city || 'you'}` : `${data.title} tickets`;
  }, [data, kind]);

  const choose = (next: ShopperLocation) => {
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
      {query.isError && !(query.error instanceof ApiError && query.error.status === 404) && (
        <p role="alert">We could not load this page. Please check your connection and try again.</p>
      )}
      {data && <LayoutRows rows={data.rows} />}
    </div>
  );
}

function LocationPicker({ city, state, onChoose }: { city: string; state: string; onChoose: (l: ShopperLocation) => void }) {
  const [editing, setEditing] = useState(false);
  const [zip, setZip] = useState('');
  const [message, setMessage] = useState('');
  const useMine = () => {
    if (!navigator.geolocation) return setMessage('Your browser cannot share its location; enter a ZIP code instead.');
    navigator.geolocation.getCurrentPosition(
      (pos) => {
        onChoose({ lat: pos.coords.latitude, lng: pos.coords.longitude });
        setEditing(false);
      },
      () => setMessage('Location is turned off; enter a ZIP code instead.'),
      { maximumAge: 600_000, timeout: 10_000 },
    );
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!/^\d{5}$/.test(zip)) return setMessage('Enter a 5-digit ZIP code.');
    // An unknown ZIP would quietly become New York: check it first, and keep the current place if it is unknown.
    try {
      await api(`/api/location?zip=${zip}`, ResolvedLocationSchema);
    } catch (err) {
      const here = city ? `${city}${state ? `, ${state}` : ''}` : 'your current place';
      return setMessage(err instanceof ApiError && err.status === 404 ? `We don’t know ZIP code ${zip}. Still showing events near ${here}.` : 'We could not check that ZIP code. Please try again.');
    }
    setMessage('');
    onChoose({ zip });
    setEditing(false);
  };
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
        <form onSubmit={(e) => void submit(e)} className="location-form">
          <label htmlFor="zip-input">ZIP code</label>
          <input id="zip-input" inputMode="numeric" autoComplete="postal-code" maxLength={5} value={zip} onChange={(e) => setZip(e.target.value.replace(/\D/g, ''))} />
          <button type="submit">Show events</button>
          <button type="button" className="link-button" onClick={useMine}>
            Use my location
          </button>
          {message && <span role="status">{message}</span>}
        </form>
      )}
    </div>
  );
}
