import type { z } from 'zod';

/**
 * Columnar storage of one collection: each field in its own array (numbers in a Float64Array, strings as ids
 * into a per-field dictionary, geopoints as two Float64Arrays), so a million documents cost a few hundred
 * bytes each instead of one JS object apiece, and filters read one typed array instead of walking objects.
 * Lists and nested objects (a performer's venues) stay JS values: they are short and rarely filtered.
 *
 * Each document lives in a slot; an upsert of a known id keeps its slot, a new id takes the next one, and a
 * delete leaves the slot dead. Slot order is insertion order, the final tie-break of every sort.
 */

type ColumnKind = 'number' | 'string' | 'point' | 'value';

type Doc = Record<string, unknown>;

/** A number column's missing value (null in the document). */
const MISSING = Number.NaN;
const NO_STRING = -1;

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
interface ValueColumn {
  kind: 'value';
  data: unknown[];
  /** String elements of lists, each stored once (a million events name a few thousand performers). */
  strings: StringDictionary;
}
type Column = NumberColumn | StringColumn | PointColumn | ValueColumn;

/** Strings of one field, each stored once; ids are stable for the life of the process. */
export class StringDictionary {
  readonly strings: string[] = [];
  private readonly ids = new Map<string, number>();

  intern(value: string): number {
    let id = this.ids.get(value);
    if (id === undefined) {
      id = this.strings.length;
      this.strings.push(value);
      this.ids.set(value, id);
    }
    return id;
  }

  /** The canonical copy of a string, so repeated list elements share one. */
  canonical(value: string): string {
    return this.strings[this.intern(value)]!;
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
  return 'value';
}

interface ZodDef {
  type: string;
  innerType?: { _zod: { def: ZodDef } };
  items?: { _zod: { def: ZodDef } }[];
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
  private readonly ids: StringDictionary;

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

  private grow(): void {
    const capacity = this.capacity * 2;
    const live = new Uint8Array(capacity);
    live.set(this.live);
    this.live = live;
    for (const column of this.columns.values()) grow(column, capacity);
    this.capacity = capacity;
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
    case 'value':
      return { kind, data: [], strings: new StringDictionary() };
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
    case 'value':
      return;
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
    case 'value':
      column.data[slot] = Array.isArray(value) ? value.map((v) => (typeof v === 'string' ? column.strings.canonical(v) : v)) : value;
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
    case 'value':
      return column.data[slot];
  }
}
