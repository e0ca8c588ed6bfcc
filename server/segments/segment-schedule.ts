import { AppError } from '../http/errors.js';
import type { RecordCollection, RecordStores } from '../store/record-collections.js';
import type { Logger } from '../../shared/logger.js';
import type { ScheduleSummaryView } from '../../shared/schemas/studio.js';
import { SEGMENT_POLL_MS, type SegmentPublisher } from './segment-publisher.js';
import { brandsOfChange, type Actor, type SegmentAudit } from './segment-audit.js';
import { formatProblem } from './segment-problems.js';
import { compileSegments, type SegmentFiles } from './segment-set.js';
import { filesDigest, setChanges, setDiff, type SetChanges } from './segment-versions.js';

/** RULES 18.2: a version may be scheduled this far ahead at most. */
export const SCHEDULE_MAX_AHEAD_MS = 366 * 86_400_000;

export type ScheduleStatus = 'scheduled' | 'published' | 'failed' | 'cancelled';

/** A segment set to be published at a time: the whole set, and the set it was scheduled on top of. */
export interface ScheduledVersion {
  /** `1`, `2`…: what `npm run segments -- unschedule N` takes. */
  id: string;
  at: string;
  note: string;
  author: Actor;
  brands: string[];
  createdAt: string;
  status: ScheduleStatus;
  /** The version that published it. */
  version?: number;
  /** Why it was not published. */
  reason?: string;
  settledAt?: string;
  /** The whole set; emptied once settled (every node reads the schedules each second: settled ones stay small). */
  files: Record<string, string>;
  /** The site as of `at` when it was scheduled: what it changes is measured against this. Emptied once settled. */
  base: Record<string, string>;
  /** What it changes, kept when its files are let go. */
  changes?: SetChanges;
}

/** A schedule without its files, as lists show it. */
export type ScheduleSummary = ScheduleSummaryView;

export const scheduleSummary = ({ files, base, changes, ...rest }: ScheduledVersion): ScheduleSummary => ({
  ...rest,
  changes: changes ?? setChanges(base, files),
});

/** A schedule as kept once settled: what it changed, without its files. */
const settledRecord = (s: ScheduledVersion): ScheduledVersion => ({
  ...s,
  changes: s.changes ?? setChanges(s.base, s.files),
  files: {},
  base: {},
});

/**
 * What a schedule makes of the set live when it is due: its changes (against the set it was scheduled on) put
 * onto the live set. A file it changes that was changed since by someone else is a conflict: the schedule would
 * undo that change, so it is not published.
 */
export function applySchedule(
  live: SegmentFiles,
  schedule: Pick<ScheduledVersion, 'files' | 'base'>,
): { files: SegmentFiles; conflicts: string[] } {
  const changes = setChanges(schedule.base, schedule.files);
  const touched = [...changes.added, ...changes.changed, ...changes.removed];
  const conflicts = touched.filter((f) => live.get(f) !== schedule.base[f]).sort();
  const files = new Map(live);
  for (const f of touched) {
    const text = schedule.files[f];
    if (text === undefined) files.delete(f);
    else files.set(f, text);
  }
  return { files, conflicts };
}

/**
 * RULES 18.2: scheduled publishing. A version is checked when it is scheduled and again when it is due; every node
 * looks for due versions each second (and wakes at a due time just ahead), and the version store publishes one
 * version per schedule however many nodes try: the others find it published and serve it on their next poll.
 */
export class SegmentSchedule {
  private readonly schedules: RecordCollection<ScheduledVersion>;
  private timer: NodeJS.Timeout | null = null;
  private wake: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly options: {
      records: RecordStores;
      publisher: SegmentPublisher;
      audit: SegmentAudit;
      logger?: Pick<Logger, 'info' | 'warn'>;
      pollMs?: number;
      now?: () => number;
    },
  ) {
    this.schedules = options.records.collection<ScheduledVersion>('segment-schedules');
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  /** Every schedule, soonest first; the settled ones after the pending ones. */
  async list(): Promise<ScheduledVersion[]> {
    const all = await this.schedules.all();
    const pending = (s: ScheduledVersion) => (s.status === 'scheduled' ? 0 : 1);
    return all.sort((a, b) => pending(a) - pending(b) || Date.parse(a.at) - Date.parse(b.at) || +a.id - +b.id);
  }

  async get(id: string): Promise<ScheduledVersion> {
    const found = await this.schedules.get(id);
    if (!found) throw new AppError(404, 'schedule_not_found', `There is no scheduled version ${id}`);
    return found;
  }

  /**
   * The site as shoppers will see it at `at`: the live set with every version scheduled by then put on in order.
   * A schedule that would not apply (a conflict, or problems) is left out, as it will be when due.
   */
  async asOf(at: Date, except?: string): Promise<{ files: SegmentFiles; applied: ScheduledVersion[] }> {
    let files: SegmentFiles = this.options.publisher.liveFiles;
    const applied: ScheduledVersion[] = [];
    for (const s of await this.list()) {
      if (s.status !== 'scheduled' || s.id === except || Date.parse(s.at) > at.getTime()) continue;
      const next = applySchedule(files, s);
      if (next.conflicts.length > 0 || compileSegments(next.files).problems.length > 0) continue;
      files = next.files;
      applied.push(s);
    }
    return { files, applied };
  }

  /**
   * Schedules `files` to be published at `at`, on top of the site as it will be then, and says so in the audit log.
   * Refused (422) when the set has problems, (409) when it changes nothing then, (400) when `at` is not ahead.
   */
  async schedule(input: {
    files: SegmentFiles;
    base: SegmentFiles;
    at: Date;
    note: string;
    author: Actor;
  }): Promise<ScheduledVersion> {
    const { at, files, base } = input;
    if (!Number.isFinite(at.getTime())) throw new AppError(400, 'invalid_time', 'at must be a date and time');
    if (at.getTime() <= this.now())
      throw new AppError(400, 'time_passed', `${at.toISOString()} has passed: a version is scheduled ahead`);
    if (at.getTime() - this.now() > SCHEDULE_MAX_AHEAD_MS)
      throw new AppError(400, 'time_too_far', 'A version is scheduled at most a year ahead');
    const problems = compileSegments(files).problems;
    if (problems.length > 0)
      throw new AppError(
        422,
        'draft_invalid',
        `${problems.length} problem${problems.length === 1 ? '' : 's'} in the segment files: fix ${
          problems.length === 1 ? 'it' : 'them'
        } before scheduling`,
        problems,
      );
    if (filesDigest(files) === filesDigest(base))
      throw new AppError(409, 'nothing_to_publish', `The set is what shoppers will see at ${at.toISOString()} already`);
    const scheduled = await this.schedules.update((all) => {
      const record: ScheduledVersion = {
        id: String(all.reduce((n, s) => Math.max(n, Number(s.id)), 0) + 1),
        at: at.toISOString(),
        note: input.note,
        author: { id: input.author.id, name: input.author.name },
        brands: brandsOfChange(base, files),
        createdAt: new Date(this.now()).toISOString(),
        status: 'scheduled',
        files: Object.fromEntries(files),
        base: Object.fromEntries(base),
      };
      return { put: [record], result: record };
    });
    await this.options.audit.record(input.author, {
      action: 'schedule',
      brands: scheduled.brands,
      summary: `scheduled version ${scheduled.id} for ${scheduled.at}: ${scheduled.note}`,
      diff: setDiff(base, files),
    });
    return scheduled;
  }

  /** Cancels a pending schedule, in `actor`'s name; 409 once it is published, failed or cancelled. */
  async cancel(id: string, actor: Actor): Promise<ScheduledVersion> {
    const cancelled = await this.schedules.update((all) => {
      const s = all.find((x) => x.id === id);
      if (!s) throw new AppError(404, 'schedule_not_found', `There is no scheduled version ${id}`);
      if (s.status !== 'scheduled')
        throw new AppError(409, 'schedule_settled', `Scheduled version ${id} is ${s.status}: it cannot be cancelled`);
      const cancelled: ScheduledVersion = {
        ...settledRecord(s),
        status: 'cancelled',
        settledAt: new Date(this.now()).toISOString(),
      };
      return { put: [cancelled], result: cancelled };
    });
    await this.options.audit.record(actor, {
      action: 'unschedule',
      brands: cancelled.brands,
      summary: `cancelled scheduled version ${id} (due ${cancelled.at}): ${cancelled.note}`,
    });
    return cancelled;
  }

  /** Looks for due versions now, then every poll; answers the function that stops. */
  start(): () => void {
    const tick = () => {
      this.runDue()
        .catch((err: unknown) =>
          this.options.logger?.warn({ err }, 'cannot look at the scheduled segment versions now; retrying'),
        )
        .finally(() => {
          if (this.timer) this.timer = setTimeout(tick, this.options.pollMs ?? SEGMENT_POLL_MS).unref();
        });
    };
    this.timer = setTimeout(tick, 0).unref();
    return () => {
      if (this.timer) clearTimeout(this.timer);
      if (this.wake) clearTimeout(this.wake);
      this.timer = null;
      this.wake = null;
    };
  }

  /** Publishes every version that is due, in order; one run at a time on this node. */
  runDue(): Promise<void> {
    this.running ??= this.publishDue().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async publishDue(): Promise<void> {
    const now = this.now();
    const pending = (await this.list()).filter((s) => s.status === 'scheduled');
    for (const s of pending) {
      if (Date.parse(s.at) > now) break;
      if (!(await this.publishOne(s))) return;
    }
    // A version due before the next poll is published at its time, not up to a poll late.
    const next = pending.find((s) => Date.parse(s.at) > now);
    const poll = this.options.pollMs ?? SEGMENT_POLL_MS;
    if (next && Date.parse(next.at) - now < poll && this.timer && !this.wake) {
      this.wake = setTimeout(
        () => {
          this.wake = null;
          void this.runDue().catch(() => {});
        },
        Math.max(0, Date.parse(next.at) - now),
      ).unref();
    }
  }

  /** Publishes one due schedule, or settles it as failed; false when it must wait for the next run. */
  private async publishOne(s: ScheduledVersion): Promise<boolean> {
    const { publisher, logger } = this.options;
    // Asked after the sync too: another node may publish it between the two, and the live set it left behind
    // would then read as a change made after the schedule (a conflict) rather than as this very version.
    let done = await publisher.publishedSchedule(s.id);
    if (done === null) {
      await publisher.sync();
      done = await publisher.publishedSchedule(s.id);
    }
    if (done !== null) {
      // Published by a node that stopped before it could say so.
      if (await this.settle(s, { status: 'published', version: done }))
        await this.options.audit.record(s.author, {
          action: 'scheduled-publish',
          brands: s.brands,
          summary: `published scheduled version ${s.id} as version ${done}: ${s.note}`,
          version: done,
        });
      return true;
    }
    const live = publisher.liveFiles;
    const { files, conflicts } = applySchedule(live, s);
    if (conflicts.length > 0) {
      return this.fail(
        s,
        `${conflicts.join(', ')} changed after it was scheduled: publishing it would undo that change`,
        setDiff(live, files),
      );
    }
    const problems = compileSegments(files).problems;
    if (problems.length > 0) {
      return this.fail(
        s,
        `it no longer builds: ${problems.length} problem${problems.length === 1 ? '' : 's'}, ` +
          `the first ${formatProblem(problems[0]!)}`,
      );
    }
    if (filesDigest(files) === filesDigest(live)) {
      await this.settle(s, { status: 'published', version: publisher.live ?? undefined });
      return true;
    }
    try {
      const version = await publisher.publish(files, { note: s.note, author: s.author.name, scheduleId: s.id });
      if (await this.settle(s, { status: 'published', version: version.version })) {
        logger?.info({ schedule: s.id, version: version.version }, 'scheduled segment version published');
        await this.options.audit.record(s.author, {
          action: 'scheduled-publish',
          brands: s.brands,
          summary: `published scheduled version ${s.id} as version ${version.version}: ${s.note}`,
          version: version.version,
          diff: setDiff(live, files),
        });
      }
      return true;
    } catch (err) {
      // Another node published it, or another version first: the next run looks again.
      if (err instanceof AppError && err.status === 409) return false;
      throw err;
    }
  }

  private async fail(s: ScheduledVersion, reason: string, diff?: string): Promise<boolean> {
    if (await this.settle(s, { status: 'failed', reason })) {
      this.options.logger?.warn({ schedule: s.id, reason }, `scheduled segment version ${s.id} was not published`);
      await this.options.audit.record(s.author, {
        action: 'scheduled-failed',
        brands: s.brands,
        summary: `scheduled version ${s.id} was not published: ${reason}`,
        ...(diff ? { diff } : {}),
      });
    }
    return true;
  }

  /** Marks a schedule settled if it is still pending; answers whether this call did it. */
  private settle(
    s: ScheduledVersion,
    outcome: { status: ScheduleStatus; version?: number | undefined; reason?: string },
  ): Promise<boolean> {
    return this.schedules.update((all) => {
      const current = all.find((x) => x.id === s.id);
      if (!current || current.status !== 'scheduled') return { result: false };
      const settled: ScheduledVersion = {
        ...settledRecord(current),
        status: outcome.status,
        ...(outcome.version !== undefined ? { version: outcome.version } : {}),
        ...(outcome.reason ? { reason: outcome.reason } : {}),
        settledAt: new Date(this.now()).toISOString(),
      };
      return { put: [settled], result: true };
    });
  }
}
