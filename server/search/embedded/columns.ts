import type { z } from 'zod';
import { specOf } from './column-specs.js';
import { emptyColumn, grow, read, restoreColumn, write, type Column, type StringColumn } from './column-values.js';
import { SnapshotError, type SnapshotReader, type SnapshotWriter } from './snapshot.js';
import type { StringDictionary } from './string-dictionary.js';

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

type Doc = Record<string, unknown>;

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
