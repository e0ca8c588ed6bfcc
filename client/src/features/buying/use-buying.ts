import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { LISTINGS_FRESH_MS } from '../../../../shared/schemas/commerce-terms.js';
import { callQueryKey, type ApiCall, type ListingsCallFilter } from '../../../../shared/schemas/api-calls.js';
import type { PurchaseAllowance } from '../../../../shared/schemas/purchase-limits.js';
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

/** RULES 8.1: the shopper's allowance of an event, read afresh whenever the ticket page opens. */
export function usePurchaseAllowance(eventId: number | undefined) {
  return useQuery({
    queryKey: ['purchase-limits', eventId],
    queryFn: ({ signal }) => buyingApi.purchaseAllowance(eventId!, signal),
    enabled: eventId !== undefined,
    staleTime: 0,
  });
}

/** The allowance in the shopper's words: both limits, and what they may still add. */
export function allowanceText(a: PurchaseAllowance): string {
  // The second limit counts a client address: in the shopper's words, one internet connection.
  const limits =
    `Up to ${a.perShopper.limit} tickets per shopper for an event, and ${a.perNetwork.limit} from one internet ` +
    'connection';
  if (a.cartsLeft === 0) return `${limits}. You have the most open carts allowed; check out or release one first.`;
  if (a.left === 0) return `${limits}. You already hold or bought all the tickets you may for this event.`;
  const used = a.perShopper.used > 0 ? ` (you hold or bought ${a.perShopper.used})` : '';
  return `${limits}: you can add up to ${a.left} ${a.left === 1 ? 'ticket' : 'tickets'}${used}.`;
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
