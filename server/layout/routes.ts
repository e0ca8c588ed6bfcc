import { createHash } from 'node:crypto';
import { Router, type Request } from 'express';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import type { Brand } from '../../schemas/segments.js';
import { deviceTypeFromUserAgent, FORCE_PARAM, parseForcedVariations, type FlagService } from '../flags/flag-service.js';
import { optionalSession } from '../sessions/routes.js';
import type { SessionTokens } from '../sessions/session-tokens.js';
import { AppError } from '../http/errors.js';
import type { SearchService } from '../search/search-service.js';
import type { SegmentRepository } from '../segments/segment-repository.js';
import type { LayoutService, PageRequest } from './layout-service.js';
import { LocationQuerySchema, resolveLocation } from './location.js';

import { SITE_ID_HEADER } from '../http/client-headers.js';

const LayoutQuerySchema = LocationQuerySchema.and(
  z.object({
    brand: z.string().regex(/^[a-z0-9-]{1,64}$/, 'brand must be a brand id such as "base"').optional(),
    [FORCE_PARAM]: z.unknown().optional(),
  }),
);

/** The home page's layout experiment: its value names the segment variation to show. */
export const HOME_LAYOUT_FEATURE = 'home_layout';
const CategoryParamsSchema = z.object({ slug: z.string().regex(/^[a-z0-9-]{1,64}$/, 'slug must be a category slug such as "nfl"') });

/** The brand of a request: `?brand=` first, then the site-id header, then the default brand. */
export function brandFor(req: Request, segments: SegmentRepository, brandId?: string): Brand {
  if (brandId) {
    const brand = segments.brand(brandId);
    if (!brand) throw new AppError(404, 'brand_not_found', `No brand "${brandId}"`);
    return brand;
  }
  const siteHeader = req.get(SITE_ID_HEADER);
  if (siteHeader !== undefined) {
    const brand = /^\d{1,9}$/.test(siteHeader) ? segments.brandBySiteId(Number(siteHeader)) : undefined;
    if (!brand) throw new AppError(400, 'unknown_site_id', `Unknown site id in ${SITE_ID_HEADER}: "${siteHeader.slice(0, 20)}"`);
    return brand;
  }
  return segments.defaultBrand;
}

/**
 * Whole layout answers, serialised once: the same page for the same brand, place and experiment variation is
 * the same bytes for a minute (the row cache's lifetime), sent with a precomputed ETag so a repeat costs
 * neither building, serialising nor hashing.
 */
const RESPONSE_CACHE_ENTRIES = 2_000;

export function layoutRoutes(layout: LayoutService, segments: SegmentRepository, search: SearchService, flags: FlagService, tokens: SessionTokens): Router {
  const router = Router();
  const responses = new LRUCache<string, { body: string; etag: string }>({ max: RESPONSE_CACHE_ENTRIES, ttl: layout.rowCacheTtlMs });
  const answer = async (req: Request, res: import('express').Response, page: PageRequest) => {
    const query = LayoutQuerySchema.parse(req.query);
    const brand = brandFor(req, segments, query.brand);
    layout.pageFor(page);
    const forced = parseForcedVariations(query[FORCE_PARAM]);
    // Experiments follow the guest (spec §7): without a guest token there is no one to assign.
    const session = await optionalSession(req, tokens);
    let variant: string | undefined;
    let experiments: { key: string; variationId: string }[] = [];
    if (session && page.page === 'home') {
      const evaluation = flags.evaluate(
        { id: session.guestId, brand: brand.id, deviceType: deviceTypeFromUserAgent(req.get('user-agent')), url: req.originalUrl },
        forced,
      );
      const value = evaluation.value(HOME_LAYOUT_FEATURE, 'base');
      variant = value === 'base' ? undefined : value;
      experiments = evaluation.exposures;
    }
    const key = JSON.stringify([page, brand.id, query.lat, query.lng, query.zip, variant, experiments, segments.current.loadedAt]);
    let cached = responses.get(key);
    if (!cached) {
      const location = await resolveLocation(query, search.engine);
      const body = JSON.stringify(await layout.layout(page, brand, location, { variant, experiments }));
      cached = { body, etag: `W/"${createHash('sha1').update(body).digest('base64url')}"` };
      // Rows that timed out or failed are not worth keeping: the next shopper should get a fresh try.
      if (!/"status":"(timeout|error)"/.test(body)) responses.set(key, cached);
    }
    res.set('Vary', 'X-Site-Id, Authorization').set('Cache-Control', 'private, max-age=60').set('ETag', cached.etag);
    if (req.fresh) {
      res.status(304).end();
      return;
    }
    res.type('application/json').send(cached.body);
  };
  router.get('/layout/home', (req, res) => answer(req, res, { page: 'home' }));
  router.get('/layout/category/:slug', (req, res) => answer(req, res, { page: 'category', slug: CategoryParamsSchema.parse(req.params).slug }));
  // The brand's name, theme and partner address, for the client's header and colours.
  router.get('/brand', (req, res) => {
    const query = z.object({ brand: z.string().regex(/^[a-z0-9-]{1,64}$/, 'brand must be a brand id such as "base"').optional() }).parse(req.query);
    const brand = brandFor(req, segments, query.brand);
    res.set('Vary', 'X-Site-Id').set('Cache-Control', 'public, max-age=300').json(brand);
  });

  router.get('/segments/status', (_req, res) => {
    res.set('Cache-Control', 'no-store').json(segments.status());
  });
  return router;
}
