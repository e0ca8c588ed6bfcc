import { describe, expect, it } from 'vitest';
import { eventDocument } from '../test/documents.js';
import { listingsForEvent } from './domain/listings.js';
import { orderMailFacts } from './order-mail.js';
import type { OrderRow, TicketRow } from './store-rows.js';

const event = eventDocument({ tickets_available: 200, ticket_groups_available: 40, min_ticket_price: 30 });
const listing = listingsForEvent(event).find((l) => l.row !== 'GA')!;
const order = { id: 'ORD-MAILFACTS1', quantity: 3, billing: { name: 'Ada Lovelace' } } as unknown as OrderRow;
const ticket = (seq: number, seat: number | null, companion = false): TicketRow => ({
  id: `T${seq}`,
  order_id: order.id,
  listing_id: listing.id,
  seq,
  seat_index: seq - 1,
  seat,
  companion,
  scanned_at: null,
});

describe("an order mail's seats", () => {
  it('names the block of seats, and companion seats apart from it (RULES 10.16)', () => {
    expect(orderMailFacts(order, [ticket(1, 5), ticket(2, 6)], event, listing).seats).toBe('Seats 5–6');
    expect(orderMailFacts(order, [ticket(1, 5), ticket(2, 6), ticket(3, 31, true)], event, listing).seats).toBe(
      'Seats 5–6; companion seat 31',
    );
    expect(orderMailFacts(order, [ticket(1, 5), ticket(2, 30, true), ticket(3, 31, true)], event, listing).seats).toBe(
      'Seat 5; companion seats 30, 31',
    );
  });
});
