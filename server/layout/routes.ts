import { parse as parseQueryString } from 'node:querystring';
import { Router, type Request } from 'express';
import { LRUCache } from 'lru-cache';
import { TagIndex } from '../cache/tag-index.js';
import { z } from 'zod';
import type { BrandAnswer } from '../../schemas/layout.js';
import { HOME_LAYOUT_FEATURE } from '../../schemas/flags.js';
import type { Brand } from '../../schemas/segments.js';
import { deviceTypeFromUserAgent, FORCE_PARAM, type FlagService } from '../flags/flag-service.js';
import { optionalSession } from '../sessions/routes.js';
import { SessionTokens } from '../sessions/session-tokens.js';
import { AppError } from '../http/errors.js';
import { replayableJson, sendReplayable, type FastLane, type ReplayableAnswer } from '../http/fast-lane.js';
import type { SearchService } from '../search/search-service.js';
import type { SegmentRepository } from '../segments/segment-repository.js';
import type { LayoutService, PageRequest } from './layout-service.js';
import { LocationQuerySchema, resolveLocation, zipLocation } from './location.js';

import { SITE_ID_HEADER } from '../http/client-headers.js';

const LayoutQuerySchema = LocationQuerySchema.and(
  z.object({
    brand: z.string().regex(/^[a-z0-9-]{1,64}$/, 'brand must be a brand id such as "base"').optional(),
    [FORCE_PARAM]: z.unknown().optional(),
  }),
);

const CategoryParamsSchema = z.object({ slug: z.string().regex(/^[a-z0-9-]{1,64}$/, 'slug must be a category slug such as "nfl"') });

/** The brand of a request: `?brand=` first, then the site-id header, then the default brand. */
export function brandFor(req: Request, segments: SegmentRepository, brandId?: string): Brand {
  return resolveBrand(segments, brandId, req.get(SITE_ID_HEADER));
}

function resolveBrand(segments: SegmentRepository, brandId: string | undefined, siteHeader: string | undefined): Brand {
  if (brandId) {
    const brand = segments.brand(brandId);
    if (!brand) throw new AppError(404, 'brand_not_found', `No brand "${brandId}"`);
    return brand;
  }
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
const LAYOUT_HEADERS = { cacheControl: 'private, max-age=60', vary: ['X-Site-Id', 'Authorization'] } as const;

interface Experiment {
  variant: string | undefined;
  experiments: { key: string; variationId: string }[];
}

/** Guests whose assignment is remembered: evaluating GrowthBook's rules costs as much as sending the answer. */
const ASSIGNMENTS = 20_000;

const NO_EXPERIMENT: Experiment = Object.freeze({ variant: undefined, experiments: Object.freeze([]) as unknown as Experiment['experiments'] });

/**
 * The home-layout variation of a guest, remembered for the same guest, brand, device type and URL (forced
 * variations included) until the flag payload changes: GrowthBook's hashing gives the same answer for the
 * same inputs. The whole URL, since a rule may look at its query (a campaign's `utm_` parameters).
 * Experiments follow the guest (spec §7): without a guest there is no one to assign, so the base layout,
 * unless the request forces a variation (`?home-layout=1`), which GrowthBook applies before it looks for the
 * hash attribute: a forced view needs no guest, and is no exposure.
 */
function homeExperiments(flags: FlagService) {
  const assignments = new LRUCache<string, Experiment>({ max: ASSIGNMENTS });
  let assignedWith: unknown = null;
  return (guestId: string | undefined, brand: Brand, userAgent: string | undefined, url: string, forced: Record<string, number>): Experiment => {
    if (!guestId && Object.keys(forced).length === 0) return NO_EXPERIMENT;
    const payload = flags.payload();
    if (payload !== assignedWith) {
      assignments.clear();
      assignedWith = payload;
    }
    const deviceType = deviceTypeFromUserAgent(userAgent);
    const key = JSON.stringify([guestId ?? '', brand.id, deviceType, url]);
    let experiment = assignments.get(key);
    if (!experiment) {
      const evaluation = flags.evaluate({ id: guestId ?? '', brand: brand.id, deviceType, url }, forced);
      const value = evaluation.value(HOME_LAYOUT_FEATURE, 'base');
      // Shared by every request of this guest from now on: frozen, so nothing can change one for the others.
      experiment = Object.freeze({ variant: value === 'base' ? undefined : value, experiments: Object.freeze(evaluation.exposures.map((e) => Object.freeze(e))) as Experiment['experiments'] });
      assignments.set(key, experiment);
    }
    return experiment;
  };
}

/**
 * The key of a layout answer as the request spelled it: the same URL, site and experiment assignment with
 * the same segment files give the same bytes.
 */
/** The tag of the page answers built from a row. */
const rowTag = (rowKey: string) => `row:${rowKey}`;

function replayKey(url: string, site: string | undefined, experiment: Experiment, segmentsLoadedAt: string): string {
  return JSON.stringify([url, site ?? null, experiment.variant ?? null, experiment.experiments, segmentsLoadedAt]);
}

export function layoutRoutes(layout: LayoutService, segments: SegmentRepository, search: SearchService, flags: FlagService, tokens: SessionTokens, fastLane?: FastLane): Router {
  const router = Router();
  const homeExperiment = homeExperiments(flags);
  // Page answers, each tagged with its rows' keys: a row a catalog change makes stale takes its pages along,
  // here and in the fast lane.
  const pageTags = new TagIndex();
  const responses = new LRUCache<string, ReplayableAnswer>({
    max: RESPONSE_CACHE_ENTRIES,
    ttl: layout.rowCacheTtlMs,
    dispose: (_answer, key, reason) => {
      if (reason !== 'set') pageTags.untag(key);
    },
  });
  layout.onStaleRows((rowKeys) => {
    for (const rowKey of rowKeys) {
      for (const key of pageTags.take(rowTag(rowKey))) responses.delete(key);
      fastLane?.forget(rowTag(rowKey));
    }
  });

  // A repeat of an answer this route has given goes out from the fast lane, without Express, when everything
  // the answer depends on can be read off the request at once: its URL, site header and, for a guest whose
  // token was verified before, the experiment assignment.
  fastLane?.route('/api/layout/', (req, { pathname, search: queryString }) => {
    const page = pathname === '/api/layout/home' ? 'home' : pathname.startsWith('/api/layout/category/') ? 'category' : undefined;
    if (!page) return undefined;
    let guestId: string | undefined;
    const authorization = req.headers.authorization;
    if (authorization !== undefined) {
      const token = SessionTokens.bearerToken(authorization);
      if (token === undefined) return undefined;
      guestId = tokens.peek(token)?.guestId;
      if (!guestId) return undefined;
    }
    const site = req.headers[SITE_ID_HEADER];
    if (Array.isArray(site)) return undefined;
    let experiment = NO_EXPERIMENT;
    if (queryString || (page === 'home' && guestId)) {
      const query = parseQueryString(queryString);
      try {
        // Checked here too, on every layout page: a variation a payload change has made invalid is the app's 400.
        const forced = flags.forcedVariations(query);
        if (page === 'home' && (guestId || Object.keys(forced).length > 0)) {
          const brand = resolveBrand(segments, typeof query.brand === 'string' ? query.brand : undefined, site);
          experiment = homeExperiment(guestId, brand, req.headers['user-agent'], req.url ?? '', forced);
        }
      } catch {
        return undefined;
      }
    }
    return replayKey(req.url ?? '', site, experiment, segments.current.loadedAt);
  });

  const answer = async (req: Request, res: import('express').Response, page: PageRequest) => {
    const query = LayoutQuerySchema.parse(req.query);
    const brand = brandFor(req, segments, query.brand);
    layout.pageFor(page);
    // GrowthBook's `?<experiment-key>=<index>` and the `gb_force` alias, checked on every layout page, with or
    // without a guest token, before the token is looked at.
    const forced = flags.forcedVariations(req.query as Record<string, unknown>);
    const session = await optionalSession(req, tokens);
    const experiment = page.page === 'home' ? homeExperiment(session?.guestId, brand, req.get('user-agent'), req.originalUrl, forced) : NO_EXPERIMENT;
    const { variant, experiments } = experiment;
    // Keyed by what the answer is made of, the variation and the exposures listed: a forced view (no exposure)
    // and a guest assigned the same variation (its exposure listed) are different entries, and the one a
    // plain anonymous request shares (base rows, no exposure) is the same bytes whoever asked. The fast lane and
    // the browser key by URL as well, and a forced view's URL carries its override.
    const key = JSON.stringify([page, brand.id, query.lat, query.lng, query.zip, variant, experiments, segments.current.loadedAt]);
    let cached = responses.get(key);
    if (!cached) {
      const location = await resolveLocation(query, search.engine);
      const rowKeys: string[] = [];
      const invalidations = layout.invalidations;
      cached = replayableJson(JSON.stringify(await layout.layout(page, brand, location, { variant, experiments, rowKeys })), LAYOUT_HEADERS);
      // Rows that timed out or failed are not worth keeping: the next shopper should get a fresh try. Nor is a
      // page that a catalog change may have overtaken while it was built.
      if (!/"status":"(timeout|error)"/.test(cached.body) && layout.invalidations === invalidations) {
        responses.set(key, cached);
        pageTags.tag(key, rowKeys.map(rowTag));
      }
    }
    // Replayed for as long as the response cache keeps it; never when it was not kept.
    if (responses.has(key)) {
      fastLane?.remember(replayKey(req.originalUrl, req.get(SITE_ID_HEADER), experiment, segments.current.loadedAt), cached, responses.getRemainingTTL(key), pageTags.tagsOf(key));
    }
    sendReplayable(req, res, cached);
  };
  router.get('/layout/home', (req, res) => answer(req, res, { page: 'home' }));
  router.get('/layout/category/:slug', (req, res) => answer(req, res, { page: 'category', slug: CategoryParamsSchema.parse(req.params).slug }));
  // The brand's name, theme and partner address, for the client's header and colours.
  router.get('/brand', (req, res) => {
    const query = z.object({ brand: z.string().regex(/^[a-z0-9-]{1,64}$/, 'brand must be a brand id such as "base"').optional() }).parse(req.query);
    const brand = brandFor(req, segments, query.brand);
    const answer: BrandAnswer = brand;
    res.set('Vary', 'X-Site-Id').set('Cache-Control', 'public, max-age=300').json(answer);
  });

  // A ZIP code the shopper typed, checked before the pages use it: its market, or a 404 naming it.
  router.get('/location', async (req, res) => {
    const { zip } = z.object({ zip: z.string({ error: 'zip is required' }).regex(/^\d{5}$/, 'zip must be a 5-digit US ZIP code') }).parse(req.query);
    const found = await zipLocation(zip, search.engine);
    if (!found) throw new AppError(404, 'unknown_zip', `ZIP code ${zip} is not a US ZIP code we know`);
    const { timeZone: _zone, ...location } = found;
    res.set('Cache-Control', 'public, max-age=3600').json(location);
  });

  router.get('/segments/status', (_req, res) => {
    res.set('Cache-Control', 'no-store').json(segments.status());
  });
  return router;
}
