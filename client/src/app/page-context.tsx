import { createContext, useContext } from 'react';
import { useLocation } from 'react-router';
import type { PageContextValue } from '../../../shared/schemas/page-render.js';
import { documentCookies } from '../lib/cookies.js';

/**
 * What the server knew about the page it rendered (origin, status), shared with the client that hydrates it:
 * both sides read the same values, so the markup the client builds matches the server's.
 */
export type { PageContextValue };

export const PageContext = createContext<PageContextValue | null>(null);

/** The site's origin: the server's when it rendered the page, else the browser's. */
export function useSiteOrigin(): string {
  return useContext(PageContext)?.origin ?? window.location.origin;
}

/**
 * Whether the server answered the address the browser first opened with 404: that page stays the not-found page
 * (search included) until the shopper moves on. The router's first entry is the only one with key 'default'.
 */
export function useLandedNotFound(): boolean {
  const status = useContext(PageContext)?.status;
  return useLocation().key === 'default' && status === 404;
}

/**
 * The request's `Cookie` header while the server renders (never sent to the browser: it holds the guest token),
 * so a page reads the cookies it depends on (the shopper's place) as the browser will when it hydrates.
 */
export const RequestCookies = createContext<string | null>(null);

/** The cookies as the page sees them: the request's on the server, `document.cookie` in the browser. */
export function useCookies(): string {
  return useContext(RequestCookies) ?? documentCookies();
}
