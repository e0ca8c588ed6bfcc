import { ExperimentReadout, experimentDefinitions } from './experiments/readout.js';
import { RowResultsReadout } from './experiments/row-results.js';
import { EventIntake } from './analytics/event-intake.js';
import type { EventCollector } from './analytics/event-collector.js';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { RequestListener } from 'node:http';
import express, { type Express, type Request, type RequestHandler, type Response } from 'express';
import type { Logger } from 'pino';
import type { Env } from './config/env.js';
import { healthRoutes } from './health/routes.js';
import type { Readiness } from './health/readiness.js';
import { addressProblem, apiNotFound, AppError, errorMiddleware, httpError, noRouteIn } from './http/errors.js';
import { compressResponses } from './http/compression.js';
import { FastLane, FLAGS_TAG, headersSetBy, SITE_TAG } from './http/fast-lane.js';
import { refusedQuietly, requestLogging } from './http/logger.js';
import { sqlRateLimitStores } from './http/rate-limit-store.js';
import {
  apiSecurityHeaders,
  corsAllowList,
  limiterGate,
  rateLimiters,
  securityHeaders,
  securityHeadersByPath,
  trustTest,
  type MakeLimiter,
  type TrustTest,
} from './http/security.js';
import type { LayoutService } from './layout/layout-service.js';
import { layoutRoutes } from './layout/routes.js';
import { requestContext } from './layout/request-context.js';
import { mediaRoutes } from './media/routes.js';
import type { SegmentRepository } from './segments/segment-repository.js';
import type { RecentActivity } from './activity/recent-activity.js';
import type { Commerce } from './commerce/commerce.js';
import { commerceRoutes } from './commerce/routes.js';
import { scannerAdminRoutes } from './commerce/scanner-admin-routes.js';
import type { ScannerKeys } from './commerce/scanner-keys.js';
import { scannerRoutes } from './commerce/scanner-routes.js';
import { orderAdminRoutes } from './commerce/admin-routes.js';
import { CustomerData } from './commerce/customer-data.js';
import { customerDataRoutes } from './commerce/customer-data-routes.js';
import { entityRoutes } from './entities/routes.js';
import type { FlagService } from './flags/flag-service.js';
import { flagRoutes } from './flags/routes.js';
import { clientErrorRoutes, ERROR_REPORTS_PER_MINUTE } from './http/client-errors.js';
import { clientHeadersPass } from './http/client-headers.js';
import { jsonpRoutes } from './search/jsonp.js';
import { searchRoutes } from './search/routes.js';
import { sessionRoutes } from './sessions/routes.js';
import type { SessionTokens } from './sessions/session-tokens.js';
import type { SearchService } from './search/search-service.js';
import type { Sql } from './store/sql.js';
import type { LiveCatalog } from './live-catalog/live-catalog.js';
import { catalogAdminRoutes } from './live-catalog/routes.js';
import type { MailOutbox } from './mail/outbox.js';
import { mailAdminRoutes } from './mail/routes.js';
import type { StudioService } from './studio/studio-service.js';
import {
  noPreviewRoute,
  previewLinkApi,
  previewLinkPage,
  studioAccess,
  studioPage,
  studioRoutes,
} from './studio/routes.js';
import { pagePath, RESULTS_PATH } from '../shared/rules/site-paths.js';
import { shellStatus } from './pages/page-status.js';
import { pageRequestProblem, ProblemPages, tooManyRequests, type PageProblem } from './pages/page-problems.js';
import { LayoutAnswers } from './layout/layout-answers.js';
import { PageAnswers } from './pages/page-answers.js';
import { PageDocument } from './pages/page-document.js';
import type { PageRenderer } from './pages/page-renderer.js';
import { PageService, redirectHeaders } from './pages/page-service.js';
import type { SitemapService } from './seo/sitemap-service.js';
import { seoRoutes } from './seo/routes.js';
import { publicOrigins } from './seo/public-origins.js';
import { CACHE_BYTES } from './cache/byte-bounded.js';
import { jsonBody } from './http/json-body.js';

export interface AppDeps {
  env: Env;
  logger: Logger;
  readiness: Readiness;
  search: SearchService;
  segments: SegmentRepository;
  layout: LayoutService;
  tokens: SessionTokens;
  activity: RecentActivity;
  flags: FlagService;
  commerce: Commerce;
  /** RULES 19.6: the venue scanners' keys, each naming its venue or events; managed at /api/admin/scanners. */
  scannerKeys: ScannerKeys;
  /** The live catalog, written through the operators' API at /api/admin when `CATALOG_ADMIN_KEY` is set. */
  catalog?: LiveCatalog;
  /** First-party events (RULES 16): the browser's batches at /api/events, the server's exposures and purchases. */
  events: EventCollector;
  /** The merchandisers' studio (drafts, preview, publish); at /studio and /api/studio when `studioAccess` allows. */
  studio?: StudioService;
  /** The mail outbox, listed and retried by operators at /api/admin/mail when `CATALOG_ADMIN_KEY` is set. */
  mail?: Pick<MailOutbox, 'list' | 'retry'>;
  /** The sitemaps at /sitemap.xml and /sitemaps/*; without it those answer 404 (robots.txt is served either way). */
  sitemaps?: SitemapService;
  /** The built client to serve; the app serves the API alone when it is absent (tests, `npm run dev`). */
  clientDir?: string;
  /**
   * The client's server renderer (`dist/ssr/entry-server.js`): with it and `clientDir`, landing pages are sent
   * rendered; without it, every page is the app shell the client draws.
   */
  renderer?: PageRenderer;
  /**
   * The database the stores use. With `DATABASE_URL` set (nodes sharing one PostgreSQL) the rate limits count
   * in it, so every node counts a client against one limit; otherwise, or without it, each limit counts in
   * this process, which on a single node is the same and keeps the fast lane's suggest limit in memory.
   */
  sql?: Sql;
}

/** JSON bodies above this are refused with 413 before they are parsed. */
export const JSON_BODY_LIMIT = '64kb';

export type App = RequestListener & { fastLane: FastLane; pageLane?: FastLane };

/** The storefront as a request listener: the fast lane for answers already built, then the Express app. */
export function createApp(deps: AppDeps): App {
  const apiSecurity = apiSecurityHeaders();
  const cors = corsAllowList(deps.env.CORS_ORIGINS);
  // The lane answers only API requests, so with the API's headers, and only requests whose client headers pass.
  const lane = new FastLane({
    logger: deps.logger,
    headers: headersSetBy([apiSecurity, cors]),
    maxBytes: CACHE_BYTES.apiLane,
    admits: (req) => clientHeadersPass(req.headers, deps.segments.siteLookup),
  });
  const trust = trustTest(deps.env.TRUST_PROXY);
  const limit = rateLimiters({
    trust,
    store: deps.env.DATABASE_URL && deps.sql ? sqlRateLimitStores(deps.sql) : undefined,
    logger: deps.logger,
  });
  // One suggest limiter for the app and the lane: a client's requests count against one limit wherever answered.
  const suggestLimiter = limit('suggest', deps.env.RATE_LIMIT_SUGGEST_PER_MINUTE, 'suggestion');
  const pageSecurity = securityHeaders();
  const security = securityHeadersByPath(pageSecurity, apiSecurity);
  // RULES 13.7: a new segment set or flag payload drops every page drawn with the old one, here and (through the
  // lane's listeners) in the shared caches in front.
  deps.segments.onSwap(() => lane.forget(SITE_TAG));
  deps.flags.subscribe(() => lane.forget(FLAGS_TAG));
  // Rendered pages have a lane of their own, with the pages' headers and no client headers to check: a kept page
  // goes out as a kept layout answer does, without Express.
  const pageLane = deps.renderer
    ? new FastLane({ logger: deps.logger, headers: headersSetBy([pageSecurity]), maxBytes: CACHE_BYTES.pages })
    : undefined;
  const app = expressApp(deps, { lane, pageLane, security, cors, trust, limit, suggestLimiter });
  const intake = new EventIntake({
    collector: deps.events,
    segments: deps.segments,
    tokens: deps.tokens,
    gate: limiterGate(limit('events', deps.env.RATE_LIMIT_EVENTS_PER_MINUTE, 'event batch')),
    cors,
    headers: headersSetBy([apiSecurity]),
    logger: deps.logger,
  });
  const listener = intake.in(lane.in(app));
  return Object.assign(pageLane ? pageLane.in(listener) : listener, { fastLane: lane, pageLane });
}

/** Whether an address's last part has a dot, as every file the client is built into has (`index.html`, `logo.svg`). */
export const namesAFile = (pathname: string) => pathname.lastIndexOf('.') > pathname.lastIndexOf('/');
/**
 * RULES 2.11: the refusal of an address that cannot be read (`addressProblem`), or undefined. Logged at info, as a
 * page's is: a client's bad address is no alarm of ours.
 */
function unreadableAddress(req: Request, pathname: string): AppError | undefined {
  const problem = addressProblem(pathname);
  if (problem) refusedQuietly(req);
  return problem;
}

/** How the build names the client's files: plain names under `/`, none starting with a dot, no escape, no `//`. */
const PLAIN_FILE_ADDRESS = /^(?:\/[A-Za-z0-9_-][A-Za-z0-9._-]*)+$/;

interface Shared {
  lane: FastLane;
  pageLane: FastLane | undefined;
  security: RequestHandler;
  cors: RequestHandler;
  /** Whose `X-Forwarded-For` is believed: Express's `req.ip` and the limiters' client are the same. */
  trust: TrustTest;
  limit: MakeLimiter;
  suggestLimiter: RequestHandler;
}

function expressApp(deps: AppDeps, { lane, pageLane, security, cors, trust, limit, suggestLimiter }: Shared): Express {
  const { env } = deps;
  const app = express();
  // Layout answers are built and kept once, for the layout API and the rendered pages alike.
  const layoutAnswers = new LayoutAnswers(deps.layout, deps.segments, deps.search, deps.flags);
  // Absolute addresses (canonical links, sitemaps, preview links) only on configured origins, never a reflected Host.
  const origins = publicOrigins(env);
  app.disable('x-powered-by');
  app.set('trust proxy', trust);
  app.set('query parser', 'simple');

  app.use(requestLogging(deps.logger));
  app.use(compressResponses());
  app.use(security);
  app.use(healthRoutes(deps.readiness));
  // RULES 2.11: an API address whose escapes spell no text (or with a `.` or `..` part) is refused naming why,
  // whichever route would have taken it (`/api/%zz` too, which no route's parameters read).
  app.use('/api', (req, _res, next) => next(unreadableAddress(req, req.originalUrl.split('?')[0]!)));
  // RULES 18.4: one count of refused keys per client, for the operators' and the studio's APIs alike.
  const keyFailures = limit('key-failures', env.RATE_LIMIT_KEY_FAILURES_PER_MINUTE, 'refused key', {
    failedKeysOnly: true,
  });
  // One limit for the operators' APIs (the catalog's documents, orders and the scanner keys), all behind
  // CATALOG_ADMIN_KEY.
  const adminLimit = limit('catalog-admin', env.RATE_LIMIT_ADMIN_PER_MINUTE, 'catalog');
  // RULES 19.6: the scanner keys, with the operators' key; before the catalog API, whose routes end in a 404.
  app.use(
    '/api/admin/scanners',
    env.CATALOG_ADMIN_KEY
      ? scannerAdminRoutes(deps.scannerKeys, env.CATALOG_ADMIN_KEY, [keyFailures, adminLimit])
      : apiNotFound,
  );
  // RULES 19.3, 19.5: the operators' order API (refunds, reconciliation), before the catalog API's catch-all.
  if (env.CATALOG_ADMIN_KEY)
    app.use('/api/admin', orderAdminRoutes(deps.commerce.admin, env.CATALOG_ADMIN_KEY, [keyFailures, adminLimit]));
  // The operators' view of the mail outbox, before the catalog API, which answers every other /api/admin path.
  if (env.CATALOG_ADMIN_KEY && deps.mail)
    app.use('/api/admin/mail', mailAdminRoutes(deps.mail, env.CATALOG_ADMIN_KEY, [keyFailures, adminLimit]));
  // The operators' catalog API, before the JSON parser: it reads its own bodies (JSON Lines) with its limits. Without
  // the operators' key none of /api/admin is there: the API's own 404.
  app.use(
    '/api/admin',
    env.CATALOG_ADMIN_KEY && deps.catalog
      ? catalogAdminRoutes(deps.catalog, env.CATALOG_ADMIN_KEY, [keyFailures, adminLimit])
      : apiNotFound,
  );
  // The studio reads its own bodies (whole segment files, larger than the API's limit).
  const studio = studioAccess(env);
  const readout = deps.sql
    ? new ExperimentReadout(deps.sql, () => experimentDefinitions(deps.flags.payload().features))
    : undefined;
  const rows = deps.sql
    ? new RowResultsReadout(deps.sql, () => deps.segments.current.registry.brands.map((b) => b.id))
    : undefined;
  app.use(
    '/api/studio',
    deps.studio || readout
      ? studioRoutes(deps.studio, studio, {
          keyFailures,
          readout,
          rows,
          sql: deps.sql,
          origins,
        })
      : apiNotFound,
  );
  // RULES 18.3: preview links open without a studio key; tokens that open nothing are counted per client, as
  // refused keys are, and held back past the same limit.
  const linkFailures = limit('preview-link-failures', env.RATE_LIMIT_KEY_FAILURES_PER_MINUTE, 'preview link', {
    failedStatus: 404,
  });
  app.use('/api/preview', deps.studio ? previewLinkApi(deps.studio, linkFailures) : noPreviewRoute);
  // Every API answer below follows the one CORS allow-list, preflights included (a batch of events is taken in front
  // of Express, `EventIntake`, and only its preflight comes here), so a refusal of a body can be read by the page
  // that sent it. Only the API takes bodies: a POST to a page is refused for its method (405), whatever it carries.
  app.use('/api', cors, ...jsonBody({ limit: JSON_BODY_LIMIT }));

  // One limiter each for search and listings, whether the API answers them or a rendered page reads them: a client
  // has one budget a minute for each, however it asks.
  const searchLimit = limit('search', env.RATE_LIMIT_SEARCH_PER_MINUTE, 'search');
  const listingsLimit = limit('listings', env.RATE_LIMIT_LISTINGS_PER_MINUTE, 'listing');

  const api = express.Router();
  // Every API request's client headers checked, and its brand resolved, once: the routes read it.
  api.use(requestContext(deps.segments));
  api.post('/customers/session', limit('sessions', env.RATE_LIMIT_SESSIONS_PER_MINUTE, 'session'));
  api.get(['/suggest', '/suggest/jsonp'], suggestLimiter);
  api.get('/Searches/get', searchLimit);
  // The shopper's allowance (RULES 8.1) is asked for with a listing, and counted with them.
  api.get(['/events/:slug/listings', '/listings/:id', '/purchase-limits'], listingsLimit);
  api.post('/cart', limit('carts', env.RATE_LIMIT_CARTS_PER_MINUTE, 'cart'));
  api.post('/checkout', limit('checkout', env.RATE_LIMIT_CHECKOUT_PER_MINUTE, 'checkout'));
  api.use(sessionRoutes(deps.tokens, deps.activity));
  api.use(clientErrorRoutes(deps.logger, limit('client-errors', ERROR_REPORTS_PER_MINUTE, 'error report')));
  api.use(searchRoutes(deps.search, { fastLane: lane, suggestGate: limiterGate(suggestLimiter) }));
  api.use(jsonpRoutes(deps.search, deps.tokens));
  // RULES 19.6: venue scanners, each with a key naming its venue or events (with no keys, every scan is a 401).
  api.use(
    scannerRoutes(deps.commerce.scanner, deps.scannerKeys, [
      keyFailures,
      limit('ticket-scans', env.RATE_LIMIT_SCANS_PER_MINUTE, 'scan'),
    ]),
  );
  api.use(commerceRoutes(deps.commerce, deps.tokens, deps.events));
  // RULES 21: a guest's own data (download, erasure, the choice about selling and sharing), in the shared store.
  if (deps.sql)
    api.use(
      customerDataRoutes(
        new CustomerData({
          sql: deps.sql,
          orders: deps.commerce.orders,
          activity: deps.activity,
          events: deps.events.log,
        }),
        deps.tokens,
        limit('customer-data', env.RATE_LIMIT_CUSTOMER_DATA_PER_MINUTE, 'customer data'),
      ),
    );
  api.use(entityRoutes(deps.search, deps.tokens, deps.activity, deps.logger));
  api.use(layoutRoutes(layoutAnswers, deps.segments, deps.search, deps.flags, deps.tokens, lane, deps.events));
  api.use(noRouteIn(api));
  // Flags first: `/api/features/:clientKey` and `/api/eval/:clientKey` sit under /api, whose router ends in a
  // 404. Their paths are data like the rest of the API, so they follow the same CORS allow-list (above, preflights
  // included; `/sub` here), and the two that answer flags count against one limit (after CORS, so a 429 can be
  // read).
  app.use('/sub', cors);
  app.use(['/api/features', '/api/eval'], limit('flags', env.RATE_LIMIT_FLAGS_PER_MINUTE, 'flag'));
  app.use(flagRoutes(deps.flags, env.flags.clientKey));
  app.use('/api', api);
  app.use(mediaRoutes(deps.search));
  // Before the built client's files and the app shell: crawlers get these, never the shell in their place.
  app.use(seoRoutes(deps.sitemaps, origins));

  if (deps.clientDir && existsSync(path.join(deps.clientDir, 'index.html'))) {
    const indexFile = path.join(deps.clientDir, 'index.html');
    // A page request refused before anything is read for it (a bad target, a search too long, a rate limit), or
    // whose own answer the API refuses, gets a page saying why, with its status: the app shell with the message in
    // place of the app. Each is the client's matter, logged at info (RULES 2.11).
    const problems = new ProblemPages(indexFile);
    const sendProblem = (res: Response, problem: PageProblem) => {
      refusedQuietly(res.req);
      res
        .status(problem.status)
        .set('Cache-Control', 'no-store')
        .set('X-Robots-Tag', 'noindex')
        .type('html')
        .send(problems.html(problem));
    };
    const pages = deps.renderer
      ? new PageService({
          renderer: deps.renderer,
          document: new PageDocument(deps.clientDir),
          answers: new PageAnswers(deps.search, layoutAnswers, deps.commerce.listings),
          segments: deps.segments,
          logger: deps.logger,
          fastLane: lane,
          pageLane,
          flags: deps.flags,
          origins,
          problemPage: sendProblem,
        })
      : undefined;
    // A rendered page that reads what the API limits counts against the API's limiter for it (the same counts per
    // client address): a search results page is a search, an event page a listings read. A kept page replayed from
    // the page lane, in front of Express, reads nothing and counts nothing.
    const pageLimit = async (req: Request, res: Response): Promise<PageProblem | undefined> => {
      // The path as the page route reads it (a trailing slash changes nothing, RULES 2.6).
      const path = pagePath(req.path);
      const limiter =
        path === RESULTS_PATH
          ? ([searchLimit, 'search'] as const)
          : path.startsWith('/events/')
            ? ([listingsLimit, 'listing'] as const)
            : undefined;
      if (!limiter) return undefined;
      const refused = await new Promise<unknown>((resolve) => void limiter[0](req, res, resolve));
      if (refused === undefined) return undefined;
      if (!(refused instanceof AppError) || refused.status !== 429) throw refused;
      req.log?.info({ code: refused.code }, refused.message);
      return tooManyRequests(limiter[1]);
    };
    // The bundles' source maps are built beside them but published only when asked (`SERVE_SOURCE_MAPS`).
    if (!env.SERVE_SOURCE_MAPS)
      app.use((req, _res, next) => next(req.path.endsWith('.map') ? httpError(404) : undefined));
    // RULES 2.11: an address of a file that cannot be read is refused naming why, never with the file server's
    // own answer (a bare 400, a 403, or a page redirecting to `/faq/../`); one of the bundles' that is not spelled as
    // the build names its files (`/assets//x.js`, `/assets/%78.js`) is none of them.
    app.use((req, _res, next) => {
      const bundle = req.path.startsWith('/assets/');
      if (!bundle && !namesAFile(req.path)) return next();
      next(
        unreadableAddress(req, req.path) ?? (bundle && !PLAIN_FILE_ADDRESS.test(req.path) ? httpError(404) : undefined),
      );
    });
    const bundles = express.static(path.join(deps.clientDir, 'assets'), {
      immutable: true,
      maxAge: '365d',
      fallthrough: false,
      redirect: false,
    });
    // Read with GET or HEAD; another method goes on to the 405 in the error shape at the end (the file server's own
    // 405 has no body).
    app.use('/assets', (req, res, next) =>
      req.method === 'GET' || req.method === 'HEAD' ? bundles(req, res, next) : next(),
    );
    // The studio is a page of its own, with its own script: nothing of it reaches the shoppers' pages.
    const studioFile = path.join(deps.clientDir, 'studio.html');
    const studioBuilt = deps.studio !== undefined && existsSync(studioFile);
    // RULES 18.4: in production the studio is there once it has a key (`STUDIO_KEY`) or a user.
    const studioOpen: RequestHandler = async (_req, _res, next) => {
      const open = studioBuilt && (!studio.production || studio.key !== undefined || (await deps.studio!.users.any()));
      next(open ? undefined : httpError(404));
    };
    app.use('/studio.html', studioOpen, (_req, res) => res.redirect(301, '/studio'));
    // RULES 18.3: a preview link's page is built with the studio's; it is reached through a link only.
    const previewFile = path.join(deps.clientDir, 'preview.html');
    app.use('/preview.html', (_req, _res, next) => next(httpError(404)));
    // Only an address naming a file (a dot in its last part), spelled as the build names its files, can be one of
    // the client's files: a page's address is never looked for on disk first, and `//studio.html` or `/%69ndex.html`
    // never reaches a file its own route guards. The app shell is no file of its own: `/index.html` is an address
    // like any other (a 404 page), never the shell kept a day by every cache (RULES 13.7).
    const clientFiles = express.static(deps.clientDir, { index: false, maxAge: '1d', redirect: false });
    app.use((req, res, next) =>
      namesAFile(req.path) && PLAIN_FILE_ADDRESS.test(req.path) && req.path !== '/index.html'
        ? clientFiles(req, res, next)
        : next(),
    );
    app.get(
      ['/studio', '/studio/{*path}'],
      studioOpen,
      studioBuilt ? studioPage(studioFile) : (_req, _res, next) => next(httpError(404)),
    );
    // Every address under /preview is a link's page (or its 404), never a storefront page.
    const noPreviews: RequestHandler = (_req, _res, next) => next(httpError(404));
    app.get(
      ['/preview', '/preview/{*rest}'],
      deps.studio && existsSync(previewFile) ? previewLinkPage(previewFile, deps.studio, linkFailures) : noPreviews,
    );
    // Every other GET is a page, with the address's real status (404 for no such page or entity, 301 to a renamed
    // entity's current address, 410 for an event that is over). Landing pages go rendered; the rest (and every
    // page, without a renderer) is the app shell, and the client's router decides what to show.
    // Before the page route reads the path (its escapes among it): a page request it cannot read is answered here.
    app.use((req, res, next) => {
      if (req.method !== 'GET' && req.method !== 'HEAD') return next();
      const problem = pageRequestProblem(req.originalUrl, req.path);
      if (!problem) return next();
      // Logged at info, its long values left out (`redactUrl`): a client's bad address is no alarm of ours.
      req.log?.info({ code: problem.code }, problem.title);
      sendProblem(res, problem);
    });
    app.get('/{*path}', async (req, res) => {
      const limited = pages ? await pageLimit(req, res) : undefined;
      if (limited) return sendProblem(res, limited);
      // Before the verdict is read: a change while it is (an event added) keeps the page out of every cache.
      const since = lane.forgets;
      const verdict = await shellStatus(req.path, deps.search, deps.logger);
      if (verdict.status === 301) {
        const query = req.originalUrl.indexOf('?');
        res.set(redirectHeaders(verdict.tags, lane.forgets === since));
        return res.redirect(301, verdict.location + (query >= 0 ? req.originalUrl.slice(query) : ''));
      }
      if (pages && (await pages.answer(req, res, verdict, since))) return;
      if (verdict.status === 410) res.set('X-Robots-Tag', 'noindex');
      // The app shell: the pages of one shopper (tickets, checkout, orders) and any page not rendered. No shared
      // cache keeps it (RULES 13.7).
      res.status(verdict.status).set('Cache-Control', 'private, no-store').sendFile(indexFile);
    });
  }

  // What no route answers is refused in the one error shape (RULES 14.14), never a library's page: another method on
  // a page's address (`POST /faq`, `OPTIONS *`) is 405 naming the methods a page takes.
  app.use((req, res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD') return next(httpError(404));
    res.set('Allow', 'GET, HEAD');
    next(
      new AppError(
        405,
        'method_not_allowed',
        `${req.method} is not answered here: pages and files are read with GET or HEAD.`,
      ),
    );
  });
  app.use(errorMiddleware);
  return app;
}
