import type { z } from 'zod';
import { SnapshotError, type SnapshotReader, type SnapshotWriter } from './snapshot.js';

/**
 * Columnar storage of one collection: each field in its own array (numbers in a Float64Array, strings as ids
 * into a per-field dictionary, geopoints as two Float64Arrays), so a million documents cost a few hundred
 * bytes each instead of one JS object apiece, and filters read one typed array instead of walking objects.
 * Lists of numbers or strings (an event's performers) sit in one pool per field, each slot's run addressed by
 * its start and length. Nested objects (a performer's venues) stay JS values: they are few and rarely filtered.
 *
 * Each document lives in a slot; an upsert of a known id keeps its slot, a new id takes the next one, and a
 * delete leaves the slot dead. Slot order is insertion order, the final tie-break of every sort.
 */

type ColumnKind = 'number' | 'string' | 'point' | 'numbers' | 'strings' | 'value';

type Doc = Record<string, unknown>;

/** A number column's missing value (null in the document). */
const MISSING = Number.NaN;
const NO_STRING = -1;
const NO_LIST = -1;

interface NumberColumn {
  kind: 'number';
  data: Float64Array;
}
interface StringColumn {
  kind: 'string';
  data: Int32Array;
  dictionary: StringDictionary;
}
interface PointColumn {
  kind: 'point';
  lat: Float64Array;
  lng: Float64Array;
}
/**
 * A list per slot: `count[slot]` elements from `start[slot]` in the pool (numbers, or dictionary ids of
 * strings: a million events name a few thousand performers); a count of -1 is no list. A rewrite that fits
 * stays in place, a longer one moves to the pool's end, and the pool is compacted once half of it is stale.
 */
interface ListColumn {
  kind: 'numbers' | 'strings';
  start: Int32Array;
  count: Int32Array;
  pool: Float64Array | Int32Array;
  /** Pool positions in use, and how many of them no slot points at any more. */
  used: number;
  stale: number;
  dictionary: StringDictionary;
}
interface ValueColumn {
  kind: 'value';
  data: unknown[];
}
type Column = NumberColumn | StringColumn | PointColumn | ListColumn | ValueColumn;

/** Strings of one field, each stored once; ids are stable for the life of the process. */
export class StringDictionary {
  private readonly ids: Map<string, number>;

  constructor(readonly strings: string[] = []) {
    this.ids = new Map(strings.map((s, i) => [s, i]));
  }

  intern(value: string): number {
    let id = this.ids.get(value);
    if (id === undefined) {
      id = this.strings.length;
      this.strings.push(value);
      this.ids.set(value, id);
    }
    return id;
  }

  idOf(value: string): number | undefined {
    return this.ids.get(value);
  }
}

/** The column kind a zod field schema stores as (a nullable number or string keeps its kind; null is NaN or -1). */
function columnKindOf(schema: z.ZodType): ColumnKind {
  let def = (schema as unknown as { _zod: { def: ZodDef } })._zod.def;
  while (def.type === 'nullable' || def.type === 'optional' || def.type === 'default') def = def.innerType!._zod.def;
  if (def.type === 'number') return 'number';
  if (def.type === 'string' || def.type === 'enum') return 'string';
  if (def.type === 'tuple' && def.items?.length === 2 && def.items.every((i) => i._zod.def.type === 'number')) return 'point';
  if (def.type === 'array') {
    const element = columnKindOf(def.element as never);
    if (element === 'number') return 'numbers';
    if (element === 'string') return 'strings';
  }
  return 'value';
}

interface ZodDef {
  type: string;
  innerType?: { _zod: { def: ZodDef } };
  items?: { _zod: { def: ZodDef } }[];
  element?: { _zod: { def: ZodDef } };
}

const INITIAL_CAPACITY = 1024;

export class ColumnStore {
  readonly fields: string[];
  readonly columns = new Map<string, Column>();
  /** 1 for a live slot, 0 for a deleted one. */
  live = new Uint8Array(INITIAL_CAPACITY);
  /** Slots in use, live or dead. */
  size = 0;
  liveCount = 0;
  private capacity = INITIAL_CAPACITY;
  /** Every id is interned once, when its slot is created, so an id's dictionary number is its slot. */
  private ids: StringDictionary;

  constructor(shape: Record<string, z.ZodType>) {
    this.fields = Object.keys(shape);
    for (const [field, schema] of Object.entries(shape)) this.columns.set(field, emptyColumn(columnKindOf(schema), INITIAL_CAPACITY));
    const idColumn = this.columns.get('id');
    if (idColumn?.kind !== 'string') throw new Error('a collection needs a string id');
    this.ids = idColumn.dictionary;
  }

  slotOf(id: string): number | undefined {
    return this.ids.idOf(id);
  }

  /** Writes a document into its slot (a known id's, or a new one) and returns the slot. */
  put(doc: Doc): number {
    const id = String(doc.id);
    let slot = this.ids.idOf(id);
    if (slot === undefined) {
      if (this.size === this.capacity) this.grow();
      slot = this.size++;
      if (this.ids.intern(id) !== slot) throw new Error(`id ${id} out of step with its slot`);
    }
    if (!this.live[slot]) {
      this.live[slot] = 1;
      this.liveCount++;
    }
    for (const field of this.fields) write(this.columns.get(field)!, slot, doc[field]);
    return slot;
  }

  /** Marks a slot dead; its values stay readable until the same id is written again. */
  kill(slot: number): void {
    if (!this.live[slot]) return;
    this.live[slot] = 0;
    this.liveCount--;
  }

  /** A number column, to read by slot (`.data`, which growing replaces: keep the column, not the array). */
  numbers(field: string): { readonly data: Float64Array } {
    const column = this.columns.get(field);
    if (column?.kind !== 'number') throw new Error(`${field} is not a number column`);
    return column;
  }

  /** One field's value as the document holds it (null for a missing number or string). */
  value(slot: number, field: string): unknown {
    const column = this.columns.get(field);
    return column ? read(column, slot) : undefined;
  }

  /** The whole document, fields in schema order. */
  document(slot: number): Doc {
    const doc: Doc = {};
    for (const field of this.fields) doc[field] = read(this.columns.get(field)!, slot);
    return doc;
  }

  /** Only some fields (`includeFields`; a nested name brings its top-level field). */
  project(slot: number, fields: readonly string[]): Doc {
    const doc: Doc = {};
    for (const f of fields) {
      const top = f.split('.')[0]!;
      const column = this.columns.get(top);
      if (column) doc[top] = read(column, slot);
    }
    return doc;
  }

  /** The columns as a snapshot tree (arrays cut to the slots in use). */
  snapshot(writer: SnapshotWriter): unknown {
    const n = this.size;
    const columns = this.fields.map((field) => {
      const c = this.columns.get(field)!;
      switch (c.kind) {
        case 'number':
          return { kind: c.kind, data: writer.array(c.data.subarray(0, n)) };
        case 'string':
          return { kind: c.kind, data: writer.array(c.data.subarray(0, n)), strings: c.dictionary.strings };
        case 'point':
          return { kind: c.kind, lat: writer.array(c.lat.subarray(0, n)), lng: writer.array(c.lng.subarray(0, n)) };
        case 'numbers':
        case 'strings':
          return {
            kind: c.kind,
            start: writer.array(c.start.subarray(0, n)),
            count: writer.array(c.count.subarray(0, n)),
            pool: writer.array(c.pool.subarray(0, c.used)),
            stale: c.stale,
            strings: c.dictionary.strings,
          };
        case 'value':
          return { kind: c.kind, data: c.data.slice(0, n).map((v) => v ?? null) };
      }
    });
    return { size: n, liveCount: this.liveCount, live: writer.array(this.live.subarray(0, n)), columns };
  }

  /** Takes the columns of a snapshot tree; the arrays are the snapshot's until a write needs more room. */
  restore(tree: unknown, reader: SnapshotReader): void {
    const state = tree as { size: number; liveCount: number; live: unknown; columns: Record<string, unknown>[] };
    if (state.columns.length !== this.fields.length) throw new SnapshotError('the snapshot has other fields');
    const n = state.size;
    this.fields.forEach((field, i) => {
      const c = state.columns[i]!;
      const kind = this.columns.get(field)!.kind;
      if (c.kind !== kind) throw new SnapshotError(`${field} is a ${String(c.kind)} column in the snapshot, a ${kind} column here`);
      // In place: indexes hold column objects (see `numbers`).
      Object.assign(this.columns.get(field)!, restoreColumn(kind, c, reader));
    });
    this.live = reader.array(state.live, Uint8Array);
    if (this.live.length !== n) throw new SnapshotError('the snapshot has columns of unequal length');
    this.size = this.capacity = n;
    this.liveCount = state.liveCount;
    this.ids = (this.columns.get('id') as StringColumn).dictionary;
  }

  private grow(): void {
    const capacity = Math.max(INITIAL_CAPACITY, this.capacity * 2);
    const live = new Uint8Array(capacity);
    live.set(this.live);
    this.live = live;
    for (const column of this.columns.values()) grow(column, capacity);
    this.capacity = capacity;
  }
}

function restoreColumn(kind: ColumnKind, c: Record<string, unknown>, reader: SnapshotReader): Column {
  const dictionary = () => new StringDictionary(c.strings as string[]);
  switch (kind) {
    case 'number':
      return { kind, data: reader.array(c.data, Float64Array) };
    case 'string':
      return { kind, data: reader.array(c.data, Int32Array), dictionary: dictionary() };
    case 'point':
      return { kind, lat: reader.array(c.lat, Float64Array), lng: reader.array(c.lng, Float64Array) };
    case 'numbers':
    case 'strings': {
      const pool = kind === 'numbers' ? reader.array(c.pool, Float64Array) : reader.array(c.pool, Int32Array);
      const start = reader.array(c.start, Int32Array);
      return { kind, start, count: reader.array(c.count, Int32Array), pool, used: pool.length, stale: c.stale as number, dictionary: dictionary() };
    }
    case 'value':
      return { kind, data: c.data as unknown[] };
  }
}

function emptyColumn(kind: ColumnKind, capacity: number): Column {
  switch (kind) {
    case 'number':
      return { kind, data: new Float64Array(capacity) };
    case 'string':
      return { kind, data: new Int32Array(capacity), dictionary: new StringDictionary() };
    case 'point':
      return { kind, lat: new Float64Array(capacity), lng: new Float64Array(capacity) };
    case 'numbers':
    case 'strings':
      return {
        kind,
        start: new Int32Array(capacity),
        count: new Int32Array(capacity).fill(NO_LIST),
        pool: kind === 'numbers' ? new Float64Array(capacity) : new Int32Array(capacity),
        used: 0,
        stale: 0,
        dictionary: new StringDictionary(),
      };
    case 'value':
      return { kind, data: [] };
  }
}

/** Moves a column into larger arrays; the column object stays the same, so holders of it stay current. */
function grow(column: Column, capacity: number): void {
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
    case 'numbers':
    case 'strings': {
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

/** Writes a slot's list: in place when it fits, else at the pool's end (compacting or growing the pool first). */
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
    if (column.used + n > column.pool.length) makeRoom(column, n);
    at = column.used;
    column.used += n;
  }
  for (let i = 0; i < n; i++) column.pool[at + i] = column.kind === 'strings' ? column.dictionary.intern(String(value[i])) : Number(value[i]);
  column.start[slot] = at;
  column.count[slot] = n;
}

function makeRoom(column: ListColumn, n: number): void {
  const live = column.used - column.stale;
  const length = Math.max(column.pool.length, 2 * (live + n));
  const pool = new (column.pool.constructor as new (n: number) => Float64Array | Int32Array)(length);
  let used = 0;
  for (let slot = 0; slot < column.count.length; slot++) {
    const count = column.count[slot]!;
    if (count <= 0) continue;
    const start = column.start[slot]!;
    pool.set(column.pool.subarray(start, start + count), used);
    column.start[slot] = used;
    used += count;
  }
  column.pool = pool;
  column.used = used;
  column.stale = 0;
}

function write(column: Column, slot: number, value: unknown): void {
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
    case 'numbers':
    case 'strings':
      writeList(column, slot, value);
      return;
    case 'value':
      column.data[slot] = value;
  }
}

function read(column: Column, slot: number): unknown {
  switch (column.kind) {
    case 'number': {
      const v = column.data[slot]!;
      return Number.isNaN(v) ? null : v;
    }
    case 'string': {
      const id = column.data[slot]!;
      return id === NO_STRING ? null : column.dictionary.strings[id];
    }
    case 'point':
      return [column.lat[slot], column.lng[slot]];
    case 'numbers':
    case 'strings': {
      const count = column.count[slot]!;
      if (count === NO_LIST) return null;
      const at = column.start[slot]!;
      const list = new Array<unknown>(count);
      for (let i = 0; i < count; i++) list[i] = column.kind === 'strings' ? column.dictionary.strings[column.pool[at + i]!] : column.pool[at + i];
      return list;
    }
    case 'value':
      return column.data[slot];
  }
}
