import { Router } from 'express';
import type { Readiness } from './readiness.js';

export function healthRoutes(readiness: Readiness): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.set('Cache-Control', 'no-store').json({ status: 'ok', uptimeSeconds: Math.round(process.uptime()) });
  });
  router.get('/readyz', (_req, res) => {
    const ready = readiness.ready;
    res
      .status(ready ? 200 : 503)
      .set('Cache-Control', 'no-store')
      .json({ status: ready ? 'ready' : 'not_ready', components: readiness.snapshot() });
  });
  return router;
}
