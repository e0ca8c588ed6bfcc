import { SnapshotError, type SnapshotReader, type SnapshotWriter } from './snapshot.js';

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
