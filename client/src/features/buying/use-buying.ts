import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { LISTINGS_FRESH_MS } from '../../../../shared/schemas/commerce.js';
import { callQueryKey, type ApiCall, type ListingsCallFilter } from '../../../../shared/schemas/api-calls.js';
import { buyingApi } from './buying-api.js';

/** The event page's call (also what the server renders with). */
export const eventCall = (slug: string): ApiCall => ({ call: 'event', slug });

/** An event's listings under a filter (`{}` for all of them). */
export const listingsCall = (slug: string, filter: ListingsCallFilter): ApiCall => ({ call: 'listings', slug, filter });

export function useEventPage(slug: string) {
  return useQuery({
    queryKey: callQueryKey(eventCall(slug)),
    queryFn: ({ signal }) => buyingApi.event(slug, signal),
    enabled: slug !== '',
  });
}

export function useListings(slug: string, filter: ListingsCallFilter) {
  return useQuery({
    queryKey: callQueryKey(listingsCall(slug, filter)),
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
    queryKey: callQueryKey(listingsCall(slug, {})),
    queryFn: ({ signal }) => buyingApi.listings(slug, {}, signal),
    enabled: slug !== '',
    staleTime: LISTINGS_FRESH_MS,
  });
}

/** The last path segment of a splat route (`/events/<anything>/<slug>`). */
export function slugFromSplat(splat: string | undefined): string {
  return (splat ?? '').split('/').filter(Boolean).at(-1) ?? '';
}

/** The order page's query: one order, opened with the guest's token or an access (or mail) code. */
export const orderQueryKey = (id: string, code: string | null) => ['order', id, code] as const;

/**
 * RULES 19.2: the buyer's full refund of an order whose event moved. The order it answers replaces the page's; after
 * a refusal the order is read again, as what it offers may have changed.
 */
export function useRefundRequest(id: string, code: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => buyingApi.requestRefund(id, code),
    onSuccess: (order) => queryClient.setQueryData(orderQueryKey(id, code), order),
    onError: () => queryClient.invalidateQueries({ queryKey: orderQueryKey(id, code) }),
  });
}
