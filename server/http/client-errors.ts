import { Router } from 'express';
import { z } from 'zod';
import { rateLimiter } from './security.js';

const ClientErrorSchema = z.object({
  context: z.string().max(200),
  message: z.string().max(2000),
  url: z.string().max(500),
});

interface Logger {
  warn(obj: object, msg: string): void;
}

/** Errors the browser hit, logged with the request id; the shopper never sees them (spec §8). */
export function clientErrorRoutes(logger: Logger): Router {
  const router = Router();
  router.post('/client-errors', rateLimiter(60, 'error report'), (req, res) => {
    const report = ClientErrorSchema.parse(req.body);
    logger.warn({ clientError: report, requestId: req.id }, 'client error');
    res.status(204).end();
  });
  return router;
}
