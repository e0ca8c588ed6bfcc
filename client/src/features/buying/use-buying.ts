import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { LISTINGS_FRESH_MS } from '../../../../shared/schemas/commerce.js';
import { buyingApi, listingsQueryString, type ListingsFilter } from './buying-api.js';

/** The event page's query: its cache key and the API address it reads (also what the server renders with). */
export const eventQuery = (slug: string) => ({
  queryKey: ['events', slug],
  path: `/api/events/${encodeURIComponent(slug)}`,
});

/** An event's listings under a filter (`{}` for all of them): key and API address. */
export const listingsQuery = (slug: string, filter: ListingsFilter) => ({
  queryKey: ['listings', slug, filter],
  path: `/api/events/${encodeURIComponent(slug)}/listings${listingsQueryString(filter)}`,
});

export function useEventPage(slug: string) {
  return useQuery({
    queryKey: eventQuery(slug).queryKey,
    queryFn: ({ signal }) => buyingApi.event(slug, signal),
    enabled: slug !== '',
  });
}

export function useListings(slug: string, filter: ListingsFilter) {
  return useQuery({
    queryKey: listingsQuery(slug, filter).queryKey,
    queryFn: ({ signal }) => buyingApi.listings(slug, filter, signal),
    enabled: slug !== '',
    staleTime: LISTINGS_FRESH_MS,
    // The previous result stays on screen while a new quantity or filter loads.
    placeholderData: keepPreviousData,
  });
}

/** Every listing of the event, unfiltered: for sold-out, the JSON-LD offer and the fee rates. */
export function useAllListings(slug: string) {
  return useQuery({
    queryKey: listingsQuery(slug, {}).queryKey,
    queryFn: ({ signal }) => buyingApi.listings(slug, {}, signal),
    enabled: slug !== '',
    staleTime: LISTINGS_FRESH_MS,
  });
}

/** The last path segment of a splat route (`/events/<anything>/<slug>`). */
export function slugFromSplat(splat: string | undefined): string {
  return (splat ?? '').split('/').filter(Boolean).at(-1) ?? '';
}
