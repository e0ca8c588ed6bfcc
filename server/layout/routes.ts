import { pageViewOf, visitorOf, type EventCollector, type ExposurePlace } from '../analytics/event-collector.js';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { categoryPath } from '../../shared/rules/site-paths.js';
import { parse as parseQueryString } from 'node:querystring';
import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import {
  LayoutExposuresBodySchema,
  type BrandAnswer,
  type LayoutExposuresAnswer,
} from '../../shared/schemas/layout.js';
import type { FlagService } from '../flags/flag-service.js';
import { optionalSession } from '../sessions/routes.js';
import { SessionTokens } from '../sessions/session-tokens.js';
import { AppError } from '../http/errors.js';
import type { FastLane, LaneGate } from '../http/fast-lane.js';
import { sendReplayable } from '../http/replayable.js';
import type { SearchService } from '../search/search-service.js';
import type { SegmentRepository } from '../segments/segment-repository.js';
import type { PageRequest } from './layout-service.js';
import { NO_EXPERIMENT, type Experiment, type LayoutAnswers } from './layout-answers.js';
import { zipLocation } from './location-lookup.js';
import { BrandParamSchema, contextOf, requestedBrand, siteBrand } from './request-context.js';
import { ZIP_PATTERN } from '../../shared/rules/location.js';
import { SITE_ID_HEADER } from '../http/client-headers.js';
import { CACHE_BYTES } from '../cache/byte-bounded.js';

const CategoryParamsSchema = z.object({
  slug: z.string().regex(/^[a-z0-9-]{1,64}$/, 'slug must be a category slug such as "nfl"'),
});

/**
 * The key of a layout answer as the request spelled it: the same URL, site and experiment assignment with
 * the same segment files give the same bytes.
 */
function replayKey(url: string, site: string | undefined, experiment: Experiment, segmentsLoadedAt: string): string {
  return JSON.stringify([url, site ?? null, segmentsLoadedAt]) + experimentKey(experiment);
}

/** An experiment's part of a replay key, spelled once per experiment (each is frozen and shared by its guests). */
const experimentKeys = new WeakMap<Experiment, string>();
function experimentKey(experiment: Experiment): string {
  let key = experimentKeys.get(experiment);
  if (key === undefined) {
    key = JSON.stringify([experiment.variant ?? null, experiment.experiments]);
    experimentKeys.set(experiment, key);
  }
  return key;
}

/** The experiment a replayed answer puts its guest in, for the exposures its gate records. */
interface LaneExposed {
  experiment: Experiment;
  brand: string;
  guestId: string;
}

/**
 * What the lane worked out for a request: its replay key and exposures, good until the guest's token expires and
 * while the flags and segments are those it was worked out with.
 */
interface LaneRead {
  key: string;
  exposed: LaneExposed | undefined;
  until: number;
  payload: unknown;
  loadedAt: string;
}

/** About what a kept read takes besides its two keys (the entry, the read, the map's slot). */
const LANE_READ_BYTES = 160;

/** Where a layout answer shows its experiment: the page, the browser's page view, the variation and segment version. */
function exposurePlaceOf(segments: SegmentRepository) {
  return (page: string, headers: IncomingHttpHeaders, experiment: Experiment): ExposurePlace => ({
    page,
    pageView: pageViewOf(headers),
    variation: experiment.variant ?? 'base',
    segmentVersion: segments.version,
  });
}

export function layoutRoutes(
  answers: LayoutAnswers,
  segments: SegmentRepository,
  search: SearchService,
  flags: FlagService,
  tokens: SessionTokens,
  fastLane?: FastLane,
  events?: EventCollector,
): Router {
  const router = Router();
  const exposurePlace = exposurePlaceOf(segments);
  // A row a catalog change makes stale takes the answers built from it out of the fast lane too.
  answers.onStaleTags((tags) => {
    for (const tag of tags) fastLane?.forget(tag);
  });

  // A repeat of an answer this route has given goes out from the fast lane, without Express, when everything
  // the answer depends on can be read off the request at once: its URL, site header and, for a guest whose
  // token was verified before, the experiment assignment.
  // The exposures of a request the lane replays (RULES 16.1), worked out with its key and recorded by its gate,
  // once the lane has an answer for it.
  const laneExposures = new WeakMap<IncomingMessage, LaneExposed>();
  /**
   * What the lane worked out for a request, by what it read off it: kept up to `CACHE_BYTES.laneReads`, then they
   * start again (a crowd of one-off guests does not grow them).
   */
  const laneReads = new Map<string, LaneRead>();
  let laneReadBytes = 0;
  const recordLaneExposures: LaneGate = (req) => {
    const seen = laneExposures.get(req);
    const visitor = seen && events && visitorOf(req.headers, seen.guestId, seen.brand);
    if (seen && visitor)
      events!.exposures(visitor, exposurePlace('/', req.headers, seen.experiment), seen.experiment.experiments);
    return Promise.resolve(undefined);
  };
  fastLane?.route(
    '/api/layout/',
    (req, { pathname, search: queryString }) => {
      const page =
        pathname === '/api/layout/home'
          ? 'home'
          : pathname.startsWith('/api/layout/category/')
            ? 'category'
            : undefined;
      if (!page) return undefined;
      const authorization = req.headers.authorization;
      const site = req.headers[SITE_ID_HEADER];
      if (Array.isArray(site)) return undefined;
      const url = req.url ?? '';
      const userAgent = req.headers['user-agent'];
      // A guest's repeats ask the same: what was worked out for the same address, token, site and browser is read
      // back while the flags, the segments and the token are still the ones it was worked out with.
      const readKey = `${url}\n${authorization ?? ''}\n${site ?? ''}\n${userAgent ?? ''}`;
      const read = laneReads.get(readKey);
      if (read && read.payload === flags.payload() && read.loadedAt === segments.current.loadedAt) {
        if (read.until > Date.now()) {
          if (read.exposed) laneExposures.set(req, read.exposed);
          return read.key;
        }
        laneReads.delete(readKey);
      }
      let guestId: string | undefined;
      let until = Infinity;
      if (authorization !== undefined) {
        const session = tokens.knownGuest(authorization);
        if (!session) return undefined;
        guestId = session.guestId;
        until = session.expiresAt.getTime();
      }
      const payload = flags.payload();
      const loadedAt = segments.current.loadedAt;
      // Answers are kept per site id, once the app has checked it: a site id no brand has never finds one here.
      let experiment = NO_EXPERIMENT;
      let exposed: LaneExposed | undefined;
      if (queryString || (page === 'home' && guestId)) {
        const query = queryString ? parseQueryString(queryString) : {};
        try {
          // Checked here too, on every layout page: a variation a payload change has made invalid is the app's 400.
          const forced = flags.forcedVariations(query);
          if (page === 'home' && (guestId || Object.keys(forced).length > 0)) {
            const brandId = typeof query.brand === 'string' ? query.brand : undefined;
            const brand = requestedBrand(segments, siteBrand(segments, site), brandId);
            experiment = answers.homeExperiment(guestId, brand, userAgent, url, forced);
            if (guestId && experiment.experiments.length > 0) exposed = { experiment, brand: brand.id, guestId };
          }
        } catch {
          return undefined;
        }
      }
      if (exposed) laneExposures.set(req, exposed);
      const key = replayKey(url, site, experiment, loadedAt);
      const bytes = LANE_READ_BYTES + readKey.length + key.length;
      if (laneReadBytes + bytes > CACHE_BYTES.laneReads) {
        laneReads.clear();
        laneReadBytes = 0;
      }
      laneReads.set(readKey, { key, exposed, until, payload, loadedAt });
      laneReadBytes += bytes;
      return key;
    },
    recordLaneExposures,
  );

  const answer = async (req: Request, res: Response, page: PageRequest) => {
    const context = contextOf(req);
    const session = await optionalSession(req, tokens);
    const request = answers.resolve({
      page,
      query: req.query as Record<string, unknown>,
      siteBrand: context.brand,
      guestId: session?.guestId,
      userAgent: req.get('user-agent'),
      url: req.originalUrl,
    });
    const visitor = events && visitorOf(req.headers, session?.guestId, request.brand.id);
    if (visitor)
      events.exposures(
        visitor,
        exposurePlace(page.page === 'home' ? '/' : categoryPath(page.slug), req.headers, request.experiment),
        request.experiment.experiments,
      );
    // The segment set the answer is drawn from, and the lane's forgets before it is: a publish or a catalog change
    // while it is drawn keeps it out of the lane (RULES 13.11).
    const { loadedAt } = segments.current;
    const since = fastLane?.forgets ?? 0;
    const found = await answers.answer(request);
    // Sent first, then replayed for as long as the answers keep it (never when it was not kept), as a page is.
    sendReplayable(req, res, found.answer);
    if (found.kept)
      fastLane?.remember(
        replayKey(req.originalUrl, context.site, request.experiment, loadedAt),
        found.answer,
        found.ttlMs,
        found.tags,
        since,
      );
  };
  router.get('/layout/home', (req, res) => answer(req, res, { page: 'home' }));
  router.get('/layout/category/:slug', (req, res) =>
    answer(req, res, { page: 'category', slug: CategoryParamsSchema.parse(req.params).slug }),
  );
  // RULES 9.4, 16.1: a home page the browser did not ask the API for (rendered, or from a shared cache) is drawn
  // for the guest's assignment as the cookie said it, without knowing the guest. The browser reports what the page
  // was drawn by and showed; the exposures are recorded here, for the verified guest, when it was drawn by their
  // own assignment and showed their variation: a first visit, drawn before the browser knew one, counts for no
  // variation, so none is counted earlier than another. The answer names the assignment for the next page.
  router.post('/layout/exposures', async (req, res) => {
    const session = await tokens.verify(SessionTokens.bearer(req.get('authorization')));
    const body = LayoutExposuresBodySchema.parse(req.body);
    const { search: queryString } = new URL(body.address, 'http://layout.invalid');
    const query = parseQueryString(queryString.slice(1));
    const context = contextOf(req);
    const request = answers.resolve({
      page: { page: 'home' },
      query,
      siteBrand: context.brand,
      guestId: session.guestId,
      userAgent: req.get('user-agent'),
      url: body.address,
    });
    const { experiment } = request;
    const variation = experiment.variant ?? 'base';
    const forced = Object.keys(flags.forcedVariations(query)).length > 0;
    const drawnForThem = body.assignment !== null && body.assignment === experiment.assignment;
    const recorded = !forced && drawnForThem && variation === body.shown ? experiment.experiments : [];
    const visitor = events && recorded.length > 0 && visitorOf(req.headers, session.guestId, request.brand.id);
    if (visitor) events.exposures(visitor, exposurePlace('/', req.headers, experiment), recorded);
    const answer: LayoutExposuresAnswer = {
      variation,
      experiments: recorded,
      ...(forced ? {} : { assignment: experiment.assignment ?? null }),
    };
    res.set('Cache-Control', 'private, no-store').json(answer);
  });

  // The brand's name, theme and partner address, for the client's header and colours.
  router.get('/brand', (req, res) => {
    const query = z.object({ brand: BrandParamSchema.optional() }).parse(req.query);
    const answer: BrandAnswer = requestedBrand(segments, contextOf(req).brand, query.brand);
    res.set('Vary', 'X-Site-Id').set('Cache-Control', 'public, max-age=300').json(answer);
  });

  // A ZIP code the shopper typed, checked before the pages use it: its market, or a 404 naming it.
  router.get('/location', async (req, res) => {
    const { zip } = z
      .object({
        zip: z
          .string({
            error: (issue) => (issue.input === undefined ? 'zip is required' : 'zip is one 5-digit US ZIP code'),
          })
          .regex(ZIP_PATTERN, 'zip must be a 5-digit US ZIP code'),
      })
      .parse(req.query);
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
