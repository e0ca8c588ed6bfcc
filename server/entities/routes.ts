import { Router, type Request, type Response } from 'express';
import { SchedulePageQuerySchema, SearchResultsQuerySchema, SlugParamsSchema } from '../../shared/schemas/entities.js';
import type { RecentActivity } from '../activity/recent-activity.js';
import { EDGE_CACHE_CONTROL, edgeCacheable } from '../http/cache-control.js';
import { queryClock } from '../search/query-clock.js';
import type { SearchService } from '../search/search-service.js';
import { optionalSession } from '../sessions/routes.js';
import { SessionTokens } from '../sessions/session-tokens.js';
import { ViewedPageBodySchema } from '../../shared/schemas/activity.js';
import {
  eventActivity,
  eventPage,
  menu,
  performerActivity,
  performerPage,
  searchResults,
  venuePage,
  viewedActivity,
} from './entity-service.js';
import type { WarnLogger } from '../../shared/logger.js';

export function entityRoutes(
  search: SearchService,
  tokens: SessionTokens,
  activity: RecentActivity,
  logger: WarnLogger,
  now: () => Date = () => queryClock(),
): Router {
  const router = Router();

  /** A guest opening a performer or event page with their token adds it to their recent activity. */
  const remember = async (req: Request, res: Response, item: Parameters<RecentActivity['record']>[1]) => {
    const session = await optionalSession(req, tokens);
    if (!session) {
      res.set('Cache-Control', EDGE_CACHE_CONTROL);
      return;
    }
    res.set('Cache-Control', 'private, max-age=60');
    // Recording is best effort: a store hiccup must not cost the shopper the page.
    activity
      .record(session.guestId, item)
      .catch((err: unknown) => logger.warn({ err }, 'could not record recent activity'));
  };

  router.get('/performers/:slug', async (req, res) => {
    const { slug } = SlugParamsSchema.parse(req.params);
    const { page: schedulePage } = SchedulePageQuerySchema.parse(req.query);
    const found = await performerPage(search.engine, slug, now(), schedulePage);
    await remember(req, res, performerActivity(found));
    const { doc: _doc, ...page } = found;
    res.json(page);
  });

  router.get('/events/:slug', async (req, res) => {
    const { slug } = SlugParamsSchema.parse(req.params);
    const found = await eventPage(search.engine, slug, now());
    await remember(req, res, eventActivity(found));
    const { doc: _doc, ...page } = found;
    res.json(page);
  });

  // RULES 1.8, 13.7: a page the browser showed without the API (rendered, or from a shared cache, which never
  // knows the guest) is added to the guest's recent activity when the browser says so, with its bearer token:
  // a request no other site can make with the guest's credentials.
  router.post('/CustomerActivity/recent-activities', async (req, res) => {
    const session = await tokens.verify(SessionTokens.bearer(req.get('authorization')));
    const body = ViewedPageBodySchema.parse(req.body);
    const { slug } = SlugParamsSchema.parse({ slug: body.slug });
    await activity.record(session.guestId, await viewedActivity(search.engine, body.type, slug));
    res.set('Cache-Control', 'no-store').status(204).end();
  });

  router.get('/venues/:slug', edgeCacheable, async (req, res) => {
    const { slug } = SlugParamsSchema.parse(req.params);
    const { page } = SchedulePageQuerySchema.parse(req.query);
    res.json(await venuePage(search.engine, slug, now(), page));
  });

  // RULES 7.21: GET {backend}/Searches/get with q and page (default 1).
  router.get('/Searches/get', edgeCacheable, async (req, res) => {
    const { q, page } = SearchResultsQuerySchema.parse(req.query);
    res.json(await searchResults(search.engine, q, page, now()));
  });

  router.get('/menu', edgeCacheable, async (_req, res) => {
    res.json(await menu(search.engine));
  });

  return router;
}
