import { Router } from 'express';
import type { Readiness } from './readiness.js';

export function healthRoutes(readiness: Readiness): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.set('Cache-Control', 'no-store').json({ status: 'ok', uptimeSeconds: Math.round(process.uptime()) });
  });
  // A degraded server still answers shoppers (from its caches), so it stays in rotation: 200 with the reason.
  router.get('/readyz', (_req, res) => {
    const ready = readiness.ready;
    const components = readiness.snapshot();
    const degraded = Object.values(components).some((c) => c.degraded);
    res
      .status(ready ? 200 : 503)
      .set('Cache-Control', 'no-store')
      .json({ status: !ready ? 'not_ready' : degraded ? 'degraded' : 'ready', components });
  });
  return router;
}
