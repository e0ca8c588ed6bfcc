import { Router, type RequestHandler } from 'express';
import { z } from 'zod';
import { fromText, idFromText } from '../../shared/schemas/zod.js';
import { noRouteIn } from '../http/errors.js';
import { operatorsOnly } from '../http/security.js';
import { MAIL_STATES, type MailOutbox } from './outbox.js';

/** The most messages one list answers. */
export const MAIL_LIST_MAX = 500;
const MAIL_LIST_DEFAULT = 50;

export const MailListQuerySchema = z.object({
  state: z.enum(MAIL_STATES, { error: `state must be one of ${MAIL_STATES.join(', ')}` }).optional(),
  limit: fromText(
    z
      .number({ error: 'limit must be a whole number' })
      .int('limit must be a whole number')
      .min(1, 'limit must be at least 1')
      .max(MAIL_LIST_MAX, `limit must be at most ${MAIL_LIST_MAX}`),
  ).default(MAIL_LIST_DEFAULT),
});

const MailIdSchema = idFromText('the mail id');

/**
 * The operators' view of the outbox, under /api/admin/mail with `CATALOG_ADMIN_KEY`: `GET /` lists messages
 * (newest first, without their order data) and `POST /:id/retry` queues a failed one again.
 */
export function mailAdminRoutes(
  outbox: Pick<MailOutbox, 'list' | 'retry'>,
  adminKey: string,
  limiters: RequestHandler[],
): Router {
  const router = Router();
  // RULES 18.4: limited before the key is checked, so wrong keys are limited too.
  router.use(limiters);
  router.use(operatorsOnly(adminKey));
  router.get('/', async (req, res) => {
    const query = MailListQuerySchema.parse({ state: req.query.state, limit: req.query.limit });
    res.set('Cache-Control', 'no-store').json({ mail: await outbox.list(query) });
  });
  router.post('/:id/retry', async (req, res) => {
    const id = MailIdSchema.parse(req.params.id);
    res.set('Cache-Control', 'no-store').json({ mail: await outbox.retry(id) });
  });
  router.use(noRouteIn(router, 'mail API'));
  return router;
}
