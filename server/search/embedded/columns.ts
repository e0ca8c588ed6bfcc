import type { z } from 'zod';
import { SnapshotError, type SnapshotReader, type SnapshotWriter } from './snapshot.js';

/**
 * Columnar storage of one collection: each field in its own array (numbers in a Float64Array, strings as ids
 * into a per-field dictionary, geopoints as two Float64Arrays), so a million documents cost a few hundred
 * bytes each instead of one JS object apiece, and filters read one typed array instead of walking objects.
 * Lists of numbers, strings, points or flat records (an event's performers, a performer's venues) sit in pools
 * per field, each slot's run addressed by its start and length. Anything else stays a JS value.
 *
 * Each document lives in a slot; an upsert of a known id keeps its slot, a new id takes the next one, and a
 * delete leaves the slot dead. Slot order is insertion order, the final tie-break of every sort.
 */

type Scalar = 'number' | 'string';
/** How a field is stored: lists say what their elements are, and the scalar parts an element is made of. */
type ColumnSpec =
  | { kind: 'number' | 'string' | 'point' | 'value' }
  | { kind: 'list'; element: 'number' | 'string' | 'point' | 'record'; fields: string[]; parts: Scalar[] };

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
/** One scalar part of a list's elements (a record's field, a point's latitude), in a pool shared by all slots. */
type Part = { kind: 'number'; pool: Float64Array } | { kind: 'string'; pool: Int32Array; dictionary: StringDictionary };
/**
 * A list per slot: `count[slot]` elements from `start[slot]` in every part's pool (numbers, or dictionary ids
 * of strings: a million events name a few thousand performers); a count of -1 is no list. A rewrite that fits
 * stays in place, a longer one moves to the pools' end, and the pools are compacted when they fill up.
 */
interface ListColumn {
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
interface ValueColumn {
  kind: 'value';
  data: unknown[];
}
type Column = NumberColumn | StringColumn | PointColumn | ListColumn | ValueColumn;

/**
 * Strings of one field, each stored once; ids are stable for the life of the process. The strings sit end to end
 * as UTF-8 in one byte array, found again through a hash table of typed arrays: a million ids or names are a
 * few arrays to the garbage collector and the snapshot rather than a million strings and map entries, and a
 * string is made only when a document is read.
 */
export class StringDictionary {
  private bytes: Uint8Array;
  /** Where each string's bytes end (it starts where the one before ends). */
  private ends: Int32Array;
  private hashes: Int32Array;
  /** Open addressing, a power of two at most half full: id + 1, or 0 for an empty place. */
  private table: Int32Array;
  private text: Buffer;
  /**
   * Strings made lately, in a direct-mapped cache by id (place `id % STRINGS_MADE_KEPT`): a page of performers
   * reads the same venue names over and over.
   */
  private madeIds: Int32Array | null = null;
  private made: string[] = [];
  /** Strings held. */
  size = 0;

  constructor() {
    this.bytes = new Uint8Array(256);
    this.ends = new Int32Array(16);
    this.hashes = new Int32Array(16);
    this.table = new Int32Array(32);
    this.text = viewOf(this.bytes);
  }

  intern(value: string): number {
    const hash = hashOf(value);
    const length = encode(value);
    const found = this.find(hash, length);
    if (found >= 0) return found;
    const id = this.size;
    const start = this.endOf(id - 1);
    if (start + length > this.bytes.length) {
      this.bytes = copyInto(new Uint8Array(Math.max(2 * this.bytes.length, start + length)), this.bytes);
      this.text = viewOf(this.bytes);
    }
    this.bytes.set(scratch.subarray(0, length), start);
    if (id === this.ends.length) {
      this.ends = copyInto(new Int32Array(2 * this.ends.length), this.ends);
      this.hashes = copyInto(new Int32Array(2 * this.hashes.length), this.hashes);
    }
    this.ends[id] = start + length;
    this.hashes[id] = hash;
    this.size++;
    if (2 * this.size > this.table.length) this.rehash(2 * this.table.length);
    else this.place(id);
    return id;
  }

  idOf(value: string): number | undefined {
    const id = this.find(hashOf(value), encode(value));
    return id >= 0 ? id : undefined;
  }

  /** The string of an id. */
  get(id: number): string {
    // Made on the first read: most dictionaries (ids, timestamps) are read only for a page of hits.
    if (!this.madeIds) {
      this.madeIds = new Int32Array(STRINGS_MADE_KEPT).fill(-1);
      this.made = new Array<string>(STRINGS_MADE_KEPT).fill('');
    }
    const place = id & (STRINGS_MADE_KEPT - 1);
    if (this.madeIds[place] === id) return this.made[place]!;
    const value = this.text.toString('utf8', this.endOf(id - 1), this.ends[id]!);
    this.madeIds[place] = id;
    this.made[place] = value;
    return value;
  }

  snapshot(writer: SnapshotWriter): unknown {
    const n = this.size;
    return {
      bytes: writer.array(this.bytes.subarray(0, this.endOf(n - 1))),
      ends: writer.array(this.ends.subarray(0, n)),
      hashes: writer.array(this.hashes.subarray(0, n)),
    };
  }

  /** A dictionary over a snapshot's arrays (copied on the first string added); only its hash table is built. */
  static restore(tree: unknown, reader: SnapshotReader): StringDictionary {
    const state = tree as { bytes: unknown; ends: unknown; hashes: unknown } | null;
    if (!state || typeof state !== 'object') throw new SnapshotError('the snapshot lacks a dictionary');
    const dictionary = new StringDictionary();
    dictionary.bytes = reader.array(state.bytes, Uint8Array);
    dictionary.ends = reader.array(state.ends, Int32Array);
    dictionary.hashes = reader.array(state.hashes, Int32Array);
    dictionary.size = dictionary.ends.length;
    if (
      dictionary.hashes.length !== dictionary.size ||
      dictionary.endOf(dictionary.size - 1) !== dictionary.bytes.length
    ) {
      throw new SnapshotError('the snapshot has a dictionary of unequal length');
    }
    dictionary.text = viewOf(dictionary.bytes);
    // Room to grow on a full array: the first string added copies it.
    if (dictionary.ends.length === 0) {
      dictionary.ends = new Int32Array(16);
      dictionary.hashes = new Int32Array(16);
    }
    dictionary.rehash(Math.max(32, 2 ** Math.ceil(Math.log2(2 * dictionary.size + 1))));
    return dictionary;
  }

  private endOf(id: number): number {
    return id < 0 ? 0 : this.ends[id]!;
  }

  /** The id of the string whose hash and UTF-8 bytes (in `scratch`) these are, or -1. */
  private find(hash: number, length: number): number {
    const mask = this.table.length - 1;
    for (let at = hash & mask; ; at = (at + 1) & mask) {
      const entry = this.table[at]!;
      if (entry === 0) return -1;
      const id = entry - 1;
      if (this.hashes[id] !== hash) continue;
      const start = this.endOf(id - 1);
      if (this.ends[id]! - start !== length) continue;
      let same = true;
      for (let i = 0; i < length; i++) {
        if (this.bytes[start + i] !== scratch[i]) {
          same = false;
          break;
        }
      }
      if (same) return id;
    }
  }

  private place(id: number): void {
    const mask = this.table.length - 1;
    let at = this.hashes[id]! & mask;
    while (this.table[at] !== 0) at = (at + 1) & mask;
    this.table[at] = id + 1;
  }

  private rehash(capacity: number): void {
    this.table = new Int32Array(capacity);
    for (let id = 0; id < this.size; id++) this.place(id);
  }
}

/** Places in a dictionary's cache of strings made (a power of two). */
const STRINGS_MADE_KEPT = 8_192;

/** UTF-8 of the string last encoded (grown as needed). */
let scratch = new Uint8Array(1024);
const encoder = new TextEncoder();

/** Encodes `value` into `scratch`; returns its length in bytes. */
function encode(value: string): number {
  if (3 * value.length > scratch.length) scratch = new Uint8Array(3 * value.length);
  return encoder.encodeInto(value, scratch).written;
}

/** FNV-1a over the string's UTF-16 code units. */
function hashOf(value: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < value.length; i++) h = Math.imul(h ^ value.charCodeAt(i), 0x01000193);
  return h | 0;
}

function viewOf(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function copyInto<A extends Uint8Array | Int32Array>(to: A, from: A): A {
  to.set(from);
  return to;
}

/** How a zod field schema is stored (a nullable number or string keeps its kind; null is NaN or -1). */
function specOf(schema: ZodSchema): ColumnSpec {
  const def = unwrap(schema);
  if (def.type === 'number' || def.type === 'string') return { kind: def.type };
  if (def.type === 'enum') return { kind: 'string' };
  if (isPoint(def)) return { kind: 'point' };
  if (def.type === 'array') {
    const element = unwrap(def.element!);
    if (element.type === 'number' || element.type === 'string' || element.type === 'enum') {
      const scalar = element.type === 'number' ? 'number' : 'string';
      return { kind: 'list', element: scalar, fields: [], parts: [scalar] };
    }
    if (isPoint(element)) return { kind: 'list', element: 'point', fields: [], parts: ['number', 'number'] };
    if (element.type === 'object') {
      const fields = Object.keys(element.shape!);
      const parts = fields.map((f) => specOf(element.shape![f]!).kind);
      if (parts.every((k) => k === 'number' || k === 'string'))
        return { kind: 'list', element: 'record', fields, parts: parts as Scalar[] };
    }
  }
  return { kind: 'value' };
}

interface ZodSchema {
  _zod: { def: ZodDef };
}
interface ZodDef {
  type: string;
  innerType?: ZodSchema;
  items?: ZodSchema[];
  element?: ZodSchema;
  shape?: Record<string, ZodSchema>;
}

function unwrap(schema: ZodSchema): ZodDef {
  let def = schema._zod.def;
  while (def.type === 'nullable' || def.type === 'optional' || def.type === 'default') def = def.innerType!._zod.def;
  return def;
}

function isPoint(def: ZodDef): boolean {
  return def.type === 'tuple' && def.items?.length === 2 && def.items.every((i) => unwrap(i).type === 'number');
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
    const specs = Object.entries(shape).map(([field, schema]) => [field, specOf(schema as never)] as const);
    for (const [field, spec] of specs) this.columns.set(field, emptyColumn(spec, INITIAL_CAPACITY));
    this.layout = JSON.stringify(specs);
    const idColumn = this.columns.get('id');
    if (idColumn?.kind !== 'string') throw new Error('a collection needs a string id');
    this.ids = idColumn.dictionary;
  }

  /** How each field is stored, for telling whether a snapshot was laid out the same way. */
  readonly layout: string;

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
          return { kind: c.kind, data: writer.array(c.data.subarray(0, n)), dictionary: c.dictionary.snapshot(writer) };
        case 'point':
          return { kind: c.kind, lat: writer.array(c.lat.subarray(0, n)), lng: writer.array(c.lng.subarray(0, n)) };
        case 'list':
          return {
            kind: c.kind,
            start: writer.array(c.start.subarray(0, n)),
            count: writer.array(c.count.subarray(0, n)),
            parts: c.parts.map((part) => ({
              pool: writer.array(part.pool.subarray(0, c.used)),
              dictionary: part.kind === 'string' ? part.dictionary.snapshot(writer) : null,
            })),
            stale: c.stale,
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
      const column = this.columns.get(field)!;
      if (c.kind !== column.kind)
        throw new SnapshotError(`${field} is a ${String(c.kind)} column in the snapshot, a ${column.kind} column here`);
      // In place: indexes hold column objects (see `numbers`).
      restoreColumn(column, c, reader);
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

/** Points a column at a snapshot's arrays (its kind already checked). */
function restoreColumn(column: Column, c: Record<string, unknown>, reader: SnapshotReader): void {
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

function emptyColumn(spec: ColumnSpec, capacity: number): Column {
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
    case 'list':
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
