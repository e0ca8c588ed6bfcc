import { Router } from 'express';
import { SuggestQuerySchema } from '../../shared/schemas/suggest.js';
import { EDGE_CACHE_CONTROL, edgeCacheable } from '../http/cache-control.js';
import { collectionTag, type FastLane, type LaneGate } from '../http/fast-lane.js';
import { replayableJson, sendReplayable } from '../http/replayable.js';
import { performerCard } from '../../shared/rules/performer-card.js';
import { trendingPerformers } from './queries.js';
import { QUERY_CLOCK_GRANULARITY_MS, queryClock } from './query-clock.js';
import type { SearchService } from './search-service.js';
import { suggest, SUGGEST_COLLECTIONS } from './suggest.js';

export interface SearchRouteOptions {
  /** "Now" as queries see it. */
  now?: () => Date;
  /** Where repeats of a suggestion answer go out from, through `suggestGate` (the suggest rate limit). */
  fastLane?: FastLane;
  suggestGate?: LaneGate;
}

const SUGGEST_PATH = '/api/suggest';
const SUGGEST_HEADERS = { cacheControl: EDGE_CACHE_CONTROL, vary: [] };

export function searchRoutes(search: SearchService, options: SearchRouteOptions = {}): Router {
  const router = Router();
  const now = options.now ?? (() => queryClock());
  const { fastLane, suggestGate } = options;
  // A suggestion answer depends on the typed text and the query clock alone: the same URL within the same
  // clock step is the same bytes, so a repeat (the next shopper typing the same letters) is sent from the
  // fast lane, still counted against the suggest rate limit.
  // The clock's milliseconds first: a number and a line break cannot occur in a URL, so no two keys meet.
  const replayKey = (url: string, clock: Date) => `${clock.getTime()}\n${url}`;
  fastLane?.route(SUGGEST_PATH, (req) => replayKey(req.url ?? '', now()), suggestGate);

  router.get('/suggest', async (req, res) => {
    const { q, extra } = SuggestQuerySchema.parse(req.query);
    const clock = now();
    const since = fastLane?.forgets ?? 0;
    const answer = replayableJson(JSON.stringify(await suggest(search.engine, q, extra, clock)), SUGGEST_HEADERS);
    const untilNextStep = clock.getTime() + QUERY_CLOCK_GRANULARITY_MS - Date.now();
    if (untilNextStep > 0)
      fastLane?.remember(
        replayKey(req.originalUrl, clock),
        answer,
        untilNextStep,
        SUGGEST_COLLECTIONS.map(collectionTag),
        since,
      );
    sendReplayable(req, res, answer);
  });

  router.get('/trending', edgeCacheable, async (_req, res) => {
    const performers = await trendingPerformers(search.engine);
    res.json({ performers: performers.map((p) => performerCard(p)) });
  });

  return router;
}
