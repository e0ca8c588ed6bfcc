import type { OrderStatus } from '../../shared/schemas/commerce.js';
import { AppError } from '../http/errors.js';
import type { Sql, SqlTx } from '../store/sql.js';
import { liveClaimsSince } from './checkout-claim.js';
import { HOUSEKEPT_STATUSES, TICKETS_RETURNED_STATUSES } from './domain/order-lifecycle.js';
import { newTicketId } from './domain/ticket-barcode.js';
import type { EventShape } from './domain/refunds.js';
import { watchEvent } from './event-changes.js';
import {
  holdRow,
  noteOrder,
  iso,
  num,
  orderRow,
  ticketRow,
  type OrderRow,
  type OrderWithEvents,
  type TicketRow,
} from './store-rows.js';

/** A claimed hold's order, as its checkout writes it. */
export interface PurchaseInput {
  holdId: string;
  guestId: string;
  attempt: string;
  now: Date;
  order: Omit<OrderRow, 'hold_id' | 'guest_id' | 'event_id' | 'listing_id' | 'quantity' | 'created_at'>;
  history: { status: OrderStatus; at: Date; note: string }[];
  /** The payment row of this attempt, and the processor's authorization it now carries. */
  payment: { id: string; authorizationId: string };
  /** The first seat number of the listing's block (domain/seats.ts); null or absent for general admission. */
  seatBlockStart?: number | null;
  /** The first seat number of the listing's companion seats (domain/seats.ts); null or absent for none. */
  companionBlockStart?: number | null;
  /** The brand the order was placed on: its emails carry that brand's name and colours. */
  brand?: string;
  /** The event as the buyer bought it: what a later change is compared with (RULES 19.2). */
  eventShape?: EventShape;
  /** Runs inside the purchase's transaction once the order is written (its confirmation email is queued there). */
  then?: (tx: SqlTx, order: OrderRow & { tickets: TicketRow[] }) => Promise<void>;
}

/**
 * Orders and their tickets in SQL: written in one transaction with the hold they come from, moved through their
 * statuses by conditional updates, and their tickets admitted once at the door.
 */
export class OrderStore {
  constructor(readonly sql: Sql) {}

  /**
   * Turns a claimed hold into an order in one transaction: the hold is marked purchased, its tickets move
   * from held to sold, the order with its first transitions is written, and the authorized payment is
   * recorded against it. Only the checkout that holds the claim may do it, and only while the claim is live,
   * so a hold cannot expire under a checkout that began in time. Any failure leaves all as it was.
   */
  async purchase(input: PurchaseInput): Promise<OrderRow & { tickets: TicketRow[] }> {
    return this.sql.transaction(async (tx) => {
      // RULES 21.3: the guest's lock, as an erasure takes it: a guest erased while paying gets an order already erased
      // (no email or billing kept, no mail), and an order written first is erased by the erasure that waited.
      // Two statements, not one: the read must see what an erasure that held the lock committed, and a statement
      // reads what was committed when it began, before it waited.
      await tx.query("SELECT pg_advisory_xact_lock(hashtext('guest:' || $1))", [input.guestId]);
      const [privacy] = await tx.query<{ erased_at: string | Date | null }>(
        'SELECT erased_at FROM guest_privacy WHERE guest_id = $1',
        [input.guestId],
      );
      const erasedAt = privacy?.erased_at ? new Date(privacy.erased_at).toISOString() : null;
      const held = await tx.query(
        "UPDATE holds SET status = 'purchased' WHERE id = $1 AND guest_id = $2 " +
          "AND status = 'active' AND checkout_attempt = $3 AND checkout_started_at " +
          '> $4 RETURNING *',
        [input.holdId, input.guestId, input.attempt, liveClaimsSince(input.now)],
      );
      if (held.length === 0)
        throw new AppError(410, 'hold_expired', 'The hold on these tickets has ended; choose your tickets again');
      const hold = holdRow(held[0]!);
      const inventory = await tx.query(
        `UPDATE listing_inventory SET held = held - $2, sold = sold + $2,
           companions_held = companions_held - $3, companions_sold = companions_sold + $3
         WHERE listing_id = $1 RETURNING listed, companions_listed`,
        [hold.listing_id, hold.quantity, hold.companions],
      );
      const o = input.order;
      const rows = await tx.query(
        `INSERT INTO orders (id, access_code_hash, guest_id, hold_id, event_id, ` +
          `listing_id, quantity, status, subtotal_cents, discount_cents,
           ` +
          `service_fee_cents, fulfillment_fee_cents, total_cents, promo_code, ` +
          `email, billing, payment_method, created_at, brand, terms, erased_at, due_at)
         VALUES ` +
          `($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, ` +
          // Due for the seller's confirmation from the moment it is placed.
          `$17, $18, $19, $20, $21, $18) RETURNING *`,
        [
          o.id,
          o.access_code_hash,
          input.guestId,
          hold.id,
          hold.event_id,
          hold.listing_id,
          // The order's tickets: the listing's seats and their companion seats (RULES 10.16).
          hold.quantity + hold.companions,
          o.status,
          o.subtotal_cents,
          o.discount_cents,
          o.service_fee_cents,
          o.fulfillment_fee_cents,
          o.total_cents,
          o.promo_code,
          erasedAt ? '' : o.email,
          erasedAt ? '{}' : JSON.stringify(o.billing),
          o.payment_method,
          input.now.toISOString(),
          input.brand ?? null,
          o.terms ? JSON.stringify(o.terms) : null,
          erasedAt,
        ],
      );
      await tx.query(
        `INSERT INTO order_events (order_id, seq, status, at, note)
         ` +
          `SELECT $1, e.seq, e.status, e.at, e.note FROM ` +
          `jsonb_to_recordset($2::jsonb) AS e(seq int, status text, at timestamptz, ` +
          `note text)`,
        [
          o.id,
          JSON.stringify(
            input.history.map((h, i) => ({ seq: i + 1, status: h.status, at: h.at.toISOString(), note: h.note })),
          ),
        ],
      );
      const paid = await tx.query(
        `UPDATE payments SET status = 'authorized', authorization_id = $2, ` +
          `order_id = $3, updated_at = $4 WHERE id = $1 AND status = 'authorizing' ` +
          `RETURNING id`,
        [input.payment.id, input.payment.authorizationId, o.id, input.now.toISOString()],
      );
      // Settled meanwhile (the attempt was taken for dead and its authorization voided): no order without money.
      if (paid.length === 0)
        throw new AppError(
          409,
          'payment_interrupted',
          'The payment could not be confirmed in time; nothing was charged. Please pay again.',
        );
      const tickets = await issueTickets(tx, {
        orderId: o.id,
        listingId: hold.listing_id,
        listed: num(inventory[0]?.listed ?? hold.quantity),
        quantity: hold.quantity,
        seatBlockStart: input.seatBlockStart ?? null,
      });
      if (hold.companions > 0)
        tickets.push(
          ...(await issueCompanionTickets(tx, {
            orderId: o.id,
            listingId: hold.listing_id,
            listed: num(inventory[0]?.listed ?? hold.quantity),
            companionsListed: num(inventory[0]?.companions_listed ?? hold.companions),
            firstSeq: hold.quantity + 1,
            quantity: hold.companions,
            companionBlockStart: input.companionBlockStart ?? null,
          })),
        );
      if (input.eventShape) await watchEvent(tx, hold.event_id, input.eventShape, input.now);
      const written = { ...orderRow(rows[0]!), tickets };
      await input.then?.(tx, written);
      return written;
    });
  }

  /** The order a hold became, with its transitions. */
  async orderOfHold(holdId: string): Promise<OrderWithEvents | null> {
    return this.orderWhere('hold_id', holdId);
  }

  async order(id: string): Promise<OrderWithEvents | null> {
    return this.orderWhere('id', id);
  }

  private async orderWhere(column: 'id' | 'hold_id', value: string): Promise<OrderWithEvents | null> {
    const rows = await this.sql.query(`SELECT * FROM orders WHERE ${column} = $1`, [value]);
    if (!rows[0]) return null;
    const id = String(rows[0].id);
    const events = await this.sql.query(
      'SELECT seq, status, at, note FROM order_events WHERE order_id = $1 ORDER BY seq',
      [id],
    );
    const tickets = await this.sql.query('SELECT * FROM tickets WHERE order_id = $1 ORDER BY seq', [id]);
    return {
      order: orderRow(rows[0]),
      events: events.map((e) => ({
        seq: num(e.seq),
        status: e.status as OrderStatus,
        at: iso(e.at),
        note: String(e.note),
      })),
      tickets: tickets.map(ticketRow),
    };
  }

  /**
   * The housekeeping's batch for one status: orders whose next step is due by `by`, the longest due first. Orders
   * that wait (due later, or never by the housekeeping) are not read at all (the `orders_due` index).
   */
  async dueOrders(status: OrderStatus, by: Date, limit = 100): Promise<DueOrder[]> {
    const rows = await this.sql.query(
      'SELECT * FROM orders WHERE status = $1 AND due_at <= $2 ORDER BY due_at LIMIT $3',
      [status, by.toISOString(), limit],
    );
    return rows.map(dueOrder);
  }

  /**
   * Orders waiting for the seller that are due by `by`, each with where its money stands: `paid` when taken (no
   * payment of the order is other than captured), `refused` when its capture failed (it is never confirmed), `open`
   * while the capture is still to come.
   */
  async dueAwaitingSeller(by: Date, limit = 100): Promise<{ order: DueOrder; money: 'paid' | 'refused' | 'open' }[]> {
    const rows = await this.sql.query(
      `SELECT o.*,
         (SELECT array_agg(DISTINCT p.status) FROM payments p WHERE p.order_id = o.id AND p.status <> 'captured')
           AS money_pending
       FROM orders o WHERE o.status = 'pending_seller_confirmation' AND o.due_at <= $1
       ORDER BY o.due_at LIMIT $2`,
      [by.toISOString(), limit],
    );
    return rows.map((r) => {
      const pending = (r.money_pending as string[] | null) ?? [];
      const { money_pending: _, ...row } = r;
      return {
        order: dueOrder(row),
        money: pending.length === 0 ? 'paid' : pending.includes('capture_failed') ? 'refused' : 'open',
      };
    });
  }

  /**
   * Puts the next look by the housekeeping at an order it read due at `order.due_at` at `at` (null: nothing the
   * housekeeping does moves it on), if it is still in `status` and still due then: a due time set meanwhile (an
   * event change asking for a look at once: event-changes.ts) is kept.
   */
  async dueAt(order: Pick<DueOrder, 'id' | 'due_at'>, status: OrderStatus, at: Date | null): Promise<void> {
    // The store may keep microseconds the read rounded down: "still due then" is "before the next millisecond".
    const seen = new Date(Date.parse(order.due_at) + 1).toISOString();
    await this.sql.query('UPDATE orders SET due_at = $3 WHERE id = $1 AND status = $2 AND due_at < $4', [
      order.id,
      status,
      at?.toISOString() ?? null,
      seen,
    ]);
  }

  /** Moves an order from `from` to `to`, recording the transition; false when it was no longer in `from`. */
  async advance(
    id: string,
    from: OrderStatus,
    to: OrderStatus,
    at: Date,
    note: string,
    then?: (tx: SqlTx, order: OrderRow) => Promise<void>,
  ): Promise<boolean> {
    return this.sql.transaction(async (tx) => {
      // An order that moves to a status the housekeeping moves on is due for a look at once (the look sets when).
      const moved = await tx.query(
        'UPDATE orders SET status = $3, due_at = $4 WHERE id = $1 AND status = $2 RETURNING *',
        [id, from, to, HOUSEKEPT_STATUSES.includes(to) ? at.toISOString() : null],
      );
      if (moved.length === 0) return false;
      await noteOrder(tx, id, to, at.toISOString(), note);
      await then?.(tx, orderRow(moved[0]!));
      return true;
    });
  }
}

/** An order the housekeeping read as due, and since when. */
export type DueOrder = OrderRow & { due_at: string };

const dueOrder = (r: Record<string, unknown>): DueOrder => ({ ...orderRow(r), due_at: iso(r.due_at) });

/**
 * Issues an order's tickets inside its purchase: the lowest seat indexes of the listing's block (0 to
 * `listed` - 1) that no standing order holds. The listing's inventory row is locked by the purchase's update,
 * so two purchases of one listing take their seats one after the other.
 */
async function issueTickets(
  tx: SqlTx,
  input: { orderId: string; listingId: number; listed: number; quantity: number; seatBlockStart: number | null },
): Promise<TicketRow[]> {
  const ids = Array.from({ length: input.quantity }, () => newTicketId());
  const rows = await tx.query(
    `INSERT INTO tickets (id, order_id, listing_id, seq, seat_index, seat)
     SELECT ($4::text[])[free.n], $1, $2, free.n, free.idx, $7::int + free.idx
     FROM (
       SELECT idx, row_number() OVER (ORDER BY idx) AS n
       FROM generate_series(0, $3::int - 1) AS idx
       WHERE idx NOT IN (
         SELECT t.seat_index FROM tickets t JOIN orders o ON o.id = t.order_id
         WHERE t.listing_id = $2 AND o.id <> $1 AND o.status <> ALL ($5) AND NOT t.companion
       )
     ) AS free
     WHERE free.n <= $6
     RETURNING *`,
    [
      input.orderId,
      input.listingId,
      input.listed,
      ids,
      TICKETS_RETURNED_STATUSES,
      input.quantity,
      input.seatBlockStart,
    ],
  );
  // The inventory's CHECK (held + sold <= listed) keeps a free seat for every ticket sold.
  if (rows.length !== input.quantity)
    throw new Error(`listing ${input.listingId} has ${rows.length} free seats for ${input.quantity} tickets`);
  return rows.map(ticketRow).sort((a, b) => a.seq - b.seq);
}

/**
 * Issues an order's companion seats (RULES 10.16) after its seats: the lowest companion indexes (0 to
 * `companionsListed` - 1) no standing order holds, kept as seat indexes from `listed` on so they never meet the
 * listing's own seats, numbered from the companion block's start. The purchase's row lock orders them as it orders
 * the seats.
 */
async function issueCompanionTickets(
  tx: SqlTx,
  input: {
    orderId: string;
    listingId: number;
    listed: number;
    companionsListed: number;
    firstSeq: number;
    quantity: number;
    companionBlockStart: number | null;
  },
): Promise<TicketRow[]> {
  const ids = Array.from({ length: input.quantity }, () => newTicketId());
  const rows = await tx.query(
    `INSERT INTO tickets (id, order_id, listing_id, seq, seat_index, seat, companion)
     SELECT ($4::text[])[free.n], $1, $2, $8::int + free.n - 1, $9::int + free.idx, $7::int + free.idx, true
     FROM (
       SELECT idx, row_number() OVER (ORDER BY idx) AS n
       FROM generate_series(0, $3::int - 1) AS idx
       WHERE $9::int + idx NOT IN (
         SELECT t.seat_index FROM tickets t JOIN orders o ON o.id = t.order_id
         WHERE t.listing_id = $2 AND o.id <> $1 AND o.status <> ALL ($5) AND t.companion
       )
     ) AS free
     WHERE free.n <= $6
     RETURNING *`,
    [
      input.orderId,
      input.listingId,
      input.companionsListed,
      ids,
      TICKETS_RETURNED_STATUSES,
      input.quantity,
      input.companionBlockStart,
      input.firstSeq,
      input.listed,
    ],
  );
  // The inventory's CHECK (companions_held + companions_sold <= companions_listed) keeps a free place for each.
  if (rows.length !== input.quantity)
    throw new Error(
      `listing ${input.listingId} has ${rows.length} free companion seats for ${input.quantity} companion tickets`,
    );
  return rows.map(ticketRow).sort((a, b) => a.seq - b.seq);
}
