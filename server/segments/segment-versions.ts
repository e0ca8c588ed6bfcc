import { createHash, randomBytes } from 'node:crypto';
import { link, mkdir, readdir, readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createTwoFilesPatch } from 'diff';
import type { Sql } from '../store/sql.js';
import type { SegmentFiles } from './segment-set.js';

/** One published segment set: every file as it was published, with who published it, when and why. */
export interface SegmentVersion {
  version: number;
  publishedAt: string;
  author: string | null;
  note: string;
  /** The version whose files this one brought back, for a rollback. */
  restoredFrom: number | null;
  /** The scheduled version this one published (RULES 18.2): one version per schedule, whichever node publishes. */
  scheduleId?: string | null;
  /** A digest of the files: two versions with the same files have the same digest. */
  digest: string;
  files: Record<string, string>;
}

export type NewVersion = Pick<SegmentVersion, 'author' | 'note' | 'restoredFrom' | 'files' | 'scheduleId'>;

/**
 * Where published versions are kept, numbered from 1 in the order they were published. `append` with `after`
 * adds the version only when the newest is still `after` (null: only when there is none), so two nodes
 * seeding at once publish once.
 */
export interface SegmentVersionStore {
  readonly kind: 'files' | 'store';
  latest(): Promise<number | null>;
  get(version: number): Promise<SegmentVersion | null>;
  /** Newest first. */
  list(limit: number): Promise<SegmentVersion[]>;
  /** The newest version with these files' digest. */
  findDigest(digest: string): Promise<number | null>;
  /**
   * Adds a version; null when the newest is no longer `after`, or when a version already published the same
   * schedule.
   */
  append(version: NewVersion, options?: { after: number | null }): Promise<SegmentVersion | null>;
  /** The version that published a schedule, if one did. */
  findSchedule(scheduleId: string): Promise<number | null>;
}

export function filesDigest(files: SegmentFiles | Record<string, string>): string {
  const entries = files instanceof Map ? [...files] : Object.entries(files);
  const hash = createHash('sha256');
  for (const [name, text] of entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    hash.update(`${name}\0${text}\0`);
  return hash.digest('hex');
}

export interface SetChanges {
  added: string[];
  changed: string[];
  removed: string[];
}

export function setChanges(
  before: SegmentFiles | Record<string, string>,
  after: SegmentFiles | Record<string, string>,
): SetChanges {
  const a = before instanceof Map ? before : new Map(Object.entries(before));
  const b = after instanceof Map ? after : new Map(Object.entries(after));
  return {
    added: [...b.keys()].filter((f) => !a.has(f)).sort(),
    changed: [...b.keys()].filter((f) => a.has(f) && a.get(f) !== b.get(f)).sort(),
    removed: [...a.keys()].filter((f) => !b.has(f)).sort(),
  };
}

/** A unified diff of two sets, file by file (`a/…` before, `b/…` after); empty when they are the same. */
export function setDiff(
  before: SegmentFiles | Record<string, string>,
  after: SegmentFiles | Record<string, string>,
): string {
  const a = before instanceof Map ? before : new Map(Object.entries(before));
  const b = after instanceof Map ? after : new Map(Object.entries(after));
  const { added, changed, removed } = setChanges(a, b);
  return [...new Set([...added, ...changed, ...removed])]
    .sort()
    .map((file) =>
      createTwoFilesPatch(
        a.has(file) ? `a/${file}` : '/dev/null',
        b.has(file) ? `b/${file}` : '/dev/null',
        a.get(file) ?? '',
        b.get(file) ?? '',
        '',
        '',
        { context: 3 },
      )
        .split('\n')
        .slice(1) // the "====" line
        .join('\n'),
    )
    .join('');
}

const HUNK = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/;

/**
 * The sections of a `setDiff` whose file `keep` says yes to, in order. Each section is read by its hunks' line
 * counts, so a line of a file that looks like a section's header (`--- a/…`) is never taken for one; what does not
 * read as a `setDiff` (from its first line that does not) is left out.
 */
export function diffOfFiles(diff: string, keep: (file: string) => boolean): string {
  const lines = diff.split('\n');
  const kept: string[] = [];
  let i = 0;
  while (lines[i]?.startsWith('--- ') && lines[i + 1]?.startsWith('+++ ')) {
    const start = i;
    const [from, to] = [lines[i]!.slice(4), lines[i + 1]!.slice(4)];
    i += 2;
    let hunk: RegExpExecArray | null;
    while ((hunk = HUNK.exec(lines[i] ?? ''))) {
      let before = hunk[1] === undefined ? 1 : Number(hunk[1]);
      let after = hunk[2] === undefined ? 1 : Number(hunk[2]);
      i++;
      for (; i < lines.length; i++) {
        const line = lines[i]!;
        if (line.startsWith('\\')) continue; // "\ No newline at end of file"
        if (before === 0 && after === 0) break;
        if (line.startsWith(' ')) [before, after] = [before - 1, after - 1];
        else if (line.startsWith('-')) before--;
        else if (line.startsWith('+')) after--;
        else return kept.length > 0 ? `${kept.join('\n')}\n` : '';
      }
    }
    const file = (to === '/dev/null' ? from : to).replace(/^[ab]\//, '');
    if (keep(file)) kept.push(...lines.slice(start, i));
  }
  return kept.length > 0 ? `${kept.join('\n')}\n` : '';
}

const VERSION_FILE = /^v(\d{6,})\.json$/;
const fileName = (version: number) => `v${String(version).padStart(6, '0')}.json`;

/**
 * Versions as plain JSON files in a folder (`v000001.json`, …), for a single node without a shared store; the
 * CLI and the server read and write the same folder. A version is written under a temporary name and linked
 * to its number, which fails when that number is taken: two publishers never share one.
 */
export class FileVersionStore implements SegmentVersionStore {
  readonly kind = 'files';
  constructor(readonly dir: string) {}

  async latest(): Promise<number | null> {
    const numbers = await this.numbers();
    return numbers.at(-1) ?? null;
  }

  async get(version: number): Promise<SegmentVersion | null> {
    try {
      return JSON.parse(await readFile(path.join(this.dir, fileName(version)), 'utf8')) as SegmentVersion;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async list(limit: number): Promise<SegmentVersion[]> {
    const numbers = (await this.numbers()).reverse().slice(0, limit);
    const out: SegmentVersion[] = [];
    for (const n of numbers) {
      const v = await this.get(n);
      if (v) out.push(v);
    }
    return out;
  }

  async findDigest(digest: string): Promise<number | null> {
    for (const n of (await this.numbers()).reverse()) {
      if ((await this.get(n))?.digest === digest) return n;
    }
    return null;
  }

  async findSchedule(scheduleId: string): Promise<number | null> {
    for (const n of (await this.numbers()).reverse()) {
      if ((await this.get(n))?.scheduleId === scheduleId) return n;
    }
    return null;
  }

  async append(version: NewVersion, options?: { after: number | null }): Promise<SegmentVersion | null> {
    await mkdir(this.dir, { recursive: true });
    for (;;) {
      const latest = await this.latest();
      if (options && options.after !== latest) return null;
      if (version.scheduleId && (await this.findSchedule(version.scheduleId)) !== null) return null;
      const record: SegmentVersion = {
        version: (latest ?? 0) + 1,
        publishedAt: new Date().toISOString(),
        digest: filesDigest(version.files),
        ...version,
      };
      const temp = path.join(this.dir, `.${fileName(record.version)}.${randomBytes(6).toString('hex')}.tmp`);
      await writeFile(temp, `${JSON.stringify(record, null, 2)}\n`);
      try {
        await link(temp, path.join(this.dir, fileName(record.version)));
        return record;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      } finally {
        await unlink(temp).catch(() => {});
      }
    }
  }

  private async numbers(): Promise<number[]> {
    const names = await readdir(this.dir).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return [] as string[];
      throw err;
    });
    return names
      .map((n) => VERSION_FILE.exec(n)?.[1])
      .filter((n): n is string => n !== undefined)
      .map(Number)
      .sort((a, b) => a - b);
  }
}

/** The advisory lock publishers hold while numbering a version (any number no other code uses). */
const PUBLISH_LOCK = 22_791_003;

interface VersionRow extends Record<string, unknown> {
  version: number;
  published_at: Date | string;
  author: string | null;
  note: string;
  restored_from: number | null;
  schedule_id: string | null;
  digest: string;
  files: Record<string, string> | string;
}

const fromRow = (row: VersionRow): SegmentVersion => ({
  version: Number(row.version),
  publishedAt: new Date(row.published_at).toISOString(),
  author: row.author,
  note: row.note,
  restoredFrom: row.restored_from === null ? null : Number(row.restored_from),
  scheduleId: row.schedule_id ?? null,
  digest: row.digest,
  files: typeof row.files === 'string' ? (JSON.parse(row.files) as Record<string, string>) : row.files,
});

/** Versions in the shared store (`segment_versions`), which every node polls: how a publish reaches them all. */
export class SqlVersionStore implements SegmentVersionStore {
  readonly kind = 'store';
  constructor(private readonly sql: Sql) {}

  async latest(): Promise<number | null> {
    const [row] = await this.sql.query<{ version: number | null }>(
      'SELECT max(version) AS version FROM segment_versions',
    );
    return row?.version === null || row?.version === undefined ? null : Number(row.version);
  }

  async get(version: number): Promise<SegmentVersion | null> {
    const [row] = await this.sql.query<VersionRow>('SELECT * FROM segment_versions WHERE version = $1', [version]);
    return row ? fromRow(row) : null;
  }

  async list(limit: number): Promise<SegmentVersion[]> {
    return (
      await this.sql.query<VersionRow>('SELECT * FROM segment_versions ORDER BY version DESC LIMIT $1', [limit])
    ).map(fromRow);
  }

  async findDigest(digest: string): Promise<number | null> {
    const [row] = await this.sql.query<{ version: number | null }>(
      'SELECT max(version) AS version FROM segment_versions WHERE digest = $1',
      [digest],
    );
    return row?.version === null || row?.version === undefined ? null : Number(row.version);
  }

  async findSchedule(scheduleId: string): Promise<number | null> {
    const [row] = await this.sql.query<{ version: number }>(
      'SELECT version FROM segment_versions WHERE schedule_id = $1',
      [scheduleId],
    );
    return row ? Number(row.version) : null;
  }

  append(version: NewVersion, options?: { after: number | null }): Promise<SegmentVersion | null> {
    return this.sql.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [PUBLISH_LOCK]);
      const [top] = await tx.query<{ version: number | null }>('SELECT max(version) AS version FROM segment_versions');
      const latest = top?.version === null || top?.version === undefined ? null : Number(top.version);
      if (options && options.after !== latest) return null;
      if (version.scheduleId) {
        const [done] = await tx.query('SELECT version FROM segment_versions WHERE schedule_id = $1', [
          version.scheduleId,
        ]);
        if (done) return null;
      }
      const [row] = await tx.query<VersionRow>(
        `INSERT INTO segment_versions (version, author, note, restored_from, schedule_id, digest, files)
         VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb) RETURNING *`,
        [
          (latest ?? 0) + 1,
          version.author,
          version.note,
          version.restoredFrom,
          version.scheduleId ?? null,
          filesDigest(version.files),
          JSON.stringify(version.files),
        ],
      );
      return fromRow(row!);
    });
  }
}
