import { QueryClient } from '@tanstack/react-query';

/** How long the browser keeps an answer no component shows any more. */
const BROWSER_GC_MS = 10 * 60_000;

/**
 * The storefront's query client. In the browser, an answer no component shows is dropped after ten minutes. A
 * server render's client lives as long as its render, so its answers are never timed out (`Infinity` sets no
 * timer): a timer would hold the whole page's data for ten minutes after the page went out (RULES 13.12).
 */
export function createQueryClient(where: 'browser' | 'server' = 'browser'): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 60_000,
        gcTime: where === 'server' ? Number.POSITIVE_INFINITY : BROWSER_GC_MS,
        retry: 1,
        refetchOnWindowFocus: false,
      },
    },
  });
}
