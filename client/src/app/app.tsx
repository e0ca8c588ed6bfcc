import { GrowthBookProvider, type GrowthBook } from '@growthbook/growthbook-react';
import { QueryClientProvider, useQuery, type QueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import {
  BrowserRouter,
  matchRoutes,
  Outlet,
  renderMatches,
  useLocation,
  type RouteMatch,
  type RouteObject,
} from 'react-router';
import { pagePath, RESULTS_PATH } from '../../../shared/rules/site-paths.js';
import { callQueryKey, type ApiCall } from '../../../shared/schemas/api-calls.js';
import type { BrandAnswer } from '../../../shared/schemas/layout.js';
import { AppLinkNavigation } from '../components/app-link.js';
import { SiteFooter } from '../features/navigation/site-footer.js';
import { SiteHeader } from '../features/navigation/site-header.js';
import { RowSkeleton } from '../features/rows/rows.js';
import { SearchBox } from '../features/search/search-box.js';
import { callApi } from '../lib/api.js';
import { StartFlagsContext, useGrowthBookUrl } from '../lib/flags.js';
import { createQueryClient } from '../lib/query-client.js';
import { ensureGuestSession } from '../lib/session.js';
import { isBarePage } from './layout-rule.js';
import { PageContext, useLandedNotFound, type PageContextValue } from './page-context.js';
import { usePageViews } from './page-views.js';
import { useScrollOnNavigate } from './scroll-on-navigate.js';
import { LayoutPage } from './pages/layout-page.js';
import { NotFoundPage } from './pages/not-found-page.js';

// Only the home and category pages ship in the first bundle; every other page loads when first visited.
const entityPages = () => import('./pages/entity-pages.js');
const infoPages = () => import('./pages/info-pages.js');
const PerformerPage = lazy(() => entityPages().then((m) => ({ default: m.PerformerPage })));
const VenuePage = lazy(() => entityPages().then((m) => ({ default: m.VenuePage })));
const EventPage = lazy(() => import('./pages/event-page.js').then((m) => ({ default: m.EventPage })));
const TicketPage = lazy(() => import('./pages/ticket-page.js').then((m) => ({ default: m.TicketPage })));
const CheckoutPage = lazy(() => import('./pages/checkout-page.js').then((m) => ({ default: m.CheckoutPage })));
const OrderPage = lazy(() => import('./pages/order-page.js').then((m) => ({ default: m.OrderPage })));
const ResultsPage = lazy(() => entityPages().then((m) => ({ default: m.ResultsPage })));
const ContactPage = lazy(() => infoPages().then((m) => ({ default: m.ContactPage })));
const FaqPage = lazy(() => infoPages().then((m) => ({ default: m.FaqPage })));
const GuaranteePage = lazy(() => infoPages().then((m) => ({ default: m.GuaranteePage })));
const PoliciesPage = lazy(() => infoPages().then((m) => ({ default: m.PoliciesPage })));

/** The brand's call (the server renders with it too). */
export const brandCall: ApiCall = { call: 'brand' };
/** Loaded with the brand's fetch, not with the page (`AnswerSchema`). */
const brandSchema = () => import('../lib/schemas.js').then((m) => m.BrandAnswerSchema);

function useBrand(): BrandAnswer | undefined {
  const { data } = useQuery({
    queryKey: callQueryKey(brandCall),
    queryFn: ({ signal }) => callApi(brandCall, brandSchema, { signal, token: false }),
    staleTime: Infinity,
  });
  useEffect(() => {
    if (!data) return;
    const root = document.documentElement.style;
    root.setProperty('--brand', data.theme.primary);
    root.setProperty('--brand-contrast', data.theme.primaryContrast);
    root.setProperty('--ink', data.theme.ink);
    root.setProperty('--surface', data.theme.surface);
    root.setProperty('--accent', data.theme.accent);
  }, [data]);
  return data;
}

/** Header, width-limited main and footer, except on event and ticket pages (RULES 2.5). */
function SiteShell() {
  const { pathname } = useLocation();
  const brand = useBrand();
  useGrowthBookUrl();
  usePageViews();
  useScrollOnNavigate();
  const page = useLandedNotFound() ? <NotFoundPage /> : <Outlet />;
  if (isBarePage(pathname)) {
    return (
      <main id="main" className="bare-main">
        <Suspense fallback={<RowSkeleton />}>{page}</Suspense>
      </main>
    );
  }
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <SiteHeader
        brandName={brand?.name ?? 'Tickets'}
        logo={brand?.theme.logo ?? '/favicon.svg'}
        search={<SearchBox variant="dropdown" />}
        mobileSearch={<SearchBox variant="overlay" />}
      />
      <main id="main" className="site-main">
        <Suspense fallback={<RowSkeleton />}>{page}</Suspense>
      </main>
      <SiteFooter />
    </>
  );
}

/** RULES 2.4: team and performer pages are also linked at the site root by their slug (name plus id). */
function RootSlugPage() {
  const { pathname } = useLocation();
  // Read as the server reads it (RULES 2.6): a trailing slash changes nothing.
  return /^\/[a-z0-9-]+-\d+$/.test(pagePath(pathname)) ? <PerformerPage /> : <NotFoundPage />;
}

export interface StorefrontProps {
  queryClient: QueryClient;
  /** The page's GrowthBook once started; none on the server, which evaluates no feature in a page. */
  growthbook?: GrowthBook;
  /** Starts the page's GrowthBook when a feature is first wanted (`useFlag`). */
  startFlags?: () => void;
  /** What the server knew of the page it rendered; absent when the client renders alone. */
  page?: PageContextValue;
}

const noStart = () => {};

/**
 * The routes, made once: `<Routes>` with `<Route>` children builds these objects again on every render (a server
 * render is one render). The same elements in the same tree, so hydration sees what the server drew.
 */
const ROUTES: RouteObject[] = [
  {
    element: <SiteShell />,
    children: [
      { index: true, element: <LayoutPage kind="home" /> },
      { path: 'category/:slug', element: <LayoutPage kind="category" /> },
      { path: 'performers/:slug', element: <PerformerPage /> },
      { path: 'venues/:slug', element: <VenuePage /> },
      { path: RESULTS_PATH.slice(1), element: <ResultsPage /> },
      { path: 'events/*', element: <EventPage /> },
      { path: 'tickets/*', element: <TicketPage /> },
      { path: 'checkout/:cartId', element: <CheckoutPage /> },
      { path: 'orders/:id', element: <OrderPage /> },
      { path: 'contact-us', element: <ContactPage /> },
      { path: 'faq', element: <FaqPage /> },
      { path: 'guarantee', element: <GuaranteePage /> },
      { path: 'policies', element: <PoliciesPage /> },
      { path: ':slug', element: <RootSlugPage /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

/** How many paths' matches are kept, and the longest path kept: a crawl of event pages cannot grow it. */
const KEPT_MATCHES = 500;
const KEPT_PATH_LENGTH = 200;
const keptMatches = new Map<string, RouteMatch[] | null>();

/**
 * The routes a path matches, kept for the paths asked lately: matching (what `useRoutes` does on every render, the
 * server's included) ranks every route again and compiles a pattern for each one it tries, about a twentieth of a
 * rendered page's CPU. The routes are the same objects, so the same elements as `useRoutes` gives; the matches'
 * paths are left as the location spells them, not encoded again (every link of the app is absolute or a query,
 * never resolved against them), and the storefront is the top of the route tree (no route above it).
 */
function matchedRoutes(pathname: string): RouteMatch[] | null {
  let matches = keptMatches.get(pathname);
  if (matches !== undefined) keptMatches.delete(pathname);
  else matches = matchRoutes(ROUTES, pathname);
  if (pathname.length > KEPT_PATH_LENGTH) return matches;
  keptMatches.set(pathname, matches);
  if (keptMatches.size > KEPT_MATCHES) keptMatches.delete(keptMatches.keys().next().value!);
  return matches;
}

function StorefrontRoutes() {
  return renderMatches(matchedRoutes(useLocation().pathname));
}

/** The storefront's providers and routes, inside whichever router the caller gives (the browser's, or the server's). */
export function Storefront({ queryClient, growthbook, startFlags = noStart, page }: StorefrontProps) {
  useEffect(() => {
    // RULES 1.6: a guest token is requested on first load, only when none is stored.
    void ensureGuestSession();
    // The page is the app's from here on (a rendered page is hydrated): tools and tests can wait for this.
    document.documentElement.dataset.ready = 'true';
  }, []);
  return (
    <PageContext value={page ?? null}>
      <QueryClientProvider client={queryClient}>
        {/* Until the flags start the provider holds no GrowthBook: `lib/flags.ts` reads that as every feature off. */}
        <StartFlagsContext value={startFlags}>
          <GrowthBookProvider growthbook={growthbook as GrowthBook}>
            <StorefrontRoutes />
          </GrowthBookProvider>
        </StartFlagsContext>
      </QueryClientProvider>
    </PageContext>
  );
}

/** The storefront in the browser; `queryClient` and `page` come filled when hydrating a server-rendered page. */
export function App({ queryClient: given, page }: { queryClient?: QueryClient; page?: PageContextValue } = {}) {
  const [queryClient] = useState(() => given ?? createQueryClient());
  const [growthbook, setGrowthbook] = useState<GrowthBook>();
  const starting = useRef(false);
  // RULES 9.1: the experiment service starts with the first feature a component wants, in a chunk of its own.
  const startFlags = useCallback(() => {
    if (starting.current) return;
    starting.current = true;
    void import('../lib/growthbook.js').then(
      (m) => setGrowthbook(m.createGrowthBook()),
      () => {
        starting.current = false;
      },
    );
  }, []);
  return (
    <BrowserRouter>
      <AppLinkNavigation>
        <Storefront queryClient={queryClient} growthbook={growthbook} startFlags={startFlags} page={page} />
      </AppLinkNavigation>
    </BrowserRouter>
  );
}
