import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import type { z } from 'zod';

const FLUSH_BYTES = 1 << 20;

/**
 * Appends schema-checked documents to a JSON Lines file in 1 MiB chunks and honours the stream's
 * back-pressure, so a million events go to disk without piling up in memory.
 */
export class JsonlWriter<S extends z.ZodType> {
  private readonly stream: WriteStream;
  private chunk: string[] = [];
  private chunkBytes = 0;
  private blocked = false;
  count = 0;

  constructor(
    readonly file: string,
    private readonly schema: S,
    private readonly label: string,
  ) {
    this.stream = createWriteStream(file, { encoding: 'utf8' });
  }

  /** Validates and buffers one document; call `settle()` now and then to wait for the disk. */
  write(doc: z.input<S>): void {
    const checked = this.schema.safeParse(doc);
    if (!checked.success) {
      const issue = checked.error.issues[0]!;
      throw new Error(`${this.label} document ${this.count + 1} is invalid at ${issue.path.join('.')}: ${issue.message}`);
    }
    const line = JSON.stringify(checked.data) + '\n';
    this.chunk.push(line);
    this.chunkBytes += line.length;
    this.count++;
    if (this.chunkBytes >= FLUSH_BYTES) this.flush();
  }

  private flush(): void {
    if (this.chunk.length === 0) return;
    if (!this.stream.write(this.chunk.join(''))) this.blocked = true;
    this.chunk = [];
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

/** Reads a JSON Lines file document by document; a bad line names its file and line number. */
export async function* readJsonl<S extends z.ZodType>(file: string, schema: S): AsyncGenerator<z.output<S>> {
  const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  let lineNo = 0;
  for await (const line of lines) {
    lineNo++;
    if (line.trim() === '') continue;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch {
      throw new Error(`${file}:${lineNo}: not valid JSON`);
    }
    const parsed = schema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new Error(`${file}:${lineNo}: ${issue.path.join('.')}: ${issue.message}`);
    }
    yield parsed.data;
  }
}
