import cors from 'cors';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import { ipKeyGenerator, rateLimit } from 'express-rate-limit';
import helmet from 'helmet';
import proxyaddr from 'proxy-addr';
import { AppError } from './errors.js';
import type { LaneGate } from './fast-lane.js';

/** HSTS for a year (OWASP ASVS V14.4.5). */
const HSTS_SECONDS = 31_536_000;

/**
 * Security headers: a strict Content-Security-Policy (no inline script, nothing from other origins but what
 * is configured for flags), HSTS, nosniff, a referrer policy, no framing.
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
    allowedHeaders: ['Authorization', 'Content-Type', 'X-Client-Id', 'X-Site-Id', 'X-Request-Id'],
    maxAge: 600,
  });
}

export interface RateLimits {
  sessionsPerMinute: number;
  suggestPerMinute: number;
  searchPerMinute: number;
}

/** Which proxies' `X-Forwarded-For` is believed: the app's `trust proxy` setting. */
export const TRUST_PROXY = 'loopback';
const trusted = proxyaddr.compile(TRUST_PROXY);

/** The client's address as Express's `req.ip` gives it, for a request that never entered Express too. */
export const clientAddress = (req: IncomingMessage): string => proxyaddr(req, trusted);

/**
 * Per-client limits with the standard `RateLimit` headers; over the limit is a JSON 429. Clients are told
 * apart by address (an IPv6 /56 as one), read the same way for the app and the fast lane, so both count
 * against one limit.
 */
export function rateLimiter(perMinute: number, what: string): RequestHandler {
  return rateLimit({
    windowMs: 60_000,
    limit: perMinute,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    keyGenerator: (req) => ipKeyGenerator(clientAddress(req)),
    handler: (_req, _res, next) => next(new AppError(429, 'rate_limited', `Too many ${what} requests; slow down and retry shortly`)),
  });
}

/** A rate limiter as a fast-lane gate: it counts the request and refuses it with the limiter's 429. */
export function limiterGate(limiter: RequestHandler): LaneGate {
  return (req, res) => new Promise((resolve) => void limiter(req as Request, withAppend(res), (err?: unknown) => resolve(err)));
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
