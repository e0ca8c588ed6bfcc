import { Writable } from 'node:stream';
import type { Request, Response } from 'express';
import { LRUCache } from 'lru-cache';
import type { Logger } from 'pino';
import type { RecentActivity } from '../activity/recent-activity.js';
import { TagIndex } from '../cache/tag-index.js';
import { AppError } from '../http/errors.js';
import { resolveBrand } from '../layout/layout-answers.js';
import { replayableHtml, sendReplayable, type FastLane, type ReplayableAnswer } from '../http/fast-lane.js';
import type { SearchService } from '../search/search-service.js';
import type { SegmentRepository } from '../segments/segment-repository.js';
import type { SessionTokens } from '../sessions/session-tokens.js';
import { originOf } from '../seo/routes.js';
import type { PageAnswer, PageAnswers } from './page-answers.js';
import type { PageDocument } from './page-document.js';
import type { PagePlan, PageRenderer } from './page-renderer.js';
import { PAGE_COOKIES, readCookie } from '../../shared/schemas/page-render.js';
import { deviceTypeFromUserAgent, type FlagService } from '../flags/flag-service.js';
import type { IncomingMessage } from 'node:http';
import type { URLParts } from '../http/fast-lane.js';
import type { PageVerdict } from './page-status.js';

/** Bound on the rendered pages kept (their compressed copies included). */
const PAGE_CACHE_BYTES = 64 * 1024 * 1024;
const PAGE_HEADERS = { cacheControl: 'no-cache', vary: ['Cookie'] } as const;
/** The longest a page is replayed from the lane without being looked at again. */
const MAX_LANE_TTL_MS = 60 * 60_000;

interface KeptPage {
  answer: ReplayableAnswer;
  status: number;
  activity?: PageAnswer['activity'];
}

export interface PageServiceDeps {
  renderer: PageRenderer;
  document: PageDocument;
  answers: PageAnswers;
  search: SearchService;
  segments: SegmentRepository;
  tokens: SessionTokens;
  activity: RecentActivity;
  logger: Logger;
  /** The API's lane: its `forget` is the one invalidation of kept answers, pages included. */
  fastLane: FastLane;
  /** The pages' own lane, in front of Express: a kept page goes out from it as a kept layout answer does. */
  pageLane?: FastLane;
  flags: FlagService;
  publicBaseUrl: string | undefined;
}

/** The page's CSP: the app's, with the page's inline stylesheet allowed by its hash. */
function withStyleSources(csp: string, sources: readonly string[]): string {
  return csp.replace(/style-src ([^;]*)/, `style-src $1 ${sources.join(' ')}`);
}

/**
 * Server-rendered pages (spec §2's landing pages): the page's status, the API answers it draws with (through
 * `PageAnswers`), the markup streamed by the client's own components, and the answers embedded for the client to
 * hydrate from. A rendered page is kept and replayed like a layout answer: keyed by the same inputs, tagged with
 * the rows and collections it was drawn from, dropped by the same changes (the fast lane's `forget`).
 */
export class PageService {
  private readonly kept: LRUCache<string, KeptPage>;
  private readonly tags = new TagIndex();
  /** How many tags have been forgotten: a page drawn while this moved may hold what a change made stale. */
  private forgets = 0;

  constructor(private readonly deps: PageServiceDeps) {
    this.kept = new LRUCache<string, KeptPage>({
      maxSize: PAGE_CACHE_BYTES,
      sizeCalculation: (page) => Buffer.byteLength(page.answer.body) * 2 + 512,
      dispose: (_page, key, reason) => {
        if (reason !== 'set') this.tags.untag(key);
      },
    });
    deps.fastLane.onForget((tag) => {
      this.forgets++;
      for (const key of this.tags.take(tag)) this.kept.delete(key);
      deps.pageLane?.forget(tag);
    });
    deps.pageLane?.route('/', (req, parts) => this.laneKey(req, parts));
  }

  private payloadSeen: unknown = null;
  private payloadNumber = 0;

  /** A number for the flag payload in use (a new payload is a new object): it may assign guests differently. */
  private payloadId(): number {
    const payload = this.deps.flags.payload();
    if (payload !== this.payloadSeen) {
      this.payloadSeen = payload;
      this.payloadNumber++;
    }
    return this.payloadNumber;
  }

  /**
   * The key a kept page is replayed under from the page lane, read straight off the request: the address, the
   * origin's inputs, the shopper's place, and for the home page (the experiment's) the guest whose token was
   * verified before and their device type, with the flag payload and segment set in use. Undefined when it cannot
   * tell at once (a guest token not verified yet): the app answers, and verifies it.
   */
  laneKey(req: IncomingMessage, { pathname, search }: URLParts): string | undefined {
    if (pathname.startsWith('/api/') || pathname.includes('.')) return undefined;
    const cookies = req.headers.cookie ?? '';
    let guest = '';
    let device = '';
    if (pathname === '/') {
      const token = readCookie(cookies, PAGE_COOKIES.guestToken);
      if (token) {
        const session = this.deps.tokens.peek(token);
        if (!session) return undefined;
        guest = session.guestId;
      }
      device = deviceTypeFromUserAgent(req.headers['user-agent']);
    }
    const origin = this.deps.publicBaseUrl
      ? ''
      : [req.headers.host, req.headers['x-forwarded-host'], req.headers['x-forwarded-proto']].join('|');
    return JSON.stringify([
      pathname,
      search,
      origin,
      readCookie(cookies, PAGE_COOKIES.location) ?? '',
      guest,
      device,
      this.payloadId(),
      this.deps.segments.current.loadedAt,
    ]);
  }

  /** Hands a kept page to the page lane, when it is the same for whoever sends the same key. */
  private toLane(req: Request, page: KeptPage, key: string): void {
    const { pageLane } = this.deps;
    // Only plain 200 pages: a status or a recent-activity record is the app's to send and write.
    if (!pageLane || page.status !== 200 || page.activity) return;
    const q = req.originalUrl.indexOf('?');
    const laneKey = this.laneKey(
      req,
      q < 0
        ? { pathname: req.originalUrl, search: '' }
        : { pathname: req.originalUrl.slice(0, q), search: req.originalUrl.slice(q + 1) },
    );
    const ttl = this.kept.getRemainingTTL(key);
    if (laneKey !== undefined && ttl > 0)
      pageLane.remember(laneKey, page.answer, Math.min(ttl, MAX_LANE_TTL_MS), this.tags.tagsOf(key));
  }

  /**
   * Answers a page request: a redirect for a renamed entity, a rendered page, or (for pages the server does not
   * render: tickets, checkout, orders) `undefined`, for the caller to send the app shell.
   */
  async answer(req: Request, res: Response, verdict: PageVerdict): Promise<boolean> {
    const { renderer, segments } = this.deps;
    // Appended, never resolved: `//host/x` stays a path on this site.
    const url = new URL(`http://page.invalid${req.originalUrl}`);
    const cookies = req.get('cookie') ?? '';
    const planned = renderer.pagePlan(url, cookies);
    if (!planned || verdict.status === 301) return false;
    const status = verdict.status;
    const forgetsBefore = this.forgets;
    const plan: PagePlan = status === 404 ? { kind: 'not-found', shell: planned.shell, own: [] } : planned;
    const origin = new URL(originOf(req, this.deps.publicBaseUrl)).origin;
    const guestId = await this.guestOf(cookies);
    const context = { siteHeader: renderer.SITE_ID, guestId, userAgent: req.get('user-agent') };

    // The layout is read first: its answer (kept by the layout API) names the variation this guest sees, and so
    // which rendered page is theirs.
    const layoutQuery = plan.kind === 'home' || plan.kind === 'category' ? plan.own[0] : undefined;
    let layout: PageAnswer | undefined;
    if (layoutQuery) {
      try {
        layout = await this.deps.answers.read(layoutQuery.path, context);
      } catch (err) {
        if (err instanceof AppError && err.status === 404)
          return this.render(
            req,
            res,
            { kind: 'not-found', shell: plan.shell, own: [] },
            404,
            origin,
            context,
            new Map(),
          );
        // An address the layout refuses (a variation that does not exist) is the client's 4xx to explain, with
        // that status; a layout that failed is left for the client to ask for. Neither page is kept.
        if (err instanceof AppError && err.status < 500)
          return this.render(req, res, { ...plan, own: [] }, err.status, origin, context, new Map());
        this.deps.logger.warn({ err, path: layoutQuery.path }, 'a page answer failed: the client will ask for it');
        return this.render(req, res, { ...plan, own: [] }, status, origin, context, new Map());
      }
    }
    // The same address, status, origin, segment set, API addresses (the shopper's place among them) and layout
    // answer (its variation among them) make the same page.
    const key = JSON.stringify([
      req.originalUrl,
      status,
      origin,
      segments.current.loadedAt,
      [...plan.shell, ...plan.own].map((q) => q.path),
      layout?.version ?? null,
    ]);
    const kept = this.kept.get(key);
    if (kept) {
      this.record(guestId, kept.activity);
      this.send(req, res, kept);
      this.toLane(req, kept, key);
      return true;
    }
    const known = new Map<string, PageAnswer>();
    if (layout && layoutQuery) known.set(layoutQuery.path, layout);
    return this.render(req, res, plan, status, origin, context, known, key, forgetsBefore);
  }

  private async guestOf(cookies: string): Promise<string | undefined> {
    const token = readCookie(cookies, PAGE_COOKIES.guestToken);
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

  private send(req: Request, res: Response, page: KeptPage): void {
    res.status(page.status);
    if (page.status === 410) res.set('X-Robots-Tag', 'noindex');
    sendReplayable(req, res, page.answer);
  }

  private async render(
    req: Request,
    res: Response,
    plan: PagePlan,
    status: number,
    origin: string,
    context: { siteHeader: string; guestId: string | undefined; userAgent: string | undefined },
    known: Map<string, PageAnswer>,
    key?: string,
    forgetsBefore = this.forgets,
  ): Promise<boolean> {
    const { renderer, document } = this.deps;
    // Every answer the page draws with, read at once. One the API would refuse (an unknown event) makes the page
    // the not-found page; one that failed (the engine down) is left for the client to ask for, and the page is not
    // kept.
    let keep = key !== undefined;
    let notFound = false;
    const queries = [...plan.shell, ...plan.own];
    const read = await Promise.all(
      queries.map(async (query) => {
        const found = known.get(query.path);
        if (found) return found;
        try {
          return await this.deps.answers.read(query.path, context);
        } catch (err) {
          if (err instanceof AppError && err.status < 500) {
            if (plan.own.includes(query)) notFound = true;
          } else {
            this.deps.logger.warn({ err, path: query.path }, 'a page answer failed: the client will ask for it');
          }
          keep = false;
          return undefined;
        }
      }),
    );
    if (notFound && plan.kind !== 'not-found')
      return this.render(req, res, { kind: 'not-found', shell: plan.shell, own: [] }, 404, origin, context, known);

    const answers = queries.flatMap((query, i) => (read[i] ? [{ queryKey: query.queryKey, data: read[i].data }] : []));
    const brand = resolveBrand(this.deps.segments, undefined, renderer.SITE_ID);
    let rendered;
    try {
      rendered = await renderer.renderPage({
        url: req.originalUrl,
        plan,
        answers,
        page: { origin, status },
        cookies: req.get('cookie') ?? '',
      });
    } catch (err) {
      this.deps.logger.error({ err, url: req.originalUrl }, 'server render failed: the app shell goes instead');
      return false;
    }
    const parts = document.parts(rendered.head, brand, plan.module, { id: renderer.PAGE_DATA_ID, json: rendered.data });
    const activity = read.find((a) => a?.activity)?.activity;
    this.record(context.guestId, activity);

    res.status(status);
    if (status === 410) res.set('X-Robots-Tag', 'noindex');
    const csp = withStyleSources(String(res.getHeader('Content-Security-Policy') ?? ''), parts.styleSources);
    res.set('Content-Security-Policy', csp);
    res.set('Cache-Control', PAGE_HEADERS.cacheControl).vary('Cookie').type('html');
    // The head goes first, so the browser fetches the scripts while the markup is written.
    res.write(parts.start);
    (res as Response & { flush?: () => void }).flush?.();
    const chunks: string[] = [parts.start];
    await new Promise<void>((resolve, reject) => {
      rendered.pipe(
        new Writable({
          write(chunk: Buffer | string, _encoding, done) {
            const text = typeof chunk === 'string' ? chunk : chunk.toString('utf8');
            chunks.push(text);
            res.write(text);
            done();
          },
          final(done) {
            resolve();
            done();
          },
          destroy(err, done) {
            if (err) reject(err);
            done(err);
          },
        }),
      );
    });
    chunks.push(parts.end);
    res.end(parts.end);

    // Not kept when a change dropped anything while it was drawn: it may show what the change replaced.
    if (keep && key !== undefined && this.forgets === forgetsBefore) {
      const ttl = Math.min(...read.map((a) => a?.ttlMs ?? 0));
      if (ttl > 0) {
        const answer = replayableHtml(chunks.join(''), { ...PAGE_HEADERS, own: { 'Content-Security-Policy': csp } });
        const page = { answer, status, activity };
        this.kept.set(key, page, { ttl: Number.isFinite(ttl) ? ttl : undefined });
        this.tags.tag(key, [...new Set(read.flatMap((a) => a?.tags ?? []))]);
        this.toLane(req, page, key);
      }
    }
    return true;
  }
}
