import { createHash } from 'node:crypto';
import type { LayoutResponse, LayoutRow, RowStatus } from '../../shared/schemas/layout.js';
import type { Brand } from '../../shared/schemas/brand-registry.js';
import type { PageName } from '../../shared/schemas/segments.js';
import type { RowSpec } from '../../shared/schemas/segment-rows.js';
import { CATEGORY_BY_SLUG } from '../../shared/catalog/categories.js';
import { byteBounded, CACHE_BYTES, entryBytes, roughBytes, type BoundedCache } from '../cache/byte-bounded.js';
import { AppError } from '../http/errors.js';
import { parseSearchRequest, type ParsedSearchRequest } from '../../shared/schemas/search.js';
import { queryClock } from '../search/query-clock.js';
import type { SearchEngine } from '../search/search-engine.js';
import type { SegmentRepository } from '../segments/segment-repository.js';
import { GROUP_PAGES } from '../segments/segment-set.js';
import type { ZonedLocation } from '../../shared/rules/location.js';
import { nationalTitle, resolveRowItems, widened, type RowContext, type RowItems } from './rows.js';
import { RowScopes, type ChangedDocument } from './row-scopes.js';
import type { Logger } from '../../shared/logger.js';

/** Nearby shoppers share rows: coordinates are rounded to 0.1° (about 7 miles) before querying. */
export const LOCATION_PRECISION = 10;
/** A resolved row is reused for a minute; after that it is only served when resolving it again fails. */
export const ROW_CACHE_TTL_MS = 60_000;
/**
 * The work of dropping one stale row, in units of `dropStale`'s budget (a filed request tested is one): its layout
 * answers and their copies in the lanes and shared caches are forgotten with it, about twenty tests' worth.
 */
export const ROW_FORGET_UNITS = 20;

export interface LayoutServiceOptions {
  segments: SegmentRepository;
  engine: () => SearchEngine;
  logger: Pick<Logger, 'warn' | 'error'>;
  rowDeadlineMs: number;
  rowCacheTtlMs?: number;
  /** Bound on the rows kept, in bytes; `CACHE_BYTES.rows` unless said (a bench raises it). */
  rowCacheBytes?: number;
  now?: () => Date;
}

export type PageRequest = { page: 'home' } | { page: 'category'; slug: string };
/** The brand's segment page that answers a page request, and the category it shows. */
export interface SegmentPage {
  page: PageName;
  category?: string;
}

class RowTimeout extends Error {}

/**
 * Builds a page's layout: every row of the brand's segment resolved concurrently, each under its own
 * deadline, so a slow or failing row comes back marked (`timeout`/`error`, with its last good items when
 * there are some) and never holds up or fails the page.
 */
export class LayoutService {
  private readonly cache: BoundedCache<string, RowItems>;
  /** The search requests each cached row was made from: a catalog change that could match one makes it stale. */
  private readonly scopes = new RowScopes();
  /**
   * Moves when a catalog change is noted and when the rows it makes stale are all dropped, so a row resolved from
   * the catalog as it was before a change is not kept, nor an answer built while rows it may show were stale.
   */
  private changes = 0;
  /** The changed documents noted and not yet searched for, and the search under way (`dropStale`). */
  private noted: ChangedDocument[] = [];
  private searching: Generator<Iterable<string>, void, undefined> | undefined;
  /** The stale rows found and not yet dropped. */
  private dropping: string[] = [];
  /** Whether changes have been noted whose stale rows are not all dropped yet. */
  private pending = false;
  private readonly inFlight = new Map<string, Promise<RowItems>>();
  /** Told the keys of rows gone stale, to drop what was built from them (page answers). */
  private readonly staleListeners: ((rowKeys: readonly string[]) => void)[] = [];
  private readonly specHashes = new WeakMap<RowSpec, string>();

  /** How long a resolved row (and so a whole page answer) may be reused. */
  readonly rowCacheTtlMs: number;

  constructor(private readonly options: LayoutServiceOptions) {
    this.rowCacheTtlMs = options.rowCacheTtlMs ?? ROW_CACHE_TTL_MS;
    // Each row is counted with the filings of its requests (`RowScopes.add`), which take more than its items.
    this.cache = byteBounded<string, RowItems>(
      options.rowCacheBytes ?? CACHE_BYTES.rows,
      (items) => roughBytes(items),
      {
        ttl: this.rowCacheTtlMs,
        noDeleteOnStaleGet: true,
        dispose: (_items, key, reason) => {
          if (reason !== 'set') this.scopes.remove(key);
        },
      },
    );
  }

  /** Which segment page answers a request, or a 404 naming what is unknown. */
  pageFor(request: PageRequest): SegmentPage {
    if (request.page === 'home') return { page: 'explore' };
    const slug = request.slug;
    if ((GROUP_PAGES as readonly string[]).includes(slug)) return { page: slug as PageName };
    if (CATEGORY_BY_SLUG.has(slug)) return { page: 'category', category: slug };
    throw new AppError(404, 'page_not_found', `No category page "${slug}"`);
  }

  async layout(
    request: PageRequest,
    brand: Brand,
    location: ZonedLocation,
    options: {
      /** The request's `pageFor`, when the caller has found it already. */
      segmentPage?: SegmentPage;
      variant?: string;
      experiments?: LayoutResponse['experiments'];
      /** The guest's assignment in GrowthBook's force syntax, when the answer lists their exposures. */
      assignment?: string;
      timings?: Map<string, number>;
      /** Filled with the cache key of every row of the page (what `invalidate` names when one goes stale). */
      rowKeys?: string[];
    } = {},
  ): Promise<LayoutResponse> {
    const { timings, rowKeys } = options;
    const { page, category } = options.segmentPage ?? this.pageFor(request);
    const resolved = this.options.segments.page(brand.id, page, options.variant);
    if (!resolved) throw new AppError(404, 'page_not_found', `Brand "${brand.id}" has no ${page} page`);
    const clock = this.options.now?.() ?? new Date();
    const now = queryClock(clock);
    const ctx: RowContext = {
      engine: this.options.engine(),
      brand: brand.id,
      lat: Math.round(location.lat * LOCATION_PRECISION) / LOCATION_PRECISION,
      lng: Math.round(location.lng * LOCATION_PRECISION) / LOCATION_PRECISION,
      timeZone: location.timeZone,
      now,
      category,
      // RULES 5.3: a home-page event that has already started is logged as stale (and still listed).
      ...(page === 'explore' ? { stale: { clock, logger: this.options.logger } } : {}),
    };
    const categoryName = category ? CATEGORY_BY_SLUG.get(category)!.name : '';
    const rows = await Promise.all(
      resolved.rows.map(async (spec) => {
        const began = performance.now();
        rowKeys?.push(this.key(spec, ctx));
        const row = await this.row(spec, ctx, categoryName);
        timings?.set(spec.id, performance.now() - began);
        return row;
      }),
    );
    const { timeZone: _zone, ...publicLocation } = location;
    const version = this.options.segments.version;
    const fileOf = new Map(resolved.origins.map((o) => [o.id, o.file]));
    return {
      page,
      ...(category ? { category } : {}),
      title: resolved.title.replaceAll('{category}', categoryName),
      brand: { id: brand.id, name: brand.name },
      location: publicLocation,
      experiments: options.experiments ?? [],
      variation: options.variant ?? 'base',
      ...(options.assignment && options.experiments?.length ? { assignment: options.assignment } : {}),
      rows: rows.flatMap((r) => {
        if (r === null) return [];
        const file = fileOf.get(r.id);
        return [file ? { ...r, source: { file, version } } : r];
      }),
    };
  }

  private async row(spec: RowSpec, ctx: RowContext, categoryName: string): Promise<LayoutRow | null> {
    const key = this.key(spec, ctx);
    let items: RowItems | undefined;
    let status: RowStatus = 'ok';
    try {
      items = this.cache.get(key) ?? (await this.withDeadline(this.resolve(key, spec, ctx)));
    } catch (err) {
      status = err instanceof RowTimeout ? 'timeout' : 'error';
      if (status === 'error') this.options.logger.error({ err, row: spec.id }, 'row failed');
      else this.options.logger.warn({ row: spec.id, deadlineMs: this.options.rowDeadlineMs }, 'row timed out');
      // The last good answer, however old, beats an empty row.
      items = this.cache.get(key, { allowStale: true });
    }
    const empty =
      !items || (items.items.length === 0 && (items.type !== 'events' || !items.tabs?.some((t) => t.items.length > 0)));
    if (status === 'ok' && empty) {
      if (spec.empty === 'hide') return null;
      status = 'empty';
    }
    const named = spec.title.replaceAll('{category}', categoryName);
    const title = items?.national ? nationalTitle(named) : named;
    return toLayoutRow(spec, title, status, items);
  }

  /** One resolution per key at a time; `widen` rows ask again nationally when nothing is near. */
  private resolve(key: string, spec: RowSpec, ctx: RowContext): Promise<RowItems> {
    const running = this.inFlight.get(key);
    if (running) return running;
    const changesBefore = this.changes;
    const requests: ParsedSearchRequest[] = [];
    const recording: RowContext = { ...ctx, engine: recordingEngine(ctx.engine, requests) };
    const work = (async () => {
      let items = await resolveRowItems(spec, recording);
      const wider = spec.empty === 'widen' ? widened(spec) : null;
      // Nothing near: the row is filled nationally and says so in its title.
      if (wider && isEmpty(items)) items = { ...(await resolveRowItems(wider, recording)), national: true };
      if (this.changes === changesBefore) {
        const filed = this.scopes.add(key, requests);
        // A row over a tenth of the bound is not kept, nor left filed.
        if (!this.cache.set(key, items, { size: entryBytes(key, roughBytes(items) + filed) }).has(key))
          this.scopes.remove(key);
      }
      return items;
    })().finally(() => {
      if (this.inFlight.get(key) === work) this.inFlight.delete(key);
    });
    this.inFlight.set(key, work);
    return work;
  }

  private withDeadline<T>(work: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new RowTimeout()), this.options.rowDeadlineMs);
    });
    // The work goes on after a timeout and fills the cache for the next shopper.
    work.catch(() => {});
    return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
  }

  /** Brand, page, row (its whole definition, so an edited row is a new key), tab set and rounded location. */
  private key(spec: RowSpec, ctx: RowContext): string {
    // Segment rows are immutable objects, replaced on reload: each is hashed once.
    let definition = this.specHashes.get(spec);
    if (!definition) {
      definition = createHash('sha1').update(JSON.stringify(spec)).digest('base64url');
      this.specHashes.set(spec, definition);
    }
    return [ctx.brand, ctx.category ?? '', spec.id, definition, ctx.lat, ctx.lng, ctx.timeZone, ctx.now.getTime()].join(
      '|',
    );
  }

  /** How many rows are kept. */
  get cachedRows(): number {
    return this.cache.size;
  }

  /** How many rows have their search requests filed (each kept row, and no other). */
  get filedRows(): number {
    return this.scopes.size;
  }

  clearCache(): void {
    this.cache.clear();
  }

  /**
   * Notes a catalog change, as soon as the engine answers from it: rows being resolved now read the catalog from
   * before it and are not kept, nor shared with later requests, and until `dropStale` has dropped every row it
   * makes stale no layout answer is kept (`invalidating`). Changes noted while a search is under way are searched
   * for together once it ends (RULES 13.11).
   */
  changed(documents: readonly ChangedDocument[]): void {
    this.changes++;
    this.pending = true;
    this.inFlight.clear();
    for (const document of documents) this.noted.push(document);
  }

  /**
   * Searches for and drops the rows the noted changes make stale, for about `budget` units of work (a filed request
   * tested against a document, a filing removed, `ROW_FORGET_UNITS` for a row dropped with what is built from it),
   * telling the listeners of the rows dropped. It begins no step once it has spent `budget`. The units it took and
   * those of its last step, the rows it dropped, and whether every noted change is done.
   */
  dropStale(budget: number): { units: number; lastStep: number; stale: string[]; done: boolean } {
    let units = 0;
    let lastStep = 0;
    const stale: string[] = [];
    while (units < budget) {
      const row = this.dropping.pop();
      if (row !== undefined) {
        stale.push(row);
        // Out of its scopes first, so `dispose` finds nothing more to do there.
        lastStep = ROW_FORGET_UNITS + this.scopes.remove(row);
        this.cache.delete(row);
      } else {
        if (!this.searching) {
          if (this.noted.length === 0) break;
          this.searching = this.scopes.search(this.noted);
          this.noted = [];
        }
        const step = this.searching.next();
        lastStep = 1;
        if (step.done) this.searching = undefined;
        else for (const key of step.value) this.dropping.push(key);
      }
      units += lastStep;
    }
    if (stale.length > 0) for (const listener of this.staleListeners) listener(stale);
    const done = !this.searching && this.noted.length === 0 && this.dropping.length === 0;
    if (done && this.pending) {
      this.pending = false;
      this.changes++;
    }
    return { units, lastStep, stale, done };
  }

  /** Whether rows a noted change made stale may still be kept: an answer built meanwhile is not kept. */
  get invalidating(): boolean {
    return this.pending;
  }

  /** How many invalidations there have been: an answer built while this moved may hold stale rows. */
  get invalidations(): number {
    return this.changes;
  }

  /** Calls `listener` with the keys of the rows each invalidation drops. */
  onStaleRows(listener: (rowKeys: readonly string[]) => void): void {
    this.staleListeners.push(listener);
  }
}

/** The engine as a row sees it: every request it makes is noted in `requests` on its way. */
function recordingEngine(engine: SearchEngine, requests: ParsedSearchRequest[]): SearchEngine {
  return {
    kind: engine.kind,
    health: () => engine.health(),
    search: (request) => {
      const parsed = parseSearchRequest(request);
      requests.push(parsed);
      return engine.search(parsed as typeof request);
    },
  };
}

function isEmpty(items: RowItems): boolean {
  if (items.type === 'events' && items.tabs) return items.tabs.every((t) => t.items.length === 0);
  return items.items.length === 0;
}

function toLayoutRow(spec: RowSpec, title: string, status: RowStatus, items: RowItems | undefined): LayoutRow {
  const common = { id: spec.id, title, status };
  if (!items) {
    return spec.kind === 'events' && spec.tabs
      ? {
          ...common,
          type: 'events',
          items: [],
          tabs: spec.tabs.map((t) => ({ id: t.id, title: t.title, status, items: [] })),
        }
      : ({ ...common, type: spec.kind, items: [] } as LayoutRow);
  }
  if (items.type === 'events' && items.tabs) {
    return {
      ...common,
      type: 'events',
      items: items.items,
      ...(items.defaultTab ? { defaultTab: items.defaultTab } : {}),
      tabs: items.tabs.map((t) => ({
        ...t,
        status: status !== 'ok' && status !== 'empty' ? status : t.items.length ? 'ok' : 'empty',
      })),
    };
  }
  const { national: _national, ...answer } = items;
  return { ...common, ...answer } as LayoutRow;
}
