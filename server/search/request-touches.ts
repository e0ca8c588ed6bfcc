import type { Filter, ParsedSearchRequest } from '../../shared/schemas/search.js';
import { haversineMiles, latitudeSpan } from './embedded/geo.js';

/** Whether a document (of the request's collection) could be among a request's answers. */
export type Touches = (doc: Record<string, unknown>) => boolean;

/**
 * The test of whether a document could be among the answers of `request`: every filter and the radius passing.
 * Text is not looked at (any document could match some words), so it may say yes when the engine would say no,
 * never the other way round: it decides which cached answers a change to a document makes stale, where a
 * needless drop costs one query and a missed one shows shoppers the old catalog. Compiled once per request,
 * since a change is tested against every cached row.
 */
export function compileTouches(request: ParsedSearchRequest): Touches {
  const tests = request.filters.map(compileFilter);
  const geo = request.geo;
  let near: Touches | null = null;
  if (geo) {
    // Points plainly out of range in latitude skip the trigonometry.
    const span = latitudeSpan(geo.radiusMiles);
    const inRange = (lat: unknown, lng: unknown) =>
      typeof lat === 'number' &&
      typeof lng === 'number' &&
      Math.abs(lat - geo.lat) <= span &&
      haversineMiles(geo.lat, geo.lng, lat, lng) <= geo.radiusMiles;
    near = (doc) => {
      const value = doc[geo.field];
      if (!Array.isArray(value)) return false;
      if (typeof value[0] === 'number') return inRange(value[0], value[1]);
      return value.some((p) => Array.isArray(p) && inRange(p[0], p[1]));
    };
  }
  // The radius first: for most rows it is what rules a document out, and it costs no allocation.
  return (doc) => (!near || near(doc)) && tests.every((test) => test(doc));
}

/** The points of a document's point field (one point, or a list of them). */
export function pointsAt(doc: Record<string, unknown>, field: string): [number, number][] {
  const value = doc[field];
  if (!Array.isArray(value)) return [];
  if (value.length === 2 && typeof value[0] === 'number') return [value as [number, number]];
  return value.filter((p): p is [number, number] => Array.isArray(p) && p.length === 2);
}

/** Every value at a field path, arrays (and arrays of objects on the way) flattened. */
function reader(path: string): (doc: Record<string, unknown>) => unknown[] {
  const keys = path.split('.');
  const flat = (values: unknown[]) => values.flatMap((v) => (Array.isArray(v) ? v : [v]));
  if (keys.length === 1) {
    return (doc) => {
      const value = doc[path];
      return value === undefined || value === null ? [] : Array.isArray(value) ? value : [value];
    };
  }
  return (doc) => {
    let values: unknown[] = [doc];
    for (const key of keys)
      values = flat(values).map((v) =>
        v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined,
      );
    return flat(values).filter((v) => v !== undefined && v !== null);
  };
}

/** A filter on a multi-valued field passes when any value does; `neq`/`nin` when none is excluded. */
function compileFilter(filter: Filter): Touches {
  const read = reader(filter.field);
  const any = (test: (v: unknown) => boolean) => (doc: Record<string, unknown>) => read(doc).some(test);
  const number = (test: (v: number) => boolean) => any((v) => typeof v === 'number' && test(v));
  switch (filter.op) {
    case 'eq':
      return any((v) => v === filter.value);
    case 'in': {
      const values = new Set<unknown>(filter.values);
      return any((v) => values.has(v));
    }
    case 'neq': {
      const hit = any((v) => v === filter.value);
      return (doc) => !hit(doc);
    }
    case 'nin': {
      const values = new Set<unknown>(filter.values);
      const hit = any((v) => values.has(v));
      return (doc) => !hit(doc);
    }
    case 'gt':
      return number((v) => v > filter.value);
    case 'gte':
      return number((v) => v >= filter.value);
    case 'lt':
      return number((v) => v < filter.value);
    case 'lte':
      return number((v) => v <= filter.value);
    case 'between':
      return number((v) => v >= filter.min && v <= filter.max);
  }
}
