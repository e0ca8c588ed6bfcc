import { Router, type RequestHandler } from 'express';
import { z } from 'zod';
import { noRouteIn } from '../http/errors.js';
import { operatorsOnly } from '../http/security.js';
import { keyView, type ScannerKeys } from './scanner-keys.js';
import { jsonBody } from '../http/json-body.js';

const AddScannerSchema = z.object(
  { label: z.unknown().optional(), scope: z.unknown().optional() },
  { error: 'The body must be a JSON object: { "label": TEXT, "scope": { "venueId": ID } or { "eventIds": [ID, …] } }' },
);

/**
 * RULES 19.6: the scanner keys, for operators holding `CATALOG_ADMIN_KEY`, mounted at `/api/admin/scanners`:
 * `GET /` lists them (never their keys), `POST /` `{ label?, scope }` adds one and answers its key, once, and
 * `DELETE /:id` removes one. A missing or wrong operator key is 401.
 */
export function scannerAdminRoutes(keys: ScannerKeys, adminKey: string, limiters: RequestHandler[]): Router {
  const router = Router();
  // RULES 18.4: limited before the key is checked, so wrong keys are limited too.
  router.use(limiters);
  router.use(operatorsOnly(adminKey), (_req, res, next) => {
    res.set('Cache-Control', 'no-store');
    next();
  });
  router.use(jsonBody({ limit: '16kb', strict: false }));

  router.get('/', async (_req, res) => {
    res.json({ scanners: (await keys.list()).map(keyView) });
  });

  router.post('/', async (req, res) => {
    const body = AddScannerSchema.parse(req.body);
    const { record, key } = await keys.add(body.scope, body.label);
    res.status(201).json({ scanner: keyView(record), key });
  });

  router.delete('/:id', async (req, res) => {
    res.json({ removed: keyView(await keys.remove(String(req.params.id))) });
  });

  router.use(noRouteIn(router));
  return router;
}
