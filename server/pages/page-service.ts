import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import { parsePlace, type ChosenPlace } from '../../shared/rules/location.js';
import { addressWithoutTracking } from '../../shared/rules/tracking-params.js';
import {
  pageCookiesRead,
  readPageCookies,
  type KeptFragment,
  type PageCookies,
  type PageQuery,
} from '../../shared/schemas/page-render.js';
import { byteBounded, CACHE_BYTES, roughBytes, type BoundedCache } from '../cache/byte-bounded.js';
import { SURROGATE_KEY_HEADERS, surrogateKeyHeader } from '../cache/surrogate-keys.js';
import { toErrorResponse } from '../http/errors.js';
import { SITE_TAG, type FastLane } from '../http/fast-lane.js';
import { replayableHtml, sendReplayable } from '../http/replayable.js';
import type { FlagService } from '../flags/flag-service.js';
import { siteBrand } from '../layout/request-context.js';
import type { SegmentRepository } from '../segments/segment-repository.js';
import { originOf, type PublicOrigins } from '../seo/public-origins.js';
import { KeptPages, urlParts, type KeptPage } from './kept-pages.js';
import {
  ENTITY_TTL_MS,
  NOT_FOUND_READ,
  type PageAnswer,
  type PageAnswers,
  type PageRequestContext,
} from './page-answers.js';
import { imagePreloadLinks, type PageDocument } from './page-document.js';
import type { PagePlan, PageRenderer } from './page-renderer.js';
import type { PageProblem } from './page-problems.js';
import type { PageVerdict } from './page-status.js';

/**
 * RULES 13.7: how long a shared cache (Varnish, a CDN) may serve a kept page after its lifetime while it fetches
 * it again, at most; a catalog change purges it by its tags at once instead.
 */
const STALE_WHILE_REVALIDATE_SECONDS = 60;
/** A page that is not kept (a part failed, or it cannot be kept): every cache asks again before using it. */
const UNKEPT_CACHE_CONTROL = 'no-cache';

/** The `Cache-Control` of a kept page: public, for shared caches, for as long as the server keeps it. */
export function sharedCacheControl(ttlMs: number): string {
  const seconds = Math.max(1, Math.floor(Math.min(ttlMs, 3_600_000) / 1000));
  const stale = Math.min(seconds, STALE_WHILE_REVALIDATE_SECONDS);
  return `public, max-age=0, s-maxage=${seconds}, stale-while-revalidate=${stale}`;
}

/**
 * RULES 13.7: the headers of a 301 to an entity's current address (2.4). A shared cache keeps it as long as the
 * entity's page, purged by the entity's tags when it changes again; a browser asks again each time (`max-age=0`,
 * and no stale-while-revalidate), so one never keeps a redirect that a later rename (back to the old name, say)
 * would turn into a loop. `no-cache`, without tags, when a change came while it was judged.
 */
export function redirectHeaders(tags: readonly string[], unchanged: boolean): Record<string, string> {
  if (!unchanged) return { 'Cache-Control': UNKEPT_CACHE_CONTROL };
  const keys = surrogateKeyHeader(tags);
  return {
    // No stale-while-revalidate: a browser may take it as leave to reuse the move; a change purges it at once.
    'Cache-Control': `public, max-age=0, s-maxage=${Math.floor(ENTITY_TTL_MS / 1000)}`,
    [SURROGATE_KEY_HEADERS[0]]: keys,
    [SURROGATE_KEY_HEADERS[1]]: keys,
  };
}

export interface PageServiceDeps {
  renderer: PageRenderer;
  document: PageDocument;
  answers: PageAnswers;
  segments: SegmentRepository;
  logger: Logger;
  /** The API's lane: its `forget` is the one invalidation of kept answers, pages included. */
  fastLane: FastLane;
  /** The pages' own lane, in front of Express: a kept page goes out from it as a kept layout answer does. */
  pageLane?: FastLane;
  flags: FlagService;
  /** The origins a page's canonical link and structured data are given on: never a host the client made up. */
  origins: PublicOrigins;
  /**
   * Sends the page of a problem (its title and message, no app, `no-store`, RULES 14.14): a page whose own answer
   * the API refuses.
   */
  problemPage: (res: Response, problem: PageProblem) => void;
}

/** The API's refusal of a page's own answer: its status, and its error's code and message. */
interface Refusal {
  status: number;
  code: string;
  message: string;
}

/**
 * One page request, its inputs read once: the address without its tracking parameters (RULES 2.10), the page
 * cookies, the shopper's place, the origin and the brand. Nothing else of the request reaches the page.
 */
interface PageVisit {
  req: Request;
  res: Response;
  address: string;
  cookies: PageCookies;
  place: ChosenPlace;
  origin: string;
  context: PageRequestContext;
}

/** The page's CSP: the app's, with the page's inline stylesheet allowed by its hash. */
function withStyleSources(csp: string, sources: readonly string[]): string {
  return csp.replace(/style-src ([^;]*)/, `style-src $1 ${sources.join(' ')}`);
}

const notFoundPlan = (plan: PagePlan): PagePlan => ({ kind: 'not-found', shell: plan.shell, own: [] });

/**
 * Server-rendered pages (RULES 2.7: landing pages): the page's status, the API answers it draws with (its typed
 * calls, answered by `PageAnswers`), the markup streamed by the client's own components, and the answers embedded
 * for the client to hydrate from. A rendered page is kept and replayed like a layout answer (`KeptPages`), and
 * said to be the same for everyone who sends its key, for shared caches to keep too (RULES 13.7): it is drawn
 * from its address (tracking parameters dropped, RULES 2.10) and its page cookies alone, never for one guest.
 */
export class PageService {
  private readonly kept: KeptPages;
  /**
   * RULES 13.13: rendered parts of pages (layout rows, the header, the footer), keyed by everything their markup is
   * drawn from, so never stale: a changed row is another key, and the old one ages out.
   */
  private readonly fragments: BoundedCache<string, KeptFragment> = byteBounded<string, KeptFragment>(
    CACHE_BYTES.fragments,
    roughBytes,
  );

  constructor(private readonly deps: PageServiceDeps) {
    this.kept = new KeptPages(deps);
  }

  /**
   * Answers a page request: a rendered page, said with true, or (for a redirect, and pages the server does not
   * render: tickets, checkout, orders) false, for the caller to send the app shell. `since` is the API lane's
   * `forgets` before anything of the page was read (its verdict among them): a change after it keeps the page from
   * every cache.
   */
  async answer(req: Request, res: Response, verdict: PageVerdict, since: number): Promise<boolean> {
    const { renderer, segments } = this.deps;
    const address = addressWithoutTracking(req.originalUrl);
    // Appended, never resolved: `//host/x` stays a path on this site.
    const url = new URL(`http://page.invalid${address}`);
    const cookies = readPageCookies(req.get('cookie') ?? '');
    const place = parsePlace(cookies.place);
    const planned = renderer.pagePlan(url, place);
    if (!planned || verdict.status === 301) return false;
    const status = verdict.status;
    const plan: PagePlan = status === 404 ? notFoundPlan(planned) : planned;
    const origin = new URL(originOf(req, this.deps.origins)).origin;
    const context: PageRequestContext = {
      brand: siteBrand(segments, renderer.SITE_ID),
      assigned: pageCookiesRead(url.pathname).homeLayout ? cookies.homeLayout : undefined,
    };
    const visit: PageVisit = { req, res, address, cookies, place, origin, context };

    // The layout is read first: its answer (kept by the layout API) names the variation this guest sees, and so
    // which rendered page is theirs.
    const layoutQuery = plan.own[0]?.call.call === 'layout' ? plan.own[0] : undefined;
    let layout: PageAnswer | undefined;
    if (layoutQuery) {
      try {
        layout = await this.deps.answers.answer(layoutQuery.call, context);
      } catch (err) {
        const { status: refused, body } = toErrorResponse(err);
        if (refused < 500) return this.refused(visit, plan, { status: refused, ...body.error });
        // A layout that failed is left for the client to ask for, and the page is not kept.
        this.deps.logger.warn({ err, call: layoutQuery.call }, 'a page answer failed: the client will ask for it');
        return this.render(visit, { ...plan, own: [] }, status);
      }
    }
    // The same address, status, origin, segment set, calls (the shopper's place among them) and layout answer
    // (its variation among them) make the same page.
    const key = JSON.stringify([
      address,
      status,
      origin,
      segments.current.loadedAt,
      [...plan.shell, ...plan.own].map((q) => q.call),
      layout?.version ?? null,
    ]);
    const kept = this.kept.get(key);
    if (kept) {
      this.send(req, res, kept);
      this.toLane(visit, kept, key);
      return true;
    }
    const known = new Map<PageQuery, PageAnswer>();
    if (layout && layoutQuery) known.set(layoutQuery, layout);
    return this.render(visit, plan, status, { known, key, since });
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
    // One the API would refuse (an unknown event, a page number past the last) gives the page the API's status; one
    // that failed (the engine down) is left for the client to ask for, and the page is not kept.
    let complete = true;
    let refused: Refusal | undefined;
    const read = await Promise.all(
      [...plan.shell, ...plan.own].map(async (query) => {
        const found = known.get(query);
        if (found) return found;
        try {
          return await this.deps.answers.answer(query.call, visit.context);
        } catch (err) {
          const { status, body } = toErrorResponse(err);
          if (status < 500) {
            if (plan.own.includes(query)) refused ??= { status, ...body.error };
          } else {
            this.deps.logger.warn({ err, call: query.call }, 'a page answer failed: the client will ask for it');
          }
          complete = false;
          return undefined;
        }
      }),
    );
    return { read, complete, refused };
  }

  /**
   * A page whose own answer the API refuses (a 4xx), never kept: nothing there (404) is the not-found page; any other
   * refusal (a page number past the last, a variation that does not exist) is the page of that problem, with the
   * API's status and message (RULES 2.11).
   */
  private async refused(visit: PageVisit, plan: PagePlan, refusal: Refusal): Promise<boolean> {
    if (refusal.status === 404) return this.render(visit, notFoundPlan(plan), 404);
    visit.req.log?.info({ code: refusal.code }, refusal.message);
    this.deps.problemPage(visit.res, {
      status: refusal.status,
      code: refusal.code,
      title: 'This page cannot be shown',
      message: `${refusal.message.replace(/\.$/, '')}. Check the address, or start again from the home page.`,
    });
    return true;
  }

  private async render(
    visit: PageVisit,
    plan: PagePlan,
    status: number,
    keeping: { known: ReadonlyMap<PageQuery, PageAnswer>; key: string; since: number } | undefined = undefined,
  ): Promise<boolean> {
    const { renderer, document } = this.deps;
    const { req, res, address, origin, context } = visit;
    const { read, complete, refused } = await this.readAll(visit, plan, keeping?.known ?? new Map());
    if (refused !== undefined) return this.refused(visit, plan, refused);

    const queries = [...plan.shell, ...plan.own];
    const answers = queries.flatMap((query, i) => (read[i] ? [{ queryKey: query.queryKey, data: read[i].data }] : []));
    // The page goes out whole, compressed once (`sendReplayable`), and a kept page keeps that encoding for its
    // replays. The markup is whole when the render resolves (`renderPage`): written as React drew it, the head would
    // leave a millisecond or two before the rest, and compressing a response stream (an encoder with its own window
    // per response, fed a chunk at a time) cost more CPU than the render under a crowd (bench/render-cost.ts).
    let rendered;
    let markup: string;
    try {
      rendered = await renderer.renderPage({
        url: address,
        plan,
        answers,
        page: { origin, status },
        place: visit.place,
        fragments: this.fragments,
      });
      markup = await rendered.markup();
    } catch (err) {
      this.deps.logger.error({ err, url: address }, 'server render failed: the app shell goes instead');
      return false;
    }
    // The pictures React preloads go out in the header, before the browser reads a byte of the page (RULES 13.15).
    const preloads = imagePreloadLinks(markup);
    markup = preloads.markup;
    const parts = document.parts(
      rendered.head,
      context.brand,
      plan.module,
      { id: renderer.PAGE_DATA_ID, json: rendered.data },
      markup,
    );
    // Kept when every part was read and each may be replayed: then shared caches may keep it as long. Not when a
    // change dropped anything while it was drawn: it may show what the change replaced, and the purge for that
    // change has gone out already, so no shared cache may keep it either.
    const drawnFrom = plan.kind === 'not-found' ? [...read, NOT_FOUND_READ] : read;
    const ttl = Math.min(...drawnFrom.map((a) => a?.ttlMs ?? 0));
    const tags = [...new Set([SITE_TAG, ...drawnFrom.flatMap((a) => a?.tags ?? [])])];
    const unchanged = this.deps.fastLane.forgets === keeping?.since;
    const keepable = keeping && unchanged && complete && ttl > 0 ? { ttlMs: ttl, tags } : undefined;

    res.status(status);
    if (status === 410) res.set('X-Robots-Tag', 'noindex');
    const csp = withStyleSources(String(res.getHeader('Content-Security-Policy') ?? ''), parts.styleSources);
    res.set('Content-Security-Policy', csp);
    // Who may keep it (RULES 13.7), on the page and its kept copy alike: a kept page is public for shared caches
    // for its lifetime, with the tags that purge it; any other is asked for again. Never `Vary: Cookie`: the page
    // cookies are the documented key, and no other cookie changes a byte.
    const own: Record<string, string> = { 'Content-Security-Policy': csp };
    if (preloads.links.length > 0) own.Link = preloads.links.join(', ');
    if (keepable) own[SURROGATE_KEY_HEADERS[0]] = own[SURROGATE_KEY_HEADERS[1]] = surrogateKeyHeader(keepable.tags);
    const answer = replayableHtml(parts.start + markup + parts.end, {
      cacheControl: keepable ? sharedCacheControl(keepable.ttlMs) : UNKEPT_CACHE_CONTROL,
      own,
    });

    // Sent first, then filed: the page leaves before the work of keeping it, which no later request sees before
    // this turn ends.
    sendReplayable(req, res, answer);
    if (keeping && keepable) {
      const page = { answer, status };
      this.kept.keep(keeping.key, page, keepable.ttlMs, keepable.tags);
      this.toLane(visit, page, keeping.key);
    }
    return true;
  }
}
