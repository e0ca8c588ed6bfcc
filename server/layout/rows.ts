import type { EventCard, PerformerCard, VenueCard } from '../../schemas/cards.js';
import type { BannerDocument, EventDocument, PerformerDocument, VenueDocument } from '../../schemas/documents.js';
import type { CategoryTile, PromoCard } from '../../schemas/layout.js';
import type { Filter, GeoFilter, SortKey } from '../../schemas/search.js';
import type { RowFilter, RowSpec } from '../../schemas/segments.js';
import { CATEGORIES, CATEGORY_BY_SLUG } from '../catalog/taxonomy.js';
import { categoryImageUrl } from '../rules/category-image.js';
import { MAX_YEARS_AHEAD } from '../rules/constants.js';
import { dateWindow } from '../rules/date-filters.js';
import { eventCard } from '../rules/event-card.js';
import { logStaleEvents } from '../rules/lists.js';
import type { WarnLogger } from '../rules/logger.js';
import { performerCard } from '../rules/performer-card.js';
import { venueCard } from '../rules/venue-card.js';
import { EVENT_SORTS } from '../search/queries.js';
import type { SearchEngine } from '../search/search-engine.js';

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

export type RowItems =
  | { type: 'performers'; items: PerformerCard[] }
  | { type: 'events'; items: EventCard[]; tabs?: { id: string; title: string; items: EventCard[] }[] }
  | { type: 'venues'; items: VenueCard[] }
  | { type: 'categories'; items: CategoryTile[] }
  | { type: 'promos'; items: PromoCard[] };

/** Performers with events in a date window are found through those events; this many are read for it. */
const EVENTS_READ_FOR_PERFORMERS = 100;
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
      if (!spec.tabs) return { type: 'events', items: await events(spec.filter, spec.sort, spec.size, spec.radiusMiles, ctx) };
      const tabs = await Promise.all(
        spec.tabs.map(async (tab) => ({
          id: tab.id,
          title: tab.title,
          items: await events({ ...spec.filter, ...tab.filter }, spec.sort, spec.size, spec.radiusMiles, ctx),
        })),
      );
      return { type: 'events', items: tabs[0]!.items, tabs };
    }
    case 'venues':
      return { type: 'venues', items: await venues(spec.size, spec.radiusMiles, ctx) };
    case 'categories':
      return { type: 'categories', items: await Promise.all(spec.tiles.map((tile) => categoryTile(tile.slug, tile.title, spec.radiusMiles, ctx))) };
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
  return filter.categories?.flatMap((slug) => (slug === '$category' ? (ctx.category ? categorySlugs(ctx.category) : []) : categorySlugs(slug)));
}

/** Upcoming, dated, not cancelled, and no more than 10 years ahead (spec §4), within the row's window. */
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

async function events(filter: RowFilter, sort: keyof typeof EVENT_SORTS, size: number, radiusMiles: number | undefined, ctx: RowContext) {
  const result = await ctx.engine.search({
    collection: 'Event',
    filters: eventFilters(filter, ctx),
    geo: geo('venue_location', radiusMiles, ctx),
    sort: EVENT_SORTS[sort],
    perPage: size,
  });
  const docs = result.hits.map((h) => h.document as EventDocument);
  if (ctx.stale) logStaleEvents(docs, ctx.stale.clock, ctx.stale.logger);
  return docs.map((doc) => eventCard(doc));
}

async function performers(filter: RowFilter, sort: 'popular' | 'trending', size: number, radiusMiles: number | undefined, ctx: RowContext) {
  const orderBy: SortKey = { by: sort === 'popular' ? 'performer_orders_t12' : 'performer_orders_d7', order: 'desc' };
  if (filter.dateFilter) {
    // Performers with an event in the window near the shopper: read those events, keep their performers in order.
    const found = await ctx.engine.search({
      collection: 'Event',
      filters: eventFilters(filter, ctx),
      geo: geo('venue_location', radiusMiles, ctx),
      sort: [{ by: sort === 'popular' ? 'event_orders_t12' : 'event_orders_d7', order: 'desc' }],
      perPage: EVENTS_READ_FOR_PERFORMERS,
      includeFields: ['performer_ids'],
    });
    const ids = [...new Set(found.hits.flatMap((h) => (h.document as Pick<EventDocument, 'performer_ids'>).performer_ids))].slice(0, size);
    if (ids.length === 0) return [];
    const docs = await ctx.engine.search({ collection: 'Performer', filters: [{ op: 'in', field: 'performer_id', values: ids }], perPage: ids.length });
    const byId = new Map(docs.hits.map((h) => [(h.document as PerformerDocument).performer_id, h.document as PerformerDocument]));
    return ids.flatMap((id) => (byId.has(id) ? [performerCard(byId.get(id)!)] : []));
  }
  const filters: Filter[] = [{ op: 'gt', field: 'events_available', value: 0 }];
  const categories = resolveCategories(filter, ctx);
  if (categories) filters.push({ op: 'in', field: 'category', values: categories.length ? categories : ['-'] });
  if (filter.parents) filters.push({ op: 'in', field: 'parent', values: filter.parents });
  const result = await ctx.engine.search({
    collection: 'Performer',
    filters,
    geo: geo('venue_locations', radiusMiles, ctx),
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
    sort: [{ by: 'events_available', order: 'desc' }, { by: 'total_inventory_value', order: 'desc' }],
    perPage: size,
  });
  return result.hits.map((h) => venueCard(h.document as VenueDocument));
}

async function categoryTile(slug: string, title: string, radiusMiles: number | undefined, ctx: RowContext): Promise<CategoryTile> {
  const resolved = slug === '$category' ? (ctx.category ?? slug) : slug;
  const count = await ctx.engine.search({
    collection: 'Event',
    filters: eventFilters({ categories: [resolved] }, ctx),
    geo: geo('venue_location', radiusMiles, ctx),
    perPage: 0,
  });
  const category = CATEGORY_BY_SLUG.get(resolved);
  const parent = GROUP_PARENT[resolved] ?? category?.parent ?? '';
  const image = category ? categoryImageUrl(category.parent, category.child, category.grandchild) : categoryImageUrl(parent);
  return { slug: resolved, title, url: `/category/${resolved}`, image, eventCount: count.found };
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
