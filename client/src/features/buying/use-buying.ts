import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { buyingApi, type ListingsFilter } from './buying-api.js';

export function useEventPage(slug: string) {
  return useQuery({ queryKey: ['events', slug], queryFn: ({ signal }) => buyingApi.event(slug, signal), enabled: slug !== '' });
}

/** Listings change as shoppers buy: kept fresh for a short while only. */
const LISTINGS_STALE_MS = 15_000;

export function useListings(slug: string, filter: ListingsFilter) {
  return useQuery({
    queryKey: ['listings', slug, filter],
    queryFn: ({ signal }) => buyingApi.listings(slug, filter, signal),
    enabled: slug !== '',
    staleTime: LISTINGS_STALE_MS,
    // The previous result stays on screen while a new quantity or filter loads.
    placeholderData: keepPreviousData,
  });
}

/** Every listing of the event, unfiltered: for sold-out, the JSON-LD offer and the fee rates. */
export function useAllListings(slug: string) {
  return useQuery({
    queryKey: ['listings', slug, {}],
    queryFn: ({ signal }) => buyingApi.listings(slug, {}, signal),
    enabled: slug !== '',
    staleTime: LISTINGS_STALE_MS,
  });
}

/** The last path segment of a splat route (`/events/<anything>/<slug>`). */
export function slugFromSplat(splat: string | undefined): string {
  return (splat ?? '').split('/').filter(Boolean).at(-1) ?? '';
}
