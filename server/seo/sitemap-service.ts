import { createHash } from 'node:crypto';
import { byteBounded, CACHE_BYTES } from '../cache/byte-bounded.js';
import type { CollectionName } from '../../shared/schemas/documents.js';
import { MAX_PAGE, MAX_PER_PAGE, type Filter, type SortKey } from '../../shared/schemas/search.js';
import { upcomingFilters } from '../entities/entity-service.js';
import { EDGE_CACHE_SECONDS } from '../../shared/rules/constants.js';
import type { CachedEngine } from '../search/cached-engine.js';
import type { CatalogTimes, PagedCollection } from './catalog-times.js';
import {
  escapeXml,
  MAX_SITEMAPS_PER_INDEX,
  MAX_URLS_PER_SITEMAP,
  sitemapIndex,
  URLSET_CLOSE,
  URLSET_OPEN,
  urlEntry,
} from './sitemap-protocol.js';
import { categoryPath, eventPath, performerPath, venuePath } from '../../shared/rules/site-paths.js';

export const SITEMAP_KINDS = ['events', 'performers', 'venues', 'categories'] as const;
export type SitemapKind = (typeof SITEMAP_KINDS)[number];

/** `/sitemaps/events-1.xml`: the kind and the file's number, from 1. */
export const SITEMAP_FILE = /^(events|performers|venues|categories)-([1-9]\d{0,5})\.xml$/;
export const sitemapFilePath = (kind: SitemapKind, n: number) => `/sitemaps/${kind}-${n}.xml`;

/**
 * How long a built file is kept without a catalog change: events start and leave the listings as time passes, so
 * an events file is at most this late in dropping one. The hour the spec gives the edge cache (RULES 13.2: 3600 s).
 */
/** The largest sitemap file kept: a whole file of event addresses. */
const SITEMAP_FILE_BYTES = 16 * 1024 * 1024;
export const SITEMAP_CACHE_TTL_MS = EDGE_CACHE_SECONDS * 1000;
/** The tag of the engine's cached answers to the sitemaps' page reads, dropped once a file is built. */
const SITEMAP_SEARCH_TAG = 'sitemap';

/** The collection a kind's pages come from. */
const KIND_COLLECTION: Record<Exclude<SitemapKind, 'categories'>, PagedCollection> = {
  events: 'Event',
  performers: 'Performer',
  venues: 'Venue',
};

/** A sitemap file as served: its XML at one origin, and its entity tag. */
export interface SitemapFile {
  body: string;
  etag: string;
  urls: number;
}

/**
 * A built file, its addresses relative to an origin not yet named (`ORIGIN_MARK` where the origin goes): a file
 * is built once whatever host it is asked on, and each answer writes its origin in (a few milliseconds for
 * 50,000 addresses, against the hundreds of engine reads a build takes).
 */
interface BuiltSitemap {
  template: string;
  tag: string;
  urls: number;
}

/** Stands for the origin in a built file: a character no path, date or markup of it holds (nor XML allows). */
const ORIGIN_MARK = '\u0000';

export interface SitemapServiceOptions {
  engine: () => CachedEngine;
  times: CatalogTimes;
  /** The category page slugs the storefront answers (`category-pages.ts`). */
  categories: () => readonly string[];
  /** Addresses per file; the protocol's ceiling unless a test splits smaller. */
  urlsPerFile?: number;
  now?: () => Date;
}

/**
 * An ordered walk over a collection's listed documents: ordered by a numeric `key` and, within a key, by a
 * unique `tie`, so a file starts where the one before it ended without reading what came before.
 */
interface Listing {
  collection: PagedCollection;
  key: string;
  tie: string;
  fields: string[];
  /** The listed documents whose key lies in [min, max]. */
  filters(min: number, max: number): Filter[];
  /** Bounds of the key over listed documents. */
  min: number;
  max: number;
  path(doc: Record<string, unknown>): string;
}

/**
 * The sitemaps of the storefront's pages (sitemaps.org): an index with one file per `urlsPerFile` events,
 * performers, venues and categories. Each file is built when first asked for, from the search engine a page
 * of results at a time, and kept until a catalog change touches its kind (`catalogChanged`) or it is an hour
 * old. The index costs one count per kind.
 */
export class SitemapService {
  private readonly urlsPerFile: number;
  private readonly now: () => Date;
  // A file of 50,000 event addresses is 6 to 8 MB: the least recently asked-for are built again when asked.
  private readonly built = byteBounded<string, BuiltSitemap>(CACHE_BYTES.sitemaps, (b) => b.template.length, {
    ttl: SITEMAP_CACHE_TTL_MS,
    maxEntrySize: SITEMAP_FILE_BYTES,
  });
  /** Builds under way, by cache key: concurrent requests for one file share one build. */
  private readonly building = new Map<string, Promise<BuiltSitemap | undefined>>();
  /** Bumped per kind by every catalog change to it: a build overtaken by one is answered but not kept. */
  private readonly generations = new Map<SitemapKind, number>(SITEMAP_KINDS.map((k) => [k, 0]));
  /**
   * The moment the events files list the upcoming events of (ms), the same for the index and every events file
   * until they are dropped: files built minutes apart still split one list, with no event skipped or repeated
   * where one file ends and the next begins as events start.
   */
  private eventsAsOf: number | undefined;

  constructor(private readonly options: SitemapServiceOptions) {
    this.urlsPerFile = options.urlsPerFile ?? MAX_URLS_PER_SITEMAP;
    if (!(this.urlsPerFile >= 1 && this.urlsPerFile <= MAX_URLS_PER_SITEMAP))
      throw new Error(`urlsPerFile must be 1 to ${MAX_URLS_PER_SITEMAP}`);
    this.now = options.now ?? (() => new Date());
  }

  /** The sitemap index at `origin`: one file per `urlsPerFile` documents of each kind. */
  async index(origin: string): Promise<string> {
    const counts = await Promise.all(SITEMAP_KINDS.map((kind) => this.count(kind))).finally(() =>
      this.options.engine().invalidate(SITEMAP_SEARCH_TAG),
    );
    const locs = SITEMAP_KINDS.flatMap((kind, i) =>
      Array.from({ length: this.files(counts[i]!) }, (_, n) => `${origin}${sitemapFilePath(kind, n + 1)}`),
    );
    if (locs.length > MAX_SITEMAPS_PER_INDEX)
      throw new Error(`${locs.length} sitemap files exceed the ${MAX_SITEMAPS_PER_INDEX} an index may list`);
    return sitemapIndex(locs);
  }

  /** A sitemap file by name (`events-2.xml`), or undefined when there is no such file. */
  async file(name: string, origin: string): Promise<SitemapFile | undefined> {
    const built = await this.builtFile(name);
    if (!built) return undefined;
    return {
      body: built.template.replaceAll(ORIGIN_MARK, escapeXml(origin)),
      etag: `"${built.tag}-${createHash('sha256').update(origin).digest('base64url').slice(0, 12)}"`,
      urls: built.urls,
    };
  }

  /** The built file of that name (building it if it is not kept), or undefined when there is no such file. */
  private async builtFile(name: string): Promise<BuiltSitemap | undefined> {
    const match = SITEMAP_FILE.exec(name);
    if (!match) return undefined;
    const kind = match[1] as SitemapKind;
    const n = Number(match[2]);
    const key = JSON.stringify([kind, n]);
    const kept = this.built.get(key);
    if (kept) return kept;
    let build = this.building.get(key);
    if (!build) {
      const generation = this.generations.get(kind)!;
      build = this.build(kind, n)
        .then((built) => {
          if (built && this.generations.get(kind) === generation) this.built.set(key, built);
          return built;
        })
        .finally(() => {
          if (this.building.get(key) === build) this.building.delete(key);
        });
      this.building.set(key, build);
    }
    return build;
  }

  /** Drops the files that catalog changes make stale: their kind's, and the categories' (whose time they move). */
  catalogChanged(changes: readonly { collection: CollectionName }[]): void {
    const kinds = new Set<SitemapKind>();
    for (const { collection } of changes) {
      const kind = (Object.keys(KIND_COLLECTION) as (keyof typeof KIND_COLLECTION)[]).find(
        (k) => KIND_COLLECTION[k] === collection,
      );
      if (kind) kinds.add(kind).add('categories');
    }
    if (kinds.size === 0) return;
    this.drop(kinds);
  }

  private drop(kinds: ReadonlySet<SitemapKind>): void {
    for (const kind of kinds) this.generations.set(kind, this.generations.get(kind)! + 1);
    for (const key of [...this.built.keys()]) if (kinds.has(JSON.parse(key)[0])) this.built.delete(key);
    for (const key of [...this.building.keys()]) if (kinds.has(JSON.parse(key)[0])) this.building.delete(key);
    if (kinds.has('events')) this.eventsAsOf = undefined;
  }

  /** The moment events are listed as of: set when first needed, and moved on (the events files dropped) hourly. */
  private listedAsOf(): Date {
    const now = this.now().getTime();
    if (this.eventsAsOf !== undefined && now - this.eventsAsOf >= SITEMAP_CACHE_TTL_MS) this.drop(new Set(['events']));
    this.eventsAsOf ??= now;
    return new Date(this.eventsAsOf);
  }

  private files(count: number): number {
    return Math.ceil(count / this.urlsPerFile);
  }

  private async count(kind: SitemapKind): Promise<number> {
    if (kind === 'categories') return this.options.categories().length;
    const listing = this.listing(kind);
    return this.countBetween(listing, listing.min, listing.max);
  }

  private async build(kind: SitemapKind, n: number): Promise<BuiltSitemap | undefined> {
    const offset = (n - 1) * this.urlsPerFile;
    const parts: string[] = [URLSET_OPEN];
    if (kind === 'categories') {
      const slugs = this.options.categories().slice(offset, offset + this.urlsPerFile);
      if (slugs.length === 0) return undefined;
      const lastmod = this.options.times.latest;
      for (const slug of slugs) parts.push(urlEntry(`${ORIGIN_MARK}${categoryPath(slug)}`, lastmod));
      return finish(parts, slugs.length);
    }
    const listing = this.listing(kind);
    const engine = this.options.engine();
    try {
      let urls = 0;
      for await (const doc of this.walk(engine, listing, offset, this.urlsPerFile)) {
        parts.push(
          urlEntry(`${ORIGIN_MARK}${listing.path(doc)}`, this.options.times.of(listing.collection, String(doc.id))),
        );
        urls++;
      }
      return urls === 0 ? undefined : finish(parts, urls);
    } finally {
      // The pages read for a file are of no use to shoppers' searches: they leave the result cache at once.
      engine.invalidate(SITEMAP_SEARCH_TAG);
    }
  }

  private listing(kind: Exclude<SitemapKind, 'categories'>): Listing {
    switch (kind) {
      case 'events': {
        // Listed as the performer and venue pages list events: upcoming, dated, not cancelled, within 10 years
        // (RULES 5.4). Walked by start time, the order the engine keeps events in.
        const upcoming = upcomingFilters(this.listedAsOf());
        const range = upcoming.find(
          (f): f is Extract<Filter, { op: 'between' }> => f.op === 'between' && f.field === 'event_timestamp',
        );
        if (!range) throw new Error('the upcoming-events filters no longer bound event_timestamp');
        const others = upcoming.filter((f) => f !== range);
        return {
          collection: 'Event',
          key: 'event_timestamp',
          tie: 'event_id',
          fields: ['id', 'event_id', 'event_name', 'event_timestamp'],
          filters: (min, max) => [
            { op: 'between', field: 'event_timestamp', min: Math.max(min, range.min), max: Math.min(max, range.max) },
            ...others,
          ],
          min: range.min,
          max: range.max,
          path: (doc) => eventPath(doc.event_name as string, doc.event_id as number),
        };
      }
      case 'performers':
        return idListing('Performer', 'performer_id', 'performer_name', performerPath);
      case 'venues':
        return idListing('Venue', 'venue_id', 'venue_name', venuePath);
    }
  }

  private async countBetween(listing: Listing, min: number, max: number): Promise<number> {
    if (min > max) return 0;
    const result = await this.options
      .engine()
      .search({ collection: listing.collection, filters: listing.filters(min, max), perPage: 0 }, [SITEMAP_SEARCH_TAG]);
    return result.found;
  }

  /**
   * The `limit` listed documents after the first `offset`, in (key, tie) order. The file's first key is found
   * by bisecting counts (each answered from the engine's indexes), then pages of results are read from a key
   * on, skipping those of that key already taken: no page read is deeper than one key's documents.
   */
  private async *walk(
    engine: CachedEngine,
    listing: Listing,
    offset: number,
    limit: number,
  ): AsyncGenerator<Record<string, unknown>> {
    let key = listing.min;
    let skip = 0;
    if (offset > 0) {
      // The smallest key with more than `offset` documents at or below it.
      let lo = listing.min;
      let hi = listing.max;
      if ((await this.countBetween(listing, lo, hi)) <= offset) return;
      while (lo < hi) {
        const mid = lo + Math.floor((hi - lo) / 2);
        if ((await this.countBetween(listing, listing.min, mid)) > offset) hi = mid;
        else lo = mid + 1;
      }
      key = lo;
      skip = offset - (await this.countBetween(listing, listing.min, lo - 1));
    }
    const sort: SortKey[] = [
      { by: listing.key, order: 'asc' },
      ...(listing.tie === listing.key ? [] : [{ by: listing.tie, order: 'asc' as const }]),
    ];
    let taken = 0;
    while (taken < limit) {
      const page = Math.floor(skip / MAX_PER_PAGE) + 1;
      if (page > MAX_PAGE)
        throw new Error(
          `more than ${MAX_PAGE * MAX_PER_PAGE} ${listing.collection} documents share ${listing.key} ${key}`,
        );
      const result = await engine.search(
        {
          collection: listing.collection,
          filters: listing.filters(key, listing.max),
          sort,
          page,
          perPage: MAX_PER_PAGE,
          includeFields: listing.fields,
        },
        [SITEMAP_SEARCH_TAG],
      );
      const docs = (result.hits as { document: Record<string, unknown> }[])
        .map((h) => h.document)
        .slice(skip % MAX_PER_PAGE, (skip % MAX_PER_PAGE) + limit - taken);
      if (docs.length === 0) return;
      for (const doc of docs) yield doc;
      taken += docs.length;
      const last = docs[docs.length - 1]![listing.key] as number;
      if (last === key) skip += docs.length;
      else {
        key = last;
        skip = docs.filter((d) => d[listing.key] === last).length;
      }
    }
  }
}

/** Every document of a collection, walked by its numeric entity id. */
function idListing(
  collection: PagedCollection,
  idField: string,
  nameField: string,
  path: (name: string, id: number) => string,
): Listing {
  return {
    collection,
    key: idField,
    tie: idField,
    fields: ['id', idField, nameField],
    filters: (min, max) => [{ op: 'between', field: idField, min, max }],
    min: 1,
    max: Number.MAX_SAFE_INTEGER,
    path: (doc) => path(doc[nameField] as string, doc[idField] as number),
  };
}

function finish(parts: string[], urls: number): BuiltSitemap {
  parts.push(URLSET_CLOSE);
  const template = parts.join('');
  return { template, urls, tag: createHash('sha256').update(template).digest('base64url').slice(0, 27) };
}
