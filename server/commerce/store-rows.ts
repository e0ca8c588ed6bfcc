import type { ListingTerms, OrderStatus } from '../../shared/schemas/commerce.js';
import type { SqlTx } from '../store/sql.js';

/** The rows of the order store's tables, as the commerce stores read them (PGlite and PostgreSQL alike). */

export interface HoldRow {
  id: string;
  guest_id: string;
  listing_id: number;
  event_id: number;
  /** The listing's seats held (an accessible listing's wheelchair spaces). */
  quantity: number;
  /** Companion seats held with them (RULES 10.16), at most one per space; 0 for most holds. */
  companions: number;
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
  created_at: string;
  /** The brand the order was placed on (null for orders placed before brands were recorded). */
  brand?: string | null;
  /** RULES 20.1: the listing's terms when the order was paid (null for orders placed before they were kept). */
  terms?: ListingTerms | null;
  /** RULES 21.3: when the buyer's email and billing details were erased at their request; null while kept. */
  erased_at?: string | null;
}

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
  /** A companion seat bought with a wheelchair space (RULES 10.16). */
  companion: boolean;
  scanned_at: string | null;
}

export interface OrderEventRow {
  seq: number;
  status: OrderStatus;
  at: string;
  note: string;
}

export const iso = (v: unknown) => new Date(v as string).toISOString();
export const num = (v: unknown) => Number(v);

export function ticketRow(r: Record<string, unknown>): TicketRow {
  return {
    id: String(r.id),
    order_id: String(r.order_id),
    listing_id: num(r.listing_id),
    seq: num(r.seq),
    seat_index: num(r.seat_index),
    seat: r.seat == null ? null : num(r.seat),
    companion: r.companion === true,
    scanned_at: r.scanned_at == null ? null : iso(r.scanned_at),
  };
}

export function holdRow(r: Record<string, unknown>): HoldRow {
  return {
    id: String(r.id),
    guest_id: String(r.guest_id),
    listing_id: num(r.listing_id),
    event_id: num(r.event_id),
    quantity: num(r.quantity),
    companions: num(r.companions ?? 0),
    price_per_ticket_cents: num(r.price_per_ticket_cents),
    status: r.status as HoldRow['status'],
    created_at: iso(r.created_at),
    expires_at: iso(r.expires_at),
    client_key: r.client_key == null ? null : String(r.client_key),
    checkout_attempt: r.checkout_attempt == null ? null : String(r.checkout_attempt),
    checkout_started_at: r.checkout_started_at == null ? null : iso(r.checkout_started_at),
  };
}

export function orderRow(r: Record<string, unknown>): OrderRow {
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
    terms: typeof r.terms === 'string' ? (JSON.parse(r.terms) as ListingTerms) : ((r.terms as ListingTerms) ?? null),
    erased_at: r.erased_at == null ? null : iso(r.erased_at),
  };
}

/** Adds a line to an order's timeline, at its current status. */
export async function noteOrder(tx: SqlTx, id: string, status: OrderStatus, at: string, note: string): Promise<void> {
  await tx.query(
    `INSERT INTO order_events (order_id, seq, status, at, note)
     SELECT $1, coalesce(max(seq), 0) + 1, $2, $3, $4 FROM order_events WHERE order_id = $1`,
    [id, status, at, note],
  );
}
