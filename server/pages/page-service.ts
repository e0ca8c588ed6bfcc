import { Writable } from 'node:stream';
import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import { parsePlace, type ChosenPlace } from '../../shared/rules/location.js';
import { readPageCookies, type PageCookies, type PageQuery } from '../../shared/schemas/page-render.js';
import type { RecentActivity } from '../activity/recent-activity.js';
import { visitorOf, type EventCollector } from '../analytics/event-collector.js';
import { AppError } from '../http/errors.js';
import type { FastLane } from '../http/fast-lane.js';
import { replayableHtml, sendReplayable } from '../http/replayable.js';
import type { FlagService } from '../flags/flag-service.js';
import { siteBrand } from '../layout/request-context.js';
import type { SegmentRepository } from '../segments/segment-repository.js';
import type { SessionTokens } from '../sessions/session-tokens.js';
import { originOf } from '../seo/routes.js';
import { KeptPages, urlParts, type KeptPage } from './kept-pages.js';
import type { PageAnswer, PageAnswers, PageRequestContext } from './page-answers.js';
import type { PageDocument } from './page-document.js';
import type { PagePlan, PageRenderer } from './page-renderer.js';
import type { PageVerdict } from './page-status.js';

const PAGE_HEADERS = { cacheControl: 'no-cache', vary: ['Cookie'] } as const;

export interface PageServiceDeps {
  renderer: PageRenderer;
  document: PageDocument;
  answers: PageAnswers;
  segments: SegmentRepository;
  tokens: SessionTokens;
  activity: RecentActivity;
  logger: Logger;
  /** The API's lane: its `forget` is the one invalidation of kept answers, pages included. */
  fastLane: FastLane;
  /** The pages' own lane, in front of Express: a kept page goes out from it as a kept layout answer does. */
  pageLane?: FastLane;
  flags: FlagService;
  /** Where the experiments a page puts its guest in are recorded (RULES 16.1). */
  events?: EventCollector;
  publicBaseUrl: string | undefined;
}

/** One page request, its inputs read once: the cookies, the shopper's place, the origin and who it is for. */
interface PageVisit {
  req: Request;
  res: Response;
  cookies: PageCookies;
  place: ChosenPlace;
  origin: string;
  context: PageRequestContext;
}

/** The page's CSP: the app's, with the page's inline stylesheet allowed by its hash. */
function withStyleSources(csp: string, sources: readonly string[]): string {
  return csp.replace(/style-src ([^;]*)/, `style-src $1 ${sources.join(' ')}`);
}

/** The markup a render streams, whole: the bytes React wrote, decoded once (a chunk may end inside a character). */
function markupOf(rendered: { pipe(destination: NodeJS.WritableStream): void }): Promise<string> {
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    rendered.pipe(
      new Writable({
        write(chunk: Buffer | string, _encoding, done) {
          chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
          done();
        },
        final(done) {
          resolve(Buffer.concat(chunks).toString('utf8'));
          done();
        },
        destroy(err, done) {
          if (err) reject(err);
          done(err);
        },
      }),
    );
  });
}

const notFoundPlan = (plan: PagePlan): PagePlan => ({ kind: 'not-found', shell: plan.shell, own: [] });

/**
 * Server-rendered pages (RULES 2.7: landing pages): the page's status, the API answers it draws with (its typed
 * calls, answered by `PageAnswers`), the markup streamed by the client's own components, and the answers embedded
 * for the client to hydrate from. A rendered page is kept and replayed like a layout answer (`KeptPages`).
 */
export class PageService {
  private readonly kept: KeptPages;

  constructor(private readonly deps: PageServiceDeps) {
    this.kept = new KeptPages(deps);
  }

  /**
   * Answers a page request: a rendered page, said with true, or (for a redirect, and pages the server does not
   * render: tickets, checkout, orders) false, for the caller to send the app shell.
   */
  async answer(req: Request, res: Response, verdict: PageVerdict): Promise<boolean> {
    const { renderer, segments } = this.deps;
    // Appended, never resolved: `//host/x` stays a path on this site.
    const url = new URL(`http://page.invalid${req.originalUrl}`);
    const cookies = readPageCookies(req.get('cookie') ?? '');
    const place = parsePlace(cookies.place);
    const planned = renderer.pagePlan(url, place);
    if (!planned || verdict.status === 301) return false;
    const status = verdict.status;
    const forgetsBefore = this.kept.forgets;
    const plan: PagePlan = status === 404 ? notFoundPlan(planned) : planned;
    const origin = new URL(originOf(req, this.deps.publicBaseUrl)).origin;
    const context: PageRequestContext = {
      brand: siteBrand(segments, renderer.SITE_ID),
      guestId: await this.guestOf(cookies.guestToken),
      userAgent: req.get('user-agent'),
    };
    const visit: PageVisit = { req, res, cookies, place, origin, context };

    // The layout is read first: its answer (kept by the layout API) names the variation this guest sees, and so
    // which rendered page is theirs.
    const layoutQuery = plan.own[0]?.call.call === 'layout' ? plan.own[0] : undefined;
    let layout: PageAnswer | undefined;
    if (layoutQuery) {
      try {
        layout = await this.deps.answers.answer(layoutQuery.call, context);
      } catch (err) {
        if (err instanceof AppError && err.status === 404) return this.render(visit, notFoundPlan(plan), 404);
        // An address the layout refuses (a variation that does not exist) is the client's 4xx to explain, with
        // that status; a layout that failed is left for the client to ask for. Neither page is kept.
        if (err instanceof AppError && err.status < 500) return this.render(visit, { ...plan, own: [] }, err.status);
        this.deps.logger.warn({ err, call: layoutQuery.call }, 'a page answer failed: the client will ask for it');
        return this.render(visit, { ...plan, own: [] }, status);
      }
    }
    // The same address, status, origin, segment set, calls (the shopper's place among them) and layout answer
    // (its variation among them) make the same page.
    const key = JSON.stringify([
      req.originalUrl,
      status,
      origin,
      segments.current.loadedAt,
      [...plan.shell, ...plan.own].map((q) => q.call),
      layout?.version ?? null,
    ]);
    const kept = this.kept.get(key);
    if (kept) {
      this.record(context.guestId, kept.activity);
      this.recordExposures(visit, kept.exposures);
      this.send(req, res, kept);
      this.toLane(visit, kept, key);
      return true;
    }
    const known = new Map<PageQuery, PageAnswer>();
    if (layout && layoutQuery) known.set(layoutQuery, layout);
    return this.render(visit, plan, status, { known, key, forgetsBefore });
  }

  private async guestOf(token: string | undefined): Promise<string | undefined> {
    if (!token) return undefined;
    try {
      return (await this.deps.tokens.verify(token)).guestId;
    } catch {
      return undefined;
    }
  }

  private record(guestId: string | undefined, item: PageAnswer['activity']): void {
    if (!guestId || !item) return;
    // Best effort, as on the API: a store hiccup must not cost the shopper the page.
    this.deps.activity
      .record(guestId, item)
      .catch((err: unknown) => this.deps.logger.warn({ err }, 'could not record recent activity'));
  }

  /** RULES 16.1: the experiments this page put its guest in, as the layout API records them. */
  private recordExposures({ req, context }: PageVisit, exposures: PageAnswer['exposures']): void {
    const { events, segments } = this.deps;
    if (!events || !exposures) return;
    const visitor = visitorOf(req.headers, context.guestId, context.brand.id);
    if (!visitor) return;
    events.exposures(
      visitor,
      { page: req.path, pageView: undefined, variation: exposures.variation, segmentVersion: segments.version },
      exposures.experiments,
    );
  }

  private send(req: Request, res: Response, page: KeptPage): void {
    res.status(page.status);
    if (page.status === 410) res.set('X-Robots-Tag', 'noindex');
    sendReplayable(req, res, page.answer);
  }

  private toLane({ req, cookies }: PageVisit, page: KeptPage, key: string): void {
    this.kept.toLane(page, key, () => this.kept.laneKeyOf(urlParts(req.originalUrl), req.headers, cookies));
  }

  /** Every answer the page draws with, read at once (those in `known` already read). */
  private async readAll(visit: PageVisit, plan: PagePlan, known: ReadonlyMap<PageQuery, PageAnswer>) {
    // One the API would refuse (an unknown event) makes the page the not-found page; one that failed (the engine
    // down) is left for the client to ask for, and the page is not kept.
    let complete = true;
    let notFound = false;
    const read = await Promise.all(
      [...plan.shell, ...plan.own].map(async (query) => {
        const found = known.get(query);
        if (found) return found;
        try {
          return await this.deps.answers.answer(query.call, visit.context);
        } catch (err) {
          if (err instanceof AppError && err.status < 500) {
            if (plan.own.includes(query)) notFound = true;
          } else {
            this.deps.logger.warn({ err, call: query.call }, 'a page answer failed: the client will ask for it');
          }
          complete = false;
          return undefined;
        }
      }),
    );
    return { read, complete, notFound };
  }

  private async render(
    visit: PageVisit,
    plan: PagePlan,
    status: number,
    keeping: { known: ReadonlyMap<PageQuery, PageAnswer>; key: string; forgetsBefore: number } | undefined = undefined,
  ): Promise<boolean> {
    const { renderer, document } = this.deps;
    const { req, res, origin, context } = visit;
    const { read, complete, notFound } = await this.readAll(visit, plan, keeping?.known ?? new Map());
    if (notFound && plan.kind !== 'not-found') return this.render(visit, notFoundPlan(plan), 404);

    const queries = [...plan.shell, ...plan.own];
    const answers = queries.flatMap((query, i) => (read[i] ? [{ queryKey: query.queryKey, data: read[i].data }] : []));
    // The page goes out whole, compressed once (`sendReplayable`), and a kept page keeps that encoding for its
    // replays. The markup is ready when the render resolves (`onAllReady`): written as it streamed, the head left
    // a millisecond or two before the rest, and compressing a response stream (an encoder with its own window per
    // response, fed a chunk at a time) cost more CPU than the render under a crowd (bench/render-cost.ts).
    let rendered;
    let markup: string;
    try {
      rendered = await renderer.renderPage({
        url: req.originalUrl,
        plan,
        answers,
        page: { origin, status },
        place: visit.place,
      });
      markup = await markupOf(rendered);
    } catch (err) {
      this.deps.logger.error({ err, url: req.originalUrl }, 'server render failed: the app shell goes instead');
      return false;
    }
    const parts = document.parts(rendered.head, context.brand, plan.module, {
      id: renderer.PAGE_DATA_ID,
      json: rendered.data,
    });
    const activity = read.find((a) => a?.activity)?.activity;
    this.record(context.guestId, activity);
    const exposures = read.find((a) => a?.exposures)?.exposures;
    this.recordExposures(visit, exposures);

    res.status(status);
    if (status === 410) res.set('X-Robots-Tag', 'noindex');
    const csp = withStyleSources(String(res.getHeader('Content-Security-Policy') ?? ''), parts.styleSources);
    res.set('Content-Security-Policy', csp);
    res.set('Cache-Control', PAGE_HEADERS.cacheControl).vary('Cookie').type('html');
    const answer = replayableHtml(parts.start + markup + parts.end, {
      ...PAGE_HEADERS,
      own: { 'Content-Security-Policy': csp },
    });

    // Not kept when a change dropped anything while it was drawn: it may show what the change replaced.
    if (keeping && complete && this.kept.forgets === keeping.forgetsBefore) {
      const ttl = Math.min(...read.map((a) => a?.ttlMs ?? 0));
      if (ttl > 0) {
        const page = { answer, status, activity, exposures };
        this.kept.keep(
          keeping.key,
          page,
          ttl,
          read.flatMap((a) => a?.tags ?? []),
        );
        this.toLane(visit, page, keeping.key);
      }
    }
    sendReplayable(req, res, answer);
    return true;
  }
}
