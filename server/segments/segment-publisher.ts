import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rmdir, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../http/errors.js';
import type { SegmentRepository } from './segment-repository.js';
import { compileSegments, readSegmentDir, REGISTRY_FILE, SEGMENT_FILE, type SegmentFiles } from './segment-set.js';
import {
  filesDigest,
  setChanges,
  setDiff,
  type NewVersion,
  type SegmentVersion,
  type SegmentVersionStore,
  type SetChanges,
} from './segment-versions.js';
import type { Logger } from '../../shared/logger.js';

/** Issue 18: a publish reaches every node within 2 s; each node asks the store for a newer version this often. */
export const SEGMENT_POLL_MS = 1_000;
/** Versions a history answer lists. */
export const HISTORY_LIMIT = 200;

export interface VersionSummary {
  version: number;
  publishedAt: string;
  author: string | null;
  note: string;
  restoredFrom: number | null;
  files: number;
  changes: SetChanges;
}

export interface PublishInput {
  note: string;
  author?: string | null;
  /** The scheduled version this publish carries out (RULES 18.2). */
  scheduleId?: string;
}

/**
 * Publishes segment sets as numbered versions and keeps this node serving the newest. A publish validates the
 * whole set first (nothing with a problem is ever published), adds a version to the store and swaps the set
 * in at once; other nodes find the new version on their next poll. A rollback publishes an older version's
 * files again as a new version, so history only grows. The live folder (`SEGMENTS_DIR`) mirrors the live
 * version as plain files, so it can be committed.
 */
export class SegmentPublisher {
  private liveVersion: number | null = null;
  private synced = false;
  private syncing: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private mirrorWarned = false;

  constructor(
    private readonly options: {
      versions: SegmentVersionStore;
      live: SegmentRepository;
      /** The live folder: read at start, rewritten to match each version served. */
      liveDir: string;
      logger?: Pick<Logger, 'info' | 'warn'>;
      pollMs?: number;
    },
  ) {}

  /** The version that published a schedule, if one did. */
  publishedSchedule(scheduleId: string): Promise<number | null> {
    return this.options.versions.findSchedule(scheduleId);
  }

  /** The set being served. */
  get liveFiles(): SegmentFiles {
    return this.options.live.current.files;
  }

  /** The version being served; null before the store has answered once (the live folder is served then). */
  get live(): number | null {
    return this.liveVersion;
  }

  /** Brings this node up to date now and then every poll; returns the function that stops polling. */
  start(): () => void {
    const tick = () => {
      this.sync()
        .catch((err: unknown) =>
          this.options.logger?.warn(
            { err },
            'cannot read the published segment versions yet; the set in memory keeps serving',
          ),
        )
        .finally(() => {
          if (this.timer) this.timer = setTimeout(tick, this.options.pollMs ?? SEGMENT_POLL_MS).unref();
        });
    };
    this.timer = setTimeout(tick, 0).unref();
    return () => {
      if (this.timer) clearTimeout(this.timer);
      this.timer = null;
    };
  }

  /** Serves the newest published version if this node is behind; the first time, reconciles the live folder. */
  sync(): Promise<void> {
    this.syncing ??= (this.synced ? this.catchUp() : this.firstSync()).finally(() => {
      this.syncing = null;
    });
    return this.syncing;
  }

  private async catchUp(): Promise<void> {
    const latest = await this.options.versions.latest();
    if (latest !== null && (this.liveVersion === null || latest > this.liveVersion)) {
      const version = await this.options.versions.get(latest);
      if (version) await this.serve(version);
    }
  }

  /**
   * At start the live folder is served; then, once the store answers: with no version yet, the folder becomes
   * version 1; when the folder holds an older version (a node started from an old image, say) the newest is
   * served and written over it; when it holds files no version has (changed by hand or by a deploy), they
   * are published as a version of their own, if valid.
   */
  private async firstSync(): Promise<void> {
    const { versions, live, liveDir, logger } = this.options;
    const onDisk = live.current.files;
    const digest = filesDigest(onDisk);
    const problems = compileSegments(onDisk).problems;
    const latest = await versions.latest();
    if (latest === null) {
      if (problems.length > 0) {
        logger?.warn(
          { problems: problems.length },
          `the segment files in ${liveDir} have problems: nothing is published until a valid set is`,
        );
      } else {
        const first = await versions.append(
          {
            files: Object.fromEntries(onDisk),
            note: `The files in ${path.basename(liveDir)}/ at first start`,
            author: null,
            restoredFrom: null,
          },
          { after: null },
        );
        if (!first) return this.firstSync();
        this.liveVersion = first.version;
        this.options.live.version = first.version;
        logger?.info({ version: first.version }, 'segment files published as the first version');
      }
    } else {
      const newest = (await versions.get(latest))!;
      if (newest.digest === digest) {
        this.liveVersion = latest;
        this.options.live.version = latest;
      } else if ((await versions.findDigest(digest)) !== null || problems.length > 0) {
        if (problems.length > 0)
          logger?.warn(
            { problems: problems.length, version: latest },
            `the segment files in ${liveDir} have problems: version ${latest} is served instead`,
          );
        await this.serve(newest);
      } else {
        const added = await versions.append(
          {
            files: Object.fromEntries(onDisk),
            note: `The files in ${path.basename(liveDir)}/ as found at start`,
            author: null,
            restoredFrom: null,
          },
          { after: latest },
        );
        if (!added) return this.firstSync();
        this.liveVersion = added.version;
        this.options.live.version = added.version;
        logger?.info(
          { version: added.version },
          'segment files changed outside the studio were published as a version',
        );
      }
    }
    this.synced = true;
  }

  private async serve(version: SegmentVersion): Promise<void> {
    // A poll that read an older version may land after this node's own publish: never step back.
    if (this.liveVersion !== null && version.version <= this.liveVersion) return;
    const files = new Map(Object.entries(version.files));
    this.options.live.use(files);
    this.liveVersion = version.version;
    this.options.live.version = version.version;
    this.options.logger?.info({ version: version.version }, 'segment version served');
    await writeSegmentDir(this.options.liveDir, files).catch((err: unknown) => {
      if (!this.mirrorWarned)
        this.options.logger?.warn(
          { err, dir: this.options.liveDir },
          'cannot write the live segment files; the store keeps the published versions',
        );
      this.mirrorWarned = true;
    });
  }

  /** Publishes a whole set: 422 with its problems when any file has one, 409 when it is what is live. */
  async publish(files: SegmentFiles, input: PublishInput, restoredFrom: number | null = null): Promise<SegmentVersion> {
    // The version this node served when the set was asked to go live: what its drafts were told they change.
    const seen = this.liveVersion;
    const problems = compileSegments(files).problems;
    if (problems.length > 0) {
      throw new AppError(
        422,
        'draft_invalid',
        `${problems.length} problem${problems.length === 1 ? '' : 's'} in the ` +
          `segment files: fix ${problems.length === 1 ? 'it' : 'them'} before ` +
          `publishing`,
        problems,
      );
    }
    await this.sync();
    if (filesDigest(files) === filesDigest(this.options.live.current.files)) {
      throw new AppError(
        409,
        'nothing_to_publish',
        restoredFrom === null
          ? 'The drafts are the same as the live segment set: there is nothing to publish'
          : `Version ${restoredFrom} is what is live: there is nothing to restore`,
      );
    }
    const record: NewVersion = {
      files: Object.fromEntries(files),
      note: input.note,
      author: input.author ?? null,
      restoredFrom,
      scheduleId: input.scheduleId ?? null,
    };
    // Added only on top of the version this node served when the publish was asked: of two publishes at once, the
    // second is refused rather than stacked as a copy (or an undoing) of the first, even when the first went live
    // here while the second waited; so is one from a node that had not yet caught up with another's.
    const version = await this.options.versions.append(record, { after: seen });
    if (!version) {
      if (input.scheduleId && (await this.options.versions.findSchedule(input.scheduleId)) !== null)
        throw new AppError(409, 'schedule_published', `Scheduled version ${input.scheduleId} is already published`);
      throw new AppError(
        409,
        'live_changed',
        'Another version was published meanwhile: look at what the drafts change now, then publish again',
      );
    }
    // Swapped in here at once; other nodes (and this one, if a newer version came meanwhile) catch up on their poll.
    if (this.liveVersion === null || version.version > this.liveVersion) await this.serve(version);
    return version;
  }

  /** Publishes version `n`'s files again, as a new version. */
  async restore(n: number, input: Partial<PublishInput>): Promise<SegmentVersion> {
    const old = await this.options.versions.get(n);
    if (!old) throw new AppError(404, 'version_not_found', `There is no version ${n}`);
    return this.publish(
      new Map(Object.entries(old.files)),
      { note: input.note || `Restored version ${n}`, author: input.author ?? null },
      n,
    );
  }

  async history(limit = HISTORY_LIMIT): Promise<{ live: number | null; versions: VersionSummary[] }> {
    const versions = await this.options.versions.list(limit + 1);
    const summaries = versions.slice(0, limit).map((v, i) => summary(v, versions[i + 1] ?? null));
    return { live: this.liveVersion, versions: summaries };
  }

  async version(n: number): Promise<VersionSummary & { diff: string }> {
    const v = await this.options.versions.get(n);
    if (!v) throw new AppError(404, 'version_not_found', `There is no version ${n}`);
    const before = n > 1 ? await this.options.versions.get(n - 1) : null;
    return { ...summary(v, before), diff: setDiff(before?.files ?? {}, v.files) };
  }

  /** The files of a version, or of the live set. */
  async files(n?: number): Promise<SegmentFiles> {
    if (n === undefined) return this.options.live.current.files;
    const v = await this.options.versions.get(n);
    if (!v) throw new AppError(404, 'version_not_found', `There is no version ${n}`);
    return new Map(Object.entries(v.files));
  }
}

function summary(v: SegmentVersion, before: SegmentVersion | null): VersionSummary {
  return {
    version: v.version,
    publishedAt: v.publishedAt,
    author: v.author,
    note: v.note,
    restoredFrom: v.restoredFrom,
    files: Object.keys(v.files).length,
    changes: setChanges(before?.files ?? {}, v.files),
  };
}

/**
 * Makes a folder hold exactly `files` (other files, such as flags.json or a README, are left alone): each
 * changed file is written under a temporary name and renamed over the old one, so a reader never sees half a
 * file, and segment files the set no longer has are removed.
 */
export async function writeSegmentDir(dir: string, files: SegmentFiles): Promise<void> {
  const staged: [string, string][] = [];
  for (const [name, text] of files) {
    if (!SEGMENT_FILE.test(name)) throw new Error(`not a segment file name: ${name}`);
    const target = path.join(dir, name);
    const current = await readFile(target, 'utf8').catch(() => undefined);
    if (current === text) continue;
    await mkdir(path.dirname(target), { recursive: true });
    const temp = `${target}.${randomBytes(6).toString('hex')}.tmp`;
    await writeFile(temp, text);
    staged.push([temp, target]);
  }
  for (const [temp, target] of staged) await rename(temp, target);
  const existing = await readSegmentDir(dir).catch(() => new Map<string, string>());
  for (const name of existing.keys()) {
    // Every file the folder's set is read from, stray ones (`explore copy.json`) too, so the folder holds the set.
    if (!files.has(name) && name !== REGISTRY_FILE) await unlink(path.join(dir, name)).catch(() => {});
  }
  // Brand folders left empty go too.
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (
      entry.isDirectory() &&
      !entry.name.startsWith('.') &&
      (await readdir(path.join(dir, entry.name))).length === 0
    ) {
      await rmdir(path.join(dir, entry.name)).catch(() => {});
    }
  }
}
