import { useLayoutEffect, useRef } from 'react';
import { NavigationType, useLocation, useNavigationType } from 'react-router';
import { BASE_VARIATION, newPageView, trackPageView } from '../lib/analytics.js';
import { useLandedNotFound } from './page-context.js';

/** The pages drawn from a layout answer (home and category): they record their page view once it has come. */
export function isLayoutPath(pathname: string): boolean {
  return pathname === '/' || /^\/category\/[^/]+\/?$/.test(pathname);
}

/** A variation's rows come from its own segment file, `<page>~<variation>.json`; other rows from the page's own. */
const VARIATION_FILE = /~([^/~]+)\.json$/;

/**
 * The variation a layout answer shows, read off the files its rows come from (`base` when none is a variation's).
 * A variation that only removes rows of the base page has no row of its own and reads as `base`.
 */
export function layoutVariation(rows: readonly unknown[]): string {
  for (const row of rows) {
    const file = (row as { source?: { file?: unknown } } | null)?.source?.file;
    const match = typeof file === 'string' ? VARIATION_FILE.exec(file) : null;
    if (match) return match[1]!;
  }
  return BASE_VARIATION;
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
