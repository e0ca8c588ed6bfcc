import type { IncomingHttpHeaders } from 'node:http';
import type { Request, RequestHandler } from 'express';
import { z } from 'zod';
import type { Brand } from '../../shared/schemas/brand-registry.js';
import { readClientHeaders, SITE_ID_HEADER, siteNamed } from '../http/client-headers.js';
import { AppError } from '../http/errors.js';
import type { SegmentRepository } from '../segments/segment-repository.js';

/** Who an API request is for, read off its headers once, before any route, and handed to the routes. */
export interface RequestContext {
  /** The brand the site id names (RULES 1.4), or the default brand without one. */
  readonly brand: Brand;
  /** The `X-Site-Id` header as sent: answers kept for replay are kept per site. */
  site: string | undefined;
}

const contexts = new WeakMap<Request, RequestContext>();

/** The context of the request headers `headers`: its brand, or a 400 for client headers that do not pass. */
export function contextOfHeaders(segments: SegmentRepository, headers: IncomingHttpHeaders): RequestContext {
  const named = readClientHeaders(headers, segments.siteLookup);
  const site = headers[SITE_ID_HEADER];
  return {
    // The default brand is looked up when a route asks for it: most of the API (search, commerce) never does.
    get brand() {
      return named ?? segments.defaultBrand;
    },
    site: typeof site === 'string' ? site : undefined,
  };
}

/** The brand a site id names, the default brand for none; a 400 for a site id no brand has. */
export function siteBrand(segments: SegmentRepository, site: string | undefined): Brand {
  return siteNamed(site, segments.siteLookup) ?? segments.defaultBrand;
}

/** Checks every API request's client headers and resolves its context, once, for the routes to read. */
export function requestContext(segments: SegmentRepository): RequestHandler {
  return (req, _res, next) => {
    contexts.set(req, contextOfHeaders(segments, req.headers));
    next();
  };
}

/** The context `requestContext` resolved for this request. */
export function contextOf(req: Request): RequestContext {
  const context = contexts.get(req);
  if (!context) throw new Error(`${req.method} ${req.path} is routed without requestContext in front of it`);
  return context;
}

/** A brand id a request names (`?brand=`). */
export const BrandParamSchema = z.string().regex(/^[a-z0-9-]{1,64}$/, 'brand must be a brand id such as "base"');

/** The brand a request asks for: `?brand=` first (a 404 for a brand that does not exist), then its site's. */
export function requestedBrand(segments: SegmentRepository, siteBrand: Brand, brandId: string | undefined): Brand {
  if (!brandId) return siteBrand;
  const brand = segments.brand(brandId);
  if (!brand) throw new AppError(404, 'brand_not_found', `No brand "${brandId}"`);
  return brand;
}
