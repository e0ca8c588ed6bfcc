import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import type { z } from 'zod';

const FLUSH_BYTES = 1 << 20;

/**
 * Appends schema-checked documents to a JSON Lines file in 1 MiB chunks and honours the stream's
 * back-pressure, so a million events go to disk without piling up in memory.
 */
export class JsonlWriter<S extends z.ZodType> {
  private readonly stream: WriteStream;
  /** The lines not yet handed to the stream, as UTF-8: the first `chunkBytes` bytes of `chunk`. */
  private chunk: Buffer = Buffer.allocUnsafe(FLUSH_BYTES);
  private chunkBytes = 0;
  /** Chunks the stream has written out, to be filled again. */
  private readonly spareChunks: Buffer[] = [];
  private blocked = false;
  count = 0;

  constructor(
    readonly file: string,
    private readonly schema: S,
    private readonly label: string,
  ) {
    this.stream = createWriteStream(file);
  }

  /** Validates and buffers one document; call `settle()` now and then to wait for the disk. */
  write(doc: z.input<S>): void {
    const checked = this.schema.safeParse(doc);
    if (!checked.success) {
      const issue = checked.error.issues[0]!;
      throw new Error(
        `${this.label} document ${this.count + 1} is invalid at ${issue.path.join('.')}: ${issue.message}`,
      );
    }
    this.appendLine(JSON.stringify(checked.data));
    this.count++;
  }

  /** Encodes `text` and a newline into the chunk, handing the chunk to the stream first when they might not fit. */
  private appendLine(text: string): void {
    // A UTF-16 code unit is at most three bytes of UTF-8.
    const room = text.length * 3 + 1;
    if (this.chunkBytes + room > this.chunk.length) {
      this.flush();
      if (room > this.chunk.length) this.chunk = Buffer.allocUnsafe(room);
    }
    this.chunkBytes += this.chunk.write(text, this.chunkBytes);
    this.chunk[this.chunkBytes++] = 0x0a;
  }

  private flush(): void {
    if (this.chunkBytes === 0) return;
    // The stream keeps the bytes until they are written, so the next lines go to another chunk.
    const chunk = this.chunk;
    if (!this.stream.write(chunk.subarray(0, this.chunkBytes), () => this.spareChunks.push(chunk))) this.blocked = true;
    this.chunk = this.spareChunks.pop() ?? Buffer.allocUnsafe(FLUSH_BYTES);
    this.chunkBytes = 0;
  }

  async settle(): Promise<void> {
    if (this.blocked) {
      await once(this.stream, 'drain');
      this.blocked = false;
    }
  }

  async close(): Promise<void> {
    this.flush();
    await this.settle();
    this.stream.end();
    await once(this.stream, 'finish');
  }
}

const READ_BYTES = 1 << 20;
const LF = 0x0a;
const CR = 0x0d;

/**
 * The lines of a UTF-8 text file, split where `readline` splits them (at `\n`, `\r\n` and a lone `\r`), empty
 * ones included; read in 1 MiB chunks and handed out a chunk's lines at a time.
 */
export async function* fileLines(file: string): AsyncGenerator<string[]> {
  let rest: Buffer | undefined;
  for await (const read of createReadStream(file, { highWaterMark: READ_BYTES }) as AsyncIterable<Buffer>) {
    const bytes = rest?.length ? Buffer.concat([rest, read]) : read;
    const end = bytes.lastIndexOf(LF) + 1;
    rest = bytes.subarray(end);
    if (end > 0) yield splitLines(bytes.subarray(0, end));
  }
  if (rest?.length) yield splitLines(rest);
}

/** Splits text made of whole lines: each ends at a `\n`, but the last may end with the text instead. */
function splitLines(bytes: Buffer): string[] {
  const lines: string[] = [];
  for (let start = 0; start < bytes.length;) {
    let end = bytes.indexOf(LF, start);
    if (end === -1) end = bytes.length;
    lines.push(bytes.toString('utf8', start, end));
    start = end + 1;
  }
  if (bytes.indexOf(CR) === -1) return lines;
  // A line ending in `\r\n` loses the `\r`; any other `\r` ends a line of its own.
  return lines.flatMap((line) => (line.endsWith('\r') ? line.slice(0, -1) : line).split('\r'));
}

/** One non-blank line of a JSON Lines file: its number, its text, and what it parses to (absent: not JSON). */
export interface JsonLine {
  line: number;
  text: string;
  parsed?: { value: unknown };
}

/** The non-blank lines of a JSON Lines file, each parsed when it is JSON. */
export async function* jsonLines(file: string): AsyncGenerator<JsonLine> {
  let line = 0;
  for await (const texts of fileLines(file)) {
    for (const text of texts) {
      line++;
      if (text.trim() === '') continue;
      let parsed: JsonLine['parsed'];
      try {
        parsed = { value: JSON.parse(text) as unknown };
      } catch {
        parsed = undefined;
      }
      yield { line, text, ...(parsed ? { parsed } : {}) };
    }
  }
}

/** Reads a JSON Lines file document by document; a bad line names its file and line number. */
export async function* readJsonl<S extends z.ZodType>(file: string, schema: S): AsyncGenerator<z.output<S>> {
  for await (const { line, parsed } of jsonLines(file)) {
    if (!parsed) throw new Error(`${file}:${line}: not valid JSON`);
    const checked = schema.safeParse(parsed.value);
    if (!checked.success) {
      const issue = checked.error.issues[0]!;
      throw new Error(`${file}:${line}: ${issue.path.join('.')}: ${issue.message}`);
    }
    yield checked.data;
  }
}
