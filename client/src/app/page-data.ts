import type { DehydratedState } from '@tanstack/react-query';
import type { PageContextValue } from './page-context.js';

/**
 * The element the server writes a rendered page's data into: JSON, never run as script (the CSP allows none inline).
 */
export const PAGE_DATA_ID = 'page-data';

/** What a server-rendered page carries for the client that hydrates it. */
export interface PageData {
  /** TanStack Query's dehydrated cache: the API answers the page was rendered with, under the client's keys. */
  state: DehydratedState;
  page: PageContextValue;
}

/**
 * The page data as JSON safe inside a `<script>` element: `<` is escaped, so no `</script>` or `<!--` in an
 * answer (an event's name, say) can end the element early.
 */
export function pageDataJson(data: PageData): string {
  return JSON.stringify(data)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/**
 * The page data the server wrote, or null for a page it did not render. Its answers count as fetched now: a
 * page replayed from the server's cache is as fresh as the cache's rules allow, and refetching it at once would
 * only redraw what the shopper is reading (and might switch an experiment's variation mid-view).
 */
export function readPageData(doc: Document): PageData | null {
  const text = doc.getElementById(PAGE_DATA_ID)?.textContent;
  if (!text) return null;
  try {
    const data = JSON.parse(text) as PageData;
    const now = Date.now();
    for (const query of data.state.queries) query.state.dataUpdatedAt = now;
    return data;
  } catch {
    return null;
  }
}
