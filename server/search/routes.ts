import { Router } from 'express';
import { SuggestQuerySchema } from '../../schemas/suggest.js';
import { edgeCacheable } from '../http/cache-control.js';
import { performerCard } from '../rules/performer-card.js';
import { trendingPerformers } from './queries.js';
import { queryClock } from './query-clock.js';
import type { SearchService } from './search-service.js';
import { suggest } from './suggest.js';

export function searchRoutes(search: SearchService, now: () => Date = () => queryClock()): Router {
  const router = Router();

  router.get('/suggest', edgeCacheable, async (req, res) => {
    const { q, extra } = SuggestQuerySchema.parse(req.query);
    res.json(await suggest(search.engine, q, extra, now()));
  });

  router.get('/trending', edgeCacheable, async (_req, res) => {
    const performers = await trendingPerformers(search.engine);
    res.json({ performers: performers.map((p) => performerCard(p)) });
  });

  return router;
}
