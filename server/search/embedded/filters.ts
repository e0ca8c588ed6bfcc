import { GEO_DISTANCE, TEXT_MATCH, type Filter, type GeoFilter, type SortKey } from '../../../shared/schemas/search.js';
import {
  anyValue,
  compileValueTest,
  inRange,
  passesWithoutValue,
  readPath,
  ruleOf,
  type NamedRule,
  type RangeRule,
} from '../filter-match.js';
import type { ColumnStore } from './columns.js';
import { haversineMiles, latitudeSpan } from './geo.js';

/**
 * Filters and sort keys compiled against a collection's columns: a number filter reads one Float64Array, a
 * string filter compares dictionary ids, and only lists and nested fields read JS values. The rules are those
 * of `filter-match.ts`; the column paths apply them with one comparison a slot where they can.
 */
export type SlotTest = (slot: number) => boolean;

const NEVER: SlotTest = () => false;
const ALWAYS: SlotTest = () => true;

export function compileFilter(store: ColumnStore, filter: Filter): SlotTest {
  const rule = ruleOf(filter);
  const top = filter.field.split('.')[0]!;
  const column = store.columns.get(top);
  const nested = filter.field.includes('.');
  if (!column) return passesWithoutValue(rule) ? ALWAYS : NEVER;
  if (!nested && column.kind === 'number') {
    if (rule.kind === 'range') return rangeTest(column.data, rule);
    return namedTest(
      column.data,
      rule,
      rule.values.filter((v) => typeof v === 'number'),
    );
  }
  if (!nested && column.kind === 'string') {
    // A range holds numbers only.
    if (rule.kind === 'range') return NEVER;
    const ids: number[] = [];
    for (const v of rule.values) {
      const id = typeof v === 'string' ? column.dictionary.idOf(v) : undefined;
      if (id !== undefined) ids.push(id);
    }
    return namedTest(column.data, rule, ids);
  }
  // Lists, points, nested objects: the value as the document holds it.
  const hits = compileValueTest(rule);
  const read = (slot: number) =>
    nested ? readPath({ [top]: store.value(slot, top) }, filter.field) : store.value(slot, top);
  if (passesWithoutValue(rule)) return (slot) => !anyValue(read(slot), hits);
  return (slot) => anyValue(read(slot), hits);
}

/**
 * A named-values rule over a column of numbers, or of dictionary ids (`keys`: the named values as the column
 * holds them; a value it cannot hold is left out, as it matches no slot).
 */
function namedTest(data: Float64Array | Int32Array, rule: NamedRule, keys: readonly number[]): SlotTest {
  if (keys.length === 0) return rule.none ? ALWAYS : NEVER;
  if (keys.length === 1) {
    const key = keys[0]!;
    return rule.none ? (slot) => data[slot] !== key : (slot) => data[slot] === key;
  }
  const set = new Set(keys);
  return rule.none ? (slot) => !set.has(data[slot]!) : (slot) => set.has(data[slot]!);
}

/** A range over a number column: one comparison a slot for one bound. NaN (no value) fails every comparison. */
function rangeTest(data: Float64Array, range: RangeRule): SlotTest {
  const { min, max, minOpen, maxOpen } = range;
  if (max === Infinity && !maxOpen) return minOpen ? (slot) => data[slot]! > min : (slot) => data[slot]! >= min;
  if (min === -Infinity && !minOpen) return maxOpen ? (slot) => data[slot]! < max : (slot) => data[slot]! <= max;
  if (!minOpen && !maxOpen) return (slot) => data[slot]! >= min && data[slot]! <= max;
  return (slot) => inRange(data[slot]!, range);
}

/** Miles from the geo filter's point to the slot's nearest point; Infinity when it has none in range. */
export function compileDistance(store: ColumnStore, geo: GeoFilter): (slot: number) => number {
  const column = store.columns.get(geo.field);
  if (column?.kind === 'point') {
    const { lat, lng } = column;
    return (slot) => haversineMiles(geo.lat, geo.lng, lat[slot]!, lng[slot]!);
  }
  // A bounding box in degrees skips the trigonometry for points plainly out of range.
  const latSpan = latitudeSpan(geo.radiusMiles);
  if (column?.kind === 'list' && column.element === 'point') {
    // A list of points (a performer's venues): read from the pools, nothing built per slot.
    return (slot) => {
      const count = column.count[slot]!;
      const at = column.start[slot]!;
      const lats = column.parts[0]!.pool;
      const lngs = column.parts[1]!.pool;
      let best = Infinity;
      for (let i = at; i < at + count; i++) {
        if (Math.abs(lats[i]! - geo.lat) > latSpan) continue;
        const d = haversineMiles(geo.lat, geo.lng, lats[i]!, lngs[i]!);
        if (d < best) best = d;
      }
      return best;
    };
  }
  // A field that holds no points (every geopoint field is one of the two kinds above) is never in range.
  return () => Infinity;
}

/**
 * The full order of a request: its keys, relevance as the last tie-break when not named, then slot (insertion
 * order). Missing values sort last in either direction, as Typesense places them; strings compare by locale.
 */
export function compileOrder(
  store: ColumnStore,
  sort: readonly SortKey[],
  relevance: (slot: number) => number,
  distance: (slot: number) => number,
): (a: number, b: number) => number {
  const keys = [...sort];
  if (!keys.some((k) => k.by === TEXT_MATCH)) keys.push({ by: TEXT_MATCH, order: 'desc' });
  const comparators = keys.map((key): ((a: number, b: number) => number) => {
    const dir = key.order === 'asc' ? 1 : -1;
    if (key.by === TEXT_MATCH) return (a, b) => (relevance(a) - relevance(b)) * dir;
    if (key.by === GEO_DISTANCE) return (a, b) => compareNumbers(distance(a), distance(b), dir);
    const column = store.columns.get(key.by);
    if (column?.kind === 'number') {
      const data = column.data;
      return (a, b) => compareNumbers(data[a]!, data[b]!, dir);
    }
    const read = (slot: number) =>
      key.by.includes('.') ? readPath(store.document(slot), key.by) : store.value(slot, key.by);
    return (a, b) => compareValues(read(a), read(b), dir);
  });
  return (a, b) => {
    for (const compare of comparators) {
      const c = compare(a, b);
      if (c !== 0) return c;
    }
    return a - b;
  };
}

/** NaN (no value) last in either direction. */
export function compareNumbers(a: number, b: number, dir: number): number {
  const aMissing = Number.isNaN(a);
  const bMissing = Number.isNaN(b);
  if (aMissing || bMissing) return aMissing === bMissing ? 0 : aMissing ? 1 : -1;
  return (a - b) * dir;
}

function compareValues(a: unknown, b: unknown, dir: number): number {
  const aMissing = a === null || a === undefined;
  const bMissing = b === null || b === undefined;
  if (aMissing || bMissing) return aMissing === bMissing ? 0 : aMissing ? 1 : -1;
  if (typeof a === 'number' && typeof b === 'number') return (a - b) * dir;
  return String(a).localeCompare(String(b)) * dir;
}
