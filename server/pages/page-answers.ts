import { parse as parseQueryString } from 'node:querystring';
import { LISTINGS_FRESH_MS, ListingsQuerySchema } from '../../shared/schemas/commerce.js';
import { SchedulePageQuerySchema, SearchResultsQuerySchema, SlugParamsSchema } from '../../shared/schemas/entities.js';
import type { BrandAnswer } from '../../shared/schemas/layout.js';
import type { RecentActivityItem } from '../activity/recent-activity.js';
import type { ListingService } from '../commerce/listing-service.js';
import {
  eventActivity,
  eventPage,
  menu,
  performerActivity,
  performerPage,
  searchResults,
  venuePage,
} from '../entities/entity-service.js';
import { AppError } from '../http/errors.js';
import { collectionTag } from '../http/fast-lane.js';
import { resolveBrand, type LayoutAnswers } from '../layout/layout-answers.js';
import { queryClock } from '../search/query-clock.js';
import type { SearchService } from '../search/search-service.js';
import type { SegmentRepository } from '../segments/segment-repository.js';

/** One API answer read in-process for a page: the data, and what it was made of (for the page cache). */
export interface PageAnswer {
  data: unknown;
  /** A short name for exactly this answer's bytes, where one is kept (the layout answer's ETag). */
  version?: string;
  /** Tags of what the answer was read from: a change to one drops the rendered page too. */
  tags: string[];
  /** How long the answer may be replayed, in ms. */
  ttlMs: number;
  /** What a guest's view of this page adds to their recent activity, as the API records it. */
  activity?: Omit<RecentActivityItem, 'viewedAt'>;
}

/** Who is asking: the same inputs an API request carries in its headers. */
export interface AnswerContext {
  siteHeader: string | undefined;
  guestId: string | undefined;
  userAgent: string | undefined;
}

/** Entity answers follow the catalog: any change to these collections drops the pages drawn from them. */
const CATALOG_TAGS = (['Event', 'Performer', 'Venue'] as const).map(collectionTag);
/** How long a page drawn from the catalog is replayed at most (the layout rows' lifetime, spec §9 row cache). */
const ENTITY_TTL_MS = 60_000;

/**
 * The API's GET answers a page draws with, read through the same services (and the same caches) the API routes
 * use, from the address the client would fetch: one data path, whether the browser or the server asks. An
 * address this does not know, or bad input, is an AppError, as the API would answer it.
 */
export class PageAnswers {
  constructor(
    private readonly segments: SegmentRepository,
    private readonly search: SearchService,
    private readonly layout: LayoutAnswers,
    private readonly commerce: ListingService,
  ) {}

  async read(address: string, context: AnswerContext): Promise<PageAnswer> {
    const url = new URL(address, 'http://page.invalid');
    const query = parseQueryString(url.search.slice(1)) as Record<string, unknown>;
    const parts = url.pathname
      .split('/')
      .slice(2)
      .map((p) => decodeURIComponent(p));
    const engine = this.search.engine;
    const now = queryClock();
    const [first, second, third] = parts;
    const slugOf = (slug: string | undefined) => SlugParamsSchema.parse({ slug }).slug;

    if (first === 'brand' && parts.length === 1) {
      const brand: BrandAnswer = resolveBrand(this.segments, undefined, context.siteHeader);
      return { data: brand, tags: [], ttlMs: Infinity };
    }
    if (first === 'menu' && parts.length === 1)
      return { data: await menu(engine), tags: CATALOG_TAGS, ttlMs: ENTITY_TTL_MS };
    if (first === 'layout') {
      const page =
        second === 'home' && parts.length === 2
          ? ({ page: 'home' } as const)
          : second === 'category' && third && parts.length === 3
            ? ({ page: 'category', slug: third } as const)
            : null;
      if (!page) throw new AppError(404, 'not_found', `No API at ${url.pathname}`);
      const found = await this.layout.answer({
        page,
        query,
        siteHeader: context.siteHeader,
        guestId: context.guestId,
        userAgent: context.userAgent,
        url: address,
      });
      // Parsed only when a page is drawn from it: a replayed page needs its ETag alone.
      let data: unknown;
      return {
        get data() {
          return (data ??= JSON.parse(found.answer.body));
        },
        version: found.answer.etag,
        tags: found.tags,
        ttlMs: found.ttlMs,
      };
    }
    if (first === 'events' && parts.length === 2) {
      const found = await eventPage(engine, slugOf(second), now);
      const { doc: _doc, ...data } = found;
      return { data, tags: CATALOG_TAGS, ttlMs: ENTITY_TTL_MS, activity: eventActivity(found) };
    }
    if (first === 'events' && third === 'listings' && parts.length === 3) {
      return {
        data: await this.commerce.listings(slugOf(second), ListingsQuerySchema.parse(query)),
        tags: CATALOG_TAGS,
        ttlMs: LISTINGS_FRESH_MS,
      };
    }
    if (first === 'performers' && parts.length === 2) {
      const found = await performerPage(engine, slugOf(second), now, SchedulePageQuerySchema.parse(query).page);
      const { doc: _doc, ...data } = found;
      return { data, tags: CATALOG_TAGS, ttlMs: ENTITY_TTL_MS, activity: performerActivity(found) };
    }
    if (first === 'venues' && parts.length === 2) {
      return {
        data: await venuePage(engine, slugOf(second), now, SchedulePageQuerySchema.parse(query).page),
        tags: CATALOG_TAGS,
        ttlMs: ENTITY_TTL_MS,
      };
    }
    if (first === 'Searches' && second === 'get' && parts.length === 2) {
      const { q, page } = SearchResultsQuerySchema.parse(query);
      return { data: await searchResults(engine, q, page, now), tags: CATALOG_TAGS, ttlMs: ENTITY_TTL_MS };
    }
    throw new AppError(404, 'not_found', `No API at ${url.pathname}`);
  }
}
