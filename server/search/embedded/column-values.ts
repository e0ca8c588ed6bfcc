import type { ColumnSpec } from './column-specs.js';
import { SnapshotError, type SnapshotReader } from './snapshot.js';
import { StringDictionary } from './string-dictionary.js';

/**
 * The kinds of column a collection's fields are stored in, and how a slot's value is written into each, read
 * back as the document held it, and restored from a snapshot.
 */

type Doc = Record<string, unknown>;

/** A number column's missing value (null in the document). */
const MISSING = Number.NaN;
const NO_STRING = -1;
const NO_LIST = -1;

export interface NumberColumn {
  kind: 'number';
  data: Float64Array;
}
export interface StringColumn {
  kind: 'string';
  data: Int32Array;
  dictionary: StringDictionary;
}
export interface PointColumn {
  kind: 'point';
  lat: Float64Array;
  lng: Float64Array;
}
/** One scalar part of a list's elements (a record's field, a point's latitude), in a pool shared by all slots. */
type Part = { kind: 'number'; pool: Float64Array } | { kind: 'string'; pool: Int32Array; dictionary: StringDictionary };
/**
 * A list per slot: `count[slot]` elements from `start[slot]` in every part's pool (numbers, or dictionary ids
 * of strings: a million events name a few thousand performers); a count of -1 is no list. A rewrite that fits
 * stays in place, a longer one moves to the pools' end, and the pools are compacted when they fill up.
 */
export interface ListColumn {
  kind: 'list';
  element: 'number' | 'string' | 'point' | 'record';
  /** A record's field per part. */
  fields: string[];
  parts: Part[];
  start: Int32Array;
  count: Int32Array;
  /** Pool positions in use, and how many of them no slot points at any more. */
  used: number;
  stale: number;
}
export interface ValueColumn {
  kind: 'value';
  data: unknown[];
}
export type Column = NumberColumn | StringColumn | PointColumn | ListColumn | ValueColumn;

/** Points a column at a snapshot's arrays (its kind already checked). */
export function restoreColumn(column: Column, c: Record<string, unknown>, reader: SnapshotReader): void {
  switch (column.kind) {
    case 'number':
      column.data = reader.array(c.data, Float64Array);
      return;
    case 'string':
      column.data = reader.array(c.data, Int32Array);
      column.dictionary = StringDictionary.restore(c.dictionary, reader);
      return;
    case 'point':
      column.lat = reader.array(c.lat, Float64Array);
      column.lng = reader.array(c.lng, Float64Array);
      return;
    case 'list': {
      const parts = c.parts as { pool: unknown; dictionary: unknown }[];
      if (parts.length !== column.parts.length) throw new SnapshotError('the snapshot has a list of other elements');
      column.parts = column.parts.map((part, i): Part => {
        const stored = parts[i]!;
        return part.kind === 'number'
          ? { kind: 'number', pool: reader.array(stored.pool, Float64Array) }
          : {
              kind: 'string',
              pool: reader.array(stored.pool, Int32Array),
              dictionary: StringDictionary.restore(stored.dictionary, reader),
            };
      });
      column.start = reader.array(c.start, Int32Array);
      column.count = reader.array(c.count, Int32Array);
      column.used = column.parts[0]?.pool.length ?? 0;
      column.stale = c.stale as number;
      return;
    }
    case 'value':
      column.data = c.data as unknown[];
  }
}

export function emptyColumn(spec: ColumnSpec, capacity: number): Column {
  switch (spec.kind) {
    case 'number':
      return { kind: spec.kind, data: new Float64Array(capacity) };
    case 'string':
      return { kind: spec.kind, data: new Int32Array(capacity), dictionary: new StringDictionary() };
    case 'point':
      return { kind: spec.kind, lat: new Float64Array(capacity), lng: new Float64Array(capacity) };
    case 'list':
      return {
        kind: spec.kind,
        element: spec.element,
        fields: spec.fields,
        parts: spec.parts.map((kind): Part =>
          kind === 'number'
            ? { kind, pool: new Float64Array(capacity) }
            : { kind, pool: new Int32Array(capacity), dictionary: new StringDictionary() },
        ),
        start: new Int32Array(capacity),
        count: new Int32Array(capacity).fill(NO_LIST),
        used: 0,
        stale: 0,
      };
    case 'value':
      return { kind: spec.kind, data: [] };
  }
}

/** Moves a column into larger arrays; the column object stays the same, so holders of it stay current. */
export function grow(column: Column, capacity: number): void {
  const larger = <A extends Float64Array | Int32Array>(from: A): A => {
    const to = new (from.constructor as new (n: number) => A)(capacity);
    to.set(from);
    return to;
  };
  switch (column.kind) {
    case 'number':
    case 'string':
      column.data = larger(column.data);
      return;
    case 'point':
      column.lat = larger(column.lat);
      column.lng = larger(column.lng);
      return;
    case 'list': {
      const filled = column.count.length;
      column.start = larger(column.start);
      column.count = larger(column.count);
      column.count.fill(NO_LIST, filled);
      return;
    }
    case 'value':
      return;
  }
}

/** Writes a slot's list: in place when it fits, else at the pools' end (compacting or growing them first). */
function writeList(column: ListColumn, slot: number, value: unknown): void {
  const old = column.count[slot]!;
  if (!Array.isArray(value)) {
    if (old > 0) column.stale += old;
    column.count[slot] = NO_LIST;
    return;
  }
  const n = value.length;
  let at = column.start[slot]!;
  if (n <= old) column.stale += old - n;
  else {
    if (old > 0) column.stale += old;
    if (column.used + n > column.parts[0]!.pool.length) makeRoom(column, n);
    at = column.used;
    column.used += n;
  }
  for (let i = 0; i < n; i++) {
    const element = value[i] as unknown;
    column.parts.forEach((part, p) => {
      const v =
        column.element === 'record'
          ? (element as Doc | null)?.[column.fields[p]!]
          : column.element === 'point'
            ? (element as unknown[])[p]
            : element;
      if (part.kind === 'number') part.pool[at + i] = typeof v === 'number' ? v : MISSING;
      else part.pool[at + i] = typeof v === 'string' ? part.dictionary.intern(v) : NO_STRING;
    });
  }
  column.start[slot] = at;
  column.count[slot] = n;
}

/** Moves every live run to the front of pools big enough for `n` more (twice what is live). */
function makeRoom(column: ListColumn, n: number): void {
  const live = column.used - column.stale;
  const length = Math.max(column.parts[0]!.pool.length, 2 * (live + n));
  const pools = column.parts.map(
    (part) => new (part.pool.constructor as new (n: number) => Float64Array | Int32Array)(length),
  );
  let used = 0;
  for (let slot = 0; slot < column.count.length; slot++) {
    const count = column.count[slot]!;
    if (count <= 0) continue;
    const start = column.start[slot]!;
    column.parts.forEach((part, p) => pools[p]!.set(part.pool.subarray(start, start + count), used));
    column.start[slot] = used;
    used += count;
  }
  column.parts.forEach((part, p) => (part.pool = pools[p]! as never));
  column.used = used;
  column.stale = 0;
}

/** Element `i` of the list at `at`, as the document held it. */
function readElement(column: ListColumn, at: number): unknown {
  const scalar = (part: Part) => {
    const v = part.pool[at]!;
    if (part.kind === 'number') return Number.isNaN(v) ? null : v;
    return v === NO_STRING ? null : part.dictionary.get(v);
  };
  switch (column.element) {
    case 'number':
    case 'string':
      return scalar(column.parts[0]!);
    case 'point':
      return [column.parts[0]!.pool[at], column.parts[1]!.pool[at]];
    case 'record': {
      const record: Doc = {};
      column.parts.forEach((part, p) => (record[column.fields[p]!] = scalar(part)));
      return record;
    }
  }
}

export function write(column: Column, slot: number, value: unknown): void {
  switch (column.kind) {
    case 'number':
      column.data[slot] = typeof value === 'number' ? value : MISSING;
      return;
    case 'string':
      column.data[slot] = typeof value === 'string' ? column.dictionary.intern(value) : NO_STRING;
      return;
    case 'point': {
      const point = value as [number, number];
      column.lat[slot] = point[0];
      column.lng[slot] = point[1];
      return;
    }
    case 'list':
      writeList(column, slot, value);
      return;
    case 'value':
      column.data[slot] = value;
  }
}

export function read(column: Column, slot: number): unknown {
  switch (column.kind) {
    case 'number': {
      const v = column.data[slot]!;
      return Number.isNaN(v) ? null : v;
    }
    case 'string': {
      const id = column.data[slot]!;
      return id === NO_STRING ? null : column.dictionary.get(id);
    }
    case 'point':
      return [column.lat[slot], column.lng[slot]];
    case 'list': {
      const count = column.count[slot]!;
      if (count === NO_LIST) return null;
      const at = column.start[slot]!;
      const list = new Array<unknown>(count);
      for (let i = 0; i < count; i++) list[i] = readElement(column, at + i);
      return list;
    }
    case 'value':
      return column.data[slot];
  }
}
