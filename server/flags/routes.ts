import { createHash } from 'node:crypto';
import { Router, type Request } from 'express';
import { RemoteEvalRequestSchema } from '../../shared/schemas/remote-eval.js';
import { AppError } from '../http/errors.js';
import type { FlagService } from './flag-service.js';
import { contentKey, type FlagPayload } from './flags-file.js';

/** RULES 9.2: idle stream 20 s. A comment line this often keeps proxies from closing a quiet stream. */
export const KEEPALIVE_MS = 20_000;

/**
 * Not a spec figure: the `retry:` sent to browsers, how long they wait before reconnecting a dropped stream.
 * GrowthBook's proxy sends 10 s (its `clientRetryInterval`). Nothing is missed while away: a reconnecting
 * client is brought up to date at once.
 */
export const RECONNECT_MS = 10_000;

/** Not a spec figure: hex digits of the SHA-256 kept as a payload's event id (64 bits: no two versions meet). */
const EVENT_ID_HEX_DIGITS = 16;

export interface FlagRouteOptions {
  keepaliveMs?: number;
  retryMs?: number;
}

/**
 * GrowthBook answers an unknown key with a 400: its API with `{ status: 400, error: "Invalid API Key" }`, its
 * proxy's stream with `{ message: "No channel found" }`. The same status and words here, in our error model.
 */
const UNKNOWN_CLIENT_KEY = 'unknown_client_key';
const unknownKey = (message: string) => new AppError(400, UNKNOWN_CLIENT_KEY, message);

const eventIds = new WeakMap<FlagPayload, string>();

/**
 * The event id of a payload: a digest of what it says (features, saved groups) rather than its `dateUpdated`,
 * because each node stamps a file edit with its own clock; nodes serving the same flags give the same id, so a
 * client that reconnects to another node is not sent what it has.
 */
export function payloadEventId(payload: FlagPayload): string {
  let id = eventIds.get(payload);
  if (id === undefined) {
    id = createHash('sha256').update(contentKey(payload)).digest('hex').slice(0, EVENT_ID_HEX_DIGITS);
    eventIds.set(payload, id);
  }
  return id;
}

/**
 * GrowthBook's "features changed, fetch them again" event, as its proxy sends it to remote-evaluation clients:
 * no data, so the stream never carries the payload's rules. An SDK refetches on it, with remote evaluation
 * (`POST /api/eval`) or without (`GET /api/features`).
 */
const featuresUpdatedEvent = (id: string) => `id: ${id}\nevent: features-updated\ndata: \n\n`;

/**
 * GrowthBook's SDK endpoints, so the browser SDK can use this server as its `apiHost`:
 * `GET /api/features/:clientKey` answers the payload; `POST /api/eval/:clientKey` answers GrowthBook's remote
 * evaluation for the user the body describes (values and exposures, no rules); both announce streaming with
 * `x-sse-support: enabled`. `GET /sub/:clientKey` is the event stream: a `features-updated` event each time
 * the flags change, on which the SDK fetches again. Full paths: mount at the root.
 *
 * The stream opens with an event for the current flags, so a client that was away (network loss, a hidden tab
 * whose SDK closed the stream, a restarted node) catches up without a further edit: GrowthBook's own proxy
 * replays only after a `Last-Event-ID` it still remembers, and the SDK does not refetch when it reconnects.
 * A reconnect whose `Last-Event-ID` is the current flags' id is sent nothing, so a client does not fetch a
 * version twice; a fetch that brings a `dateUpdated` the SDK already has changes nothing.
 */
export function flagRoutes(service: FlagService, clientKey: string, options: FlagRouteOptions = {}): Router {
  const keepaliveMs = options.keepaliveMs ?? KEEPALIVE_MS;
  const retryMs = options.retryMs ?? RECONNECT_MS;
  const router = Router();
  const known = (req: Request) => req.params.clientKey === clientKey;

  router.get('/api/features/:clientKey', (req, res) => {
    if (!known(req)) throw unknownKey('Invalid API Key');
    res.set({ 'x-sse-support': 'enabled', 'Cache-Control': 'no-cache' }).json(service.payload());
  });

  router.post('/api/eval/:clientKey', (req, res) => {
    if (!known(req)) throw unknownKey('Invalid API Key');
    const request = RemoteEvalRequestSchema.parse(req.body);
    // One user's answer: no shared cache may keep it.
    res.set({ 'x-sse-support': 'enabled', 'Cache-Control': 'private, no-store' }).json(service.remoteEvaluate(request));
  });

  router.get('/sub/:clientKey', (req, res) => {
    if (!known(req)) throw unknownKey('No channel found');
    res.status(200).set({
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    res.flushHeaders();

    const write = (chunk: string) => {
      if (!res.writableEnded && !res.destroyed) res.write(chunk);
    };
    // What this client has: the id it last saw (the browser sends it back on reconnect), then what we sent.
    let has = req.get('last-event-id');
    const send = (payload: FlagPayload) => {
      const id = payloadEventId(payload);
      if (id === has) return;
      has = id;
      write(featuresUpdatedEvent(id));
    };
    write(`retry: ${retryMs}\n\n`);
    send(service.payload());
    const unsubscribe = service.subscribe(send);
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
