import { Router, type Request } from 'express';
import { notFound } from '../http/errors.js';
import type { FlagService } from './flag-service.js';
import type { FlagPayload } from './flags-file.js';

/** Spec §9: idle stream 20 s. A comment line this often keeps proxies from closing a quiet stream. */
export const KEEPALIVE_MS = 20_000;

export interface FlagRouteOptions {
  keepaliveMs?: number;
}

const featuresEvent = (payload: FlagPayload) => `event: features\ndata: ${JSON.stringify(payload)}\n\n`;

/**
 * GrowthBook's SDK endpoints, so the browser SDK can use this server as its `apiHost`:
 * `GET /api/features/:clientKey` answers the payload and announces streaming with `x-sse-support: enabled`;
 * `GET /sub/:clientKey` is the event stream, one `features` event per change. Full paths: mount at the root.
 */
export function flagRoutes(service: FlagService, clientKey: string, options: FlagRouteOptions = {}): Router {
  const keepaliveMs = options.keepaliveMs ?? KEEPALIVE_MS;
  const router = Router();
  const checkKey = (req: Request) => {
    if (req.params.clientKey !== clientKey) throw notFound('client key');
  };

  router.get('/api/features/:clientKey', (req, res) => {
    checkKey(req);
    res.set({ 'x-sse-support': 'enabled', 'Cache-Control': 'no-cache' }).json(service.payload());
  });

  router.get('/sub/:clientKey', (req, res) => {
    checkKey(req);
    res.status(200).set({
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    res.flushHeaders();
    res.write(': connected\n\n');

    const write = (chunk: string) => {
      if (!res.writableEnded && !res.destroyed) res.write(chunk);
    };
    const unsubscribe = service.subscribe((payload) => write(featuresEvent(payload)));
    const keepalive = setInterval(() => write(': keepalive\n\n'), keepaliveMs);
    const end = () => res.end();
    service.signal.addEventListener('abort', end, { once: true });

    res.on('close', () => {
      clearInterval(keepalive);
      unsubscribe();
      service.signal.removeEventListener('abort', end);
    });
    if (service.signal.aborted) end();
  });

  return router;
}
