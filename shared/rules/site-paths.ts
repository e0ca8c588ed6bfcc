import { entitySlug } from './slug.js';

/*
 * RULES 2.1, 2.2: the storefront's page addresses. Performer, venue and event pages take the entity's slug (its name
 * and id); category pages the category's route slug. Cards, suggestions, the menu, the sitemaps and the page
 * status all build addresses here, so a sitemap lists exactly what the pages link to.
 */

export const eventPath = (name: string, id: number) => `/events/${entitySlug(name, id)}`;
export const performerPath = (name: string, id: number) => `/performers/${entitySlug(name, id)}`;
export const venuePath = (name: string, id: number) => `/venues/${entitySlug(name, id)}`;
export const categoryPath = (slug: string) => `/category/${slug}`;
/**
 * A page's path as the app's router reads it (RULES 2.6): a trailing slash changes nothing, so `/category/nfl/` is
 * `/category/nfl`, for the page drawn, its status and its canonical address alike.
 */
export const pagePath = (pathname: string) => (pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname);
/** The search results page (RULES 7.3): its `kwds` is the query (2.8). */
export const RESULTS_PATH = '/results-general';
/** The results of a search; the query is percent-encoded so `+` and spaces survive. */
export const searchResultsPath = (query: string) => `${RESULTS_PATH}?kwds=${encodeURIComponent(query)}`;
/** Where the guarantee every listing links to is explained (RULES 20.4): in every page's footer too. */
export const GUARANTEE_PATH = '/guarantee';
