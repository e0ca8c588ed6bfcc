import { guestEvents, MAX_EVENTS_READ } from '../analytics/event-log.js';
import type { Sql } from '../store/sql.js';
import type { ExperimentReadout } from '../experiments/readout.js';
import type { RowResultsReadout } from '../experiments/row-results.js';
import { ResultsQuerySchema } from '../../shared/schemas/experiment-results.js';
import { RowResultsQuerySchema } from '../../shared/schemas/row-results.js';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Router, type RequestHandler, type Response } from 'express';
import { z } from 'zod';
import { fromText } from '../../shared/schemas/zod.js';
import { AppError, noRouteIn } from '../http/errors.js';
import { LocationQuerySchema } from '../layout/location-lookup.js';
import {
  CheckBodySchema,
  DiscardBodySchema,
  EVERY_BRAND,
  FileBodySchema,
  PreviewLinkBodySchema,
  PreviewLinkParamsSchema,
  PublishBodySchema,
  RestoreBodySchema,
  ScheduleBodySchema,
  ScheduleParamsSchema,
  STUDIO_KEY_HEADER,
  ZonedTimeSchema,
  VersionParamsSchema,
} from '../../shared/schemas/studio.js';
import { DRAFT_MAX_BYTES } from './draft-checks.js';
import type { StudioService } from './studio-service.js';
import { sameSecret } from '../http/security.js';
import { originOf, type PublicOrigins } from '../seo/public-origins.js';
import { KEY_ADMIN, LOCAL_ADMIN, requireRole, userActor, type StudioActor, type StudioUsers } from './studio-users.js';
import { jsonBody } from '../http/json-body.js';

export interface StudioAccess {
  /** Whether the studio may be on: outside production always; in production with `STUDIO_KEY` or studio users. */
  production: boolean;
  /** The single admin's key (`STUDIO_KEY`), when set. */
  key?: string;
}

/** Issue 18, RULES 18.4: outside production the studio is open until someone has a key; in production it asks one. */
export function studioAccess(env: { NODE_ENV: string; STUDIO_KEY?: string | undefined }): StudioAccess {
  return { production: env.NODE_ENV === 'production', ...(env.STUDIO_KEY ? { key: env.STUDIO_KEY } : {}) };
}

const slug = z.string().regex(/^[a-z0-9-]{1,64}$/);
const PreviewQuerySchema = LocationQuerySchema.and(
  z.object({
    brand: slug.optional(),
    page: z
      .string({ error: 'page is required: home, a group page or a category slug' })
      .regex(/^[a-z0-9-]{1,64}$/, 'page must be home, a group page or a category slug such as "nfl"'),
    city: z.string().trim().min(2, 'city must name a city, e.g. "Chicago, IL"').max(80).optional(),
    variation: fromText(
      z
        .number({ error: 'variation must be a variation index: 0, 1…' })
        .int('variation must be a variation index: 0, 1…')
        .min(0, 'variation must be a variation index: 0, 1…'),
    ).optional(),
    at: ZonedTimeSchema.optional(),
  }),
);
const BrandQuerySchema = z.object({ brand: slug.optional() });

/** The studio's user of this request, as `authenticate` found them. */
export const actorOf = (res: Response): StudioActor => res.locals.studioActor as StudioActor;

/**
 * RULES 18.4: who is calling. `STUDIO_KEY` is the single admin; a user's own key is that user; outside production,
 * while nobody has a key (no `STUDIO_KEY`, no users), everyone is the local admin. In production with neither,
 * the studio is not there at all (404). Keys are compared in constant time; refused keys are counted per client
 * by the limiter in front.
 */
export function authenticate(access: StudioAccess, users: StudioUsers | null): RequestHandler {
  return async (req, res, next) => {
    const given = req.get(STUDIO_KEY_HEADER);
    const { anyUsers, user } = users ? await users.identify(given) : { anyUsers: false, user: null };
    if (!access.key && !anyUsers) {
      if (access.production) return next(new AppError(404, 'not_found', 'There is no studio on this server'));
      res.locals.studioActor = LOCAL_ADMIN;
      return next();
    }
    if (!given)
      return next(new AppError(401, 'studio_key_required', `The studio asks for a key (${STUDIO_KEY_HEADER})`));
    if (access.key && sameSecret(given, access.key)) {
      res.locals.studioActor = KEY_ADMIN;
      return next();
    }
    if (!user) return next(new AppError(401, 'studio_key_invalid', 'That is not a studio key'));
    res.locals.studioActor = userActor(user);
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

/** The studio's API (`/api/studio`): drafts, preview, experiments, publish, history, rollback, the audit log. */
export function studioRoutes(
  studio: StudioService | undefined,
  access: StudioAccess,
  options: {
    keyFailures: RequestHandler;
    readout?: ExperimentReadout | undefined;
    rows?: RowResultsReadout | undefined;
    sql?: Sql | undefined;
    /** The origins preview links are given on (`PUBLIC_BASE_URL`, `PUBLIC_ORIGINS`): the studio's host when listed. */
    origins: PublicOrigins;
  },
): Router {
  const router = Router();
  router.use(options.keyFailures);
  router.use(authenticate(access, studio?.users ?? null));
  router.use(sameSiteJson);
  router.use(jsonBody({ limit: DRAFT_MAX_BYTES + 4096 }));
  router.use((_req, res, next) => {
    res.set('Cache-Control', 'no-store');
    next();
  });

  if (studio) draftRoutes(router, studio, options.origins);
  if (options.readout && options.rows && options.sql)
    experimentResultsRoutes(router, options.readout, options.sql, options.rows);
  router.use(noRouteIn(router, 'studio'));
  return router;
}

/** Drafts, preview, publish, schedules, history, rollback, preview links and the audit log. */
function draftRoutes(router: Router, studio: StudioService, origins: PublicOrigins): void {
  router.get('/state', async (_req, res) => {
    res.json(await studio.state(actorOf(res)));
  });
  router.put('/files/*file', async (req, res) => {
    const { text } = FileBodySchema.parse(req.body ?? {});
    res.json(await studio.save(actorOf(res), filePath(req.params), text));
  });
  router.delete('/files/*file', async (req, res) => {
    res.json(await studio.remove(actorOf(res), filePath(req.params)));
  });
  router.post('/check', async (req, res) => {
    const { path: file, text } = CheckBodySchema.parse(req.body ?? {});
    res.json(await studio.check(actorOf(res), file, text));
  });
  router.post('/discard', async (req, res) => {
    const { brand } = DiscardBodySchema.parse(req.body ?? {});
    res.json(await studio.discard(actorOf(res), brand));
  });
  router.get('/diff', async (_req, res) => {
    res.json({ diff: await studio.diff(actorOf(res)) });
  });
  router.get('/preview', async (req, res) => {
    res.json(await studio.preview(actorOf(res), PreviewQuerySchema.parse(req.query)));
  });
  router.get('/experiments', async (req, res) => {
    const { brand } = BrandQuerySchema.parse(req.query);
    res.json({ experiments: await studio.experiments(actorOf(res), brand) });
  });
  router.post('/publish', async (req, res) => {
    const input = PublishBodySchema.parse(req.body ?? {});
    res.status(201).json({ version: await studio.publish(actorOf(res), input) });
  });
  router.get('/versions', async (req, res) => {
    const { brand } = BrandQuerySchema.parse(req.query);
    res.json(await studio.versions(actorOf(res), brand));
  });
  router.get('/versions/:n', async (req, res) => {
    res.json(await studio.version(actorOf(res), VersionParamsSchema.parse(req.params).n));
  });
  router.post('/versions/:n/restore', async (req, res) => {
    const { n } = VersionParamsSchema.parse(req.params);
    res.status(201).json({ version: await studio.restore(actorOf(res), n, RestoreBodySchema.parse(req.body ?? {})) });
  });
  router.get('/schedules', async (req, res) => {
    const { brand } = BrandQuerySchema.parse(req.query);
    res.json({ schedules: await studio.schedules(actorOf(res), brand) });
  });
  router.post('/schedules', async (req, res) => {
    const input = ScheduleBodySchema.parse(req.body ?? {});
    res.status(201).json({ schedule: await studio.scheduleDrafts(actorOf(res), input) });
  });
  router.delete('/schedules/:id', async (req, res) => {
    const { id } = ScheduleParamsSchema.parse(req.params);
    res.json({ schedule: await studio.unschedule(actorOf(res), id) });
  });
  // RULES 18.3: preview links, made and revoked by editors of their brand, listed for those who see it.
  router.post('/preview-links', async (req, res) => {
    const input = PreviewLinkBodySchema.parse(req.body ?? {});
    const { place, variation, at, ...rest } = input;
    const link = { ...rest, place: place ?? null, variation: variation ?? null, at: at ?? null };
    res.status(201).json(await studio.makeLink(actorOf(res), link, originOf(req, origins)));
  });
  router.get('/preview-links', async (req, res) => {
    const { brand } = BrandQuerySchema.parse(req.query);
    res.json({ links: await studio.previewLinks(actorOf(res), originOf(req, origins), brand) });
  });
  router.delete('/preview-links/:id', async (req, res) => {
    const { id } = PreviewLinkParamsSchema.parse(req.params);
    res.json({ link: await studio.revokeLink(actorOf(res), id) });
  });
  router.get('/audit', async (req, res) => {
    const { brand } = BrandQuerySchema.parse(req.query);
    res.json({ entries: await studio.auditLog(actorOf(res), brand) });
  });
}

/**
 * RULES 17: an experiment's results (`/api/studio/experiments/:key/results`), as `npm run experiments -- results`
 * prints them, for any studio user, and RULES 18.1: a page's row results (`/api/studio/rows`), for the brand's
 * viewers. Read from the event store, with or without the studio's drafts.
 */
function experimentResultsRoutes(router: Router, readout: ExperimentReadout, sql: Sql, rows: RowResultsReadout): void {
  // RULES 16.8: what the store keeps of one guest, newest first: a guest's data, for admins only.
  router.get('/events', async (req, res) => {
    requireRole(actorOf(res), 'admin', EVERY_BRAND);
    const { guest, limit } = z
      .object({
        guest: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/, 'guest must be a guest id'),
        limit: fromText(
          z
            .number({ error: 'limit must be a number' })
            .int('limit must be a whole number')
            .min(1, 'limit starts at 1')
            .max(MAX_EVENTS_READ, `limit must be at most ${MAX_EVENTS_READ}`),
        ).optional(),
      })
      .parse(req.query);
    res.json({ events: await guestEvents(sql, guest, limit) });
  });
  router.get('/experiments/results', (_req, res) => {
    res.json(readout.list());
  });
  router.get('/experiments/:key/results', async (req, res) => {
    const { key } = z
      .object({ key: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/, 'not an experiment key') })
      .parse(req.params);
    const { since } = ResultsQuerySchema.parse(req.query);
    res.json(await readout.results(key, since === undefined ? undefined : new Date(since)));
  });
  // RULES 18.1: a brand's page's row results.
  router.get('/rows', async (req, res) => {
    const query = RowResultsQuerySchema.parse(req.query);
    requireRole(actorOf(res), 'viewer', query.brand);
    res.json(await rows.results(query));
  });
}

/**
 * RULES 18.3: every answer about a preview link (its page, its preview, and the 404 of a link that is not one) is
 * the holder's alone and kept by nobody, and no search engine lists it.
 */
const linkAnswerHeaders: RequestHandler = (_req, res, next) => {
  res.set({ 'Cache-Control': 'private, no-store', 'X-Robots-Tag': 'noindex' });
  next();
};

/**
 * RULES 18.3: `GET /api/preview/:token`, the preview a link shows, for anyone holding it (no studio key). Read
 * only: the one route there is draws a page. `failures` counts the 404s of tokens that open nothing, per client.
 */
export function previewLinkApi(studio: StudioService, failures: RequestHandler): Router {
  const router = Router();
  router.use(linkAnswerHeaders, failures);
  router.get('/:token', async (req, res) => {
    res.json(await studio.sharedPreview(req.params.token));
  });
  router.use(noPreviewRoute);
  return router;
}

/**
 * The 404 of any other address under `/api/preview`, and of all of them without a studio: never naming the address,
 * which may hold a link's token (RULES 18.3), in the answer or the log line it makes.
 */
export const noPreviewRoute: RequestHandler = (req, _res, next) =>
  next(
    new AppError(
      404,
      'not_found',
      `No API route for ${req.method} /api/preview/…: a preview link is read with GET /api/preview/<token>`,
    ),
  );

/**
 * RULES 18.3: a preview link's page (`/preview/<token>`), which draws the link's preview with the storefront's
 * rows; a token that opens nothing gets a page saying so, with a 404. The address carries the token, so the page
 * sends no referrer.
 */
export function previewLinkPage(file: string, studio: StudioService, failures: RequestHandler): RequestHandler[] {
  const html = readFileSync(file, 'utf8');
  const page: RequestHandler = async (req, res) => {
    const rest = (req.params as { rest?: string[] }).rest ?? [];
    const open = rest.length === 1 && (await studio.opensLink(rest[0]!));
    res.set('Referrer-Policy', 'no-referrer').type('html');
    if (open) res.send(html);
    else res.status(404).send(NO_SUCH_LINK);
  };
  return [linkAnswerHeaders, failures, page];
}

const NO_SUCH_LINK = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="robots" content="noindex" />
    <title>Preview link not valid</title>
  </head>
  <body>
    <main>
      <h1>This preview link is not valid</h1>
      <p>It may have expired or been revoked. Ask whoever sent it for a new one.</p>
    </main>
  </body>
</html>
`;

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
      .set('Cache-Control', 'private, no-store')
      .type('html')
      .send(html.replace('<meta name="csp-nonce" content="" />', `<meta name="csp-nonce" content="${nonce}" />`));
  };
}
