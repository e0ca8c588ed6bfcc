import { useLayoutEffect, useRef } from 'react';
import { NavigationType, useLocation, useNavigationType } from 'react-router';
import { BASE_VARIATION, newPageView, trackPageView } from '../lib/analytics.js';
import { useLandedNotFound } from './page-context.js';

/** The pages drawn from a layout answer (home and category): they record their page view once it has come. */
export function isLayoutPath(pathname: string): boolean {
  return pathname === '/' || /^\/category\/[^/]+\/?$/.test(pathname);
}

/**
 * Starts a page view at the first page and at each navigation to another page (a filter written into the address
 * in place is the same page view), before any page's effect asks for its data: a layout request carries the new
 * page view. Pages without a layout record their page view here; a layout page records its own once its answer
 * has come, with the variation. A rendered page is shared by every guest it is drawn for, so it carries no page
 * view: the server records a rendered page's exposures under its own, and the browser never records those again.
 */
export function usePageViews(): void {
  const { key, pathname } = useLocation();
  const navigationType = useNavigationType();
  const landedNotFound = useLandedNotFound();
  const last = useRef<{ key: string; pathname: string } | null>(null);
  useLayoutEffect(() => {
    const previous = last.current;
    last.current = { key, pathname };
    if (previous?.key === key) return;
    if (previous && navigationType === NavigationType.Replace && previous.pathname === pathname) return;
    newPageView();
    if (landedNotFound || !isLayoutPath(pathname)) trackPageView(BASE_VARIATION);
  }, [key, pathname, navigationType, landedNotFound]);
}
