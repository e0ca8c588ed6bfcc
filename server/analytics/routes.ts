import express, { Router, type Request, type RequestHandler } from 'express';
import { readPageCookies } from '../../shared/schemas/page-render.js';
import { EventBatchSchema, MAX_EVENT_BATCH_BYTES } from '../../shared/schemas/analytics-events.js';
import { SITE_ID_HEADER, siteNamed } from '../http/client-headers.js';
import { AppError } from '../http/errors.js';
import type { SegmentRepository } from '../segments/segment-repository.js';
import { SessionTokens } from '../sessions/session-tokens.js';
import { collectsFrom, visitorOf, type EventCollector } from './event-collector.js';

/**
 * `POST /api/events` (RULES 16.2): a browser's batch of events. `navigator.sendBeacon` sets no headers of its own
 * choosing, so the body may come as `text/plain` too, the guest is read from the session cookie (or a bearer
 * token), and the site id may come in the body. A browser that asks not to be tracked, a known bot and a visitor
 * without a session get the same 202 with nothing taken.
 */
export function eventRoutes(
  collector: EventCollector,
  segments: SegmentRepository,
  tokens: SessionTokens,
  limiter: RequestHandler,
): Router {
  const router = Router();
  const body = express.json({ limit: MAX_EVENT_BATCH_BYTES, type: ['application/json', 'text/plain'] });

  const guestOf = async (req: Request): Promise<string | undefined> => {
    const token =
      readPageCookies(req.get('cookie') ?? '').guestToken ?? SessionTokens.bearerToken(req.get('authorization'));
    if (!token) return undefined;
    try {
      return (await tokens.verify(token)).guestId;
    } catch {
      return undefined;
    }
  };

  router.post('/events', limiter, body, async (req, res) => {
    if (req.body === undefined)
      throw new AppError(
        400,
        'invalid_request',
        'Send the batch as JSON, {"events": [...]}, with Content-Type application/json',
      );
    const batch = EventBatchSchema.parse(req.body);
    const header = req.headers[SITE_ID_HEADER];
    const brand =
      siteNamed(header ?? (batch.site === undefined ? undefined : String(batch.site)), segments.siteLookup) ??
      segments.defaultBrand;
    let accepted = 0;
    if (collectsFrom(req.headers)) {
      const visitor = visitorOf(req.headers, await guestOf(req), brand.id);
      if (visitor) accepted = collector.browserBatch(batch, visitor);
    }
    res.status(202).set('Cache-Control', 'no-store').json({ accepted });
  });
  return router;
}
