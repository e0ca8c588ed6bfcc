import cors from 'cors';
import type { RequestHandler } from 'express';
import { rateLimit } from 'express-rate-limit';
import helmet from 'helmet';
import { AppError } from './errors.js';

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

/** Per-client limits with the standard `RateLimit` headers; over the limit is a JSON 429. */
export function rateLimiter(perMinute: number, what: string): RequestHandler {
  return rateLimit({
    windowMs: 60_000,
    limit: perMinute,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    handler: (_req, _res, next) => next(new AppError(429, 'rate_limited', `Too many ${what} requests; slow down and retry shortly`)),
  });
}
