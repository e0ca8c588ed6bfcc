import type { Filter, GeoFilter } from '../../shared/schemas/search.js';
import { haversineMiles, latitudeSpan } from './embedded/geo.js';

/**
 * Whether a document matches a typed search filter, in Typesense's semantics: equality is strict (the number 5
 * is not the string "5"), a range holds numbers only, and a document without a value passes `neq`/`nin` and
 * nothing else. On an array field (or a path through an array of objects) a positive filter matches when any
 * element does, `neq`/`nin` when none does. The embedded engine evaluates these rules against its columns,
 * the cache invalidation and the scanning reference engine against documents as JS objects.
 */

export type Scalar = string | number | boolean;

/** What a filter asks of a field's values: one of some named values, or a number in an interval. */
export type MatchRule = NamedRule | RangeRule;

/** `eq`/`in`: some value is one of `values`; `neq`/`nin` (`none`): no value is. */
export interface NamedRule {
  kind: 'named';
  values: readonly Scalar[];
  none: boolean;
}

/** `gt`/`gte`/`lt`/`lte`/`between`: some value is a number from `min` to `max`, each end open or closed. */
export interface RangeRule {
  kind: 'range';
  min: number;
  max: number;
  minOpen: boolean;
  maxOpen: boolean;
}

export function ruleOf(filter: Filter): MatchRule {
  switch (filter.op) {
    case 'eq':
      return { kind: 'named', values: [filter.value], none: false };
    case 'neq':
      return { kind: 'named', values: [filter.value], none: true };
    case 'in':
      return { kind: 'named', values: filter.values, none: false };
    case 'nin':
      return { kind: 'named', values: filter.values, none: true };
    case 'gt':
      return { kind: 'range', min: filter.value, max: Infinity, minOpen: true, maxOpen: false };
    case 'gte':
      return { kind: 'range', min: filter.value, max: Infinity, minOpen: false, maxOpen: false };
    case 'lt':
      return { kind: 'range', min: -Infinity, max: filter.value, minOpen: false, maxOpen: true };
    case 'lte':
      return { kind: 'range', min: -Infinity, max: filter.value, minOpen: false, maxOpen: false };
    case 'between':
      return { kind: 'range', min: filter.min, max: filter.max, minOpen: false, maxOpen: false };
  }
}

/** Whether a document with no value in the filtered field (or no such field) passes. */
export function passesWithoutValue(rule: MatchRule): boolean {
  return rule.kind === 'named' && rule.none;
}

/** Whether a number lies in a range; NaN (a missing number) never does. */
export function inRange(value: number, range: RangeRule): boolean {
  return (
    (range.minOpen ? value > range.min : value >= range.min) && (range.maxOpen ? value < range.max : value <= range.max)
  );
}

/**
 * The test one value of a field meets to count as a hit: for `neq`/`nin`, the value they exclude. A value of
 * another type than the filter's never hits.
 */
export function compileValueTest(rule: MatchRule): (value: unknown) => boolean {
  if (rule.kind === 'range') return (value) => typeof value === 'number' && inRange(value, rule);
  if (rule.values.length === 1) {
    const only = rule.values[0];
    return (value) => value === only;
  }
  const values = new Set<unknown>(rule.values);
  return (value) => values.has(value);
}

/** Whether a field's value, one value or an array of them, holds a value that hits. */
export function anyValue(raw: unknown, hits: (value: unknown) => boolean): boolean {
  return Array.isArray(raw) ? raw.some(hits) : hits(raw);
}

/** A field by dotted path; through an array of objects it collects each element's value. */
export function readPath(doc: unknown, path: string): unknown {
  if (!path.includes('.')) return (doc as Record<string, unknown>)[path];
  let value: unknown = doc;
  for (const part of path.split('.')) {
    if (Array.isArray(value)) value = value.map((v) => (v as Record<string, unknown> | null)?.[part]);
    else if (value && typeof value === 'object') value = (value as Record<string, unknown>)[part];
    else return undefined;
  }
  return value;
}

/** Whether a document, as a JS object, passes a filter. */
export type DocumentTest = (doc: Record<string, unknown>) => boolean;

export function compileDocumentTest(filter: Filter): DocumentTest {
  const rule = ruleOf(filter);
  const hits = compileValueTest(rule);
  const path = filter.field;
  if (passesWithoutValue(rule)) return (doc) => !anyValue(readPath(doc, path), hits);
  return (doc) => anyValue(readPath(doc, path), hits);
}

/**
 * Miles from a radius's centre to the nearest point of a document's point field (one point, or a list of them),
 * or Infinity when it has none within the radius's span of latitude. A document passes a radius when this is at
 * most `radiusMiles`. Only a top-level field holds points.
 */
export function nearestMiles(doc: Record<string, unknown>, geo: GeoFilter): number {
  const value = doc[geo.field];
  if (!Array.isArray(value)) return Infinity;
  // Points plainly out of range in latitude skip the trigonometry.
  const span = latitudeSpan(geo.radiusMiles);
  if (typeof value[0] === 'number') return milesTo(geo, span, value[0], value[1]);
  let best = Infinity;
  for (const point of value) {
    if (!Array.isArray(point)) continue;
    const miles = milesTo(geo, span, point[0], point[1]);
    if (miles < best) best = miles;
  }
  return best;
}

function milesTo(geo: GeoFilter, span: number, lat: unknown, lng: unknown): number {
  if (typeof lat !== 'number' || typeof lng !== 'number' || Math.abs(lat - geo.lat) > span) return Infinity;
  return haversineMiles(geo.lat, geo.lng, lat, lng);
}

export function withinRadius(doc: Record<string, unknown>, geo: GeoFilter): boolean {
  return nearestMiles(doc, geo) <= geo.radiusMiles;
}
