import { describe, expect, it } from 'vitest';
import { readTicketsPdf } from '../test/ticket-pdf-reader.js';
import { ticketsPdf, type PrintedTicket } from './ticket-pdf.js';

const ticket = (seat: string): PrintedTicket => ({
  barcode: `TABCDEFGHJKLMN${seat}.abcdefghijklmnopqrstuv`,
  eventName: 'Café Tacvba — 東京',
  venue: 'Madison Square Garden, New York, NY',
  when: 'Mon, Nov 23, 2026 · 7:30 PM (venue time)',
  section: '112',
  row: 'F',
  seat,
  orderId: 'ORD-AB12CD34EF',
  holder: 'Zoë Ñandú',
});

describe('the eTickets PDF', () => {
  it('has one page per ticket with its text and a QR code of its barcode value', async () => {
    const tickets = ['7', '8', '9'].map(ticket);
    const pages = await readTicketsPdf(await ticketsPdf(tickets, 'Tickets'));
    expect(pages).toHaveLength(3);
    pages.forEach((page, i) => {
      const t = tickets[i]!;
      expect(page.barcode).toBe(t.barcode);
      for (const text of [
        `eTicket ${i + 1} of 3`,
        t.venue,
        t.when,
        `Section 112    Row F    Seat ${t.seat}`,
        'Order: ORD-AB12CD34EF',
        'Holder: Zoë Ñandú',
      ])
        expect(page.text).toContain(text);
      // Characters the standard font has no glyph for are printed as "?", never dropped or fatal.
      expect(page.text).toContain('Café Tacvba');
      expect(page.text).toContain('??');
    });
  });

  it('cuts a name too long for the page rather than running off it', async () => {
    const [page] = await readTicketsPdf(
      await ticketsPdf([{ ...ticket('1'), eventName: 'A very long event name '.repeat(10) }], 'Tickets'),
    );
    expect(page!.text).toMatch(/A very long event name.*\.\.\./);
  });

  it('refuses to print no tickets', async () => {
    await expect(ticketsPdf([], 'Tickets')).rejects.toThrow(RangeError);
  });
});
