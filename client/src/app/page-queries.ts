import type { ChosenPlace } from '../../../shared/rules/location.js';
import { pagePath, RESULTS_PATH } from '../../../shared/rules/site-paths.js';
import { percentDecoded } from '../../../shared/rules/percent-decoding.js';
import {
  pageQuery,
  type PagePlan,
  type PageQuery,
  type RenderedPageKind,
} from '../../../shared/schemas/page-render.js';
import { readListingsFilter } from '../features/buying/listings-filter.js';
import { eventCall, listingsCall, slugFromSplat } from '../features/buying/use-buying.js';
import { layoutPageParams } from '../lib/flags.js';
import { brandCall } from './app.js';
import { entityCall, resultsCall, resultsPage, schedulePage } from './pages/entity-pages.js';
import { layoutCall } from './pages/layout-page.js';

export type { PagePlan, PageQuery, RenderedPageKind };

const ENTITY_MODULE = 'src/app/pages/entity-pages.tsx';
const EVENT_MODULE = 'src/app/pages/event-page.tsx';
const INFO_MODULE = 'src/app/pages/info-pages.tsx';
const INFO_PATHS = new Set(['/contact-us', '/faq', '/policies', '/guarantee']);

/** A path segment as the router reads it: its escapes read, or as written when they spell no text. */
function segment(text = ''): string {
  return percentDecoded(text) ?? text;
}

/**
 * What the server must answer to render the page at `url` as the client will draw it: the same routes as the
 * app's router and the same calls as its pages make. `place` is the shopper's, from the request's cookie. Null
 * for pages the server does not render (tickets, checkout, orders).
 */
export function pagePlan(url: URL, place: ChosenPlace): PagePlan | null {
  const { searchParams, search } = url;
  const pathname = pagePath(url.pathname);
  // The brand only: the menu's links load when a panel first opens (its bar is MENU_BAR), so no page carries them.
  const shell: PageQuery[] = [pageQuery(brandCall)];
  const category = /^\/category\/([^/]+)$/.exec(pathname);
  if (pathname === '/' || category) {
    const kind = category ? 'category' : 'home';
    return {
      kind,
      shell,
      own: [pageQuery(layoutCall(kind, segment(category?.[1]), place, layoutPageParams(search)))],
    };
  }
  let match: RegExpExecArray | null;
  if ((match = /^\/performers\/([^/]+)$/.exec(pathname)) || (match = /^\/([a-z0-9-]+-\d+)$/.exec(pathname))) {
    return {
      kind: 'performer',
      module: ENTITY_MODULE,
      shell,
      own: [pageQuery(entityCall('performer', segment(match[1]), schedulePage(searchParams)))],
    };
  }
  if ((match = /^\/venues\/([^/]+)$/.exec(pathname))) {
    return {
      kind: 'venue',
      module: ENTITY_MODULE,
      shell,
      own: [pageQuery(entityCall('venue', segment(match[1]), schedulePage(searchParams)))],
    };
  }
  if (pathname === RESULTS_PATH) {
    return {
      kind: 'results',
      module: ENTITY_MODULE,
      shell,
      own: [pageQuery(resultsCall(searchParams.get('kwds') ?? '', resultsPage(searchParams)))],
    };
  }
  if (pathname.startsWith('/events/')) {
    const slug = slugFromSplat(pathname.slice('/events/'.length).split('/').map(segment).join('/'));
    return {
      kind: 'event',
      module: EVENT_MODULE,
      shell,
      own: [eventCall(slug), listingsCall(slug, {}), listingsCall(slug, readListingsFilter(searchParams))].map(
        pageQuery,
      ),
    };
  }
  if (INFO_PATHS.has(pathname)) return { kind: 'info', module: INFO_MODULE, shell, own: [] };
  if (
    pathname.startsWith('/tickets/') ||
    pathname.startsWith('/checkout/') ||
    pathname.startsWith('/orders/') ||
    pathname.startsWith('/studio')
  )
    return null;
  return { kind: 'not-found', shell, own: [] };
}
