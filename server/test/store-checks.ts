/**
 * What the database, and the payment steps the nodes logged, say about orders, holds and payments after a
 * run of a stack. Nothing here imports the test runner, so the benchmark uses it as well.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Database } from './postgres.js';
import type { ServerNode } from './server-nodes.js';

/** The payment steps a node logged (`payment authorized`, `payment captured`, `payment voided`). */
export function paymentLog(nodes: readonly ServerNode[]): {
  authorized: Record<string, unknown>[];
  captured: Record<string, unknown>[];
  voided: Record<string, unknown>[];
} {
  const records = nodes.flatMap((n) => n.records());
  const step = (msg: string) => records.filter((r) => r.msg === msg);
  return { authorized: step('payment authorized'), captured: step('payment captured'), voided: step('payment voided') };
}

/**
 * A payment whose logged steps are not `authorized` then exactly one of `captured` or `voided`, or whose last
 * logged step differs from its row in the database (null: no row).
 */
export interface PaymentAnomaly {
  payment: string;
  cart: string;
  steps: string[];
  database: string | null;
}

/** Payments whose logged steps are not one authorization then one capture or void, or disagree with the database. */
export async function paymentStepAnomalies(db: Database, nodes: readonly ServerNode[]): Promise<PaymentAnomaly[]> {
  const steps = new Map<string, { cart: string; steps: string[] }>();
  for (const r of nodes.flatMap((n) => n.records())) {
    const step = typeof r.msg === 'string' ? /^payment (authorized|captured|voided)$/.exec(r.msg)?.[1] : undefined;
    if (!step) continue;
    const id = String(r.payment);
    const entry = steps.get(id) ?? { cart: String(r.cart), steps: [] };
    entry.steps.push(step);
    steps.set(id, entry);
  }
  const all = await db.query<{ id: string; status: string; authorization_id: string | null }>(
    'SELECT id, status, authorization_id FROM payments',
  );
  const rows = new Map(all.map((p) => [String(p.id), p.status]));
  // A payment the processor never authorized (declined, or its checkout ended first) has no steps to log.
  const authorizedRows = new Set(all.filter((p) => p.authorization_id !== null).map((p) => String(p.id)));
  const anomalies: PaymentAnomaly[] = [];
  for (const [payment, { cart, steps: s }] of steps) {
    const database = rows.get(payment) ?? null;
    // Counted, not ordered: the lines may come from several nodes (housekeeping settles on any of them).
    const times = (step: string) => s.filter((x) => x === step).length;
    const end = times('captured') === 1 ? 'captured' : times('voided') === 1 ? 'voided' : null;
    const wellFormed = s.length === 2 && times('authorized') === 1 && end !== null;
    const agrees = database === null ? end === 'voided' : database === end;
    if (!wellFormed || !agrees) anomalies.push({ payment, cart, steps: s, database });
  }
  for (const [payment, status] of rows)
    if (!steps.has(payment) && authorizedRows.has(payment))
      anomalies.push({ payment, cart: '', steps: [], database: status });
  return anomalies;
}

export interface StoreInvariants {
  orders: number;
  /** Orders whose hold is not marked purchased (or missing). */
  ordersWithoutPurchasedHold: string[];
  /** Holds marked purchased that have no order. */
  purchasedHoldsWithoutOrder: string[];
  /** Orders without exactly one captured payment for their hold. */
  ordersWithoutOneCapture: string[];
  /** Captured payments whose hold has no order. */
  capturesWithoutOrder: string[];
  /** Holds with more than one captured payment. */
  doubled: string[];
  payments: { captured: number; voided: number };
  /** Listings whose held and sold counts differ from their active and purchased holds (`except` left out). */
  inventoryMismatches: { listing_id: string; held: number; sold: number; active: number; purchased: number }[];
}

export async function storeInvariants(db: Database, except: readonly number[] = []): Promise<StoreInvariants> {
  const ids = async (text: string) => (await db.query<{ id: string }>(text)).map((r) => String(r.id));
  const [orders] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM orders');
  const payments = await db.query<{ status: string; n: number }>(
    'SELECT status, count(*)::int AS n FROM payments GROUP BY status',
  );
  const byStatus = (s: string) => payments.find((p) => p.status === s)?.n ?? 0;
  const inventory = await db.query<{
    listing_id: string;
    held: number;
    sold: number;
    active: number;
    purchased: number;
  }>(
    // Companion seats (RULES 10.16) are counted with the seats: held and sold as their holds say.
    `SELECT i.listing_id::text, i.held + i.companions_held AS held, i.sold + i.companions_sold AS sold,
            coalesce(sum(h.quantity + h.companions) FILTER (WHERE h.status = 'active'), 0)::int AS active,
            coalesce(sum(h.quantity + h.companions) FILTER (WHERE h.status = 'purchased'), 0)::int AS purchased
       FROM listing_inventory i LEFT JOIN holds h ON h.listing_id = i.listing_id
      WHERE NOT (i.listing_id = ANY($1::bigint[]))
      GROUP BY i.listing_id, i.held, i.sold, i.companions_held, i.companions_sold`,
    [except],
  );
  return {
    orders: orders?.n ?? 0,
    ordersWithoutPurchasedHold: await ids(
      `SELECT o.id FROM orders o LEFT JOIN holds h ON h.id = o.hold_id WHERE h.status IS DISTINCT FROM 'purchased'`,
    ),
    purchasedHoldsWithoutOrder: await ids(
      `SELECT h.id FROM holds h LEFT JOIN orders o ON o.hold_id = h.id WHERE h.status = 'purchased' AND o.id IS NULL`,
    ),
    ordersWithoutOneCapture: await ids(
      `SELECT o.id FROM orders o LEFT JOIN payments p ON p.hold_id = o.hold_id ` +
        `AND p.status = 'captured' GROUP BY o.id HAVING count(p.id) <> 1`,
    ),
    capturesWithoutOrder: await ids(
      `SELECT p.id FROM payments p LEFT JOIN orders o ON o.hold_id = p.hold_id ` +
        `WHERE p.status = 'captured' AND o.id IS NULL`,
    ),
    doubled: await ids(
      `SELECT hold_id AS id FROM payments WHERE status = 'captured' GROUP BY hold_id HAVING count(*) > 1`,
    ),
    payments: { captured: byStatus('captured'), voided: byStatus('voided') },
    inventoryMismatches: inventory.filter((r) => r.held !== r.active || r.sold !== r.purchased),
  };
}

/** The longest wait for the server's housekeeping to settle the payments a fault left open. */
export const SETTLE_WAIT_MS = 30_000;

/**
 * Waits (polling, at most `SETTLE_WAIT_MS`) until no payment is left open (`authorizing`, `authorized` or
 * `voiding`): a payment caught between its authorization and its capture or void by a fault is settled by
 * the server's own housekeeping. Returns how many are still open when it stops waiting (NaN when the
 * database could not be asked).
 */
export async function settledPayments(db: Database): Promise<number> {
  const deadline = Date.now() + SETTLE_WAIT_MS;
  for (;;) {
    const left = await db
      .query<{ n: number }>(
        `SELECT count(*)::int AS n FROM payments WHERE status IN ('authorizing', 'authorized', 'voiding')`,
      )
      .then(
        (r) => r[0]?.n ?? 0,
        () => Number.NaN,
      );
    if (left === 0 || Date.now() >= deadline) return left;
    await sleep(250);
  }
}
