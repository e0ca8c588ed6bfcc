import { Router, type RequestHandler } from 'express';
import { z } from 'zod';
import { redactUrl } from './logger.js';
import type { WarnLogger } from '../../shared/logger.js';

const ClientErrorSchema = z.object({
  context: z.string().max(200),
  message: z.string().max(2000),
  url: z.string().max(500),
});

/** Error reports per client per minute: a page that fails in a loop must not flood the log. */
export const ERROR_REPORTS_PER_MINUTE = 60;

/**
 * Errors the browser hit, logged with the request id (and the page's URL without its secrets, such as an
 * order's access code); the shopper never sees them (RULES 9.10). `limit` is the reports' rate limiter.
 */
export function clientErrorRoutes(logger: WarnLogger, limit: RequestHandler): Router {
  const router = Router();
  router.post('/client-errors', limit, (req, res) => {
    const report = ClientErrorSchema.parse(req.body);
    logger.warn({ clientError: { ...report, url: redactUrl(report.url) }, requestId: req.id }, 'client error');
    res.status(204).end();
  });
  return router;
}
