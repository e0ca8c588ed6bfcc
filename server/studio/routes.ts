import { guestEvents, MAX_EVENTS_READ } from '../analytics/event-log.js';
import type { Sql } from '../store/sql.js';
import type { ExperimentReadout } from '../experiments/readout.js';
import type { RowResultsReadout } from '../experiments/row-results.js';
import { ResultsQuerySchema } from '../../shared/schemas/experiment-results.js';
import { RowResultsQuerySchema } from '../../shared/schemas/row-results.js';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import express, { Router, type RequestHandler } from 'express';
import { z } from 'zod';
import { AppError } from '../http/errors.js';
import { LocationQuerySchema } from '../layout/location-lookup.js';
import {
  CheckBodySchema,
  FileBodySchema,
  PublishBodySchema,
  RestoreBodySchema,
  STUDIO_KEY_HEADER,
  VersionParamsSchema,
} from '../../shared/schemas/studio.js';
import { DRAFT_MAX_BYTES } from './draft-checks.js';
import type { StudioService } from './studio-service.js';

export interface StudioAccess {
  /** Whether the studio exists on this server at all. */
  enabled: boolean;
  /** The key every studio API call must present; none outside production without `STUDIO_KEY`. */
  key?: string;
}

/** Issue 18: on by default outside production; in production only with `STUDIO_KEY` set (and presented). */
export function studioAccess(env: { NODE_ENV: string; STUDIO_KEY?: string | undefined }): StudioAccess {
  if (env.STUDIO_KEY) return { enabled: true, key: env.STUDIO_KEY };
  return { enabled: env.NODE_ENV !== 'production' };
}

const slug = z.string().regex(/^[a-z0-9-]{1,64}$/);
const PreviewQuerySchema = LocationQuerySchema.and(
  z.object({
    brand: slug.optional(),
    page: z
      .string({ error: 'page is required: home, a group page or a category slug' })
      .regex(/^[a-z0-9-]{1,64}$/, 'page must be home, a group page or a category slug such as "nfl"'),
    city: z.string().trim().min(2, 'city must name a city, e.g. "Chicago, IL"').max(80).optional(),
    variation: z.coerce
      .number({ error: 'variation must be a variation index: 0, 1…' })
      .int('variation must be a variation index: 0, 1…')
      .min(0, 'variation must be a variation index: 0, 1…')
      .optional(),
  }),
);
const sameKey = (given: string, key: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(key);
  return a.length === b.length && timingSafeEqual(a, b);
};

/** Refuses studio calls without the key when there is one. */
function requireKey(key: string | undefined): RequestHandler {
  return (req, _res, next) => {
    if (!key) return next();
    const given = req.get(STUDIO_KEY_HEADER);
    if (!given)
      return next(new AppError(401, 'studio_key_required', `The studio asks for its key (${STUDIO_KEY_HEADER})`));
    if (!sameKey(given, key)) return next(new AppError(401, 'studio_key_invalid', 'That is not the studio key'));
    next();
  };
}

/**
 * A change to the drafts or to what is live comes from the studio's own page only: as JSON (a form or a
 * `text/plain` post from another site cannot be), and not from another site where the browser says so. With no
 * key (outside production), this is all that keeps a page on another site from publishing or rolling back.
 */
const sameSiteJson: RequestHandler = (req, _res, next) => {
  if (req.method === 'GET' || req.method === 'HEAD') return next();
  const site = req.get('Sec-Fetch-Site');
  if (site && site !== 'same-origin' && site !== 'none')
    return next(new AppError(403, 'cross_site_refused', 'The studio takes changes from its own page only'));
  // A DELETE cannot come from a form, and another site's script needs the CORS preflight the studio never passes.
  if (req.method !== 'DELETE' && !req.is('application/json'))
    return next(new AppError(415, 'json_required', 'Send studio changes as JSON (Content-Type: application/json)'));
  next();
};

const filePath = (params: Record<string, unknown>) =>
  Array.isArray(params.file) ? params.file.join('/') : String(params.file ?? '');

/** The studio's API (`/api/studio`): drafts, preview, experiments, publish, history, rollback. */
export function studioRoutes(studio: StudioService, access: StudioAccess): Router {
  const router = Router();
  router.use(requireKey(access.key));
  router.use(sameSiteJson);
  router.use(express.json({ limit: DRAFT_MAX_BYTES + 4096 }));
  router.use((_req, res, next) => {
    res.set('Cache-Control', 'no-store');
    next();
  });

  router.get('/state', async (_req, res) => {
    res.json(await studio.state());
  });
  router.put('/files/*file', async (req, res) => {
    const { text } = FileBodySchema.parse(req.body ?? {});
    res.json(await studio.save(filePath(req.params), text));
  });
  router.delete('/files/*file', async (req, res) => {
    res.json(await studio.remove(filePath(req.params)));
  });
  router.post('/check', async (req, res) => {
    const { path: file, text } = CheckBodySchema.parse(req.body ?? {});
    res.json(await studio.check(file, text));
  });
  router.post('/discard', async (_req, res) => {
    res.json(await studio.discard());
  });
  router.get('/diff', async (_req, res) => {
    res.json({ diff: await studio.diff() });
  });
  router.get('/preview', async (req, res) => {
    res.json(await studio.preview(PreviewQuerySchema.parse(req.query)));
  });
  router.get('/experiments', async (req, res) => {
    const { brand } = z.object({ brand: slug.optional() }).parse(req.query);
    res.json({ experiments: await studio.experiments(brand) });
  });
  router.post('/publish', async (req, res) => {
    const input = PublishBodySchema.parse(req.body ?? {});
    res.status(201).json({ version: await studio.publish(input) });
  });
  router.get('/versions', async (_req, res) => {
    res.json(await studio.versions());
  });
  router.get('/versions/:n', async (req, res) => {
    res.json(await studio.version(VersionParamsSchema.parse(req.params).n));
  });
  router.post('/versions/:n/restore', async (req, res) => {
    const { n } = VersionParamsSchema.parse(req.params);
    res.status(201).json({ version: await studio.restore(n, RestoreBodySchema.parse(req.body ?? {})) });
  });
  router.use((req, _res, next) => next(new AppError(404, 'not_found', `No studio endpoint ${req.method} ${req.path}`)));
  return router;
}

/**
 * RULES 17: an experiment's results (`/api/studio/experiments/:key/results`), as `npm run experiments -- results`
 * prints them, and RULES 18: a page's row results (`/api/studio/rows`), behind the studio's key. Read from the
 * event store, with or without the studio's drafts.
 */
export function experimentResultsRoutes(
  readout: ExperimentReadout,
  access: StudioAccess,
  sql: Sql,
  rows: RowResultsReadout,
): Router {
  const router = Router();
  // RULES 16.8: what the store keeps of one guest, newest first.
  router.get('/events', requireKey(access.key), async (req, res) => {
    const { guest, limit } = z
      .object({
        guest: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/, 'guest must be a guest id'),
        limit: z.coerce.number().int().min(1).max(MAX_EVENTS_READ).optional(),
      })
      .parse(req.query);
    res.set('Cache-Control', 'no-store').json({ events: await guestEvents(sql, guest, limit) });
  });
  router.get('/experiments/results', requireKey(access.key), (_req, res) => {
    res.set('Cache-Control', 'no-store').json(readout.list());
  });
  router.get('/experiments/:key/results', requireKey(access.key), async (req, res) => {
    const { key } = z
      .object({ key: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/, 'not an experiment key') })
      .parse(req.params);
    const { since } = ResultsQuerySchema.parse(req.query);
    res
      .set('Cache-Control', 'no-store')
      .json(await readout.results(key, since === undefined ? undefined : new Date(since)));
  });
  // RULES 18.1: a brand's page's row results; the brand is in the query so that access can be checked per brand.
  router.get('/rows', requireKey(access.key), async (req, res) => {
    res.set('Cache-Control', 'no-store').json(await rows.results(RowResultsQuerySchema.parse(req.query)));
  });
  return router;
}

/**
 * The studio's page. Its editor (CodeMirror) writes its styles into `<style>` elements, which the site's
 * `style-src 'self'` forbids; each answer carries a fresh nonce, allowed for styles on this page only and
 * handed to the editor in a meta tag. Scripts stay `'self'` only.
 */
export function studioPage(file: string): RequestHandler {
  const html = readFileSync(file, 'utf8');
  return (_req, res) => {
    const nonce = randomBytes(16).toString('base64');
    const csp = String(res.getHeader('Content-Security-Policy') ?? '');
    if (csp)
      res.setHeader('Content-Security-Policy', csp.replace(/style-src ([^;]*)/, `style-src $1 'nonce-${nonce}'`));
    res
      .set('Cache-Control', 'no-store')
      .type('html')
      .send(html.replace('<meta name="csp-nonce" content="" />', `<meta name="csp-nonce" content="${nonce}" />`));
  };
}
