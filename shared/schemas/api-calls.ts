import type { z } from 'zod';
import { placeParams, type ChosenPlace } from '../rules/location.js';
import type { ListingsQuerySchema } from './commerce.js';

/**
 * The API's GET answers a page draws with, as typed calls: a page names what it needs (the client's query
 * builders make these), the client fetches each at `callPath`, and the server rendering a page answers each by
 * calling its services directly (`server/pages/page-answers.ts`). One call, one answer, whoever asks.
 */

/** One parameter of an address's query, in the order `URLSearchParams` lists them. */
export type QueryParam = readonly [name: string, value: string];

/** The listings panel's filter, as the listings API reads it. */
export interface ListingsCallFilter {
  quantity?: number;
  sort?: z.output<typeof ListingsQuerySchema>['sort'];
  minPrice?: number;
  maxPrice?: number;
  /** Accessible seating only (RULES 10.15). */
  accessible?: boolean;
}

/** A layout page for a place, with the page address's own parameters (experiment overrides, campaign tags). */
export type LayoutCall = {
  call: 'layout';
  place: ChosenPlace;
  /** Passed on as the page URL has them: GrowthBook reads the experiment overrides and a rule may read the rest. */
  pageParams: readonly QueryParam[];
} & ({ page: 'home' } | { page: 'category'; slug: string });

export type ApiCall =
  | { call: 'brand' }
  | { call: 'menu' }
  | LayoutCall
  | { call: 'event'; slug: string }
  | { call: 'listings'; slug: string; filter: ListingsCallFilter }
  | { call: 'performer'; slug: string; page: number }
  | { call: 'venue'; slug: string; page: number }
  | { call: 'results'; q: string; page: number };

export type CallName = ApiCall['call'];

/** `params` as a query string (`a=1&b=2`), encoded as `URLSearchParams` encodes them. */
export function queryText(params: readonly QueryParam[]): string {
  return new URLSearchParams(params as [string, string][]).toString();
}

const withQuery = (path: string, query: string) => (query ? `${path}?${query}` : path);
const segment = encodeURIComponent;

function layoutPath(call: LayoutCall): string {
  return call.page === 'home' ? '/api/layout/home' : `/api/layout/category/${segment(call.slug)}`;
}

/** The layout API's query of a call: the place first, then the page's own parameters. */
export function layoutParams(call: LayoutCall): QueryParam[] {
  return [...placeParams(call.place), ...call.pageParams];
}

/** The listings API's query of a filter: only what it sets, in a fixed order. */
export function listingsParams(filter: ListingsCallFilter): QueryParam[] {
  const params: QueryParam[] = [];
  if (filter.quantity !== undefined) params.push(['quantity', String(filter.quantity)]);
  if (filter.sort) params.push(['sort', filter.sort]);
  if (filter.minPrice !== undefined) params.push(['minPrice', String(filter.minPrice)]);
  if (filter.maxPrice !== undefined) params.push(['maxPrice', String(filter.maxPrice)]);
  if (filter.accessible) params.push(['accessible', '1']);
  return params;
}

/** The address the client fetches a call's answer at. */
export function callPath(call: ApiCall): string {
  switch (call.call) {
    case 'brand':
      return '/api/brand';
    case 'menu':
      return '/api/menu';
    case 'layout':
      return withQuery(layoutPath(call), queryText(layoutParams(call)));
    case 'event':
      return `/api/events/${segment(call.slug)}`;
    case 'listings':
      return withQuery(`/api/events/${segment(call.slug)}/listings`, queryText(listingsParams(call.filter)));
    case 'performer':
    case 'venue': {
      const path = `/api/${call.call}s/${segment(call.slug)}`;
      // The first page is the address without one.
      return call.page > 1 ? `${path}?page=${call.page}` : path;
    }
    case 'results':
      return `/api/Searches/get?q=${segment(call.q)}&page=${call.page}`;
  }
}

/** The client's cache key for a call's answer: the page the server renders carries the answer under it. */
export function callQueryKey(call: ApiCall): readonly unknown[] {
  switch (call.call) {
    case 'brand':
    case 'menu':
      return [call.call];
    case 'layout':
      return ['layout', layoutPath(call), queryText(placeParams(call.place)), queryText(call.pageParams)];
    case 'event':
      return ['events', call.slug];
    case 'listings':
      return ['listings', call.slug, call.filter];
    case 'performer':
    case 'venue':
      return [`${call.call}s`, call.slug, call.page];
    case 'results':
      return ['results', call.q, call.page];
  }
}
