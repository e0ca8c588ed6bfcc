import { createContext, useContext } from 'react';
import { useLocation } from 'react-router';
import type { PageContextValue } from '../../../shared/schemas/page-render.js';
import type { ChosenPlace } from '../../../shared/rules/location.js';
import { storedLocation } from '../lib/location.js';

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
 * The shopper's place as the request's cookie holds it, while the server renders: a page reads it as the browser
 * reads its own cookie when it hydrates.
 */
export const RequestPlace = createContext<{ place: ChosenPlace } | null>(null);

/** Reads the shopper's place as the page first draws it: the request's on the server, the stored one in the browser. */
export function usePlaceReader(): () => ChosenPlace {
  const request = useContext(RequestPlace);
  return request ? () => request.place : storedLocation;
}
