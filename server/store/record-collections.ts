import { randomBytes } from 'node:crypto';
import { appendFile, mkdir, readFile, rename, rmdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Sql } from './sql.js';

/**
 * Small collections of records (studio users, scheduled versions, preview links) and append-only logs (the studio's
 * audit log), kept where the published segment versions are: in the shared store when nodes share PostgreSQL, and as
 * files beside the data otherwise, so the command-line tools and a running single node read and write the same
 * records (the embedded store admits one process only).
 *
 * A collection is read whole and changed whole, one change at a time across processes and nodes: it is for
 * records counted in hundreds, not for traffic.
 */
export interface RecordCollection<T extends { id: string }> {
  all(): Promise<T[]>;
  get(id: string): Promise<T | null>;
  /**
   * Changes the collection as one step no other change interleaves with: `change` gets every record and answers
   * the records to write (by id; the others stay as they are), the ids to delete (a record both written and deleted
   * is deleted), and a result.
   */
  update<R>(change: (records: T[]) => RecordChange<T, R> | Promise<RecordChange<T, R>>): Promise<R>;
}

export interface RecordChange<T, R> {
  put?: T[];
  remove?: string[];
  result: R;
}

/** An append-only log: newest first when read. */
export interface RecordLog<T> {
  append(entry: T): Promise<void>;
  /** The newest `limit` entries that pass `keep`, newest first. */
  recent(limit: number, keep?: (entry: T) => boolean): Promise<T[]>;
}

export interface RecordStores {
  readonly kind: 'files' | 'store';
  collection<T extends { id: string }>(name: string): RecordCollection<T>;
  log<T extends { at: string }>(name: string): RecordLog<T>;
}

const NAME = /^[a-z][a-z0-9-]{0,40}$/;
const checkName = (name: string) => {
  if (!NAME.test(name)) throw new Error(`not a record collection name: ${name}`);
  return name;
};

/** Records as files in `dir`: a collection is one JSON file, a log one JSON Lines file. */
export function fileRecordStores(dir: string): RecordStores {
  return {
    kind: 'files',
    collection: <T extends { id: string }>(name: string) => new FileCollection<T>(dir, checkName(name)),
    log: <T extends { at: string }>(name: string) => new FileLog<T>(dir, checkName(name)),
  };
}

/** Records in the store's `records` and `record_log` tables (migration 8). */
export function sqlRecordStores(sql: Sql): RecordStores {
  return {
    kind: 'store',
    collection: <T extends { id: string }>(name: string) => new SqlCollection<T>(sql, checkName(name)),
    log: <T extends { at: string }>(name: string) => new SqlLog<T>(sql, checkName(name)),
  };
}

/** The records a server or a command uses: the shared store with PostgreSQL, else files in `dir`. */
export function recordStoresFor(sql: Sql | null, dir: string): RecordStores {
  return sql?.kind === 'postgres' ? sqlRecordStores(sql) : fileRecordStores(dir);
}

function applyChange<T extends { id: string }>(records: T[], change: RecordChange<T, unknown>): T[] {
  const byId = new Map(records.map((r) => [r.id, r]));
  for (const r of change.put ?? []) byId.set(r.id, r);
  for (const id of change.remove ?? []) byId.delete(id);
  return [...byId.values()];
}

/** A lock older than this was left by a process that died holding it. */
const STALE_LOCK_MS = 10_000;
const LOCK_RETRY_MS = 15;

/** Holds `<file>.lock` (a directory: made atomically, or not at all) while `fn` runs. */
async function withFileLock<R>(file: string, fn: () => Promise<R>): Promise<R> {
  const lock = `${file}.lock`;
  await mkdir(path.dirname(file), { recursive: true });
  for (;;) {
    try {
      await mkdir(lock);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const made = await stat(lock).then(
        (s) => s.mtimeMs,
        () => null,
      );
      if (made !== null && Date.now() - made > STALE_LOCK_MS) await rmdir(lock).catch(() => {});
      await new Promise((resolve) => setTimeout(resolve, LOCK_RETRY_MS));
    }
  }
  try {
    return await fn();
  } finally {
    await rmdir(lock).catch(() => {});
  }
}

class FileCollection<T extends { id: string }> implements RecordCollection<T> {
  private readonly file: string;
  constructor(dir: string, name: string) {
    this.file = path.join(dir, `${name}.json`);
  }

  async all(): Promise<T[]> {
    try {
      return JSON.parse(await readFile(this.file, 'utf8')) as T[];
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
  }

  async get(id: string): Promise<T | null> {
    return (await this.all()).find((r) => r.id === id) ?? null;
  }

  update<R>(change: (records: T[]) => RecordChange<T, R> | Promise<RecordChange<T, R>>): Promise<R> {
    return withFileLock(this.file, async () => {
      const records = await this.all();
      const outcome = await change(records);
      if (outcome.put?.length || outcome.remove?.length) {
        // Written whole under another name, then renamed over: a reader sees the old file or the new one.
        const temp = `${this.file}.${randomBytes(6).toString('hex')}.tmp`;
        await writeFile(temp, `${JSON.stringify(applyChange(records, outcome), null, 2)}\n`);
        await rename(temp, this.file);
      }
      return outcome.result;
    });
  }
}

class FileLog<T extends { at: string }> implements RecordLog<T> {
  private readonly file: string;
  constructor(dir: string, name: string) {
    this.file = path.join(dir, `${name}.jsonl`);
  }

  async append(entry: T): Promise<void> {
    await mkdir(path.dirname(this.file), { recursive: true });
    // One write of one line in append mode: lines from several processes never interleave.
    await appendFile(this.file, `${JSON.stringify(entry)}\n`);
  }

  async recent(limit: number, keep: (entry: T) => boolean = () => true): Promise<T[]> {
    const text = await readFile(this.file, 'utf8').catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return '';
      throw err;
    });
    const out: T[] = [];
    const lines = text.split('\n');
    for (let i = lines.length - 1; i >= 0 && out.length < limit; i--) {
      if (!lines[i]) continue;
      let entry: T;
      try {
        entry = JSON.parse(lines[i]!) as T;
      } catch {
        continue; // a line cut short by a crash mid-write
      }
      if (keep(entry)) out.push(entry);
    }
    return out;
  }
}

/** The advisory lock one collection's changes are made under (the name hashed into the lock's second key). */
const RECORDS_LOCK = 22_791_004;

class SqlCollection<T extends { id: string }> implements RecordCollection<T> {
  constructor(
    private readonly sql: Sql,
    private readonly name: string,
  ) {}

  async all(): Promise<T[]> {
    const rows = await this.sql.query<{ body: T | string }>(
      'SELECT body FROM records WHERE collection = $1 ORDER BY id',
      [this.name],
    );
    return rows.map((r) => (typeof r.body === 'string' ? (JSON.parse(r.body) as T) : r.body));
  }

  async get(id: string): Promise<T | null> {
    const [row] = await this.sql.query<{ body: T | string }>(
      'SELECT body FROM records WHERE collection = $1 AND id = $2',
      [this.name, id],
    );
    if (!row) return null;
    return typeof row.body === 'string' ? (JSON.parse(row.body) as T) : row.body;
  }

  update<R>(change: (records: T[]) => RecordChange<T, R> | Promise<RecordChange<T, R>>): Promise<R> {
    return this.sql.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [RECORDS_LOCK, this.name]);
      const rows = await tx.query<{ body: T | string }>('SELECT body FROM records WHERE collection = $1', [this.name]);
      const records = rows.map((r) => (typeof r.body === 'string' ? (JSON.parse(r.body) as T) : r.body));
      const outcome = await change(records);
      for (const record of outcome.put ?? [])
        await tx.query(
          'INSERT INTO records (collection, id, body) VALUES ($1, $2, $3::jsonb) ' +
            'ON CONFLICT (collection, id) DO UPDATE SET body = EXCLUDED.body',
          [this.name, record.id, JSON.stringify(record)],
        );
      if (outcome.remove?.length)
        await tx.query('DELETE FROM records WHERE collection = $1 AND id = ANY($2::text[])', [
          this.name,
          outcome.remove,
        ]);
      return outcome.result;
    });
  }
}

class SqlLog<T extends { at: string }> implements RecordLog<T> {
  constructor(
    private readonly sql: Sql,
    private readonly name: string,
  ) {}

  async append(entry: T): Promise<void> {
    await this.sql.query('INSERT INTO record_log (log, at, body) VALUES ($1, $2, $3::jsonb)', [
      this.name,
      entry.at,
      JSON.stringify(entry),
    ]);
  }

  async recent(limit: number, keep: (entry: T) => boolean = () => true): Promise<T[]> {
    const out: T[] = [];
    let before: number | null = null;
    const page = Math.max(limit, 200);
    // Read back a page at a time until `limit` entries pass `keep` or the log ends.
    for (;;) {
      const rows: { id: string | number; body: T | string }[] = await this.sql.query<{
        id: string | number;
        body: T | string;
      }>(
        'SELECT id, body FROM record_log WHERE log = $1 AND ($2::bigint IS NULL OR id < $2) ORDER BY id DESC LIMIT $3',
        [this.name, before, page],
      );
      for (const row of rows) {
        const entry = typeof row.body === 'string' ? (JSON.parse(row.body) as T) : row.body;
        if (keep(entry)) out.push(entry);
        if (out.length >= limit) return out;
      }
      if (rows.length < page) return out;
      before = Number(rows.at(-1)!.id);
    }
  }
}
