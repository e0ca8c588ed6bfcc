import { readListingsFilter } from '../features/buying/listings-filter.js';
import { eventQuery, listingsQuery, slugFromSplat } from '../features/buying/use-buying.js';
import { menuQuery } from '../features/navigation/menu-data.js';
import { pageQueryForLayout } from '../lib/flags.js';
import { cookieLocation, locationParams } from '../lib/location.js';
import { brandQuery } from './app.js';
import { isBarePage } from './layout-rule.js';
import { entityQuery, resultsPage, resultsQuery, schedulePage } from './pages/entity-pages.js';
import { layoutQuery } from './pages/layout-page.js';
import type { PagePlan, PageQuery, RenderedPageKind } from '../../../shared/schemas/page-render.js';

export type { PagePlan, PageQuery, RenderedPageKind };

const ENTITY_MODULE = 'src/app/pages/entity-pages.tsx';
const EVENT_MODULE = 'src/app/pages/event-page.tsx';
const INFO_MODULE = 'src/app/pages/info-pages.tsx';
const INFO_PATHS = new Set(['/contact-us', '/faq', '/policies']);

function segment(text: string | undefined): string {
  try {
    return decodeURIComponent(text ?? '');
  } catch {
    return text ?? '';
  }
}

/**
 * What the server must fetch to render the page at `url` as the client will draw it: the same routes as the
 * app's router and the same query builders as its pages. `cookies` is the request's `Cookie` header (the
 * shopper's place lives there). Null for pages the server does not render (tickets, checkout, orders).
 */
export function pagePlan(url: URL, cookies: string): PagePlan | null {
  const { searchParams, search } = url;
  // The router ignores a trailing slash (`/category/nfl/` is the category page), and so does the plan.
  const pathname = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
  const shell: PageQuery[] = isBarePage(pathname) ? [brandQuery] : [brandQuery, menuQuery];
  const category = /^\/category\/([^/]+)$/.exec(pathname);
  if (pathname === '/' || category) {
    const kind = category ? 'category' : 'home';
    return {
      kind,
      shell,
      own: [
        layoutQuery(kind, segment(category?.[1]), locationParams(cookieLocation(cookies)), pageQueryForLayout(search)),
      ],
    };
  }
  let match: RegExpExecArray | null;
  if ((match = /^\/performers\/([^/]+)$/.exec(pathname)) || (match = /^\/([a-z0-9-]+-\d+)$/.exec(pathname))) {
    return {
      kind: 'performer',
      module: ENTITY_MODULE,
      shell,
      own: [entityQuery('performers', segment(match[1]), schedulePage(searchParams))],
    };
  }
  if ((match = /^\/venues\/([^/]+)$/.exec(pathname))) {
    return {
      kind: 'venue',
      module: ENTITY_MODULE,
      shell,
      own: [entityQuery('venues', segment(match[1]), schedulePage(searchParams))],
    };
  }
  if (pathname === '/results-general') {
    return {
      kind: 'results',
      module: ENTITY_MODULE,
      shell,
      own: [resultsQuery(searchParams.get('kwds') ?? '', resultsPage(searchParams))],
    };
  }
  if (pathname.startsWith('/events/')) {
    const slug = slugFromSplat(pathname.slice('/events/'.length).split('/').map(segment).join('/'));
    return {
      kind: 'event',
      module: EVENT_MODULE,
      shell,
      own: [eventQuery(slug), listingsQuery(slug, {}), listingsQuery(slug, readListingsFilter(searchParams))],
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
