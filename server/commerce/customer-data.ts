import type { IncomingHttpHeaders } from 'node:http';
import {
  MAX_DOWNLOADED_ORDERS,
  type CustomerData as CustomerDataFile,
  type PrivacyChoice,
} from '../../shared/schemas/privacy.js';
import { RECENT_ACTIVITY_KEPT, RecentActivity } from '../activity/recent-activity.js';
import { eraseGuestEvents, guestEvents, MAX_EVENTS_READ, type EventLog } from '../analytics/event-log.js';
import { eraseOrderMail } from '../mail/outbox.js';
import type { Sql } from '../store/sql.js';
import type { OrderService } from './order-service.js';
import { AppError } from '../http/errors.js';
import { iso, orderRow } from './store-rows.js';
import { stored } from './store-unavailable.js';

export interface CustomerDataOptions {
  sql: Sql;
  orders: OrderService;
  activity: RecentActivity;
  /** This node's event log: what it still holds in memory is written before a download or an erasure reads. */
  events?: EventLog;
  now?: () => Date;
}

/** What an erasure did, for the log and the tests. */
export interface Erasure {
  orders: number;
  mail: number;
  activity: number;
  events: number;
  erasedAt: string;
}

/** The choice a guest stored, as `guest_privacy` keeps it. */
interface StoredChoice {
  doNotSellOrShare: boolean;
  chosenAt: string | null;
  erasedAt: string | null;
}

/** RULES 21.4: whether a request carries Global Privacy Control. */
export const sendsGpc = (headers: IncomingHttpHeaders) => headers['sec-gpc'] === '1';

/**
 * A guest's own data (RULES 21): what they may download, the erasure of their personal data, and their choice about
 * selling and sharing. The store is the only record: no node keeps orders, activity or events of a guest in memory
 * beyond the event log's short queue (which writes nothing for an erased or opted-out guest), so an erasure made on
 * one node is what every node reads next.
 */
export class CustomerData {
  private readonly now: () => Date;

  constructor(private readonly options: CustomerDataOptions) {
    this.now = options.now ?? (() => new Date());
  }

  /** RULES 21.1: the guest's orders (with what they gave at checkout), recent activity, events and choice. */
  async download(guestId: string): Promise<CustomerDataFile> {
    const { sql, orders, activity } = this.options;
    await this.options.events?.flush();
    const [rows, views, events, choice] = await stored('customerData', () =>
      Promise.all([
        sql.query(
          `SELECT id, email, billing, status, event_id, quantity, total_cents, created_at, erased_at FROM orders
           WHERE guest_id = $1 ORDER BY created_at DESC, id LIMIT $2`,
          [guestId, MAX_DOWNLOADED_ORDERS],
        ),
        activity.list(guestId, RECENT_ACTIVITY_KEPT),
        guestEvents(sql, guestId, MAX_EVENTS_READ),
        this.stored(guestId),
      ]),
    );
    const placed: CustomerDataFile['orders'] = [];
    const withoutDetail: CustomerDataFile['ordersWithoutDetail'] = [];
    for (const r of rows) {
      const row = orderRow(r);
      const buyer = { email: row.email, billing: row.billing };
      try {
        placed.push({ ...(await orders.order(row.id, { guestId })), buyer });
      } catch (err) {
        // The catalog no longer has the order's listing or event: the store's own record of it still goes.
        if (!(err instanceof AppError && err.status === 404)) throw err;
        withoutDetail.push({
          id: row.id,
          status: row.status,
          eventId: row.event_id,
          quantity: row.quantity,
          totalPrice: { value: row.total_cents / 100 },
          placedAt: row.created_at,
          erasedAt: row.erased_at ?? null,
          buyer,
        });
      }
    }
    return {
      guestId,
      exportedAt: this.now().toISOString(),
      orders: placed,
      ordersWithoutDetail: withoutDetail,
      recentActivity: views,
      events,
      privacy: choice,
      limits: { orders: MAX_DOWNLOADED_ORDERS, events: MAX_EVENTS_READ, recentActivity: RECENT_ACTIVITY_KEPT },
    };
  }

  /**
   * RULES 21.3: erases the guest's personal data in one transaction: each order's email and billing details (its
   * ids, amounts, dates, status, promo code, tickets, payments and refunds stay: bookkeeping), the address and
   * facts of its mail (the fact that a message was sent stays; one not sent yet never goes), the guest's recent
   * activity, first-party events and checkout replays, and the client keys of their past holds. Done again, it
   * changes nothing and keeps the first date.
   */
  async erase(guestId: string): Promise<Erasure> {
    await this.options.events?.flush();
    const at = this.now().toISOString();
    return stored('customerData', () =>
      this.options.sql.transaction(async (tx) => {
        // The guest's lock, as a purchase takes it (order-store.ts): an order being written waits for the erasure
        // and is written erased, or is written first and erased here.
        await tx.query("SELECT pg_advisory_xact_lock(hashtext('guest:' || $1))", [guestId]);
        const [mark] = await tx.query(
          `INSERT INTO guest_privacy (guest_id, erased_at) VALUES ($1, $2)
           ON CONFLICT (guest_id) DO UPDATE SET erased_at = coalesce(guest_privacy.erased_at, EXCLUDED.erased_at)
           RETURNING erased_at`,
          [guestId, at],
        );
        const erasedAt = iso(mark!.erased_at);
        const orders = await tx.query(
          `UPDATE orders SET email = '', billing = '{}'::jsonb, erased_at = coalesce(erased_at, $2)
           WHERE guest_id = $1 AND (erased_at IS NULL OR email <> '' OR billing <> '{}'::jsonb)
           RETURNING id`,
          [guestId, erasedAt],
        );
        const all = await tx.query('SELECT id FROM orders WHERE guest_id = $1', [guestId]);
        const mail = await eraseOrderMail(
          tx,
          all.map((r) => String(r.id)),
        );
        const activity = await RecentActivity.erase(tx, guestId);
        const events = await eraseGuestEvents(tx, guestId);
        // A checkout's kept answer is the order as it was: a replay after the erasure must not bring it back.
        await tx.query("DELETE FROM idempotency_keys WHERE scope = $1 AND state = 'done'", [guestId]);
        // Holds that became orders keep their client's address key: it counts the per-address limit of the event
        // (RULES 8.1), which an erasure (and the new guest after it) must not reset. Other past holds lose it.
        await tx.query(
          "UPDATE holds SET client_key = NULL WHERE guest_id = $1 AND status NOT IN ('active', 'purchased')",
          [guestId],
        );
        return { orders: orders.length, mail, activity, events, erasedAt };
      }),
    );
  }

  /** RULES 21.4: the guest's stored choice and what this request says (Global Privacy Control). */
  async choice(guestId: string, headers: IncomingHttpHeaders): Promise<PrivacyChoice> {
    const { doNotSellOrShare, chosenAt } = await stored('customerData', () => this.stored(guestId));
    const gpc = sendsGpc(headers);
    return { doNotSellOrShare, chosenAt, globalPrivacyControl: gpc, optedOut: gpc || doNotSellOrShare };
  }

  /** RULES 21.4: records the guest's choice about selling and sharing. */
  async choose(guestId: string, doNotSellOrShare: boolean, headers: IncomingHttpHeaders): Promise<PrivacyChoice> {
    const at = this.now().toISOString();
    await stored('customerData', () =>
      this.options.sql.query(
        `INSERT INTO guest_privacy (guest_id, do_not_sell_or_share, chosen_at) VALUES ($1, $2, $3)
         ON CONFLICT (guest_id) DO UPDATE SET do_not_sell_or_share = EXCLUDED.do_not_sell_or_share,
                                              chosen_at = EXCLUDED.chosen_at`,
        [guestId, doNotSellOrShare, at],
      ),
    );
    return this.choice(guestId, headers);
  }

  private async stored(guestId: string): Promise<StoredChoice> {
    const [row] = await this.options.sql.query(
      'SELECT do_not_sell_or_share, chosen_at, erased_at FROM guest_privacy WHERE guest_id = $1',
      [guestId],
    );
    return {
      doNotSellOrShare: row?.do_not_sell_or_share === true,
      chosenAt: row?.chosen_at == null ? null : iso(row.chosen_at),
      erasedAt: row?.erased_at == null ? null : iso(row.erased_at),
    };
  }
}
