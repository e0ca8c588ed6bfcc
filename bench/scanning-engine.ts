import MiniSearch, { type SearchResult as MiniResult } from 'minisearch';
import { COLLECTION_NAMES, type CollectionDocuments, type CollectionName } from '../shared/schemas/documents.js';
import {
  GEO_DISTANCE,
  MATCH_ALL,
  SearchRequestSchema,
  TEXT_MATCH,
  type Filter,
  type GeoFilter,
  type ParsedSearchRequest,
  type SearchHit,
  type SearchResult,
} from '../shared/schemas/search.js';
import type { CatalogCollections } from '../server/catalog/load-catalog.js';
import { SEARCHABLE_FIELDS, type SearchEngine, type SearchRequestFor } from '../server/search/search-engine.js';
import { compileDocumentTest, nearestMiles, readPath } from '../server/search/filter-match.js';
import { TermDictionary } from './term-dictionary.js';
import { foldText, tokenize } from '../server/search/embedded/text.js';
import { typoBudget } from '../server/search/embedded/text-index.js';
import { MAX_PREFIX_CANDIDATES } from '../shared/rules/constants.js';

type Doc = Record<string, unknown>;

interface Indexed {
  i: number;
}

interface Hit {
  i: number;
  textMatch: number;
  distance?: number;
  sortValues: unknown[];
}

interface CollectionIndex {
  docs: Doc[];
  text: MiniSearch<Indexed> | null;
  terms: TermDictionary;
  /** Exact-value postings per field, built on first use by an `eq`/`in` filter. */
  postings: Map<string, Map<string, number[]>>;
  /** Documents by 1° grid cell of a geo field, built on first use by a geo filter. */
  grids: Map<string, Map<string, number[]>>;
}

/** Documents indexed between yields to the event loop while building, so the server keeps answering. */
const BUILD_CHUNK = 5_000;

/**
 * The scanning engine the storefront used before `EmbeddedEngine`: every collection as JS objects, a MiniSearch
 * text index, and a filter, geo and sort layer that tests candidates one by one. Kept as the reference the
 * new engine is measured against (`npm run bench -- --engine`) and, with `bruteForce`, as the plain
 * filter-everything-then-sort oracle of the equivalence test.
 */
export class ScanningEngine implements SearchEngine {
  readonly kind = 'embedded' as const;

  private constructor(
    private readonly indexes: Map<CollectionName, CollectionIndex>,
    private readonly bruteForce: boolean,
  ) {}

  static async build(collections: CatalogCollections, options: { bruteForce?: boolean } = {}): Promise<ScanningEngine> {
    const indexes = new Map<CollectionName, CollectionIndex>();
    for (const name of COLLECTION_NAMES) {
      const docs = collections[name] as unknown as Doc[];
      const fields = SEARCHABLE_FIELDS[name] as readonly string[];
      let text: MiniSearch<Indexed> | null = null;
      const terms = new TermDictionary();
      if (fields.length > 0) {
        text = new MiniSearch<Indexed>({
          idField: 'i',
          fields: [...fields],
          extractField: (entry, field) => (field === 'i' ? String(entry.i) : fieldText(docs[entry.i]!, field)),
          tokenize,
          processTerm: (term) => foldText(term) || null,
          searchOptions: { tokenize, processTerm: (term) => foldText(term) || null },
        });
        await text.addAllAsync(
          docs.map((_, i) => ({ i })),
          { chunkSize: BUILD_CHUNK },
        );
        for (const doc of docs) terms.addDocument(fields.flatMap((f) => tokenize(fieldText(doc, f)).map(foldText)));
        terms.seal();
      }
      indexes.set(name, { docs, text, terms, postings: new Map(), grids: new Map() });
    }
    return new ScanningEngine(indexes, options.bruteForce ?? false);
  }

  async health() {
    return { ok: true, detail: `${this.indexes.get('Event')?.docs.length ?? 0} events indexed in process` };
  }

  async search<C extends CollectionName>(
    input: SearchRequestFor<C>,
  ): Promise<SearchResult<Partial<CollectionDocuments[C]>>> {
    const began = performance.now();
    const request = SearchRequestSchema.parse(input);
    const index = this.indexes.get(request.collection)!;
    const matches = this.match(index, request);
    const { found, ordered } = this.filterAndSort(index, matches, request);
    const start = (request.page - 1) * request.perPage;
    const pageHits = ordered.slice(start, start + request.perPage).map((h) => ({
      document: project(index.docs[h.i]!, request.includeFields) as Partial<CollectionDocuments[C]>,
      textMatch: h.textMatch,
      ...(h.distance !== undefined ? { geoDistanceMiles: h.distance } : {}),
    })) satisfies SearchHit<Partial<CollectionDocuments[C]>>[];
    return {
      hits: pageHits,
      found,
      page: request.page,
      searchTimeMs: Math.round((performance.now() - began) * 1000) / 1000,
    };
  }

  /** Text matching: doc position → relevance, or null for match-all. */
  private match(index: CollectionIndex, request: ParsedSearchRequest): Map<number, number> | null {
    const q = request.q.trim();
    if (q === MATCH_ALL || q === '') return null;
    const terms = tokenize(q)
      .map(foldText)
      .filter((t) => t !== '');
    if (terms.length === 0 || !index.text) return new Map();
    const fields = request.queryBy;
    // Earlier fields weigh more: each field counts twice the one after it, unless weights are given.
    const weights = request.queryByWeights ?? fields.map((_, i) => 2 ** (fields.length - 1 - i));
    const boost = Object.fromEntries(fields.map((f, i) => [f, weights[i]!]));
    const base = { fields, boost, combineWith: 'AND' as const };
    // Exact words, the last one standing for its most frequent completions (Typesense's max_candidates).
    const last = terms[terms.length - 1]!;
    const completions = index.terms.expand(last, MAX_PREFIX_CANDIDATES);
    let results: MiniResult[] = [];
    if (completions.length > 0) {
      const query = {
        combineWith: 'AND' as const,
        queries: [...terms.slice(0, -1), { combineWith: 'OR' as const, queries: completions }],
      };
      results = index.text.search(query, { ...base, prefix: false, fuzzy: false });
    }
    if (results.length === 0) {
      results = index.text.search(q, {
        ...base,
        prefix: (_term: string, i: number, all: string[]) => i === all.length - 1,
        fuzzy: (term) => typoBudget(term),
      });
    }
    const scored = new Map<number, number>();
    const fieldWeights = new Map(fields.map((f, i) => [f, weights[i]!]));
    for (const r of results) scored.set(Number(r.id), relevance(r, terms, fieldWeights));
    return scored;
  }

  /** Filters, then orders only as many hits as the page needs; `found` still counts them all. */
  private filterAndSort(index: CollectionIndex, matches: Map<number, number> | null, request: ParsedSearchRequest) {
    const { docs } = index;
    const predicates = request.filters.map(compileDocumentTest);
    const candidates = this.candidates(index, request.filters, matches, request.geo);
    const geo = request.geo;
    const keys = [...request.sort];
    if (!keys.some((k) => k.by === TEXT_MATCH)) keys.push({ by: TEXT_MATCH, order: 'desc' });
    const hits: Hit[] = [];
    for (const i of candidates) {
      const doc = docs[i]!;
      let ok = true;
      for (const p of predicates) {
        if (!p(doc)) {
          ok = false;
          break;
        }
      }
      if (!ok) continue;
      let distance: number | undefined;
      if (geo) {
        distance = nearestMiles(doc, geo);
        if (!(distance <= geo.radiusMiles)) continue;
      }
      const textMatch = matches?.get(i) ?? 0;
      // Sort values are read once per hit, not once per comparison.
      const sortValues = keys.map((k) =>
        k.by === TEXT_MATCH ? textMatch : k.by === GEO_DISTANCE ? (distance ?? Infinity) : readPath(doc, k.by),
      );
      hits.push({ i, textMatch, distance, sortValues });
    }
    const compare = (a: Hit, b: Hit) => {
      for (let k = 0; k < keys.length; k++) {
        const c = compareValues(a.sortValues[k], b.sortValues[k], keys[k]!.order === 'asc' ? 1 : -1);
        if (c !== 0) return c;
      }
      return a.i - b.i;
    };
    const needed = request.page * request.perPage;
    return { found: hits.length, ordered: needed * 8 < hits.length ? topK(hits, needed, compare) : hits.sort(compare) };
  }

  /**
   * The documents worth testing: the text matches when there is a query, else the shortest posting list of
   * an exact filter, else everything.
   */
  private candidates(
    index: CollectionIndex,
    filters: Filter[],
    matches: Map<number, number> | null,
    geo: GeoFilter | undefined,
  ): Iterable<number> {
    if (matches) return matches.keys();
    if (this.bruteForce) return index.docs.keys();
    let best: number[] | null = null;
    for (const f of filters) {
      if (f.op !== 'eq' && f.op !== 'in') continue;
      const postings = this.postingsFor(index, f.field);
      const values = f.op === 'eq' ? [f.value] : f.values;
      // A document can match several values of an array field: list it once.
      const list =
        values.length === 1
          ? (postings.get(valueKey(values[0]!)) ?? [])
          : [...new Set(values.flatMap((v) => postings.get(valueKey(v)) ?? []))].sort((a, b) => a - b);
      if (!best || list.length < best.length) best = list;
    }
    if (geo) {
      const near = this.nearCells(index, geo);
      if (!best || near.length < best.length) best = near;
    }
    if (best) return best;
    return index.docs.keys();
  }

  /** The documents with a point in the 1° cells that cover the radius (the exact distance is checked later). */
  private nearCells(index: CollectionIndex, geo: GeoFilter): number[] {
    let grid = index.grids.get(geo.field);
    if (!grid) {
      grid = new Map();
      index.docs.forEach((doc, i) => {
        const raw = readPath(doc, geo.field);
        if (!Array.isArray(raw) || raw.length === 0) return;
        const points = typeof raw[0] === 'number' ? [raw as number[]] : (raw as number[][]);
        for (const key of new Set(points.map(([lat, lng]) => cellKey(Math.floor(lat!), Math.floor(lng!))))) {
          const list = grid!.get(key);
          if (list) list.push(i);
          else grid!.set(key, [i]);
        }
      });
      index.grids.set(geo.field, grid);
    }
    const latSpan = geo.radiusMiles / MILES_PER_DEGREE_LAT;
    const cos = Math.max(0.01, Math.cos((Math.min(89, Math.abs(geo.lat) + latSpan) * Math.PI) / 180));
    const lngSpan = Math.min(180, geo.radiusMiles / (MILES_PER_DEGREE_LAT * cos));
    const found = new Set<number>();
    for (let lat = Math.floor(geo.lat - latSpan); lat <= Math.floor(geo.lat + latSpan); lat++) {
      for (let lng = Math.floor(geo.lng - lngSpan); lng <= Math.floor(geo.lng + lngSpan); lng++) {
        const wrapped = ((((lng + 180) % 360) + 360) % 360) - 180;
        for (const i of grid.get(cellKey(lat, wrapped)) ?? []) found.add(i);
      }
    }
    return [...found].sort((a, b) => a - b);
  }

  private postingsFor(index: CollectionIndex, field: string): Map<string, number[]> {
    let postings = index.postings.get(field);
    if (!postings) {
      postings = new Map();
      index.docs.forEach((doc, i) => {
        const raw = readPath(doc, field);
        const values = Array.isArray(raw) ? new Set(raw) : [raw];
        for (const v of values) {
          if (v === null || v === undefined || typeof v === 'object') continue;
          const key = valueKey(v as string | number | boolean);
          const list = postings!.get(key);
          if (list) list.push(i);
          else postings!.set(key, [i]);
        }
      });
      index.postings.set(field, postings);
    }
    return postings;
  }
}

/**
 * Relevance in Typesense's spirit: first how many query words match a document word exactly, then, word by
 * word, the best single match (a field's weight, full for an exact word, less for a completion or a typo;
 * alternatives are not summed). Like Typesense's text match, and unlike BM25, it ignores field length, so
 * "New York Mets" and "New York Yankees" tie on "new york" and the next sort key decides.
 */
function relevance(result: MiniResult, queryTerms: string[], weights: ReadonlyMap<string, number>): number {
  const lastPosition = queryTerms.length - 1;
  let exact = 0;
  let quality = 0;
  const matched = Object.entries(result.match);
  queryTerms.forEach((queryTerm, position) => {
    let best = 0;
    let isExact = false;
    for (const [docTerm, fields] of matched) {
      const kind = docTerm === queryTerm ? 1 : position === lastPosition && docTerm.startsWith(queryTerm) ? 0.6 : 0.4;
      if (kind === 1) isExact = true;
      for (const field of fields) best = Math.max(best, (weights.get(field) ?? 1) * kind);
    }
    if (isExact) exact++;
    quality += best;
  });
  return exact * 1e6 + Math.round(quality * 1e3);
}

function fieldText(doc: Doc, field: string): string {
  const value = readPath(doc, field);
  if (Array.isArray(value)) return value.filter((v) => typeof v === 'string').join(' ');
  return typeof value === 'string' ? value : '';
}

const valueKey = (v: string | number | boolean) => `${typeof v}:${String(v)}`;
const cellKey = (lat: number, lng: number) => `${lat}:${lng}`;
/** Miles per degree of latitude, for sizing the grid search (the exact check uses haversine). */
const MILES_PER_DEGREE_LAT = 69;

/** Missing values sort last in either direction, as Typesense places them. */
function compareValues(a: unknown, b: unknown, dir: number): number {
  const aMissing = a === null || a === undefined;
  const bMissing = b === null || b === undefined;
  if (aMissing || bMissing) return aMissing === bMissing ? 0 : aMissing ? 1 : -1;
  if (typeof a === 'number' && typeof b === 'number') return (a - b) * dir;
  return String(a).localeCompare(String(b)) * dir;
}

/** The first `k` items in order, by binary insertion into a bounded list: O(n log k) instead of a full sort. */
export function topK<T>(items: readonly T[], k: number, compare: (a: T, b: T) => number): T[] {
  const top: T[] = [];
  if (k <= 0) return top;
  for (const item of items) {
    if (top.length === k && compare(item, top[k - 1]!) >= 0) continue;
    let lo = 0;
    let hi = top.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (compare(item, top[mid]!) < 0) hi = mid;
      else lo = mid + 1;
    }
    top.splice(lo, 0, item);
    if (top.length > k) top.pop();
  }
  return top;
}

function project(doc: Doc, fields: string[] | undefined): Doc {
  if (!fields) return doc;
  const out: Doc = {};
  for (const f of fields) {
    const top = f.split('.')[0]!;
    if (top in doc) out[top] = doc[top];
  }
  return out;
}
