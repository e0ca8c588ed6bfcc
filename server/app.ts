import { existsSync } from 'node:fs';
import path from 'node:path';
import express, { type Express } from 'express';
import type { Logger } from 'pino';
import type { CatalogStore } from './catalog/catalog-store.js';
import type { Env } from './config/env.js';
import { healthRoutes } from './health/routes.js';
import type { Readiness } from './health/readiness.js';
import { apiNotFound, errorMiddleware } from './http/errors.js';
import { compressResponses } from './http/compression.js';
import { requestLogging } from './http/logger.js';
import { corsAllowList, rateLimiter, securityHeaders } from './http/security.js';
import type { LayoutService } from './layout/layout-service.js';
import { layoutRoutes } from './layout/routes.js';
import { mediaRoutes } from './media/routes.js';
import type { SegmentRepository } from './segments/segment-repository.js';
import type { RecentActivity } from './activity/recent-activity.js';
import type { CommerceService } from './commerce/commerce-service.js';
import { commerceRoutes } from './commerce/routes.js';
import { entityRoutes } from './entities/routes.js';
import type { FlagService } from './flags/flag-service.js';
import { flagRoutes } from './flags/routes.js';
import { clientErrorRoutes } from './http/client-errors.js';
import { clientHeaders } from './http/client-headers.js';
import { jsonpRoutes } from './search/jsonp.js';
import { searchRoutes } from './search/routes.js';
import { sessionRoutes } from './sessions/routes.js';
import type { SessionTokens } from './sessions/session-tokens.js';
import type { SearchService } from './search/search-service.js';

export interface AppDeps {
  env: Env;
  logger: Logger;
  readiness: Readiness;
  catalog: CatalogStore;
  search: SearchService;
  segments: SegmentRepository;
  layout: LayoutService;
  tokens: SessionTokens;
  activity: RecentActivity;
  flags: FlagService;
  commerce: CommerceService;
  /** The built client to serve; the app serves the API alone when it is absent (tests, `npm run dev`). */
  clientDir?: string;
}

/** JSON bodies above this are refused with 413 before they are parsed. */
export const JSON_BODY_LIMIT = '64kb';

export function createApp(deps: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');
  app.set('query parser', 'simple');

  app.use(requestLogging(deps.logger));
  app.use(compressResponses());
  app.use(securityHeaders());
  app.use(healthRoutes(deps.readiness));
  app.use(express.json({ limit: JSON_BODY_LIMIT }));

  const api = express.Router();
  api.use(corsAllowList(deps.env.CORS_ORIGINS));
  api.use(clientHeaders(deps.segments));
  api.post('/customers/session', rateLimiter(deps.env.RATE_LIMIT_SESSIONS_PER_MINUTE, 'session'));
  api.get(['/suggest', '/suggest/jsonp'], rateLimiter(deps.env.RATE_LIMIT_SUGGEST_PER_MINUTE, 'suggestion'));
  api.get('/Searches/get', rateLimiter(deps.env.RATE_LIMIT_SEARCH_PER_MINUTE, 'search'));
  api.use(sessionRoutes(deps.tokens, deps.activity));
  api.use(clientErrorRoutes(deps.logger));
  api.use(searchRoutes(deps.search));
  api.use(jsonpRoutes(deps.search, deps.tokens));
  api.use(commerceRoutes(deps.commerce, deps.tokens));
  api.use(entityRoutes(deps.search, deps.tokens, deps.activity, deps.logger));
  api.use(layoutRoutes(deps.layout, deps.segments, deps.search, deps.flags, deps.tokens));
  api.use(apiNotFound);
  // Flags first: `/api/features/:clientKey` sits under /api, whose router ends in a 404.
  app.use(flagRoutes(deps.flags, deps.env.flags.clientKey));
  app.use('/api', api);
  app.use(mediaRoutes(deps.catalog));

  if (deps.clientDir && existsSync(path.join(deps.clientDir, 'index.html'))) {
    const indexFile = path.join(deps.clientDir, 'index.html');
    app.use(
      '/assets',
      express.static(path.join(deps.clientDir, 'assets'), { immutable: true, maxAge: '365d', fallthrough: false }),
    );
    app.use(express.static(deps.clientDir, { index: false, maxAge: '1d' }));
    // Every other GET is a client route: the app shell answers it and the router decides what to show.
    app.get('/{*path}', (_req, res) => {
      res.set('Cache-Control', 'no-cache').sendFile(indexFile);
    });
  }

  app.use(errorMiddleware);
  return app;
}
