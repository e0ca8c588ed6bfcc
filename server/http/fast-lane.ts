import { IncomingMessage, ServerResponse, type OutgoingHttpHeaders, type RequestListener } from 'node:http';
import { Socket } from 'node:net';
import type { Request, RequestHandler, Response } from 'express';
import fresh from 'fresh';
import { answerBytes, byteBounded, type BoundedCache } from '../cache/byte-bounded.js';
import { TagIndex } from '../cache/tag-index.js';
import type { CollectionName } from '../../shared/schemas/documents.js';
import type { Logger } from 'pino';
import { toErrorResponse } from './errors.js';
import { REQUEST_ID_HEADER, redactUrl, requestIdOf } from './logger.js';
import {
  ageOf,
  compressHarder,
  encodedBody,
  encodingFor,
  JSON_TYPE,
  type Encoding,
  type ReplayableAnswer,
} from './replayable.js';

/** The tag of kept answers read from a collection (`remember`'s tags): a change to it drops them. */
export const collectionTag = (collection: CollectionName) => `collection:${collection}`;

/** The tag of pages drawn from one entity's document (`Event:101703`): a change to it or what it lists drops them. */
export const entityTag = (collection: 'Event' | 'Performer' | 'Venue', id: number | string) => `${collection}:${id}`;

/** The tag every rendered page carries: a publish of the segment files drops them all. */
export const SITE_TAG = 'site';
/** The tag of pages drawn with the flags (the home page's experiment): a new flag payload drops them. */
export const FLAGS_TAG = 'flags';

/**
 * Works out the key of a request, or undefined when it cannot tell cheaply and without side effects (the app
 * then answers it).
 */
export type ReplayKey = (req: IncomingMessage, url: URLParts) => string | undefined;

/**
 * Runs before a kept answer is sent (a rate limit): resolves with nothing to send it, or with an error to
 * answer instead, as the app's error handler would.
 */
export type LaneGate = (req: IncomingMessage, res: ServerResponse) => Promise<unknown>;

/** The headers gates have given a response, as raw name, value pairs. */
const gateHeaders = new WeakMap<ServerResponse, string[]>();

/**
 * Adds headers (name, value, name, value…) to the answer the lane sends after a gate, kept or refused: written in
 * its one `writeHead` rather than set one by one beforehand, which would send every header through Node's per-header
 * bookkeeping (the rate limit's headers on a replayed suggestion).
 */
export function addGateHeaders(res: ServerResponse, ...raw: string[]): void {
  const found = gateHeaders.get(res);
  if (found) found.push(...raw);
  else gateHeaders.set(res, raw);
}

const gateHeadersOf = (res: ServerResponse): readonly string[] => gateHeaders.get(res) ?? [];

export interface URLParts {
  pathname: string;
  /** The query string without its `?`; empty when there is none. */
  search: string;
}

/**
 * Headers as the flat name, value list `writeHead` takes. Written in one `writeHead` on a response with no
 * header set before, they skip Node's per-header `setHeader` bookkeeping, a tenth of a replay's time here.
 */
type RawHeaders = readonly string[];

function rawHeaders(headers: OutgoingHttpHeaders): string[] {
  const raw: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) raw.push(name, String(one));
  }
  return raw;
}

/** The `Age` of a replayed answer that says it, as raw headers. */
function ageHeader(answer: ReplayableAnswer): string[] {
  const age = ageOf(answer);
  return age === undefined ? [] : ['age', age];
}

class Entry {
  private readonly encoded = new Map<Encoding | 'identity', { body: Buffer; headers: RawHeaders }>();
  readonly notModified: RawHeaders;

  constructor(
    readonly answer: ReplayableAnswer,
    common: OutgoingHttpHeaders,
  ) {
    const own = Object.fromEntries(
      Object.entries(answer.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]),
    );
    this.notModified = rawHeaders({
      ...common,
      ...own,
      vary: varyOf(common, answer.vary),
      'cache-control': answer.cacheControl,
      etag: answer.etag,
    });
  }

  /**
   * The body in an encoding with its headers, made on first use and kept. The lane only replays, so an answer it
   * sends in brotli is asked for again: its body is compressed harder once the reply is out, for the next ones
   * (RULES 13.10).
   */
  variant(encoding: Encoding | 'identity') {
    let found = this.encoded.get(encoding);
    const body = encodedBody(this.answer, encoding);
    if (found?.body !== body) found = this.made(encoding, body);
    if (encoding === 'br') compressHarder(this.answer);
    return found;
  }

  private made(encoding: Encoding | 'identity', body: Buffer) {
    const found = {
      body,
      headers: [
        ...this.notModified,
        'content-type',
        this.answer.type ?? JSON_TYPE,
        'content-length',
        String(body.length),
        ...(encoding === 'identity' ? [] : ['content-encoding', encoding]),
      ],
    };
    this.encoded.set(encoding, found);
    return found;
  }
}

function varyOf(common: OutgoingHttpHeaders, own: readonly string[]): string {
  const names = [...String(common.vary ?? '').split(','), ...own, 'Accept-Encoding']
    .map((v) => v.trim())
    .filter(Boolean);
  return [...new Set(names)].join(', ');
}

export interface FastLaneOptions {
  logger: Logger;
  /** Headers every answer of the app carries whatever the request (security headers, `Vary: Origin`). */
  headers: OutgoingHttpHeaders;
  /** Bound on the bodies kept, in bytes (compressed copies included). */
  maxBytes: number;
  /** What every request must pass before the app does anything (the client headers); a refusal goes to the app. */
  admits?: (req: IncomingMessage) => boolean;
}

/**
 * Answers that the app has already built and marked replayable are sent again straight from Node's HTTP
 * server, before Express: on this machine Express's own request setup costs several times what sending a
 * cached 15 KB answer does, and the cached home layout is the busiest request of a sale day. Everything the
 * app's middleware would add is added here too: the security headers, the request id and its log line,
 * compression (each encoding made once per answer), `ETag`/`304`. A request that needs anything else (another
 * method, an `Origin` for CORS, a malformed client id, a token not verified yet, an answer not cached) goes
 * to the app as before.
 */
export class FastLane {
  private readonly routes: { prefix: string; exact: boolean; key: ReplayKey; gate: LaneGate | undefined }[] = [];
  private readonly answers: BoundedCache<string, Entry>;
  /** What each kept answer was made from (a collection, a layout row), to drop it when that changes. */
  private readonly tags = new TagIndex();
  private readonly forgetListeners: ((tag: string) => void)[] = [];
  private readonly common: OutgoingHttpHeaders;
  /** Requests answered here rather than by the app. */
  served = 0;
  private forgotten = 0;

  constructor(private readonly options: FastLaneOptions) {
    this.common = { ...options.headers };
    this.answers = byteBounded<string, Entry>(options.maxBytes, (e) => answerBytes(e.answer.body), {
      dispose: (_entry, key) => this.tags.untag(key),
    });
  }

  /**
   * Requests for `path` (or under it, when it ends with `/`) whose key `key` works out may be replayed, once
   * `gate` (when given) lets them through.
   */
  route(path: string, key: ReplayKey, gate?: LaneGate): this {
    this.routes.push({ prefix: path, exact: !path.endsWith('/'), key, gate });
    return this;
  }

  /**
   * How many tags have been forgotten. Taken before anything an answer is made of is read, and handed to
   * `remember` with it: a change that lands while the answer is made is forgotten before the answer is kept, and
   * would otherwise miss it (RULES 13.11).
   */
  get forgets(): number {
    return this.forgotten;
  }

  /**
   * Keeps an answer for `ttlMs` under `key`; later requests with that key get it without reaching the app,
   * until `forget` is called with one of its `tags`. Not kept when anything was forgotten since `since` (a
   * `forgets` count taken before the answer's inputs were read): it may show what a change replaced.
   */
  remember(key: string, answer: ReplayableAnswer, ttlMs: number, tags: readonly string[], since: number): void {
    if (this.forgotten !== since) return;
    if (this.answers.get(key)?.answer.etag === answer.etag) return;
    // Room for the body and the compressed copies it may gain; one over a tenth of the whole is not kept.
    const entry = new Entry(answer, this.common);
    if (this.answers.set(key, entry, { ttl: ttlMs }).has(key)) this.tags.tag(key, tags);
  }

  /**
   * Drops every kept answer tagged `tag`; how many there were. Other caches keyed by the same tags (the
   * rendered pages) hear of it through `onForget`: one change, one invalidation, wherever answers were kept.
   */
  forget(tag: string): number {
    this.forgotten++;
    const keys = this.tags.take(tag);
    for (const key of keys) this.answers.delete(key);
    for (const listener of this.forgetListeners) listener(tag);
    return keys.length;
  }

  /** Calls `listener` with each tag `forget` drops. */
  onForget(listener: (tag: string) => void): void {
    this.forgetListeners.push(listener);
  }

  get size(): number {
    return this.answers.size;
  }

  /** The app with this lane in front of it. */
  in(front: RequestListener): RequestListener {
    return (req, res) => {
      let served = false;
      try {
        served = this.serve(req, res);
      } catch (err) {
        // Whatever the lane could not judge (a key or check that threw) is the app's to answer, errors included.
        this.options.logger.warn(
          { err, url: redactUrl(req.url ?? '') },
          'fast lane passed a request on after an error',
        );
      }
      if (!served && !res.headersSent) front(req, res);
    };
  }

  /** Sends the kept answer and says true, or says false having touched nothing. */
  serve(req: IncomingMessage, res: ServerResponse): boolean {
    if (req.method !== 'GET' || req.headers.origin !== undefined) return false;
    const url = req.url ?? '';
    const q = url.indexOf('?');
    const parts: URLParts =
      q < 0 ? { pathname: url, search: '' } : { pathname: url.slice(0, q), search: url.slice(q + 1) };
    const route = this.routes.find((r) =>
      r.exact ? parts.pathname === r.prefix : parts.pathname.startsWith(r.prefix),
    );
    if (!route) return false;
    if (this.options.admits && !this.options.admits(req)) return false;
    const key = route.key(req, parts);
    const entry = key === undefined ? undefined : this.answers.get(key);
    if (!entry) return false;

    this.served++;
    const began = performance.now();
    const id = requestIdOf(req);
    if (route.gate) {
      route
        .gate(req, res)
        .catch((err: unknown) => err ?? new Error('gate failed'))
        .then((refusal) => (refusal === undefined ? this.send(req, res, entry, id) : this.refuse(res, refusal, id)))
        .finally(() => this.log(req, res, id, began));
    } else {
      this.send(req, res, entry, id);
      this.log(req, res, id, began);
    }
    return true;
  }

  private send(req: IncomingMessage, res: ServerResponse, entry: Entry, id: string): void {
    if (fresh(req.headers, { etag: entry.answer.etag })) {
      res.writeHead(304, [
        ...entry.notModified,
        ...ageHeader(entry.answer),
        REQUEST_ID_HEADER,
        id,
        ...gateHeadersOf(res),
      ]);
      res.end();
      return;
    }
    const out = entry.variant(encodingFor(req, entry.answer));
    res.writeHead(200, [...out.headers, ...ageHeader(entry.answer), REQUEST_ID_HEADER, id, ...gateHeadersOf(res)]);
    res.end(out.body);
  }

  /** The app's JSON error model, with the headers every answer carries. */
  private refuse(res: ServerResponse, err: unknown, id: string): void {
    const { status, body } = toErrorResponse(err);
    if (status >= 500) this.options.logger.error({ err }, 'request failed');
    const json = JSON.stringify(body);
    res.writeHead(status, [
      ...rawHeaders({
        ...this.common,
        'content-type': JSON_TYPE,
        'content-length': Buffer.byteLength(json),
        [REQUEST_ID_HEADER]: id,
      }),
      ...gateHeadersOf(res),
    ]);
    res.end(json);
  }

  /** The request logger's line, when info is on. */
  private log(req: IncomingMessage, res: ServerResponse, id: string, began: number): void {
    if (!this.options.logger.isLevelEnabled('info')) return;
    res.once('finish', () => {
      this.options.logger.info(
        {
          req: { id, method: req.method, url: redactUrl(req.url ?? '') },
          res: { statusCode: res.statusCode },
          responseTime: Math.round(performance.now() - began),
        },
        'request completed',
      );
    });
  }
}

/**
 * The headers some middleware sets on every response, whatever the request: found by running it once on a
 * bare GET, so the fast lane sends exactly what the app would and follows any change to its configuration.
 * Only for middleware that finishes at once (helmet, cors) and looks at nothing but the request headers.
 */
export function headersSetBy(middleware: readonly RequestHandler[]): OutgoingHttpHeaders {
  const req = new IncomingMessage(new Socket());
  req.method = 'GET';
  req.url = '/';
  const res = new ServerResponse(req);
  for (const run of middleware) {
    let outcome: { err?: unknown } | undefined;
    void run(req as Request, res as Response, (err?: unknown) => {
      outcome = { err };
    });
    if (!outcome) throw new Error('headersSetBy: the middleware did not call next() at once');
    if (outcome.err) throw outcome.err instanceof Error ? outcome.err : new Error(String(outcome.err));
  }
  return res.getHeaders();
}
