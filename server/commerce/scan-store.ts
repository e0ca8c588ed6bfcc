import type { OrderStatus } from '../../shared/schemas/commerce.js';
import type { Sql } from '../store/sql.js';
import { orderRow, ticketRow, type OrderRow, type TicketRow } from './store-rows.js';

/**
 * What a scan found: the ticket admitted now (of the event named); or, not admitted, the ticket and its order as
 * they stand (the caller says why: used before, another event, a void order); or no such ticket.
 */
export type ScanOutcome =
  | { result: 'valid'; ticket: TicketRow }
  | { result: 'not_admitted'; ticket: TicketRow; order: OrderRow }
  | { result: 'unknown' };

/** Tickets at the door in SQL: each admitted once, by one conditional statement. */
export class ScanStore {
  constructor(private readonly sql: Sql) {}

  /**
   * RULES 19.6: admits a ticket to `eventId` once. One conditional update marks its first scan, and only for a
   * ticket of that event whose order is in an `admitted` status, so two scanners (on any node) cannot both admit
   * it and a ticket of another event is never marked. Not admitted, the ticket and its order are read back.
   */
  async admit(ticketId: string, eventId: number, now: Date, admitted: readonly OrderStatus[]): Promise<ScanOutcome> {
    const first = await this.sql.query(
      `UPDATE tickets t SET scanned_at = $2 FROM orders o
       WHERE t.id = $1 AND o.id = t.order_id AND t.scanned_at IS NULL AND o.status = ANY ($3) AND o.event_id = $4
       RETURNING t.*`,
      [ticketId, now.toISOString(), admitted, eventId],
    );
    return first[0] ? { result: 'valid', ticket: ticketRow(first[0]) } : this.look(ticketId);
  }

  /** A ticket and its order as they stand, changing nothing. */
  async look(ticketId: string): Promise<ScanOutcome> {
    const rows = await this.sql.query(
      `SELECT t.id AS ticket_id, t.order_id AS ticket_order_id, t.listing_id AS ticket_listing_id, t.seq AS ticket_seq,
              t.seat_index, t.seat, t.companion, t.scanned_at, o.*
       FROM tickets t JOIN orders o ON o.id = t.order_id WHERE t.id = $1`,
      [ticketId],
    );
    const r = rows[0];
    if (!r) return { result: 'unknown' };
    const ticket = ticketRow({
      ...r,
      id: r.ticket_id,
      order_id: r.ticket_order_id,
      listing_id: r.ticket_listing_id,
      seq: r.ticket_seq,
    });
    return { result: 'not_admitted', ticket, order: orderRow(r) };
  }
}
