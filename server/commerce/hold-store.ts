import { AppError } from '../http/errors.js';
import type { Sql, SqlTx } from '../store/sql.js';
import { liveClaimsSince } from './checkout-claim.js';
import { quantityRefusal } from './domain/listings.js';
import { TICKETS_RETURNED_STATUSES } from './domain/order-lifecycle.js';
import { purchaseLimitRefusal, type BuyerUsage, type PurchaseLimits } from './domain/purchase-limits.js';
import { OrderStore } from './order-store.js';
import { holdRow, num, type HoldRow, type OrderWithEvents } from './store-rows.js';

/**
 * Holds (carts) and their checkout claims in SQL. Every change of what is available is one conditional statement
 * inside a transaction, so two shoppers can never hold the same last tickets (OWASP ASVS V2.3.4 / V11.1.6),
 * whichever of PGlite or PostgreSQL runs it.
 */
export class HoldStore {
  constructor(
    readonly sql: Sql,
    private readonly orders = new OrderStore(sql),
  ) {}

  /**
   * Holds `quantity` tickets of a listing for a guest until `expiresAt`, or fails with a 409 when fewer are
   * left or when the buyer is over the fair-share limits (per guest, and per client address). Holds of that
   * listing that have run out are released first, in the same transaction. The buyer's own requests are
   * serialized by a transaction-scoped advisory lock per guest and per address, so forty carts sent at once
   * are counted one after another on every node that shares the database.
   *
   * With `fromKey`, the id was derived from the client's idempotency key: a hold already under it was made by an
   * earlier try of this very request whose answer was lost (its commit landed as the connection broke), and is
   * answered as it stands, before the limits are counted, so the retry neither doubles the hold nor counts it
   * twice (RULES 10.6). The same key with another listing or quantity is a 422.
   */
  async createHold(input: {
    id: string;
    fromKey?: boolean;
    guestId: string;
    clientKey: string;
    /**
     * The listing, with the quantities its seller allows (`splits`) and the companion seats it lists beside its
     * wheelchair spaces (RULES 10.16).
     */
    listing: { id: number; eventId: number; listed: number; splits: readonly number[]; companionsListed?: number };
    quantity: number;
    /** Companion seats taken with the `quantity` wheelchair spaces (checked by the caller against the listing). */
    companions?: number;
    pricePerTicketCents: number;
    now: Date;
    expiresAt: Date;
    limits?: PurchaseLimits;
  }): Promise<HoldRow> {
    const companions = input.companions ?? 0;
    return this.sql.transaction(async (tx) => {
      // Always guest first, then address: one order of locking, so two transactions never wait on each other.
      await tx.query("SELECT pg_advisory_xact_lock(hashtext('guest:' || $1))", [input.guestId]);
      await tx.query("SELECT pg_advisory_xact_lock(hashtext('client:' || $1))", [input.clientKey]);
      if (input.fromKey) {
        const [earlier] = await tx.query('SELECT * FROM holds WHERE id = $1', [input.id]);
        if (earlier) return sameHold(holdRow(earlier), { ...input, companions });
      }
      const { guest, byAddress } = await buyerUsage(tx, {
        guestId: input.guestId,
        clientKey: input.clientKey,
        eventId: input.listing.eventId,
        now: input.now,
      });
      // RULES 10.16: companion seats count towards the per-event limit like any ticket.
      const refusal = purchaseLimitRefusal({
        quantity: input.quantity + companions,
        guest,
        byAddress,
        limits: input.limits,
      });
      if (refusal) throw refusal;
      await releaseExpired(tx, input.now, input.listing.id);
      // The listing's row (made on its first hold) is locked from here to the commit, so what is left cannot
      // change between the check of the seller's splits (no single seat stranded) and the hold; the table's
      // CHECK (held + sold <= listed) stands behind it.
      // The companion seats are counted in the same locked row (RULES 10.16): a row made before they were listed
      // learns them here, and the table's CHECK (companions_held + companions_sold <= companions_listed) stands
      // behind the count as it does behind the seats.
      const left = await tx.query(
        `INSERT INTO listing_inventory (listing_id, event_id, listed, companions_listed) VALUES ($1, $2, $3, $4)
         ON CONFLICT (listing_id) DO UPDATE
           SET companions_listed = greatest(listing_inventory.companions_listed, excluded.companions_listed)
         RETURNING listed - held - sold AS left,
                   companions_listed - companions_held - companions_sold AS companions_left`,
        [input.listing.id, input.listing.eventId, input.listing.listed, input.listing.companionsListed ?? 0],
      );
      const unavailable = quantityRefusal(input.listing.splits, num(left[0]?.left ?? 0), input.quantity);
      if (unavailable) throw unavailable;
      const companionsLeft = num(left[0]?.companions_left ?? 0);
      if (companions > companionsLeft)
        throw new AppError(
          409,
          'not_enough_companion_seats',
          companionsLeft <= 0
            ? 'The companion seats of this listing were just taken; choose fewer or none'
            : `Only ${companionsLeft} companion seat${companionsLeft === 1 ? '' : 's'} left in this listing`,
          { companionsAvailable: Math.max(0, companionsLeft) },
        );
      await tx.query(
        'UPDATE listing_inventory SET held = held + $2, companions_held = companions_held + $3 WHERE listing_id = $1',
        [input.listing.id, input.quantity, companions],
      );
      const rows = await tx.query(
        `INSERT INTO holds (id, guest_id, client_key, listing_id, event_id, ` +
          `quantity, price_per_ticket_cents, status, created_at, expires_at, companions)
       ` +
          `  VALUES ($1, $2, $3, $4, $5, $6, $7, 'active', $8, $9, $10) RETURNING *`,
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
          companions,
        ],
      );
      return holdRow(rows[0]!);
    });
  }

  /** What a buyer has towards the fair-share limits of an event, counted as `createHold` counts it. */
  async usage(input: {
    guestId: string;
    clientKey: string;
    eventId: number;
    now: Date;
  }): Promise<{ guest: BuyerUsage; byAddress: BuyerUsage }> {
    return this.sql.transaction((tx) => buyerUsage(tx, input));
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
          "status = 'active' RETURNING listing_id, quantity, companions",
        [id, guestId],
      );
      for (const r of rows)
        await tx.query(
          'UPDATE listing_inventory SET held = held - $2, companions_held = companions_held - $3 WHERE listing_id = $1',
          [r.listing_id, r.quantity, r.companions],
        );
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
      const order = await this.orders.orderOfHold(input.holdId);
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
}

/** The hold an earlier try of a request made, when this request is the same; else a 422 (the key was reused). */
function sameHold(
  hold: HoldRow,
  input: { guestId: string; listing: { id: number }; quantity: number; companions: number },
): HoldRow {
  if (
    hold.guest_id === input.guestId &&
    hold.listing_id === input.listing.id &&
    hold.quantity === input.quantity &&
    hold.companions === input.companions
  )
    return hold;
  throw new AppError(
    422,
    'idempotency_key_reused',
    'This Idempotency-Key was already used for a different cart; make a new key for a new request',
  );
}

async function releaseExpired(tx: SqlTx, now: Date, listingId?: number): Promise<number> {
  // A hold whose checkout began in time is left to that checkout until its claim runs out.
  const stale = liveClaimsSince(now);
  // One statement: the holds that ran out, and their tickets back to their listings.
  const rows = await tx.query(
    `WITH expired AS (
       UPDATE holds SET status = 'expired'
       WHERE status = 'active' AND expires_at <= $1
         AND (checkout_started_at IS NULL OR checkout_started_at <= $2)
         ${listingId === undefined ? '' : 'AND listing_id = $3'}
       RETURNING listing_id, quantity, companions
     ), per_listing AS (
       SELECT listing_id, sum(quantity) AS quantity, sum(companions) AS companions FROM expired GROUP BY listing_id
     ), returned AS (
       UPDATE listing_inventory li SET held = li.held - p.quantity, companions_held = li.companions_held - p.companions
       FROM per_listing p WHERE li.listing_id = p.listing_id RETURNING 1
     )
     SELECT coalesce(sum(quantity + companions), 0) AS released FROM expired`,
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
       SELECT h.guest_id = $1 AS mine, h.client_key = $2 AS here, h.event_id = $3 AS this_event,
              h.status = 'active' AS open, h.quantity + h.companions AS quantity
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
