import { LISTINGS_FRESH_MS, ListingsQuerySchema } from '../../shared/schemas/commerce.js';
import { SchedulePageQuerySchema, SearchResultsQuerySchema, SlugParamsSchema } from '../../shared/schemas/entities.js';
import {
  callPath,
  layoutParams,
  type ApiCall,
  type LayoutCall,
  type QueryParam,
} from '../../shared/schemas/api-calls.js';
import type { BrandAnswer } from '../../shared/schemas/layout.js';
import type { Brand } from '../../shared/schemas/brand-registry.js';
import type { ListingService } from '../commerce/listing-service.js';
import { eventPage, menu, performerPage, searchResults, venuePage } from '../entities/entity-service.js';
import { collectionTag, entityTag, FLAGS_TAG } from '../http/fast-lane.js';
import type { LayoutAnswers } from '../layout/layout-answers.js';
import { queryClock } from '../search/query-clock.js';
import type { SearchService } from '../search/search-service.js';

/** One API answer read in-process for a page: the data, and what it was made of (for the page cache). */
export interface PageAnswer {
  data: unknown;
  /** A short name for exactly this answer's bytes, where one is kept (the layout answer's ETag). */
  version?: string;
  /** Tags of what the answer was read from: a change to one drops the rendered page too. */
  tags: string[];
  /** How long the answer may be replayed, in ms. */
  ttlMs: number;
}

/**
 * Who a page is drawn for, resolved once per page request. Never the guest: a page is the same for everyone with
 * the same address and page cookies (RULES 13.7), and what is the guest's own comes from the API after load.
 */
export interface PageRequestContext {
  /** The brand of the renderer's site id. */
  brand: Brand;
  /** The home-layout assignment the `homeLayout` cookie names (GrowthBook's force syntax). */
  assigned: string | undefined;
}

/** Search results follow the whole catalog: any change to these collections drops the pages drawn from them. */
const CATALOG_TAGS = (['Event', 'Performer', 'Venue'] as const).map(collectionTag);
/**
 * The most performers an event page names by their tags (RULES 13.4). A shared cache reads the tags from one header,
 * which Varnish refuses past 8 KiB by default: an event with more is tagged with the performers' and the events'
 * collections instead, which every change that would name one of its performers forgets as well.
 */
const MAX_NAMED_PERFORMERS = 50;
/** How long a page drawn from the catalog is replayed at most (the layout rows' lifetime, RULES 13.3). */
export const ENTITY_TTL_MS = 60_000;

/**
 * What a not-found page is drawn from besides its shell (RULES 13.4): the catalog, whose next change may add what its
 * address names (an event created after its address was asked for), so a change to any collection drops it, and it
 * lives no longer than an entity's page.
 */
export const NOT_FOUND_READ: Pick<PageAnswer, 'tags' | 'ttlMs'> = { tags: CATALOG_TAGS, ttlMs: ENTITY_TTL_MS };

const slugOf = (slug: string) => SlugParamsSchema.parse({ slug }).slug;
/** The entity id that ends a slug (RULES 2.2). */
const slugId = (slug: string) => /(\d+)$/.exec(slug)?.[1] ?? slug;

/** Query parameters as Express's query parser lists them: a repeated name is an array of its values. */
function queryRecord(params: readonly QueryParam[]): Record<string, string | string[]> {
  const record = Object.create(null) as Record<string, string | string[]>;
  for (const [name, value] of params) {
    const before = record[name];
    record[name] = before === undefined ? value : Array.isArray(before) ? [...before, value] : [before, value];
  }
  return record;
}

/**
 * The API's GET answers a page draws with, for the page's typed calls, read through the same services (and the
 * same caches) the API routes use: one data path, whether the browser or the server asks. Input the API would
 * refuse is refused with the same AppError.
 */
export class PageAnswers {
  constructor(
    private readonly search: SearchService,
    private readonly layout: LayoutAnswers,
    private readonly listings: ListingService,
  ) {}

  async answer(call: ApiCall, context: PageRequestContext): Promise<PageAnswer> {
    const engine = this.search.engine;
    const now = queryClock();
    switch (call.call) {
      case 'brand': {
        const brand: BrandAnswer = context.brand;
        return { data: brand, tags: [], ttlMs: Infinity };
      }
      case 'menu':
        // On every page: it follows the catalog by its lifetime alone, so a change to one event does not drop
        // every page of the site (RULES 13.4).
        return { data: await menu(engine), tags: [], ttlMs: ENTITY_TTL_MS };
      case 'layout':
        return this.layoutAnswer(call, context);
      case 'event': {
        const found = await eventPage(engine, slugOf(call.slug), now);
        const { doc, ...data } = found;
        // Its related events are its performer's and venue's: a change to any of them names those. Past a header's
        // worth of performers, any change to a performer or an event does (each names its collection too).
        const performers =
          doc.performer_ids.length <= MAX_NAMED_PERFORMERS
            ? doc.performer_ids.map((id) => entityTag('Performer', id))
            : [collectionTag('Performer'), collectionTag('Event')];
        const tags = [entityTag('Event', doc.event_id), entityTag('Venue', doc.venue_id), ...performers];
        return { data, tags, ttlMs: ENTITY_TTL_MS };
      }
      case 'listings': {
        const listings = await this.listings.listings(slugOf(call.slug), ListingsQuerySchema.parse(call.filter));
        return { data: listings, tags: [entityTag('Event', slugId(call.slug))], ttlMs: LISTINGS_FRESH_MS };
      }
      case 'performer': {
        const { page } = SchedulePageQuerySchema.parse({ page: call.page });
        const found = await performerPage(engine, slugOf(call.slug), now, page);
        const { doc, ...data } = found;
        return { data, tags: [entityTag('Performer', doc.performer_id)], ttlMs: ENTITY_TTL_MS };
      }
      case 'venue': {
        const { page } = SchedulePageQuerySchema.parse({ page: call.page });
        const found = await venuePage(engine, slugOf(call.slug), now, page);
        return { data: found, tags: [entityTag('Venue', slugId(call.slug))], ttlMs: ENTITY_TTL_MS };
      }
      case 'results': {
        const { q, page } = SearchResultsQuerySchema.parse({ q: call.q, page: call.page });
        return { data: await searchResults(engine, q, page, now), tags: CATALOG_TAGS, ttlMs: ENTITY_TTL_MS };
      }
    }
  }

  private async layoutAnswer(call: LayoutCall, context: PageRequestContext): Promise<PageAnswer> {
    const request = this.layout.resolve({
      page: call.page === 'home' ? { page: 'home' } : { page: 'category', slug: call.slug },
      query: queryRecord(layoutParams(call)),
      siteBrand: context.brand,
      guestId: undefined,
      userAgent: undefined,
      assigned: context.assigned,
      // GrowthBook's `url` attribute: the address the browser asks the layout at.
      url: callPath(call),
    });
    const found = await this.layout.answer(request);
    // Parsed only when a page is drawn from it: a replayed page needs its ETag alone.
    let data: unknown;
    return {
      get data() {
        return (data ??= JSON.parse(found.answer.body));
      },
      version: found.answer.etag,
      // The home page's variation follows the flags: a new payload drops it.
      tags: call.page === 'home' ? [...found.tags, FLAGS_TAG] : found.tags,
      ttlMs: found.ttlMs,
    };
  }
}
