import { createHash } from 'node:crypto';
import { open, rename, rm, type FileHandle } from 'node:fs/promises';

/**
 * The binary container an engine's state is persisted in, so a restart maps typed arrays back instead of
 * re-reading and re-indexing a million JSON lines. Layout:
 *
 *   bytes 0–7    magic `EVSNAP01`
 *   bytes 8–11   header length (uint32 LE)
 *   bytes 12–15  meta length (uint32 LE), the header's first part
 *   bytes 16–47  SHA-256 of every byte from 48 on (header and arrays)
 *   then         the header: JSON of the meta (what the snapshot was made from and by), then of `{ arrays, tree }`
 *   then         each typed array's bytes, at offsets that are multiples of 8
 *
 * A snapshot of another catalog or engine is refused from its meta alone, before the rest is read.
 *
 * `tree` is the state as plain JSON in which every typed array is a `{ "$a": n }` reference to `arrays[n]`
 * (its type, offset and length). Restored arrays are views into the one buffer the file was read into.
 */

const MAGIC = Buffer.from('EVSNAP01', 'latin1');
const PREFIX_BYTES = 48;
const ALIGN = 8;

export type StoredArray = Float64Array | Int32Array | Uint8Array;

const ARRAY_TYPES = { Float64Array, Int32Array, Uint8Array } as const;
type ArrayType = keyof typeof ARRAY_TYPES;

interface ArrayEntry {
  type: ArrayType;
  offset: number;
  length: number;
}

interface ArrayRef {
  $a: number;
}

/** Collects the typed arrays of a state while it is described as a tree. */
export class SnapshotWriter {
  readonly arrays: StoredArray[] = [];

  /** A reference to `array` for the tree. */
  array(array: StoredArray): ArrayRef {
    this.arrays.push(array);
    return { $a: this.arrays.length - 1 };
  }
}

/** Resolves the references of a tree read back from a snapshot. */
export class SnapshotReader {
  constructor(private readonly resolved: StoredArray[]) {}

  array<A extends StoredArray>(ref: unknown, type: new (...args: never[]) => A): A {
    const array = this.resolved[(ref as ArrayRef).$a];
    if (!(array instanceof type)) throw new SnapshotError(`array ${JSON.stringify(ref)} is not a ${type.name}`);
    return array;
  }
}

/** A snapshot that cannot be used: missing, of another engine or catalog, damaged. */
export class SnapshotError extends Error {}

/**
 * Writes a snapshot atomically: to a file of its own first, renamed over `file` once complete, so a reader
 * (another node on the same catalog) never sees half of one.
 */
export async function writeSnapshot(
  file: string,
  meta: unknown,
  tree: unknown,
  writer: SnapshotWriter,
): Promise<number> {
  let offset = 0;
  const arrays: ArrayEntry[] = writer.arrays.map((a) => {
    const entry = { type: a.constructor.name as ArrayType, offset, length: a.length };
    offset += padded(a.byteLength);
    return entry;
  });
  const metaBytes = Buffer.from(JSON.stringify(meta), 'utf8');
  const header = Buffer.concat([metaBytes, Buffer.from(JSON.stringify({ arrays, tree }), 'utf8')]);
  const headerPadded = padded(PREFIX_BYTES + header.length) - PREFIX_BYTES;
  const prefix = Buffer.alloc(PREFIX_BYTES);
  MAGIC.copy(prefix, 0);
  prefix.writeUInt32LE(header.length, 8);
  prefix.writeUInt32LE(metaBytes.length, 12);
  const hash = createHash('sha256')
    .update(header)
    .update(Buffer.alloc(headerPadded - header.length));
  const parts: Uint8Array[] = [header, Buffer.alloc(headerPadded - header.length)];
  for (const a of writer.arrays) {
    const bytes = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
    const pad = Buffer.alloc(padded(a.byteLength) - a.byteLength);
    hash.update(bytes).update(pad);
    parts.push(bytes, pad);
  }
  hash.digest().copy(prefix, 16);
  const temporary = `${file}.${process.pid}.tmp`;
  const handle = await open(temporary, 'w');
  try {
    await handle.writev([prefix, ...parts]);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temporary, file).catch(async (error: unknown) => {
    await rm(temporary, { force: true });
    throw error;
  });
  return PREFIX_BYTES + headerPadded + offset;
}

/**
 * Reads a snapshot whose `meta` equals `expected` (compared as JSON), after checking its checksum; throws a
 * `SnapshotError` saying why it cannot be used.
 */
export async function readSnapshot(
  file: string,
  expected: unknown,
): Promise<{ tree: unknown; reader: SnapshotReader }> {
  let handle: FileHandle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    throw new SnapshotError(`cannot read ${file}: ${(error as Error).message}`);
  }
  let buffer: Buffer;
  try {
    const prefix = Buffer.alloc(PREFIX_BYTES);
    const { bytesRead } = await handle.read(prefix, 0, PREFIX_BYTES, 0);
    if (bytesRead < PREFIX_BYTES || !prefix.subarray(0, MAGIC.length).equals(MAGIC))
      throw new SnapshotError(`${file} is not an engine snapshot`);
    const metaLength = prefix.readUInt32LE(12);
    if (metaLength > prefix.readUInt32LE(8)) throw new SnapshotError(`${file} has a damaged header`);
    const meta = Buffer.alloc(metaLength);
    if ((await handle.read(meta, 0, metaLength, PREFIX_BYTES)).bytesRead < metaLength)
      throw new SnapshotError(`${file} is truncated`);
    if (meta.toString('utf8') !== JSON.stringify(expected))
      throw new SnapshotError(`${file} was made from another catalog or engine`);
    buffer = await handle.readFile();
  } finally {
    await handle.close();
  }
  const headerLength = buffer.readUInt32LE(8);
  const metaLength = buffer.readUInt32LE(12);
  const bodyStart = padded(PREFIX_BYTES + headerLength);
  if (bodyStart > buffer.length) throw new SnapshotError(`${file} is truncated`);
  const digest = createHash('sha256').update(buffer.subarray(PREFIX_BYTES)).digest();
  if (!digest.equals(buffer.subarray(16, PREFIX_BYTES))) throw new SnapshotError(`${file} fails its checksum`);
  let header: { arrays: ArrayEntry[]; tree: unknown };
  try {
    header = JSON.parse(buffer.toString('utf8', PREFIX_BYTES + metaLength, PREFIX_BYTES + headerLength));
  } catch {
    throw new SnapshotError(`${file} has a damaged header`);
  }
  // A file read whole has a buffer of its own starting at 0; should it not, copy it so views are aligned.
  if (buffer.byteOffset % ALIGN !== 0) {
    const copy = new Uint8Array(buffer.length);
    copy.set(buffer);
    buffer = Buffer.from(copy.buffer);
  }
  const resolved = header.arrays.map(({ type, offset, length }) => {
    const Type = ARRAY_TYPES[type];
    if (!Type || offset + length * Type.BYTES_PER_ELEMENT > buffer.length - bodyStart)
      throw new SnapshotError(`${file} has an array out of bounds`);
    return new Type(buffer.buffer as ArrayBuffer, buffer.byteOffset + bodyStart + offset, length);
  });
  return { tree: header.tree, reader: new SnapshotReader(resolved) };
}

function padded(n: number): number {
  return Math.ceil(n / ALIGN) * ALIGN;
}
