/**
 * What the server and the client's server renderer (`client/src/entry-server.tsx`) say to each other about a
 * page: which API answers it draws with, the head written for it, and the cookies it depends on. Shared by both
 * sides, with nothing in it that needs a browser or Node.
 */

import { callQueryKey, type ApiCall } from './api-calls.js';
import { percentDecoded } from '../rules/percent-decoding.js';

/** One API answer a page reads: the call that answers it and the client's cache key for its answer. */
export interface PageQuery {
  queryKey: readonly unknown[];
  call: ApiCall;
}

export const pageQuery = (call: ApiCall): PageQuery => ({ queryKey: callQueryKey(call), call });

/** The kinds of page the server renders (RULES 2.7: landing pages); every other address is the client's alone. */
export type RenderedPageKind = 'home' | 'category' | 'event' | 'performer' | 'venue' | 'results' | 'info' | 'not-found';

export interface PagePlan {
  kind: RenderedPageKind;
  /** What the site's header and footer draw with (the brand, the menu): drawn on every page, a 404 included. */
  shell: PageQuery[];
  /** What the page itself draws with, its main answer first (for an event: the event, then all its listings). */
  own: PageQuery[];
  /** The page's own module, loaded on demand by the client: the server preloads it and its stylesheet. */
  module?: string;
}

/**
 * A page's `<head>` as search engines and link previews read it (title, description, canonical, Open Graph, Twitter).
 */
export interface PageHead {
  title: string;
  description: string;
  /** The page's one address: its path (and schedule or results page), never filters, places or experiment overrides. */
  canonical: string;
  image: string | null;
  /** Open Graph's type. */
  type: 'website' | 'article';
  siteName: string;
  noindex: boolean;
}

/** What the server knew about the page it rendered, shared with the client that hydrates it. */
export interface PageContextValue {
  /** The site's public origin, for absolute addresses (JSON-LD). */
  origin: string;
  /** The HTTP status the first page was answered with (404 for an address with nothing at it). */
  status: number;
}

/**
 * The cookies the client writes for the server to render a page as the browser will show it, and the only ones a
 * rendered page depends on (RULES 13.7): the shopper's place (a ZIP or `lat,lng` at two decimals: its cell) and,
 * on the home page, the guest's home-layout assignment in GrowthBook's force syntax (`experiment:index`), as the
 * server last told the guest (RULES 9.4). Neither identifies anyone, so a shared cache keys pages by them.
 */
export const PAGE_COOKIES = { location: 'shopperLocation', homeLayout: 'homeLayout' } as const;

/** The cookies a page depends on, read off a `Cookie` header in one pass. */
export interface PageCookies {
  /** The shopper's place as the cookie spells it (`parsePlace` reads it). */
  place: string | undefined;
  /** The guest's home-layout assignment (`home-layout:1`), read only by the home page. */
  homeLayout: string | undefined;
}

/**
 * Which page cookies a page at `pathname` is drawn from (RULES 13.7, 13.8): the place on the home and category pages,
 * the home-layout assignment on the home page alone. Every other page is the same whatever they say.
 */
export function pageCookiesRead(pathname: string): { place: boolean; homeLayout: boolean } {
  const home = pathname === '/';
  return { place: home || pathname.startsWith('/category/'), homeLayout: home };
}

export function readPageCookies(cookies: string): PageCookies {
  const found: PageCookies = { place: undefined, homeLayout: undefined };
  const seen = new Set<string>();
  for (const part of cookies.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    // The first of a name counts, as `readCookie` reads it.
    if (seen.has(name)) continue;
    seen.add(name);
    if (name === PAGE_COOKIES.location) found.place = cookieValue(part, eq);
    else if (name === PAGE_COOKIES.homeLayout) found.homeLayout = cookieValue(part, eq);
  }
  return found;
}

function cookieValue(part: string, eq: number): string | undefined {
  return percentDecoded(part.slice(eq + 1).trim());
}

/** The value of cookie `name` in a `Cookie` header or `document.cookie`; undefined when absent or unreadable. */
export function readCookie(cookies: string, name: string): string | undefined {
  for (const part of cookies.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    return cookieValue(part, eq);
  }
  return undefined;
}

/**
 * An image a kept fragment draws without lazy loading: what React would preload for it, the fragment being
 * written as text where React no longer sees the image (RULES 13.13).
 */
export interface FragmentImage {
  href: string;
  imageSrcSet?: string;
  imageSizes?: string;
  fetchPriority?: 'high' | 'low' | 'auto';
}

/** A part of a page rendered once and written again as text when the same part is drawn again (RULES 13.13). */
export interface KeptFragment {
  /** The markup inside the part's element, as React wrote it. */
  html: string;
  images: readonly FragmentImage[];
}

/**
 * Where the server keeps rendered fragments, by a key naming everything their markup is drawn from (RULES 13.13).
 */
export interface FragmentStore {
  get(key: string): KeptFragment | undefined;
  set(key: string, fragment: KeptFragment): void;
}
