import { DEGRADED_ROW, usGridPoints, type ChildLoadOptions } from './load.js';

/** What the load runs send: the endpoints, their request lists and how many connections ask. */
export const CONNECTIONS = 50;
export const HIGH_CONNECTIONS = 200;
export const COLD_POINTS = 4_000;
export const COLD_WARMUP_POINTS = 1_000;
/** The server-rendered home page as a browser asks for it. */
export const PAGE_REQUEST_HEADERS = { accept: 'text/html', 'accept-encoding': 'gzip, deflate, br, zstd' };
/** Distinct page addresses (`/?v=<n>`) for the page rendered on each request: far more than a run sends. */
const PAGE_COLD_ADDRESSES = 20_000;
const PAGE_COLD_WARMUP_ADDRESSES = 2_000;
/** Shopper places for the fully cold page: cells of the same grid after those of the cold layout run. */
const PLACE_POINTS = 4_000;
const PLACE_WARMUP_POINTS = 1_000;
export const SEQUENTIAL_REQUESTS = 2_000;
export const BURST_PATHS = 5_000;
export const BURST_SECONDS = 5;
/** Each run's own client warms up on its endpoint first (see load-child.ts). */
export const CLIENT_WARMUP_SECONDS = 1;
export const UNLIMITED = '100000000';
// Times Square, rounded by the server to one 0.1° cell: every request is the same row-cache key.
export const HOME_CACHED = '/api/layout/home?lat=40.758&lng=-73.9855';
/** Performers of the catalog whose names are typed and searched. */
export const PERFORMER_NAMES = 40;

export type RowKey =
  | 'healthz'
  | 'homeCached'
  | 'homeShopper'
  | 'homeCached200'
  | 'homeCold'
  | 'pageCached'
  | 'pageCold'
  | 'pageColdPlace'
  | 'category'
  | 'suggest'
  | 'search';

export interface Scenario extends Omit<ChildLoadOptions, 'seconds' | 'warmupSeconds'> {
  key: RowKey;
  label: string;
  /** Every request a cache miss: each round goes on in `paths` where the last one stopped. */
  cold?: true;
}

/** The request lists of the runs that send more than one request, made from the catalog's performer names. */
export function requestLists(names: readonly string[]) {
  const typed = ['y', 'ya', 'yan', 'yank', 'bos', 'new york', 'tay', 'tayl', 'taylor'];
  const prefixes = [
    ...new Set([...typed, ...names.flatMap((n) => [1, 2, 3, 5, 8].map((k) => n.toLowerCase().slice(0, k)))]),
  ];
  const queries = [...new Set([...names.map((n) => n.toLowerCase()), 'yankees', 'boston', 'new york', 'taylor swift'])];
  const suggestPaths = prefixes.map((q) => `/api/suggest?q=${encodeURIComponent(q)}`);
  const searchPaths = queries.map((q) => `/api/Searches/get?q=${encodeURIComponent(q)}`);
  const pointPath = ([lat, lng]: [number, number]) => `/api/layout/home?lat=${lat}&lng=${lng}`;
  const coldPaths = usGridPoints(COLD_POINTS, COLD_WARMUP_POINTS).map(pointPath);
  const coldWarmupPaths = usGridPoints(COLD_WARMUP_POINTS).map(pointPath);
  // The server-rendered home page: the same page at distinct addresses (each a page the cache does not hold,
  // drawn from the same kept layout answer), and at one address with a distinct shopper place each time.
  const pageColdPaths = Array.from({ length: PAGE_COLD_ADDRESSES }, (_, i) => `/?v=${i}`);
  const pageColdWarmupPaths = Array.from({ length: PAGE_COLD_WARMUP_ADDRESSES }, (_, i) => `/?v=w${i}`);
  const placeRequest = ([lat, lng]: [number, number]) => ({
    path: '/',
    headers: { cookie: `shopperLocation=${lat},${lng}` },
  });
  const placePoints = usGridPoints(PLACE_POINTS + PLACE_WARMUP_POINTS, COLD_WARMUP_POINTS + COLD_POINTS);
  const placeRequests = placePoints.slice(0, PLACE_POINTS).map(placeRequest);
  const placeWarmupRequests = placePoints.slice(PLACE_POINTS).map(placeRequest);
  return {
    prefixes,
    queries,
    suggestPaths,
    searchPaths,
    coldPaths,
    coldWarmupPaths,
    pageColdPaths,
    pageColdWarmupPaths,
    placeRequests,
    placeWarmupRequests,
    /** A shopper place no measured run asks for, to check that a cookie's place reaches the page. */
    checkPlace: placePoints[PLACE_POINTS]!,
  };
}

export type RequestLists = ReturnType<typeof requestLists>;

/** Every endpoint measured, in the order each round runs them. */
export function scenarios(base: string, lists: RequestLists, shopperHeaders: Record<string, string>): Scenario[] {
  return [
    // The app's middleware (request log, security headers) around a handler that does nothing: the floor.
    {
      key: 'healthz',
      label: '`/healthz` (the middleware stack, no work)',
      url: base + '/healthz',
      connections: CONNECTIONS,
    },
    {
      key: 'homeCached',
      label: `home layout, cached (\`${HOME_CACHED}\`)`,
      url: base + HOME_CACHED,
      connections: CONNECTIONS,
    },
    {
      key: 'homeShopper',
      label:
        'home layout, cached, as the storefront asks for it (guest token, site ' +
        'and client ids, `Accept-Encoding: gzip, deflate, br, zstd`)',
      url: base + HOME_CACHED,
      connections: CONNECTIONS,
      headers: shopperHeaders,
    },
    { key: 'homeCached200', label: 'home layout, cached', url: base + HOME_CACHED, connections: HIGH_CONNECTIONS },
    {
      key: 'homeCold',
      label: `home layout, cold (${COLD_POINTS.toLocaleString('en-US')} distinct 0.1° cells in turn)`,
      url: base,
      connections: CONNECTIONS,
      paths: lists.coldPaths,
      warmupPaths: lists.coldWarmupPaths,
      countMatching: DEGRADED_ROW,
      cold: true,
    },
    {
      key: 'pageCached',
      label:
        'home page, server-rendered, cached (`/` as a browser asks for it: ' +
        '`Accept: text/html`, `Accept-Encoding: gzip, deflate, br, zstd`; ' +
        'replayed from the page cache)',
      url: base + '/',
      connections: CONNECTIONS,
      headers: PAGE_REQUEST_HEADERS,
    },
    {
      key: 'pageCold',
      label:
        `home page rendered on each request (a distinct address each time, ` +
        `\`/?v=<n>\` over ${PAGE_COLD_ADDRESSES.toLocaleString('en-US')} in turn; ` +
        `the layout answer kept; same headers)`,
      url: base,
      connections: CONNECTIONS,
      headers: PAGE_REQUEST_HEADERS,
      paths: lists.pageColdPaths,
      warmupPaths: lists.pageColdWarmupPaths,
      cold: true,
    },
    {
      key: 'pageColdPlace',
      label:
        `home page, fully cold (\`/\` with a distinct shopper place each time, ` +
        `cookie \`shopperLocation=<lat>,<lng>\` over ${PLACE_POINTS.toLocaleString('en-US')} ` +
        `0.1° cells ` +
        'no other run asks for: the layout answer and its rows are made for each page too; same headers)',
      url: base,
      connections: CONNECTIONS,
      headers: PAGE_REQUEST_HEADERS,
      paths: lists.placeRequests,
      warmupPaths: lists.placeWarmupRequests,
      cold: true,
    },
    {
      key: 'category',
      label: 'category layout (`/api/layout/category/nfl`)',
      url: base + '/api/layout/category/nfl',
      connections: CONNECTIONS,
    },
    {
      key: 'suggest',
      label: `suggest (${lists.prefixes.length} typed prefixes in turn)`,
      url: base,
      connections: CONNECTIONS,
      paths: lists.suggestPaths,
    },
    {
      key: 'search',
      label: `search results (\`/api/Searches/get\`, ${lists.queries.length} queries in turn)`,
      url: base,
      connections: CONNECTIONS,
      paths: lists.searchPaths,
    },
  ];
}
