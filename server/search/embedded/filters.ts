import { GEO_DISTANCE, TEXT_MATCH, type Filter, type GeoFilter, type SortKey } from '../../../shared/schemas/search.js';
import type { ColumnStore } from './columns.js';
import { haversineMiles, latitudeSpan } from './geo.js';

/**
 * Filters and sort keys compiled against a collection's columns: a number filter reads one Float64Array, a
 * string filter compares dictionary ids, and only lists and nested fields read JS values. Typesense
 * semantics: on an array field a positive filter matches when any element does, `neq`/`nin` when none does;
 * a document without a value never passes a numeric filter.
 */
export type SlotTest = (slot: number) => boolean;

const NEVER: SlotTest = () => false;
const ALWAYS: SlotTest = () => true;

export function compileFilter(store: ColumnStore, filter: Filter): SlotTest {
  const top = filter.field.split('.')[0]!;
  const column = store.columns.get(top);
  const nested = filter.field.includes('.');
  if (!column) return filter.op === 'neq' || filter.op === 'nin' ? ALWAYS : NEVER;
  if (!nested && column.kind === 'number') {
    const data = column.data;
    switch (filter.op) {
      case 'eq': {
        const value = filter.value;
        return typeof value === 'number' ? (slot) => data[slot] === value : NEVER;
      }
      case 'neq': {
        if (typeof filter.value !== 'number') return ALWAYS;
        const value = filter.value;
        return (slot) => data[slot] !== value;
      }
      case 'in': {
        const set = new Set(filter.values.filter((v) => typeof v === 'number'));
        return (slot) => set.has(data[slot]!);
      }
      case 'nin': {
        const set = new Set(filter.values.filter((v) => typeof v === 'number'));
        return (slot) => !set.has(data[slot]!);
      }
      // NaN (no value) fails every comparison.
      case 'gt': {
        const value = filter.value;
        return (slot) => data[slot]! > value;
      }
      case 'gte': {
        const value = filter.value;
        return (slot) => data[slot]! >= value;
      }
      case 'lt': {
        const value = filter.value;
        return (slot) => data[slot]! < value;
      }
      case 'lte': {
        const value = filter.value;
        return (slot) => data[slot]! <= value;
      }
      case 'between': {
        const { min, max } = filter;
        return (slot) => data[slot]! >= min && data[slot]! <= max;
      }
    }
  }
  if (!nested && column.kind === 'string') {
    const data = column.data;
    const idOf = (v: unknown) => (typeof v === 'string' ? column.dictionary.idOf(v) : undefined);
    switch (filter.op) {
      case 'eq': {
        const id = idOf(filter.value);
        return id === undefined ? NEVER : (slot) => data[slot] === id;
      }
      case 'neq': {
        const id = idOf(filter.value);
        return id === undefined ? ALWAYS : (slot) => data[slot] !== id;
      }
      case 'in': {
        const ids = new Set(filter.values.map(idOf).filter((id) => id !== undefined));
        return (slot) => ids.has(data[slot]!);
      }
      case 'nin': {
        const ids = new Set(filter.values.map(idOf).filter((id) => id !== undefined));
        return (slot) => !ids.has(data[slot]!);
      }
      default:
        return NEVER;
    }
  }
  // Lists, points, nested objects: the value as the document holds it.
  const read = (slot: number) =>
    nested ? readPath({ [top]: store.value(slot, top) }, filter.field) : store.value(slot, top);
  const any =
    (test: (v: unknown) => boolean): SlotTest =>
    (slot) => {
      const raw = read(slot);
      return Array.isArray(raw) ? raw.some(test) : test(raw);
    };
  const num = (test: (v: number) => boolean) => any((v) => typeof v === 'number' && test(v));
  switch (filter.op) {
    case 'eq':
      return any((v) => v === filter.value);
    case 'neq': {
      const hit = any((v) => v === filter.value);
      return (slot) => !hit(slot);
    }
    case 'in': {
      const set = new Set<unknown>(filter.values);
      return any((v) => set.has(v));
    }
    case 'nin': {
      const set = new Set<unknown>(filter.values);
      const hit = any((v) => set.has(v));
      return (slot) => !hit(slot);
    }
    case 'gt':
      return num((v) => v > filter.value);
    case 'gte':
      return num((v) => v >= filter.value);
    case 'lt':
      return num((v) => v < filter.value);
    case 'lte':
      return num((v) => v <= filter.value);
    case 'between':
      return num((v) => v >= filter.min && v <= filter.max);
  }
}

/** A field by dotted path; through an array of objects it collects each element's value. */
function readPath(doc: unknown, path: string): unknown {
  if (!path.includes('.')) return (doc as Record<string, unknown>)[path];
  let value: unknown = doc;
  for (const part of path.split('.')) {
    if (Array.isArray(value)) value = value.map((v) => (v as Record<string, unknown> | null)?.[part]);
    else if (value && typeof value === 'object') value = (value as Record<string, unknown>)[part];
    else return undefined;
  }
  return value;
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
