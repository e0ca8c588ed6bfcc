import { createHash, timingSafeEqual } from 'node:crypto';
import cors from 'cors';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import { ipKeyGenerator, MemoryStore, rateLimit, type Logger as RateLimitLogger, type Store } from 'express-rate-limit';
import helmet from 'helmet';
import { byteBounded, CACHE_BYTES, roughBytes } from '../cache/byte-bounded.js';
import type { Logger } from 'pino';
import proxyaddr from 'proxy-addr';
import type { TrustProxy } from '../config/env.js';
import { AppError } from './errors.js';
import { addGateHeaders, type LaneGate } from './fast-lane.js';

/** HSTS for a year (OWASP ASVS V14.4.5). */
const HSTS_SECONDS = 31_536_000;

/**
 * Security headers: a strict Content-Security-Policy (no inline script, nothing from other origins but what
 * is configured for flags), HSTS, nosniff, a referrer policy, no framing (`frame-ancestors 'none'` and
 * `X-Frame-Options: DENY`).
 */
export function securityHeaders(options: { connectSources?: string[] } = {}): RequestHandler {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'"],
        connectSrc: ["'self'", ...(options.connectSources ?? [])],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
      },
    },
    strictTransportSecurity: { maxAge: HSTS_SECONDS, includeSubDomains: true },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // One framing policy: the same refusal as the CSP's `frame-ancestors 'none'`, for browsers without CSP 2.
    xFrameOptions: { action: 'deny' },
    crossOriginEmbedderPolicy: false,
  });
}

/**
 * What an answer that is not a page carries: JSON is never rendered, so the headers that govern a document
 * (script and style sources, DNS prefetching, opener and agent-cluster isolation) do nothing on it and only
 * lengthen every API answer. The set is the OWASP REST Security Cheat Sheet's ("Security Headers"): a CSP
 * with `frame-ancestors 'none'` (and nothing to load), `X-Frame-Options: DENY`, HSTS, nosniff; plus no
 * referrer and a same-origin resource policy, so another site cannot pull a guest's answers in by tag.
 */
export function apiSecurityHeaders(): RequestHandler {
  return helmet({
    contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
    strictTransportSecurity: { maxAge: HSTS_SECONDS, includeSubDomains: true },
    referrerPolicy: { policy: 'no-referrer' },
    xFrameOptions: { action: 'deny' },
    crossOriginEmbedderPolicy: false,
    crossOriginOpenerPolicy: false,
    originAgentCluster: false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
  });
}

/** Answers under these paths are data (JSON, event streams), not pages. */
export const isApiPath = (path: string): boolean => /^\/(?:api|sub)\/|^\/(?:healthz|readyz)$/.test(path);

/** The API set for data, the full set for pages and the files they load. */
export function securityHeadersByPath(page: RequestHandler, api: RequestHandler): RequestHandler {
  return (req, res, next) => (isApiPath(req.path) ? api : page)(req, res, next);
}

/** Cross-origin API calls only from the configured origins; none by default (same origin only). */
export function corsAllowList(origins: readonly string[]): RequestHandler {
  const allowed = new Set(origins);
  return cors({
    origin: (origin, done) => done(null, origin !== undefined && allowed.has(origin)),
    methods: ['GET', 'POST'],
    allowedHeaders: ['Authorization', 'Content-Type', 'X-Client-Id', 'X-Site-Id', 'X-Request-Id', 'X-Page-View'],
    maxAge: 600,
  });
}

/** proxy-addr's trust test: is the address at hop `i` (0 the socket's peer) a proxy whose word is believed? */
export type TrustTest = (address: string, hop: number) => boolean;

/**
 * The `TRUST_PROXY` setting as one trust test with Express's meaning, given both to Express (`trust proxy`)
 * and to the limiters, so `req.ip` in the app and the client a fast-lane request is counted as are the same.
 */
export function trustTest(setting: TrustProxy): TrustTest {
  if (setting === false) return () => false;
  if (typeof setting === 'number') return (_address, hop) => hop < setting;
  return proxyaddr.compile([...setting]);
}

/** The window a limiter's `perMinute` is counted over. */
const ONE_MINUTE_MS = 60_000;

interface RateLimiterOptions {
  /** Which proxies' `X-Forwarded-For` entries are believed. */
  trust: TrustTest;
  /** The store of one limiter's counts (its name keeps its keys apart); none: counted in this process. */
  store?: (name: string) => Store;
  /** Where store failures go; they let the request through. */
  logger?: Pick<Logger, 'warn'>;
}

/**
 * Makes one named per-client limiter over `perMinute` requests; `what` names the requests in the 429. With
 * `failedKeysOnly`, only answers refusing a key (401) count: a client that keeps guessing keys is held back, one
 * that holds a good key is not (RULES 18.4). With `failedStatus`, only answers of that status count: 404 for
 * preview links that open nothing (RULES 18.3).
 */
export type MakeLimiter = (
  name: string,
  perMinute: number,
  what: string,
  options?: { failedKeysOnly?: boolean; failedStatus?: number },
) => RequestHandler;

/** A digest both sides of a secret's comparison are reduced to: one length, so the comparison's time says nothing. */
export const secretDigest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/** Whether a given key is the expected one, compared in constant time whatever their lengths (RULES 18.4). */
export function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(secretDigest(given), secretDigest(expected));
}

/**
 * One client, as every per-client rule counts it (the rate limits, the per-address share of an event): its
 * address, an IPv6 /56 standing for one client since one subscriber's devices share a prefix.
 */
export const clientKeyOf = (address: string): string => ipKeyGenerator(address);

/**
 * Every per-client limiter comes from here: the standard `RateLimit` headers, over the limit a JSON 429, and
 * clients told apart by address (an IPv6 /56 as one) read through the same trust test in the app and the
 * fast lane, so both count against one limit. A store that fails lets requests through rather than turning
 * them into 500s: browsing and search keep working while the database is down.
 */
export function rateLimiters(options: RateLimiterOptions): MakeLimiter {
  const clientAddress = (req: IncomingMessage): string => proxyaddr(req, options.trust);
  return (name, perMinute, what, limiterOptions = {}) => {
    const counted = limiterOptions.failedStatus ?? (limiterOptions.failedKeysOnly ? 401 : undefined);
    const store = options.store?.(name) ?? new MemoryStore();
    const logger = options.logger ? quietLogger(options.logger, name) : undefined;
    const refusal = () => new AppError(429, 'rate_limited', `Too many ${what} requests; slow down and retry shortly`);
    const limiter = rateLimit({
      windowMs: ONE_MINUTE_MS,
      limit: perMinute,
      standardHeaders: 'draft-8',
      legacyHeaders: false,
      identifier: name,
      keyGenerator: (req) => clientKeyOf(clientAddress(req)),
      handler: (_req, _res, next) => next(refusal()),
      store,
      passOnStoreError: true,
      ...(counted !== undefined
        ? { skipSuccessfulRequests: true, requestWasSuccessful: (_req, res) => res.statusCode !== counted }
        : {}),
      ...(logger ? { logger } : {}),
    });
    // A limiter that counts every request counts a fast-lane request in the same store, with the same headers and
    // refusal, without express-rate-limit's per-request setup (a third of a replayed suggestion's time).
    if (counted === undefined)
      laneCounters.set(limiter, async (req, res) => {
        const key = clientKeyOf(clientAddress(req));
        let hits;
        try {
          hits = await store.increment(key);
        } catch (err) {
          // As `passOnStoreError` does in the app.
          logger?.error(err, 'express-rate-limit: error from store, allowing request without rate-limiting.');
          return undefined;
        }
        const resetSeconds = hits.resetTime
          ? Math.max(0, Math.ceil((hits.resetTime.getTime() - Date.now()) / 1000))
          : ONE_MINUTE_MS / 1000;
        // Sent with the answer's own headers, in its one `writeHead`.
        addGateHeaders(
          res,
          'RateLimit',
          `"${name}"; r=${Math.max(perMinute - hits.totalHits, 0)}; t=${resetSeconds}`,
          'RateLimit-Policy',
          `"${name}"; q=${perMinute}; w=${ONE_MINUTE_MS / 1000}; pk=:${partitionKey(key)}:`,
        );
        if (hits.totalHits <= perMinute) return undefined;
        addGateHeaders(res, 'Retry-After', String(resetSeconds));
        return refusal();
      });
    return limiter;
  };
}

/** The fast-lane counting of limiters that count every request (`limiterGate`), by limiter. */
const laneCounters = new WeakMap<RequestHandler, LaneGate>();

/** Clients' partition keys, kept (up to `CACHE_BYTES.partitionKeys`): one a client that asks again in its window. */
const partitionKeys = byteBounded<string, string>(CACHE_BYTES.partitionKeys, (pk) => roughBytes(pk));

/**
 * The `pk` of a client in the draft-8 `RateLimit-Policy` header, as express-rate-limit writes it (the first 12 hex
 * digits of the key's SHA-256, in base64), hashed once per client rather than on every request.
 */
function partitionKey(key: string): string {
  let found = partitionKeys.get(key);
  if (found === undefined) {
    found = Buffer.from(createHash('sha256').update(key).digest('hex').slice(0, 12)).toString('base64');
    partitionKeys.set(key, found);
  }
  return found;
}

/** While a store is down every request would report it; one line a minute per message is enough to see it. */
const STORE_FAILURE_LOG_EVERY_MS = 60_000;

/** express-rate-limit's complaints about one limiter (its store failing, mostly), each at most once a minute. */
function quietLogger(logger: Pick<Logger, 'warn'>, limiter: string): RateLimitLogger {
  const lastLogged = new Map<string, number>();
  const log = (err: unknown, message = 'rate limiter problem') => {
    const now = Date.now();
    if (now - (lastLogged.get(message) ?? -Infinity) < STORE_FAILURE_LOG_EVERY_MS) return;
    lastLogged.set(message, now);
    logger.warn({ err, limiter }, message);
  };
  return { error: log, warn: log };
}

/** A rate limiter as a fast-lane gate: it counts the request and refuses it with the limiter's 429. */
export function limiterGate(limiter: RequestHandler): LaneGate {
  const counter = laneCounters.get(limiter);
  if (counter) return counter;
  return (req, res) =>
    new Promise((resolve) => void limiter(req as Request, withAppend(res), (err?: unknown) => resolve(err)));
}

/**
 * express-rate-limit writes its draft-8 headers with Express's `res.append` (so that limiters can stack); a
 * response the lane answers is a plain Node one, so it gets the same method: add a value to a header.
 */
function withAppend(res: ServerResponse): Response {
  if (!('append' in res)) {
    Object.defineProperty(res, 'append', {
      value(field: string, value: string | string[]) {
        const prev = res.getHeader(field);
        const added = Array.isArray(value) ? value : [value];
        res.setHeader(field, prev === undefined ? value : [...(Array.isArray(prev) ? prev : [String(prev)]), ...added]);
        return res;
      },
    });
  }
  return res as unknown as Response;
}

/**
 * The header the operators' key (`CATALOG_ADMIN_KEY`) is sent in to every operators' API under `/api/admin`: the
 * one the catalog documents API takes, as Typesense does, so an operator holds one key sent one way.
 */
export const ADMIN_KEY_HEADER = 'X-TYPESENSE-API-KEY';

/** Lets through requests carrying the operators' key (compared in constant time); the rest get 401. */
export function operatorsOnly(adminKey: string): RequestHandler {
  return (req, _res, next) => {
    const given = req.get(ADMIN_KEY_HEADER);
    if (given === undefined || !sameSecret(given, adminKey))
      throw new AppError(401, 'unauthorized', `Send the operators' key (CATALOG_ADMIN_KEY) in ${ADMIN_KEY_HEADER}`);
    next();
  };
}
