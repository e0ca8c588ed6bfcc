import { createContext, useContext, useEffect } from 'react';
import { useLocation } from 'react-router';
import type { PageContextValue } from '../../../shared/schemas/page-render.js';
import type { ChosenPlace } from '../../../shared/rules/location.js';
import { storedLocation } from '../lib/location.js';
import { onGuestToken } from '../lib/session.js';
import { isServedEntry } from '../lib/served-entry.js';
import { apiHeaders } from '../lib/api.js';
import type { ViewedPageBody } from '../../../shared/schemas/activity.js';

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

/** What has been reported of the page the server sent, by name: once per page load. */
const reported = new Set<string>();

/**
 * Runs `report` once per page load, with the guest token, when the page shown is the one the server sent
 * (rendered, or from a shared cache in front): such a page was drawn for no one, so what is the guest's own about
 * it (an exposure, recent activity) is told to the API from here (RULES 13.7). A page the client asked the API for
 * needs nothing: the API saw the guest. `report` is undefined until the page knows what to say.
 */
export function useServedPageReport(name: string, report: ((token: string) => void) | undefined): void {
  const context = useContext(PageContext);
  const { key } = useLocation();
  const served = context !== null && isServedEntry(key);
  useEffect(() => {
    if (!served || !report || reported.has(name)) return;
    return onGuestToken((token) => {
      if (reported.has(name)) return;
      reported.add(name);
      report(token);
    });
  }, [served, name, report]);
}

/**
 * RULES 1.8: a performer or event page the server sent joins the guest's recent activity, as one the client asked
 * the API for does (the API records it there).
 */
export function useServedEntityView(type: ViewedPageBody['type'], slug: string, shown: boolean): void {
  useServedPageReport(
    'viewed',
    shown
      ? () => {
          // A 204 with nothing to parse: no schema, so the page's script carries none.
          fetch('/api/CustomerActivity/recent-activities', {
            method: 'POST',
            headers: apiHeaders(),
            body: JSON.stringify({ type, slug } satisfies ViewedPageBody),
          }).catch((err: unknown) => console.debug('recent activity not recorded', err));
        }
      : undefined,
  );
}
