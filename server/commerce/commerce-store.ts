import type { OrderStatus } from '../../shared/schemas/commerce.js';
import { AppError } from '../http/errors.js';
import type { Sql, SqlTx } from '../store/sql.js';
import type { ListingDocument } from '../../shared/schemas/commerce.js';
import { quantityRefusal, type GeneratedListing, type ListedAvailability } from './domain/listings.js';
import { listingFromDocument } from './operator-listings.js';
import { TICKETS_RETURNED_STATUSES } from './domain/order-lifecycle.js';
import { newTicketId } from './domain/ticket-barcode.js';
import { purchaseLimitRefusal, type BuyerUsage, type PurchaseLimits } from './domain/purchase-limits.js';

/**
 * Inventory, holds and orders in SQL. Every change of what is available is one conditional statement inside
 * a transaction, so two shoppers can never hold or buy the same last tickets (OWASP ASVS V2.3.4 / V11.1.6),
 * whichever of PGlite or PostgreSQL runs it.
 */

export interface HoldRow {
  id: string;
  guest_id: string;
  listing_id: number;
  event_id: number;
  quantity: number;
  price_per_ticket_cents: number;
  status: 'active' | 'expired' | 'released' | 'purchased';
  created_at: string;
  expires_at: string;
  client_key: string | null;
  checkout_attempt: string | null;
  checkout_started_at: string | null;
}

export interface OrderRow {
  id: string;
  access_code_hash: string;
  guest_id: string;
  hold_id: string;
  event_id: number;
  listing_id: number;
  quantity: number;
  status: OrderStatus;
  subtotal_cents: number;
  discount_cents: number;
  service_fee_cents: number;
  fulfillment_fee_cents: number;
  total_cents: number;
  promo_code: string | null;
  email: string;
  billing: Record<string, string>;
  payment_method: string;
  /** The payment processor's authorization, captured once the order was written. */
  charge_id: string;
  created_at: string;
}

/**
 * A payment's life. `authorizing` is written before the processor is asked, so an attempt that never finishes
 * (its node stopped, the processor did not answer, the order could not be written) is found and settled by any
 * node; `voiding` is a void under way. An authorization is only ever voided after its row moved from
 * `authorizing` to `voiding`, and an order only ever written while its row moves from `authorizing` to
 * `authorized`: the two conditional updates take the same row lock, so a void and a late commit can never both win.
 */
export type PaymentStatus =
  'authorizing' | 'authorized' | 'captured' | 'voiding' | 'voided' | 'failed' | 'capture_failed';

export interface PaymentRow {
  /** Ours, and the processor's idempotency key for the authorization. */
  id: string;
  hold_id: string;
  order_id: string | null;
  authorization_id: string | null;
  amount_cents: number;
  status: PaymentStatus;
  updated_at: string;
}

/**
 * How long one checkout may keep a cart to itself (the processor's timeout and the store's, with room):
 * meanwhile another checkout of the cart is told it is in progress, and the hold does not expire under it.
 */
export const CHECKOUT_CLAIM_SECONDS = 60;

/** The oldest claim still live at `now`: a checkout that claimed its cart after this may still write its order. */
const liveClaimsSince = (now: Date) => new Date(now.getTime() - CHECKOUT_CLAIM_SECONDS * 1000).toISOString();

export interface OrderWithEvents {
  order: OrderRow;
  events: OrderEventRow[];
  /** One per ticket, in order (`seq`); orders written before tickets were issued have none. */
  tickets?: TicketRow[];
}

/** One ticket of an order: its place in the listing's seat block (see domain/seats.ts) and its first scan. */
export interface TicketRow {
  id: string;
  order_id: string;
  listing_id: number;
  seq: number;
  seat_index: number;
  /** The seat number in the row; null for general admission. */
  seat: number | null;
  scanned_at: string | null;
}

/** What a scan found: the ticket admitted now, one admitted before, or nothing a venue admits. */
export type ScanOutcome =
  | { result: 'valid'; ticket: TicketRow; order: OrderRow }
  | { result: 'already_used'; ticket: TicketRow; order: OrderRow }
  | { result: 'unknown' };

export interface OrderEventRow {
  seq: number;
  status: OrderStatus;
  at: string;
  note: string;
}

const iso = (v: unknown) => new Date(v as string).toISOString();
const num = (v: unknown) => Number(v);

function ticketRow(r: Record<string, unknown>): TicketRow {
  return {
    id: String(r.id),
    order_id: String(r.order_id),
    listing_id: num(r.listing_id),
    seq: num(r.seq),
    seat_index: num(r.seat_index),
    seat: r.seat == null ? null : num(r.seat),
    scanned_at: r.scanned_at == null ? null : iso(r.scanned_at),
  };
}

function holdRow(r: Record<string, unknown>): HoldRow {
  return {
    id: String(r.id),
    guest_id: String(r.guest_id),
    listing_id: num(r.listing_id),
    event_id: num(r.event_id),
    quantity: num(r.quantity),
    price_per_ticket_cents: num(r.price_per_ticket_cents),
    status: r.status as HoldRow['status'],
    created_at: iso(r.created_at),
    expires_at: iso(r.expires_at),
    client_key: r.client_key == null ? null : String(r.client_key),
    checkout_attempt: r.checkout_attempt == null ? null : String(r.checkout_attempt),
    checkout_started_at: r.checkout_started_at == null ? null : iso(r.checkout_started_at),
  };
}

function orderRow(r: Record<string, unknown>): OrderRow {
  return {
    ...(r as unknown as OrderRow),
    event_id: num(r.event_id),
    listing_id: num(r.listing_id),
    quantity: num(r.quantity),
    subtotal_cents: num(r.subtotal_cents),
    discount_cents: num(r.discount_cents),
    service_fee_cents: num(r.service_fee_cents),
    fulfillment_fee_cents: num(r.fulfillment_fee_cents),
    total_cents: num(r.total_cents),
    billing:
      typeof r.billing === 'string'
        ? (JSON.parse(r.billing) as Record<string, string>)
        : (r.billing as Record<string, string>),
    created_at: iso(r.created_at),
  };
}

export class CommerceStore {
  constructor(readonly sql: Sql) {}

  /** Tickets held or sold per listing of an event (listings never touched have no row: all available). */
  async usage(eventId: number): Promise<Map<number, { listed: number; taken: number }>> {
    const rows = await this.sql.query(
      'SELECT listing_id, listed, held, sold FROM listing_inventory WHERE event_id = $1',
      [eventId],
    );
    return new Map(rows.map((r) => [num(r.listing_id), { listed: num(r.listed), taken: num(r.held) + num(r.sold) }]));
  }

  /** The operator's own listings of an event in catalog `catalog` (loaded from its `Listing.jsonl`). */
  async operatorListings(catalog: string, eventId: number): Promise<GeneratedListing[]> {
    const rows = await this.sql.query<{ document: unknown }>(
      'SELECT document FROM catalog_listings WHERE catalog = $1 AND event_id = $2 ORDER BY listing_id',
      [catalog, eventId],
    );
    return rows.map((r) =>
      listingFromDocument((typeof r.document === 'string' ? JSON.parse(r.document) : r.document) as ListingDocument),
    );
  }

  /**
   * The event's availability as it was listed, once demand signals have recorded it (`demand_baselines`):
   * its listings are generated from that, not from the availability its document shows now.
   */
  async listedAvailability(eventId: number): Promise<ListedAvailability | undefined> {
    const [row] = await this.sql.query<{ baseline: unknown }>(
      "SELECT baseline FROM demand_baselines WHERE collection = 'Event' AND doc_id = $1",
      [String(eventId)],
    );
    if (!row) return undefined;
    const baseline = (
      typeof row.baseline === 'string' ? JSON.parse(row.baseline) : row.baseline
    ) as Partial<ListedAvailability>;
    if (typeof baseline.tickets_available !== 'number' || typeof baseline.ticket_groups_available !== 'number')
      return undefined;
    return {
      tickets_available: baseline.tickets_available,
      ticket_groups_available: baseline.ticket_groups_available,
      ...(typeof baseline.min_ticket_price === 'number' ? { min_ticket_price: baseline.min_ticket_price } : {}),
    };
  }

  /**
   * Holds `quantity` tickets of a listing for a guest until `expiresAt`, or fails with a 409 when fewer are
   * left or when the buyer is over the fair-share limits (per guest, and per client address). Holds of that
   * listing that have run out are released first, in the same transaction. The buyer's own requests are
   * serialized by a transaction-scoped advisory lock per guest and per address, so forty carts sent at once
   * are counted one after another on every node that shares the database.
   */
  async createHold(input: {
    id: string;
    guestId: string;
    clientKey: string;
    /** The listing, with the quantities its seller allows (`splits`). */
    listing: { id: number; eventId: number; listed: number; splits: readonly number[] };
    quantity: number;
    pricePerTicketCents: number;
    now: Date;
    expiresAt: Date;
    limits?: PurchaseLimits;
  }): Promise<HoldRow> {
    return this.sql.transaction(async (tx) => {
      // Always guest first, then address: one order of locking, so two transactions never wait on each other.
      await tx.query("SELECT pg_advisory_xact_lock(hashtext('guest:' || $1))", [input.guestId]);
      await tx.query("SELECT pg_advisory_xact_lock(hashtext('client:' || $1))", [input.clientKey]);
      const { guest, byAddress } = await buyerUsage(tx, {
        guestId: input.guestId,
        clientKey: input.clientKey,
        eventId: input.listing.eventId,
        now: input.now,
      });
      const refusal = purchaseLimitRefusal({ quantity: input.quantity, guest, byAddress, limits: input.limits });
      if (refusal) throw refusal;
      await releaseExpired(tx, input.now, input.listing.id);
      // The listing's row (made on its first hold) is locked from here to the commit, so what is left cannot
      // change between the check of the seller's splits (no single seat stranded) and the hold; the table's
      // CHECK (held + sold <= listed) stands behind it.
      const left = await tx.query(
        `INSERT INTO listing_inventory (listing_id, event_id, listed) VALUES ($1, $2, $3)
         ON CONFLICT (listing_id) DO UPDATE SET listing_id = excluded.listing_id
         RETURNING listed - held - sold AS left`,
        [input.listing.id, input.listing.eventId, input.listing.listed],
      );
      const unavailable = quantityRefusal(input.listing.splits, num(left[0]?.left ?? 0), input.quantity);
      if (unavailable) throw unavailable;
      await tx.query('UPDATE listing_inventory SET held = held + $2 WHERE listing_id = $1', [
        input.listing.id,
        input.quantity,
      ]);
      const rows = await tx.query(
        `INSERT INTO holds (id, guest_id, client_key, listing_id, event_id, ` +
          `quantity, price_per_ticket_cents, status, created_at, expires_at)
       ` +
          `  VALUES ($1, $2, $3, $4, $5, $6, $7, 'active', $8, $9) RETURNING *`,
        [
          input.id,
          input.guestId,
          input.clientKey,
          input.listing.id,
          input.listing.eventId,
          input.quantity,
          input.pricePerTicketCents,
          input.now.toISOString(),
          input.expiresAt.toISOString(),
        ],
      );
      return holdRow(rows[0]!);
    });
  }

  async hold(id: string): Promise<HoldRow | null> {
    const rows = await this.sql.query('SELECT * FROM holds WHERE id = $1', [id]);
    return rows[0] ? holdRow(rows[0]) : null;
  }

  /** The shopper lets go of a cart: its tickets are available again at once. */
  async releaseHold(id: string, guestId: string): Promise<boolean> {
    return this.sql.transaction(async (tx) => {
      const rows = await tx.query(
        "UPDATE holds SET status = 'released' WHERE id = $1 AND guest_id = $2 AND " +
          "status = 'active' RETURNING listing_id, quantity",
        [id, guestId],
      );
      for (const r of rows)
        await tx.query('UPDATE listing_inventory SET held = held - $2 WHERE listing_id = $1', [
          r.listing_id,
          r.quantity,
        ]);
      return rows.length > 0;
    });
  }

  /** Releases every hold that has run out; returns how many tickets went back on sale. */
  async releaseExpired(now: Date): Promise<number> {
    return this.sql.transaction((tx) => releaseExpired(tx, now));
  }

  /**
   * Gives one checkout of a cart the right to pay for it, or says why not: `purchased` (with the order),
   * `busy` (another checkout has it) or `ended` (the hold expired or was released). A checkout that claimed
   * the cart keeps it for CHECKOUT_CLAIM_SECONDS; the same attempt (a retry with the same idempotency key)
   * may claim it again at once.
   */
  async claimCheckout(input: {
    holdId: string;
    guestId: string;
    attempt: string;
    now: Date;
  }): Promise<{ claimed: true } | { purchased: OrderWithEvents } | { busy: true } | { ended: true }> {
    const rows = await this.sql.query(
      `UPDATE holds SET checkout_attempt = $3, checkout_started_at = $4
       WHERE id = $1 AND guest_id = $2 AND status = 'active' AND expires_at > $4
         AND (checkout_attempt IS NULL OR checkout_attempt = $3 OR checkout_started_at <= $5)
       RETURNING id`,
      [input.holdId, input.guestId, input.attempt, input.now.toISOString(), liveClaimsSince(input.now)],
    );
    if (rows[0]) return { claimed: true };
    const hold = await this.hold(input.holdId);
    if (hold?.status === 'purchased') {
      const order = await this.orderOfHold(input.holdId);
      if (order) return { purchased: order };
    }
    if (hold?.status === 'active' && new Date(hold.expires_at) > input.now) return { busy: true };
    return { ended: true };
  }

  /** Lets go of a claim (the payment was declined), so the shopper can try another card at once. */
  async releaseClaim(holdId: string, attempt: string): Promise<void> {
    await this.sql.query(
      'UPDATE holds SET checkout_attempt = NULL, checkout_started_at = NULL WHERE id = $1 AND checkout_attempt = $2',
      [holdId, attempt],
    );
  }

  /**
   * Turns a claimed hold into an order in one transaction: the hold is marked purchased, its tickets move
   * from held to sold, the order with its first transitions is written, and the authorized payment is
   * recorded against it. Only the checkout that holds the claim may do it, and only while the claim is live,
   * so a hold cannot expire under a checkout that began in time. Any failure leaves all as it was.
   */
  async purchase(input: {
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
  }): Promise<OrderRow & { tickets: TicketRow[] }> {
    return this.sql.transaction(async (tx) => {
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
        'UPDATE listing_inventory SET held = held - $2, sold = sold + $2 WHERE listing_id = $1 RETURNING listed',
        [hold.listing_id, hold.quantity],
      );
      const o = input.order;
      const rows = await tx.query(
        `INSERT INTO orders (id, access_code_hash, guest_id, hold_id, event_id, ` +
          `listing_id, quantity, status, subtotal_cents, discount_cents,
           ` +
          `service_fee_cents, fulfillment_fee_cents, total_cents, promo_code, ` +
          `email, billing, payment_method, charge_id, created_at)
         VALUES ` +
          `($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, ` +
          `$17, $18, $19) RETURNING *`,
        [
          o.id,
          o.access_code_hash,
          input.guestId,
          hold.id,
          hold.event_id,
          hold.listing_id,
          hold.quantity,
          o.status,
          o.subtotal_cents,
          o.discount_cents,
          o.service_fee_cents,
          o.fulfillment_fee_cents,
          o.total_cents,
          o.promo_code,
          o.email,
          JSON.stringify(o.billing),
          o.payment_method,
          o.charge_id,
          input.now.toISOString(),
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
      return { ...orderRow(rows[0]!), tickets };
    });
  }

  /** Records that a checkout is about to ask the processor for an authorization. */
  async paymentIntent(input: { id: string; holdId: string; amountCents: number; now: Date }): Promise<void> {
    await this.sql.query(
      `INSERT INTO payments (id, hold_id, amount_cents, status, created_at, ` +
        `updated_at) VALUES ($1, $2, $3, 'authorizing', $4, $4)`,
      [input.id, input.holdId, input.amountCents, input.now.toISOString()],
    );
  }

  /** Moves a payment from one status to another; true when this call moved it. */
  async movePayment(id: string, from: PaymentStatus, to: PaymentStatus, now: Date): Promise<boolean> {
    const moved = await this.sql.query(
      'UPDATE payments SET status = $3, updated_at = $4 WHERE id = $1 AND status = $2 RETURNING id',
      [id, from, to, now.toISOString()],
    );
    return moved.length > 0;
  }

  /** Puts a payment at the back of the housekeeping's queue (a step that failed is tried again later). */
  async touchPayment(id: string, now: Date): Promise<void> {
    await this.sql.query('UPDATE payments SET updated_at = $2 WHERE id = $1', [id, now.toISOString()]);
  }

  async paymentOf(id: string): Promise<PaymentRow | null> {
    const rows = await this.sql.query('SELECT * FROM payments WHERE id = $1', [id]);
    return rows[0] ? paymentRow(rows[0]) : null;
  }

  /**
   * Payments the housekeeping should settle: authorized ones not yet captured, voids under way, and
   * authorizations asked for so long ago (`abandonedBefore`) that their checkout is over without an order.
   */
  async unsettledPayments(input: {
    settledBefore: Date;
    abandonedBefore: Date;
    limit?: number;
  }): Promise<PaymentRow[]> {
    const rows = await this.sql.query(
      `SELECT * FROM payments
       WHERE (status IN ('authorized', 'voiding') AND updated_at <= $1) OR (status = 'authorizing' AND updated_at <= $2)
       ORDER BY updated_at LIMIT $3`,
      [input.settledBefore.toISOString(), input.abandonedBefore.toISOString(), input.limit ?? 100],
    );
    return rows.map(paymentRow);
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
   * Admits a ticket once: one conditional update marks its first scan, so two scanners (on any node) cannot
   * both admit it. Only tickets of orders in `admitted` statuses are admitted; any other is `unknown`.
   */
  async scanTicket(ticketId: string, now: Date, admitted: readonly OrderStatus[]): Promise<ScanOutcome> {
    const first = await this.sql.query(
      `UPDATE tickets t SET scanned_at = $2 FROM orders o
       WHERE t.id = $1 AND o.id = t.order_id AND t.scanned_at IS NULL AND o.status = ANY ($3)
       RETURNING t.*`,
      [ticketId, now.toISOString(), admitted],
    );
    const rows = await this.sql.query(
      'SELECT t.id AS ticket_id, t.scanned_at, o.* FROM tickets t JOIN orders o ON o.id = t.order_id WHERE t.id = $1',
      [ticketId],
    );
    const r = rows[0];
    if (!r || !admitted.includes(r.status as OrderStatus)) return { result: 'unknown' };
    const ticket = first[0] ? ticketRow(first[0]) : ticketRow({ ...r, id: r.ticket_id, order_id: r.id });
    const order = orderRow({ ...r, id: r.id });
    if (first[0]) return { result: 'valid', ticket, order };
    return r.scanned_at == null ? { result: 'unknown' } : { result: 'already_used', ticket, order };
  }

  /** Orders in a status since before `before` (for the seller and delivery steps). */
  async ordersIn(status: OrderStatus, before: Date, limit = 100): Promise<OrderRow[]> {
    const rows = await this.sql.query(
      'SELECT * FROM orders WHERE status = $1 AND created_at <= $2 ORDER BY created_at LIMIT $3',
      [status, before.toISOString(), limit],
    );
    return rows.map(orderRow);
  }

  /** Orders waiting for the seller whose money has been taken (an order whose capture failed is never confirmed). */
  async paidOrdersAwaitingSeller(before: Date, limit = 100): Promise<OrderRow[]> {
    const rows = await this.sql.query(
      `SELECT * FROM orders o WHERE o.status = 'pending_seller_confirmation' AND o.created_at <= $1
         AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.order_id = o.id AND p.status <> 'captured')
       ORDER BY o.created_at LIMIT $2`,
      [before.toISOString(), limit],
    );
    return rows.map(orderRow);
  }

  /** Moves an order from `from` to `to`, recording the transition; false when it was no longer in `from`. */
  async advance(id: string, from: OrderStatus, to: OrderStatus, at: Date, note: string): Promise<boolean> {
    return this.sql.transaction(async (tx) => {
      const moved = await tx.query('UPDATE orders SET status = $3 WHERE id = $1 AND status = $2 RETURNING id', [
        id,
        from,
        to,
      ]);
      if (moved.length === 0) return false;
      const seq = await tx.query('SELECT coalesce(max(seq), 0) + 1 AS next FROM order_events WHERE order_id = $1', [
        id,
      ]);
      await tx.query('INSERT INTO order_events (order_id, seq, status, at, note) VALUES ($1, $2, $3, $4, $5)', [
        id,
        num(seq[0]!.next),
        to,
        at.toISOString(),
        note,
      ]);
      return true;
    });
  }
}

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
         WHERE t.listing_id = $2 AND o.id <> $1 AND o.status <> ALL ($5)
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

async function releaseExpired(tx: SqlTx, now: Date, listingId?: number): Promise<number> {
  // A hold whose checkout began in time is left to that checkout until its claim runs out.
  const stale = liveClaimsSince(now);
  // One statement: the holds that ran out, and their tickets back to their listings.
  const rows = await tx.query(
    `WITH expired AS (
       UPDATE holds SET status = 'expired'
       WHERE status = 'active' AND expires_at <= $1 AND (checkout_started_at IS NULL OR checkout_started_at <= $2) ${listingId === undefined ? '' : 'AND listing_id = $3'}
       RETURNING listing_id, quantity
     ), per_listing AS (
       SELECT listing_id, sum(quantity) AS quantity FROM expired GROUP BY listing_id
     ), returned AS (
       UPDATE listing_inventory li SET held = li.held - p.quantity FROM per_listing p WHERE li.listing_id = p.listing_id RETURNING 1
     )
     SELECT coalesce(sum(quantity), 0) AS released FROM expired`,
    listingId === undefined ? [now.toISOString(), stale] : [now.toISOString(), stale, listingId],
  );
  return num(rows[0]?.released ?? 0);
}

/**
 * What one buyer has towards the fair-share limits, as the guest and as every guest at the client's address, in
 * one query: tickets of this event in live holds and in orders that still stand, and live holds (open carts)
 * of any event. A hold is live while unexpired, or past its expiry under a checkout that claimed it in time
 * (the complement of what `releaseExpired` releases); a bought hold counts until its order's tickets go back.
 */
async function buyerUsage(
  tx: SqlTx,
  input: { guestId: string; clientKey: string; eventId: number; now: Date },
): Promise<{ guest: BuyerUsage; byAddress: BuyerUsage }> {
  const rows = await tx.query(
    `WITH counted AS (
       SELECT h.guest_id = $1 AS mine, h.client_key = $2 AS here, h.event_id = $3 AS this_event, h.status = 'active' AS open, h.quantity
       FROM holds h LEFT JOIN orders o ON o.hold_id = h.id
       WHERE (h.guest_id = $1 OR h.client_key = $2)
         AND ((h.status = 'active' AND (h.expires_at > $4 OR h.checkout_started_at > $5))
           OR (h.status = 'purchased' AND o.status <> ALL ($6))))
     SELECT coalesce(sum(quantity) FILTER (WHERE mine AND this_event), 0) AS guest_tickets,
            count(*) FILTER (WHERE mine AND open) AS guest_carts,
            coalesce(sum(quantity) FILTER (WHERE here AND this_event), 0) AS address_tickets,
            count(*) FILTER (WHERE here AND open) AS address_carts
     FROM counted`,
    [
      input.guestId,
      input.clientKey,
      input.eventId,
      input.now.toISOString(),
      liveClaimsSince(input.now),
      TICKETS_RETURNED_STATUSES,
    ],
  );
  const r = rows[0] ?? {};
  return {
    guest: { eventTickets: num(r.guest_tickets ?? 0), openCarts: num(r.guest_carts ?? 0) },
    byAddress: { eventTickets: num(r.address_tickets ?? 0), openCarts: num(r.address_carts ?? 0) },
  };
}

function paymentRow(r: Record<string, unknown>): PaymentRow {
  return {
    id: String(r.id),
    hold_id: String(r.hold_id),
    order_id: r.order_id == null ? null : String(r.order_id),
    authorization_id: r.authorization_id == null ? null : String(r.authorization_id),
    amount_cents: num(r.amount_cents),
    status: r.status as PaymentStatus,
    updated_at: iso(r.updated_at),
  };
}
