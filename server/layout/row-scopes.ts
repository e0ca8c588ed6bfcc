import type { CollectionName } from '../../shared/schemas/documents.js';
import type { ParsedSearchRequest } from '../../shared/schemas/search.js';
import { cellOf, coarseCellOf, coveringCells } from '../search/embedded/geo.js';
import { compileTouches, pointsAt, type Touches } from '../search/request-touches.js';

const NONE: readonly string[] = [];

/** A catalog document as a change left it or found it, for telling which rows it touches. */
export interface ChangedDocument {
  collection: CollectionName;
  document: Record<string, unknown>;
}

/** The requests filed at one place: `collection|field|cell` for a radius, `collection|*` for everywhere. */
interface Filing {
  place: string;
  keys: Set<string>;
}

interface Scope {
  collection: CollectionName;
  touches: Touches;
  /** The cached rows that made this request. */
  rows: Set<string>;
  /** Where it is filed (shared with every request filed there, so a place is one string however many use it). */
  filings: Filing[];
  /** The point field of a radius request. */
  field?: string;
}

/**
 * A radius that 1° cells cover with more cells than this is filed under coarse cells instead: a 200-mile radius
 * takes about 56 1° cells but 4 to 9 of 4°, and each filing costs memory for as long as the row is cached.
 */
const FINE_CELLS_AT_MOST = 16;
/** The coarse grid's cell side, in degrees. */
const COARSE_DEGREES = 4;
/**
 * About what a filed request takes besides its key and filings: its compiled test (closures and their contexts,
 * about 1 KB in a heap snapshot) and the scope around it.
 */
const SCOPE_BYTES = 1_536;
/** About what one filing of a request at a place takes: its entry in the place's set, and a pointer. */
const FILING_BYTES = 64;

/** The places a request is filed under: its radius's cells on its point field, or everywhere. */
function placesOf(request: ParsedSearchRequest): string[] {
  const geo = request.geo;
  const fine = geo ? coveringCells(geo) : null;
  if (!geo || !fine) return [`${request.collection}|*`];
  const cells = fine.length <= FINE_CELLS_AT_MOST ? fine : coveringCells(geo, COARSE_DEGREES)!;
  return cells.map((cell) => `${request.collection}|${geo.field}|${cell}`);
}

/**
 * The search requests cached layout rows were made from, filed so that a catalog change finds the rows it makes
 * stale without testing every row: identical requests (a national row asked from a thousand places) are
 * one, each compiled once (`compileTouches`), and a request with a radius is filed under the cells it covers (1°
 * ones, or 4° ones for a wide radius), so a document is tested only against the requests of its own cells and
 * those without a radius.
 */
export class RowScopes {
  private readonly scopes = new Map<string, Scope>();
  private readonly byPlace = new Map<string, Filing>();
  /** The point fields radius requests use, by collection: the cells a document is looked up under. */
  private readonly pointFields = new Map<CollectionName, Map<string, number>>();
  private readonly rowRequests = new Map<string, string[]>();

  /**
   * Files a row's requests (replacing what it had); about the bytes that takes, for the row cache's bound (RULES
   * 13.12). A request other rows share is counted for each of them: the bound errs on the safe side.
   */
  add(rowKey: string, requests: readonly ParsedSearchRequest[]): number {
    this.remove(rowKey);
    const byKey = new Map(requests.map((r) => [JSON.stringify(r), r]));
    this.rowRequests.set(rowKey, [...byKey.keys()]);
    let bytes = 0;
    for (const [key, request] of byKey) {
      let scope = this.scopes.get(key);
      if (!scope) {
        const filings = placesOf(request).map((place) => this.filing(place));
        const field = filings[0]!.place.endsWith('|*') ? undefined : request.geo!.field;
        scope = { collection: request.collection, touches: compileTouches(request), rows: new Set(), filings };
        if (field) scope.field = field;
        this.scopes.set(key, scope);
        for (const filing of filings) filing.keys.add(key);
        if (field) this.countField(request.collection, field, 1);
      }
      scope.rows.add(rowKey);
      bytes += SCOPE_BYTES + key.length + scope.filings.length * FILING_BYTES;
    }
    return bytes;
  }

  /** Forgets a row (it left the cache); how many filings that took (a unit of invalidation work each). */
  remove(rowKey: string): number {
    const keys = this.rowRequests.get(rowKey);
    if (!keys) return 0;
    this.rowRequests.delete(rowKey);
    let work = keys.length;
    for (const key of keys) {
      const scope = this.scopes.get(key)!;
      scope.rows.delete(rowKey);
      if (scope.rows.size > 0) continue;
      this.scopes.delete(key);
      work += scope.filings.length;
      for (const filing of scope.filings) {
        filing.keys.delete(key);
        if (filing.keys.size === 0) this.byPlace.delete(filing.place);
      }
      if (scope.field) this.countField(scope.collection, scope.field, -1);
    }
    return work;
  }

  /** The rows a change to these documents could show differently. */
  stale(documents: readonly ChangedDocument[]): Set<string> {
    const rows = new Set<string>();
    for (const found of this.search(documents)) for (const row of found) rows.add(row);
    return rows;
  }

  /**
   * The same search a request at a time, so that it can be done in slices: each step tests one filed request
   * against one document and gives the rows it makes stale (most often none). Rows may come and go between steps:
   * a request no longer filed is passed over, and one filed since is not tested (a row resolved after the change
   * was made from the catalog as it now is). A request found stale is not tested again for later documents.
   */
  *search(documents: readonly ChangedDocument[]): Generator<Iterable<string>, void, undefined> {
    const tested = new Set<string>();
    const found = new Set<string>();
    for (const { collection, document } of documents) {
      tested.clear();
      const candidates: Iterable<string>[] = [this.filed(`${collection}|*`)];
      for (const field of this.pointFields.get(collection)?.keys() ?? []) {
        for (const [lat, lng] of pointsAt(document, field)) {
          candidates.push(this.filed(`${collection}|${field}|${cellOf(lat, lng)}`));
          candidates.push(this.filed(`${collection}|${field}|${coarseCellOf(lat, lng, COARSE_DEGREES)}`));
        }
      }
      // Read as they stand at each step (rows dropped between steps leave them; a set iterated past a deletion
      // goes on with the rest).
      for (const keys of candidates) {
        for (const key of keys) {
          if (tested.has(key) || found.has(key)) continue;
          tested.add(key);
          const scope = this.scopes.get(key);
          if (!scope) continue;
          if (scope.touches(document)) {
            found.add(key);
            yield [...scope.rows];
          } else yield NONE;
        }
      }
    }
  }

  get size(): number {
    return this.rowRequests.size;
  }

  /** The filing of a place, made when first needed. */
  private filing(place: string): Filing {
    let filing = this.byPlace.get(place);
    if (!filing) this.byPlace.set(place, (filing = { place, keys: new Set() }));
    return filing;
  }

  /** The request keys filed at a place (none when nothing is). */
  private filed(place: string): Iterable<string> {
    return this.byPlace.get(place)?.keys ?? NONE;
  }

  private countField(collection: CollectionName, field: string, by: number): void {
    let fields = this.pointFields.get(collection);
    if (!fields) this.pointFields.set(collection, (fields = new Map()));
    const n = (fields.get(field) ?? 0) + by;
    if (n > 0) fields.set(field, n);
    else fields.delete(field);
  }
}
