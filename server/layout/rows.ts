import type { EventCard, PerformerCard, VenueCard } from '../../shared/schemas/cards.js';
import type {
  BannerDocument,
  EventDocument,
  PerformerDocument,
  VenueDocument,
} from '../../shared/schemas/documents.js';
import type { CategoryTile, PromoCard } from '../../shared/schemas/layout.js';
import type { Filter, GeoFilter, SortKey } from '../../shared/schemas/search.js';
import type { RowFilter } from '../../shared/schemas/row-filter.js';
import type { RowSpec } from '../../shared/schemas/segment-rows.js';
import { CATEGORIES, CATEGORY_BY_SLUG } from '../../shared/catalog/categories.js';
import { categoryImageUrl } from '../../shared/rules/category-image.js';
import { MAX_YEARS_AHEAD } from '../../shared/rules/constants.js';
import { dateWindow } from '../../shared/rules/date-filters.js';
import { eventCard } from '../../shared/rules/event-card.js';
import { logStaleEvents } from '../../shared/rules/lists.js';
import type { WarnLogger } from '../../shared/logger.js';
import { performerCard } from '../../shared/rules/performer-card.js';
import { venueCard } from '../../shared/rules/venue-card.js';
import { EVENT_SORTS } from '../search/queries.js';
import type { SearchEngine } from '../search/search-engine.js';
import { categoryPath } from '../../shared/rules/site-paths.js';

export interface RowContext {
  engine: SearchEngine;
  brand: string;
  /** The shopper's point (rounded, so nearby shoppers share cached answers) and time zone. */
  lat: number;
  lng: number;
  timeZone: string;
  /** Now, floored to a few minutes for the same reason. */
  now: Date;
  /** The category slug a category page shows; what `$category` stands for. */
  category?: string;
  /** Set on the home page: events already started by the real clock are logged as stale. */
  stale?: { clock: Date; logger: WarnLogger };
}

/** A row's answer, and whether it was widened to the whole nation because nothing near qualified. */
export type RowItems = RowItemsOf & { national?: true };

type RowItemsOf =
  | { type: 'performers'; items: PerformerCard[] }
  | {
      type: 'events';
      items: EventCard[];
      tabs?: { id: string; title: string; items: EventCard[] }[];
      defaultTab?: string;
    }
  | { type: 'venues'; items: VenueCard[] }
  | { type: 'categories'; items: CategoryTile[] }
  | { type: 'promos'; items: PromoCard[] };

/** Local performers are found through their events near the shopper; this many events are read for it. */
const EVENTS_READ_FOR_PERFORMERS = 100;
/** Up to this many pages of them, until there are this many candidates per place in the row. */
const EVENT_PAGES_FOR_PERFORMERS = 4;
const CANDIDATES_PER_PLACE = 2;
/** At most this many of those events' performers are ranked by popularity for the row. */
const PERFORMERS_RANKED = 50;
/** Product decision: a tab whose events start within three weeks is in season, and a tabbed row opens on it. */
export const IN_SEASON_DAYS = 21;
const GROUP_PARENT: Record<string, string> = { sports: 'SPORTS', concerts: 'CONCERTS', theater: 'THEATRE' };

/** A category route slug, or a group page (sports, concerts, theater), as the category slugs it covers. */
export function categorySlugs(slug: string): string[] {
  if (GROUP_PARENT[slug]) return CATEGORIES.filter((c) => c.group === slug).map((c) => c.slug);
  return [slug];
}

/** Resolves one row of a page into display-ready cards. */
export async function resolveRowItems(spec: RowSpec, ctx: RowContext): Promise<RowItems> {
  switch (spec.kind) {
    case 'performers':
      return { type: 'performers', items: await performers(spec.filter, spec.sort, spec.size, spec.radiusMiles, ctx) };
    case 'events': {
      if (!spec.tabs)
        return { type: 'events', items: await events(spec.filter, spec.sort, spec.size, spec.radiusMiles, ctx) };
      const tabs = await Promise.all(
        spec.tabs.map(async (tab) => {
          const docs = await eventDocs({ ...spec.filter, ...tab.filter }, spec.sort, spec.size, spec.radiusMiles, ctx);
          return { id: tab.id, title: tab.title, items: docs.map((doc) => eventCard(doc)), docs };
        }),
      );
      const shown =
        tabs[
          defaultTabIndex(
            tabs.map((t) => t.docs),
            ctx.now,
          )
        ]!;
      return {
        type: 'events',
        items: shown.items,
        tabs: tabs.map(({ docs: _docs, ...tab }) => tab),
        defaultTab: shown.id,
      };
    }
    case 'venues':
      return { type: 'venues', items: await venues(spec.size, spec.radiusMiles, ctx) };
    case 'categories':
      return {
        type: 'categories',
        items: await Promise.all(spec.tiles.map((tile) => categoryTile(tile.slug, tile.title, spec.radiusMiles, ctx))),
      };
    case 'promos':
      return { type: 'promos', items: await promos(spec.size, ctx) };
  }
}

/** The row again without its radius: what `empty: "widen"` asks for when nothing is near. */
export function widened(spec: RowSpec): RowSpec | null {
  if (!('radiusMiles' in spec) || spec.radiusMiles === undefined) return null;
  const { radiusMiles: _dropped, ...rest } = spec;
  return rest as RowSpec;
}

function geo(field: string, radiusMiles: number | undefined, ctx: RowContext): GeoFilter | undefined {
  return radiusMiles === undefined ? undefined : { field, lat: ctx.lat, lng: ctx.lng, radiusMiles };
}

function resolveCategories(filter: RowFilter, ctx: RowContext): string[] | undefined {
  return filter.categories?.flatMap((slug) =>
    slug === '$category' ? (ctx.category ? categorySlugs(ctx.category) : []) : categorySlugs(slug),
  );
}

/** Upcoming, dated, not cancelled, and no more than 10 years ahead (RULES 5.4), within the row's window. */
function eventFilters(filter: RowFilter, ctx: RowContext): Filter[] {
  const nowSeconds = Math.floor(ctx.now.getTime() / 1000);
  const horizon = new Date(ctx.now);
  horizon.setUTCFullYear(horizon.getUTCFullYear() + MAX_YEARS_AHEAD);
  let from = nowSeconds;
  let to = Math.floor(horizon.getTime() / 1000);
  const window = filter.dateFilter ? dateWindow(filter.dateFilter, ctx.now, ctx.timeZone) : null;
  if (window) {
    from = Math.max(from, window.from);
    to = Math.min(to, window.to);
  }
  const filters: Filter[] = [
    { op: 'between', field: 'event_timestamp', min: from, max: to },
    { op: 'neq', field: 'event_status', value: 'cancelled' },
  ];
  const categories = resolveCategories(filter, ctx);
  if (categories) filters.push({ op: 'in', field: 'category', values: categories.length ? categories : ['-'] });
  if (filter.parents) filters.push({ op: 'in', field: 'major_category', values: filter.parents });
  return filters;
}

/**
 * The tab a tabbed row opens on: the first whose events start within the coming weeks (a league in season),
 * else the first with any events, else the first.
 */
export function defaultTabIndex(
  tabs: readonly (readonly Pick<EventDocument, 'event_timestamp'>[])[],
  now: Date,
): number {
  const soon = Math.floor(now.getTime() / 1000) + IN_SEASON_DAYS * 86_400;
  const inSeason = tabs.findIndex((docs) => docs.some((d) => d.event_timestamp !== null && d.event_timestamp <= soon));
  if (inSeason >= 0) return inSeason;
  return Math.max(
    0,
    tabs.findIndex((docs) => docs.length > 0),
  );
}

/** The row's title when it was widened to the whole nation: "Popular Local Sports" → "Popular Sports Nationally". */
export function nationalTitle(title: string): string {
  return `${title.replace(/\blocal\s+/i, '').trim()} Nationally`;
}

async function events(
  filter: RowFilter,
  sort: keyof typeof EVENT_SORTS,
  size: number,
  radiusMiles: number | undefined,
  ctx: RowContext,
) {
  return (await eventDocs(filter, sort, size, radiusMiles, ctx)).map((doc) => eventCard(doc));
}

async function eventDocs(
  filter: RowFilter,
  sort: keyof typeof EVENT_SORTS,
  size: number,
  radiusMiles: number | undefined,
  ctx: RowContext,
) {
  const result = await ctx.engine.search({
    collection: 'Event',
    filters: eventFilters(filter, ctx),
    geo: geo('venue_location', radiusMiles, ctx),
    sort: EVENT_SORTS[sort],
    perPage: size,
  });
  const docs = result.hits.map((h) => h.document as EventDocument);
  if (ctx.stale) logStaleEvents(docs, ctx.stale.clock, ctx.stale.logger);
  return docs;
}

async function performers(
  filter: RowFilter,
  sort: 'popular' | 'trending',
  size: number,
  radiusMiles: number | undefined,
  ctx: RowContext,
) {
  const orderBy: SortKey = { by: sort === 'popular' ? 'performer_orders_t12' : 'performer_orders_d7', order: 'desc' };
  if (filter.dateFilter || radiusMiles !== undefined) {
    // Performers with an event near the shopper in the window (upcoming when the row has none): found through
    // those events, the most popular first, then ranked by their own popularity. A performer whose venues are
    // near but whose events are not (a team out of season, a tour elsewhere) is not local.
    // Residencies play eight shows a week, so a page of events may hold few performers: read a few more pages
    // (a bounded number) until there are enough to rank.
    const found = new Set<number>();
    const filters = eventFilters(filter, ctx);
    for (let page = 1; page <= EVENT_PAGES_FOR_PERFORMERS && found.size < size * CANDIDATES_PER_PLACE; page++) {
      const result = await ctx.engine.search({
        collection: 'Event',
        filters,
        geo: geo('venue_location', radiusMiles, ctx),
        sort: EVENT_SORTS[sort],
        page,
        perPage: EVENTS_READ_FOR_PERFORMERS,
        includeFields: ['performer_ids'],
      });
      // Product decision: an event makes its headliner local (the home team, the headlining act), not the
      // visiting team or the opener, whose home is elsewhere.
      for (const hit of result.hits) {
        const headliner = (hit.document as Pick<EventDocument, 'performer_ids'>).performer_ids[0];
        if (headliner !== undefined) found.add(headliner);
      }
      if (result.hits.length < EVENTS_READ_FOR_PERFORMERS) break;
    }
    const ids = [...found].slice(0, PERFORMERS_RANKED);
    if (ids.length === 0) return [];
    const docs = await ctx.engine.search({
      collection: 'Performer',
      filters: [{ op: 'in', field: 'performer_id', values: ids }],
      sort: [orderBy, { by: 'order_rank', order: 'asc' }],
      perPage: size,
    });
    return docs.hits.map((h) => performerCard(h.document as PerformerDocument));
  }
  const filters: Filter[] = [{ op: 'gt', field: 'events_available', value: 0 }];
  const categories = resolveCategories(filter, ctx);
  if (categories) filters.push({ op: 'in', field: 'category', values: categories.length ? categories : ['-'] });
  if (filter.parents) filters.push({ op: 'in', field: 'parent', values: filter.parents });
  const result = await ctx.engine.search({
    collection: 'Performer',
    filters,
    sort: [orderBy, { by: 'order_rank', order: 'asc' }],
    perPage: size,
  });
  return result.hits.map((h) => performerCard(h.document as PerformerDocument));
}

async function venues(size: number, radiusMiles: number | undefined, ctx: RowContext) {
  const result = await ctx.engine.search({
    collection: 'Venue',
    filters: [{ op: 'gt', field: 'events_available', value: 0 }],
    geo: geo('venue_location', radiusMiles, ctx),
    sort: [
      { by: 'events_available', order: 'desc' },
      { by: 'total_inventory_value', order: 'desc' },
    ],
    perPage: size,
  });
  return result.hits.map((h) => venueCard(h.document as VenueDocument));
}

async function categoryTile(
  slug: string,
  title: string,
  radiusMiles: number | undefined,
  ctx: RowContext,
): Promise<CategoryTile> {
  const resolved = slug === '$category' ? (ctx.category ?? slug) : slug;
  const count = await ctx.engine.search({
    collection: 'Event',
    filters: eventFilters({ categories: [resolved] }, ctx),
    geo: geo('venue_location', radiusMiles, ctx),
    perPage: 0,
  });
  const category = CATEGORY_BY_SLUG.get(resolved);
  const parent = GROUP_PARENT[resolved] ?? category?.parent ?? '';
  const image = category
    ? categoryImageUrl(category.parent, category.child, category.grandchild)
    : categoryImageUrl(parent);
  return { slug: resolved, title, url: categoryPath(resolved), image, eventCount: count.found };
}

async function promos(size: number, ctx: RowContext): Promise<PromoCard[]> {
  const now = Math.floor(ctx.now.getTime() / 1000);
  const result = await ctx.engine.search({
    collection: 'Banner',
    filters: [
      { op: 'in', field: 'brand', values: ['*', ctx.brand] },
      { op: 'eq', field: 'placement', value: 'promo' },
      { op: 'lte', field: 'starts_at', value: now },
      { op: 'gte', field: 'ends_at', value: now },
    ],
    sort: [{ by: 'priority', order: 'desc' }],
    perPage: size,
  });
  return result.hits.map((h) => {
    const b = h.document as BannerDocument;
    return { id: b.banner_id, title: b.title, subtitle: b.subtitle, image: b.image, url: b.url };
  });
}
