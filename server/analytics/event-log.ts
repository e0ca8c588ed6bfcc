import type { EventName, StoredEvent } from '../../shared/schemas/analytics-events.js';
import type { DeviceType } from '../../shared/rules/device-type.js';
import type { Logger } from '../../shared/logger.js';
import { isStoreUnavailable } from '../store/store-errors.js';
import type { Sql, SqlTx } from '../store/sql.js';

/** One event as the store keeps it (RULES 16.4: no address, email or name among its fields). */
export interface EventRecord {
  name: EventName;
  at: Date;
  /** The guest id: GrowthBook's hashing attribute, the same on server and browser. */
  guest: string;
  brand: string;
  device: DeviceType;
  page?: string | null;
  pageView?: string | null;
  variation?: string | null;
  segmentFile?: string | null;
  segmentVersion?: number | null;
  rowId?: string | null;
  position?: number | null;
  itemPosition?: number | null;
  item?: string | null;
  experimentId?: string | null;
  variationId?: string | null;
  reason?: string | null;
  orderId?: string | null;
  /** All-in revenue in dollars (a purchase). */
  revenue?: number | null;
  /** What makes a repeat of this event a no-op (RULES 16.3); null for none. */
  once?: string | null;
}

/** RULES 16.5: how often queued events are written, and how many go in one statement. */
export const FLUSH_EVERY_MS = 250;
export const ROWS_PER_INSERT = 1_000;
/**
 * RULES 16.5: a browser's batch is refused (503, to be sent again) while this many events wait; the server's own
 * events beyond it (the store down for long) are dropped, oldest first, and counted.
 */
export const MAX_QUEUED_EVENTS = 100_000;
/** RULES 16.6: events are kept this many days unless `EVENTS_RETENTION_DAYS` says otherwise. */
export const DEFAULT_RETENTION_DAYS = 90;
/**
 * RULES 16.3: how many once keys of events it wrote lately a node remembers, so that a repeat (a layout the same page
 * view asks for again, a batch sent twice) is not queued and written again. Two generations of at most this many are
 * kept (a few MiB); a repeat older than that is still a no-op in the store. An event the store did not take (its
 * guest had opted out, say) is not remembered, so it may be sent again.
 */
export const REMEMBERED_ONCE_KEYS = 50_000;
/** How often a node deletes events older than the retention (best effort; any node may). */
const RETENTION_SWEEP_EVERY_MS = 60 * 60_000;

/** Each column and the field of `EventRecord` it is written from (`at`, a Date, goes as its ISO time). */
const COLUMNS = [
  ['name', 'name', 'text'],
  ['occurred_at', 'at', 'timestamptz'],
  ['anonymous_id', 'guest', 'text'],
  ['brand', 'brand', 'text'],
  ['device', 'device', 'text'],
  ['page', 'page', 'text'],
  ['page_view', 'pageView', 'text'],
  ['variation', 'variation', 'text'],
  ['segment_file', 'segmentFile', 'text'],
  ['segment_version', 'segmentVersion', 'integer'],
  ['row_id', 'rowId', 'text'],
  ['position', 'position', 'integer'],
  ['item_position', 'itemPosition', 'integer'],
  ['item', 'item', 'text'],
  ['experiment_id', 'experimentId', 'text'],
  ['variation_id', 'variationId', 'text'],
  ['reason', 'reason', 'text'],
  ['order_id', 'orderId', 'text'],
  ['revenue', 'revenue', 'numeric'],
  ['once', 'once', 'text'],
] as const satisfies readonly (readonly [string, keyof EventRecord, string])[];

/**
 * One statement for a whole batch, its one parameter the batch as JSON: the records as they were queued, read by
 * field name (a field left out is null). One string crosses to the store: no array per column to build, copy to
 * PGlite's thread and spell out for PostgreSQL, which an exposure per replayed home layout made a large part of
 * that request's cost (RULES 16.1). RULES 21.3, 21.4: nothing is written for a guest who opted out of selling and
 * sharing or whose data was erased, whichever node queued it (events wait here up to `FLUSH_EVERY_MS` before they
 * are written).
 */
const INSERT =
  `WITH u AS (SELECT * FROM json_to_recordset($1::json) ` +
  `AS u(${COLUMNS.map(([, field, type]) => `"${field}" ${type}`).join(', ')})) ` +
  `INSERT INTO analytics_events (${COLUMNS.map(([c]) => c).join(', ')}) ` +
  `SELECT ${COLUMNS.map(([, field]) => `u."${field}"`).join(', ')} FROM u ` +
  // One look-up of the batch's guests before the scan (an InitPlan), so the rows keep their order (and their ids).
  `WHERE NOT (u.guest = ANY (ARRAY(SELECT g.guest_id FROM guest_privacy g ` +
  `WHERE g.guest_id IN (SELECT u.guest FROM u) ` +
  `AND (g.do_not_sell_or_share OR g.erased_at IS NOT NULL)))) ` +
  `ON CONFLICT (once) DO NOTHING RETURNING once`;

export interface EventLogOptions {
  flushEveryMs?: number;
  maxQueued?: number;
  retentionDays?: number;
  logger?: Logger;
}

export interface EventLogStats {
  queued: number;
  written: number;
  dropped: number;
}

/**
 * The first-party event log: events are queued in memory and written in batches, so nothing that records one
 * (a page, a layout answer, a checkout) waits for the store (RULES 16.5). A batch that fails because the store is
 * away stays queued and is tried again; each event's `once` key makes a second write of it a no-op, across nodes
 * too. Old events are swept after the retention period.
 */
export class EventLog {
  private queue: EventRecord[] = [];
  /** The once keys of the events queued and not yet written. */
  private readonly queuedOnce = new Set<string>();
  /** The once keys of the events written lately: the newer generation, and the one before it. */
  private writtenOnce = new Set<string>();
  private olderWrittenOnce = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> | null = null;
  private lastSweep = -Infinity;
  private closed = false;
  private readonly counts = { written: 0, dropped: 0 };
  private readonly flushEveryMs: number;
  private readonly maxQueued: number;
  readonly retentionDays: number;

  constructor(
    private readonly sql: Sql,
    private readonly options: EventLogOptions = {},
  ) {
    this.flushEveryMs = options.flushEveryMs ?? FLUSH_EVERY_MS;
    this.maxQueued = options.maxQueued ?? MAX_QUEUED_EVENTS;
    this.retentionDays = options.retentionDays ?? DEFAULT_RETENTION_DAYS;
  }

  /**
   * Queues events to be written; never waits and never throws. An event whose once key waits in the queue, or
   * was written by this node lately, is a repeat and is not queued again (RULES 16.3).
   */
  record(...events: EventRecord[]): void {
    if (this.closed || events.length === 0) return;
    for (const event of events) {
      const { once } = event;
      if (once) {
        if (this.queuedOnce.has(once) || this.writtenOnce.has(once) || this.olderWrittenOnce.has(once)) continue;
        this.queuedOnce.add(once);
      }
      this.queue.push(event);
    }
    const over = this.queue.length - this.maxQueued;
    if (over > 0) {
      this.forgetOnce(this.queue.splice(0, over));
      this.counts.dropped += over;
      this.options.logger?.warn({ dropped: over }, 'the event queue is full: the oldest events were dropped');
    }
    if (this.queue.length >= ROWS_PER_INSERT) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), this.flushEveryMs);
  }

  private rememberWritten(key: string): void {
    if (this.writtenOnce.size >= REMEMBERED_ONCE_KEYS) {
      this.olderWrittenOnce = this.writtenOnce;
      this.writtenOnce = new Set();
    }
    this.writtenOnce.add(key);
  }

  /** Events that left the queue, written or not: a repeat of one the store did not take may be queued again. */
  private forgetOnce(events: readonly EventRecord[]): void {
    for (const { once } of events) if (once) this.queuedOnce.delete(once);
  }

  /**
   * Whether `count` more events fit in the queue: the browser's batches are refused (to be sent again) rather than
   * taken and dropped when the store cannot keep up.
   */
  hasRoom(count: number): boolean {
    return !this.closed && this.queue.length + count <= this.maxQueued;
  }

  stats(): EventLogStats {
    return { queued: this.queue.length, ...this.counts };
  }

  /** Writes what is queued now (and waits for a write under way). Resolves even when the store is away. */
  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    while (this.writing) await this.writing;
    if (this.queue.length === 0) return;
    this.writing = this.writeQueued().finally(() => (this.writing = null));
    await this.writing;
  }

  /** Writes what is queued, then stops taking events. */
  async close(): Promise<void> {
    await this.flush();
    this.closed = true;
  }

  private async writeQueued(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.slice(0, ROWS_PER_INSERT);
      let written: { once: string | null }[];
      try {
        written = await this.sql.query<{ once: string | null }>(INSERT, [JSON.stringify(batch)]);
      } catch (err) {
        if (!isStoreUnavailable(err)) {
          // A batch the store refuses would block every other: its events go one at a time, so that one it cannot
          // keep (events are checked first; this is the last guard) is dropped alone, never its neighbours.
          this.forgetOnce(this.queue.splice(0, batch.length));
          await this.writeOneByOne(batch);
        } else if (!this.closed) {
          this.timer ??= setTimeout(() => void this.flush(), this.flushEveryMs * 4);
        }
        return;
      }
      this.forgetOnce(this.queue.splice(0, batch.length));
      for (const { once } of written) if (once) this.rememberWritten(once);
      this.counts.written += batch.length;
    }
    this.maybeSweep();
  }

  /**
   * A refused batch's events, each written alone: one the store refuses again is dropped and counted, logged without
   * the statement (it would carry the event). If the store goes away meanwhile, the rest go back to the queue.
   */
  private async writeOneByOne(batch: readonly EventRecord[]): Promise<void> {
    for (const [i, event] of batch.entries()) {
      try {
        const [row] = await this.sql.query<{ once: string | null }>(INSERT, [JSON.stringify([event])]);
        if (row?.once) this.rememberWritten(row.once);
        this.counts.written += 1;
      } catch (err) {
        if (isStoreUnavailable(err)) {
          const rest = batch.slice(i);
          this.queue.unshift(...rest);
          // Queued again: a repeat of one of them is not taken meanwhile.
          for (const { once } of rest) if (once) this.queuedOnce.add(once);
          if (!this.closed) this.timer ??= setTimeout(() => void this.flush(), this.flushEveryMs * 4);
          return;
        }
        this.counts.dropped += 1;
        const { message, code } = err as { message?: string; code?: string };
        this.options.logger?.error(
          { err: { message, code }, event: event.name },
          'an event could not be written and was dropped',
        );
      }
    }
  }

  private maybeSweep(): void {
    const now = Date.now();
    if (now - this.lastSweep < RETENTION_SWEEP_EVERY_MS) return;
    this.lastSweep = now;
    void this.sweep().catch(() => {});
  }

  /** Deletes events older than the retention period; returns how many went. */
  async sweep(): Promise<number> {
    const rows = await this.sql.query<{ n: string | number }>(
      `WITH gone AS (DELETE FROM analytics_events WHERE occurred_at < now() - make_interval(days => $1) ` +
        `RETURNING 1) SELECT count(*) AS n FROM gone`,
      [this.retentionDays],
    );
    return Number(rows[0]?.n ?? 0);
  }
}

/** RULES 21.3: deletes every event kept of a guest, inside the caller's transaction; says how many went. */
export async function eraseGuestEvents(db: SqlTx, guest: string): Promise<number> {
  const rows = await db.query('DELETE FROM analytics_events WHERE anonymous_id = $1 RETURNING 1', [guest]);
  return rows.length;
}

/** At most this many events are read back at once. */
export const MAX_EVENTS_READ = 500;

/** What the store keeps of one guest, newest first (RULES 16.8): what an operator checks, what a guest may ask for. */
export async function guestEvents(sql: Sql, guest: string, limit = MAX_EVENTS_READ): Promise<StoredEvent[]> {
  const rows = await sql.query<Record<string, unknown>>(
    `SELECT name, occurred_at, page, page_view, variation, row_id, segment_file, segment_version, position,
            item_position, item, experiment_id, variation_id, reason, order_id, revenue, brand, device
     FROM analytics_events WHERE anonymous_id = $1 ORDER BY occurred_at DESC, id DESC LIMIT $2`,
    [guest, Math.min(limit, MAX_EVENTS_READ)],
  );
  const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  const str = (v: unknown) => (v === null || v === undefined ? null : String(v));
  return rows.map((r) => ({
    name: String(r.name) as StoredEvent['name'],
    at: new Date(r.occurred_at as string).toISOString(),
    page: str(r.page),
    pageView: str(r.page_view),
    variation: str(r.variation),
    rowId: str(r.row_id),
    segmentFile: str(r.segment_file),
    segmentVersion: num(r.segment_version),
    position: num(r.position),
    itemPosition: num(r.item_position),
    item: str(r.item),
    experimentId: str(r.experiment_id),
    variationId: str(r.variation_id),
    reason: str(r.reason),
    orderId: str(r.order_id),
    revenue: num(r.revenue),
    brand: String(r.brand),
    device: String(r.device),
  }));
}
