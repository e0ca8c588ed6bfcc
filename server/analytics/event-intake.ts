import type { IncomingMessage, OutgoingHttpHeaders, RequestListener, ServerResponse } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { EventBatchSchema, MAX_EVENT_BATCH_BYTES, SESSION_COOKIE } from '../../shared/schemas/analytics-events.js';
import { readCookie } from '../../shared/schemas/page-render.js';
import { SITE_ID_HEADER, siteNamed } from '../http/client-headers.js';
import { AppError, toErrorResponse } from '../http/errors.js';
import type { LaneGate } from '../http/fast-lane.js';
import { REQUEST_ID_HEADER, redactUrl, requestIdOf } from '../http/logger.js';
import type { SegmentRepository } from '../segments/segment-repository.js';
import { SessionTokens } from '../sessions/session-tokens.js';
import { collectsFrom, visitorOf, type EventCollector } from './event-collector.js';

export const EVENTS_PATH = '/api/events';

export interface EventIntakeOptions {
  collector: EventCollector;
  segments: SegmentRepository;
  tokens: SessionTokens;
  /** The events rate limit (RULES 16.2), counted as the app counts its limits. */
  gate: LaneGate;
  /** The app's CORS middleware: an allowed origin may read the answer. */
  cors: RequestHandler;
  /** Headers every API answer carries (the security headers). */
  headers: OutgoingHttpHeaders;
  logger: Logger;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const notJson = () =>
  new AppError(400, 'invalid_request', 'Send the batch as JSON, {"events": [...]}, with Content-Type application/json');

/**
 * `POST /api/events` (RULES 16.2), answered straight from Node's HTTP server, before Express: a batch needs the
 * security headers, CORS, the rate limit, its body read within its limit and checked, and the guest of its session
 * cookie, and nothing else of the app's middleware, which costs a busy node more than the batch itself (RULES 16.5:
 * collecting never slows the pages). `navigator.sendBeacon` sets no headers of its own choosing, so the body may
 * come as `text/plain` too, the guest is read from the session cookie (or a bearer token), and the site id may come
 * in the body. A browser that asks not to be tracked, a known bot and a visitor without a session get the same 202
 * with nothing taken. A preflight (`OPTIONS`) goes to the app, whose CORS answers it.
 */
export class EventIntake {
  constructor(private readonly options: EventIntakeOptions) {}

  in(front: RequestListener): RequestListener {
    return (req, res) => {
      if (req.method !== 'POST' || !isEventsPath(req.url ?? '')) return front(req, res);
      void this.take(req, res);
    };
  }

  private async take(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const began = performance.now();
    const id = requestIdOf(req);
    let status = 202;
    let body: unknown;
    try {
      await this.cors(req, res);
      const refusal = await this.options.gate(req, res);
      if (refusal !== undefined) throw refusal;
      body = { accepted: await this.accept(req) };
    } catch (err) {
      const answer = toErrorResponse(err);
      if (answer.status >= 500) this.options.logger.error({ err }, 'request failed');
      status = answer.status;
      body = answer.body;
      // What is left of a refused body is not read: the connection closes after the answer.
      if (!req.complete) res.setHeader('Connection', 'close');
      if (err instanceof Busy) res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
      if (err instanceof Compressed) res.setHeader('Accept-Encoding', 'identity');
    }
    if (res.headersSent) return;
    const json = JSON.stringify(body);
    res.writeHead(status, {
      ...this.options.headers,
      'cache-control': 'no-store',
      'content-type': JSON_TYPE,
      'content-length': Buffer.byteLength(json),
      [REQUEST_ID_HEADER]: id,
    });
    res.end(json);
    if (this.options.logger.isLevelEnabled('info'))
      this.options.logger.info(
        {
          req: { id, method: req.method, url: redactUrl(req.url ?? '') },
          res: { statusCode: status },
          responseTime: Math.round(performance.now() - began),
        },
        'request completed',
      );
  }

  private cors(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // The cors package is connect middleware: it reads and sets plain Node request and response fields.
    return new Promise((resolve, reject) =>
      this.options.cors(req as Request, res as Response, (err?: unknown) => (err ? reject(err) : resolve())),
    );
  }

  /** Reads, checks and records a batch; says how many events were taken. */
  private async accept(req: IncomingMessage): Promise<number> {
    // A batch is read as sent: a compressed one would read as no JSON at all (RFC 9110 §8.4.1: 415 for a coding not
    // taken).
    const coding = String(req.headers['content-encoding'] ?? 'identity')
      .trim()
      .toLowerCase();
    if (coding !== 'identity' && coding !== '') throw new Compressed();
    const text = await readBody(req);
    const type = String(req.headers['content-type'] ?? '')
      .split(';', 1)[0]!
      .trim()
      .toLowerCase();
    if (text === '' || (type !== 'application/json' && type !== 'text/plain')) throw notJson();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new AppError(400, 'invalid_json', 'The body is not valid JSON');
    }
    const batch = EventBatchSchema.parse(parsed);
    const { segments } = this.options;
    const header = req.headers[SITE_ID_HEADER];
    const brand =
      (header !== undefined
        ? siteNamed(header, segments.siteLookup)
        : siteNamed(
            batch.site === undefined ? undefined : String(batch.site),
            segments.siteLookup,
            'the batch’s site',
          )) ?? segments.defaultBrand;
    if (!collectsFrom(req.headers)) return 0;
    const visitor = visitorOf(req.headers, await this.guestOf(req), brand.id);
    if (!visitor) return 0;
    // RULES 16.5: taken means written; while the store cannot keep up, the browser is asked to send it again.
    if (!this.options.collector.hasRoom(batch.events.length)) throw busy();
    return this.options.collector.browserBatch(batch, visitor);
  }

  private async guestOf(req: IncomingMessage): Promise<string | undefined> {
    const { tokens } = this.options;
    const token =
      readCookie(req.headers.cookie ?? '', SESSION_COOKIE) ??
      SessionTokens.bearerToken(req.headers.authorization ?? undefined);
    if (!token) return undefined;
    const known = tokens.peek(token);
    if (known) return known.guestId;
    try {
      return (await tokens.verify(token)).guestId;
    } catch {
      return undefined;
    }
  }
}

/** Seconds a browser is asked to wait before sending a refused batch again. */
const RETRY_AFTER_SECONDS = 5;

class Busy extends AppError {
  constructor() {
    super(503, 'events_busy', 'Too many events are waiting to be written; send the batch again shortly');
  }
}
const busy = () => new Busy();

/** A batch sent compressed: refused, and the answer names the one coding taken (RFC 9110 §15.5.16). */
class Compressed extends AppError {
  constructor() {
    super(
      415,
      'unsupported_content_encoding',
      `An event batch is sent uncompressed (at most ${MAX_EVENT_BATCH_BYTES / 1024} KiB), without a Content-Encoding`,
    );
  }
}

const isEventsPath = (url: string) => url === EVENTS_PATH || url.startsWith(`${EVENTS_PATH}?`);

/** The body as text, refused with a 413 beyond the batch limit (RULES 16.2) before more of it is read. */
function readBody(req: IncomingMessage): Promise<string> {
  const tooLarge = () =>
    new AppError(413, 'payload_too_large', `An event batch is at most ${MAX_EVENT_BATCH_BYTES / 1024} KiB`);
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (declared > MAX_EVENT_BATCH_BYTES) return Promise.reject(tooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    const fail = (err: unknown) => {
      req.off('data', onData);
      req.resume();
      reject(err);
    };
    const onData = (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > MAX_EVENT_BATCH_BYTES) return fail(tooLarge());
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    // A client that goes away mid-body is no failure of ours: a 400 no one reads, logged as a refusal.
    req.once('error', (err: NodeJS.ErrnoException) =>
      fail(
        req.destroyed || err.code === 'ECONNRESET'
          ? new AppError(400, 'request_aborted', 'The connection closed before the whole batch arrived')
          : err,
      ),
    );
  });
}
