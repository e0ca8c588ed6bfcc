import type { CollectionName } from '../../schemas/documents.js';
import type { Filter, ParsedSearchRequest } from '../../schemas/search.js';
import { haversineMiles } from './embedded/geo.js';

/**
 * Whether `doc` of `collection` could be among the answers of `request`: same collection, every filter and the
 * radius passing. Text is not looked at (any document could match some words), so this may say yes when the
 * engine would say no, never the other way round: it decides which cached answers a change to `doc` makes
 * stale, where a needless drop costs one query and a missed one shows shoppers the old catalog.
 */
export function requestTouches(request: ParsedSearchRequest, collection: CollectionName, doc: Record<string, unknown>): boolean {
  if (request.collection !== collection) return false;
  for (const filter of request.filters) if (!passes(filter, valuesAt(doc, filter.field))) return false;
  const geo = request.geo;
  if (geo) {
    const points = pointsAt(doc, geo.field);
    if (!points.some(([lat, lng]) => haversineMiles(geo.lat, geo.lng, lat, lng) <= geo.radiusMiles)) return false;
  }
  return true;
}

/** Every value at a field path, arrays (and arrays of objects on the way) flattened. */
function valuesAt(doc: unknown, path: string): unknown[] {
  let values: unknown[] = [doc];
  for (const key of path.split('.')) {
    values = values.flatMap((v) => (Array.isArray(v) ? v : [v])).map((v) => (v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined));
  }
  return values.flatMap((v) => (Array.isArray(v) ? v : [v])).filter((v) => v !== undefined && v !== null);
}

function pointsAt(doc: Record<string, unknown>, field: string): [number, number][] {
  const value = doc[field];
  if (!Array.isArray(value)) return [];
  if (value.length === 2 && typeof value[0] === 'number') return [value as [number, number]];
  return value.filter((p): p is [number, number] => Array.isArray(p) && p.length === 2);
}

/** A filter on a multi-valued field passes when any value does; `neq`/`nin` when none is excluded. */
function passes(filter: Filter, values: unknown[]): boolean {
  switch (filter.op) {
    case 'eq':
      return values.some((v) => v === filter.value);
    case 'in':
      return values.some((v) => filter.values.includes(v as never));
    case 'neq':
      return !values.some((v) => v === filter.value);
    case 'nin':
      return !values.some((v) => filter.values.includes(v as never));
    case 'gt':
      return values.some((v) => typeof v === 'number' && v > filter.value);
    case 'gte':
      return values.some((v) => typeof v === 'number' && v >= filter.value);
    case 'lt':
      return values.some((v) => typeof v === 'number' && v < filter.value);
    case 'lte':
      return values.some((v) => typeof v === 'number' && v <= filter.value);
    case 'between':
      return values.some((v) => typeof v === 'number' && v >= filter.min && v <= filter.max);
  }
}
