import type { EventDocument } from '../../shared/schemas/documents.js';
import type { Logger } from '../../shared/logger.js';
import { repeat } from '../background/repeat.js';
import type { Sql, SqlTx } from '../store/sql.js';
import { displayDate, eventStartText } from './domain/delivery.js';
import type { EventStatus } from './domain/order-lifecycle.js';
import { eventChange, refundWindowEnd, type EventShape } from './domain/refunds.js';
import type { ListingCatalog } from './listing-catalog.js';
import type { RefundService } from './refund-service.js';
import { noteOrder, orderRow, type OrderRow } from './store-rows.js';

/** How often a node looks at the events it was told changed. */
const CHECK_INTERVAL_MS = 1_000;
/**
 * How often a node looks again at every event with standing orders: catches what no change told it of (a catalog
 * imported while the node was down, a change applied while the store was away).
 */
const SWEEP_INTERVAL_MS = 60_000;
/** Orders a change is told to: charged, and not called off. */
const STANDING: readonly string[] = ['pending_seller_confirmation', 'confirmed', 'delivered'];
/** Events read from the catalog at once: one search (at most MAX_IN_VALUES ids, and as many hits). */
const CHECK_CHUNK = 100;

/**
 * What a buyer is told of an event that moved (an email): read first for the event's orders (`prepare`, outside any
 * transaction: the catalog), then written for each order inside the transaction that records the notice.
 */
export interface ChangeNotice {
  prepare(eventId: number): Promise<unknown>;
  write(
    tx: SqlTx,
    order: OrderRow,
    change: {
      noticeId: string;
      status: 'postponed' | 'rescheduled';
      previousWhen: string;
      when: string;
      refundUntil: Date;
    },
    prepared: unknown,
  ): Promise<void>;
}

export interface EventChangesOptions {
  sql: Sql;
  catalog: ListingCatalog;
  refunds: RefundService;
  logger: Logger;
  now: () => Date;
  notice?: ChangeNotice;
}

/** An event as its buyers were last told of it. */
export function eventShape(event: Pick<EventDocument, 'event_status' | 'event_local_timestamp'>): EventShape {
  return { status: event.event_status, starts: event.event_local_timestamp ?? null };
}

/** Notes what an event looked like when an order was placed for it (inside the purchase; the first order's wins). */
export async function watchEvent(tx: SqlTx, eventId: number, shape: EventShape, now: Date): Promise<void> {
  await tx.query(
    'INSERT INTO event_watch (event_id, status, starts, checked_at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING',
    [eventId, shape.status, shape.starts, now.toISOString()],
  );
}

const whenText = (starts: string | null) => (starts ? eventStartText(starts) : 'Date to be announced');

/**
 * Events that change after their tickets were sold (RULES 19.1, 19.2). Every node looks at the events the catalog
 * changed (and, once a minute, at every event with standing orders) and compares each with what its buyers were
 * last told (`event_watch`). One node wins the conditional update of that row and tells the buyers: a cancelled
 * event refunds every charged order in full; a postponed or rescheduled one keeps its orders, notes the change on
 * each and opens a 30-day refund window. Every pass over a cancelled event asks for whatever refund is still
 * missing, so a node stopped half-way is finished by the next pass of any node.
 */
export class EventChanges {
  private readonly changed = new Set<number>();
  private lastSweep = -Infinity;
  private notice: ChangeNotice | undefined;

  constructor(private readonly options: EventChangesOptions) {
    this.notice = options.notice;
  }

  /** Sets what buyers are told of a change. */
  tellBuyersWith(notice: ChangeNotice): void {
    this.notice = notice;
  }

  /** Events the catalog has just changed here: looked at on the next tick. */
  eventsChanged(ids: Iterable<number>): void {
    for (const id of ids) this.changed.add(id);
  }

  /** Looks at the events changed since the last tick, and every minute at every event with standing orders. */
  async tick(): Promise<void> {
    const now = this.options.now().getTime();
    const ids = new Set(this.changed);
    this.changed.clear();
    if (now - this.lastSweep >= SWEEP_INTERVAL_MS) {
      for (const id of await this.eventsWithOrders()) ids.add(id);
      this.lastSweep = now;
    }
    try {
      await this.check([...ids]);
    } catch (err) {
      for (const id of ids) this.changed.add(id);
      throw err;
    }
  }

  start(intervalMs = CHECK_INTERVAL_MS): () => void {
    return repeat(
      () => this.tick(),
      intervalMs,
      (err) => this.options.logger.warn({ err }, 'checking changed events failed; retrying'),
    );
  }

  /** Compares each event with what its buyers were last told, and tells them of a change. */
  async check(eventIds: readonly number[]): Promise<void> {
    for (let at = 0; at < eventIds.length; at += CHECK_CHUNK) {
      // One read of the catalog per chunk; an event it no longer has keeps its orders as they are.
      const events = await this.options.catalog.events(eventIds.slice(at, at + CHECK_CHUNK));
      for (const event of events.values()) await this.checkOne(event);
    }
  }

  private async checkOne(event: EventDocument): Promise<void> {
    const { sql, refunds, logger } = this.options;
    const shape = eventShape(event);
    const [row] = await sql.query<{ status: string; starts: string | null }>(
      'SELECT status, starts FROM event_watch WHERE event_id = $1',
      [event.event_id],
    );
    if (!row) await watchEvent(sql, event.event_id, shape, this.options.now());
    else {
      const before: EventShape = { status: row.status as EventStatus, starts: row.starts };
      if (before.status !== shape.status || before.starts !== shape.starts)
        await this.changedFrom(event, before, shape);
    }
    if (shape.status === 'cancelled') {
      const recorded = await refunds.refundEvent(event.event_id);
      if (recorded > 0) logger.info({ event: event.event_id, refunds: recorded }, 'cancelled event: refunds recorded');
    }
  }

  /** Records the change once (whichever node moves the row) and tells the standing orders of a moved event. */
  private async changedFrom(event: EventDocument, before: EventShape, after: EventShape): Promise<void> {
    const now = this.options.now();
    const change = eventChange(before, after);
    const notice = this.notice;
    const prepared = change && change !== 'cancelled' ? await notice?.prepare(event.event_id) : undefined;
    return this.options.sql.transaction(async (tx) => {
      const won = await tx.query(
        `UPDATE event_watch SET status = $2, starts = $3, checked_at = $4
         WHERE event_id = $1 AND status = $5 AND starts IS NOT DISTINCT FROM $6 RETURNING event_id`,
        [event.event_id, after.status, after.starts, now.toISOString(), before.status, before.starts],
      );
      if (won.length === 0) return;
      // A new date or status moves the ready-by day and the start: the housekeeping looks at the event's orders again.
      await tx.query(`UPDATE orders SET due_at = $2 WHERE event_id = $1 AND status IN ('confirmed', 'delivered')`, [
        event.event_id,
        now.toISOString(),
      ]);
      if (change === null) return;
      const [row] = await tx.query(
        `INSERT INTO event_notices (event_id, status, previous_when, current_when, at)
         VALUES ($1, $2, $3, $4, $5) RETURNING id`,
        [event.event_id, change, before.starts, after.starts, now.toISOString()],
      );
      this.options.logger.info({ event: event.event_id, change, before, after }, 'event changed after sale');
      if (change === 'cancelled') return;
      const refundUntil = refundWindowEnd(now);
      const orders = await tx.query('SELECT * FROM orders WHERE event_id = $1 AND status = ANY ($2) FOR UPDATE', [
        event.event_id,
        STANDING,
      ]);
      const previousWhen = whenText(before.starts);
      const when = whenText(after.starts);
      for (const o of orders) {
        const order = orderRow(o);
        await tx.query('INSERT INTO order_notices (order_id, notice_id, refund_until, at) VALUES ($1, $2, $3, $4)', [
          order.id,
          row!.id,
          refundUntil.toISOString(),
          now.toISOString(),
        ]);
        const moved =
          change === 'postponed'
            ? `The event was postponed: its new date is to be announced.`
            : `The event moved to ${when}.`;
        await noteOrder(
          tx,
          order.id,
          order.status,
          now.toISOString(),
          `${moved} Your tickets stay valid; if you cannot go, you may ask for a full refund on this page ` +
            `until ${displayDate(refundUntil.toISOString().slice(0, 10))}.`,
        );
        await notice?.write(
          tx,
          order,
          { noticeId: String(row!.id), status: change, previousWhen, when, refundUntil },
          prepared,
        );
      }
    });
  }

  private async eventsWithOrders(): Promise<number[]> {
    const rows = await this.options.sql.query('SELECT DISTINCT event_id FROM orders WHERE status = ANY ($1)', [
      STANDING,
    ]);
    return rows.map((r) => Number(r.event_id));
  }
}
