import type { CollectionName } from '../../shared/schemas/documents.js';
import type { ParsedSearchRequest } from '../../shared/schemas/search.js';
import { cellOf, coveringCells } from '../search/embedded/geo.js';
import { compileTouches, pointsAt, type Touches } from '../search/request-touches.js';

const NONE: readonly string[] = [];

/** A catalog document as a change left it or found it, for telling which rows it touches. */
export interface ChangedDocument {
  collection: CollectionName;
  document: Record<string, unknown>;
}

interface Scope {
  collection: CollectionName;
  touches: Touches;
  /** The cached rows that made this request. */
  rows: Set<string>;
  /** Where it is filed: its radius's 1° cells on its point field, or everywhere. */
  places: string[];
}

/**
 * The search requests cached layout rows were made from, filed so that a catalog change finds the rows it makes
 * stale without testing every row: identical requests (a national row asked from a thousand places) are
 * one, each compiled once (`compileTouches`), and a request with a radius is filed under the 1° cells it
 * covers, so a document is tested only against the requests of its own cells and those without a radius.
 */
export class RowScopes {
  private readonly scopes = new Map<string, Scope>();
  /** Request keys by place: `collection|field|cell` for a radius, `collection|*` for everywhere. */
  private readonly byPlace = new Map<string, Set<string>>();
  /** The point fields radius requests use, by collection: the cells a document is looked up under. */
  private readonly pointFields = new Map<CollectionName, Map<string, number>>();
  private readonly rowRequests = new Map<string, string[]>();

  /** Files a row's requests (replacing what it had). */
  add(rowKey: string, requests: readonly ParsedSearchRequest[]): void {
    this.remove(rowKey);
    const byKey = new Map(requests.map((r) => [JSON.stringify(r), r]));
    this.rowRequests.set(rowKey, [...byKey.keys()]);
    for (const [key, request] of byKey) {
      let scope = this.scopes.get(key);
      if (!scope) {
        const cells = request.geo ? coveringCells(request.geo) : null;
        const places = cells
          ? cells.map((cell) => `${request.collection}|${request.geo!.field}|${cell}`)
          : [`${request.collection}|*`];
        scope = { collection: request.collection, touches: compileTouches(request), rows: new Set(), places };
        this.scopes.set(key, scope);
        for (const place of places) this.filed(place).add(key);
        if (cells) this.countField(request.collection, request.geo!.field, 1);
      }
      scope.rows.add(rowKey);
    }
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
      work += scope.places.length;
      for (const place of scope.places) {
        const filed = this.byPlace.get(place)!;
        filed.delete(key);
        if (filed.size === 0) this.byPlace.delete(place);
      }
      if (!scope.places[0]!.endsWith('|*')) this.countField(scope.collection, scope.places[0]!.split('|')[1]!, -1);
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
      const candidates: Iterable<string>[] = [this.byPlace.get(`${collection}|*`) ?? []];
      for (const field of this.pointFields.get(collection)?.keys() ?? []) {
        for (const [lat, lng] of pointsAt(document, field))
          candidates.push(this.byPlace.get(`${collection}|${field}|${cellOf(lat, lng)}`) ?? []);
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

  private filed(place: string): Set<string> {
    let keys = this.byPlace.get(place);
    if (!keys) this.byPlace.set(place, (keys = new Set()));
    return keys;
  }

  private countField(collection: CollectionName, field: string, by: number): void {
    let fields = this.pointFields.get(collection);
    if (!fields) this.pointFields.set(collection, (fields = new Map()));
    const n = (fields.get(field) ?? 0) + by;
    if (n > 0) fields.set(field, n);
    else fields.delete(field);
  }
}
