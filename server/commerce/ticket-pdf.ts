import { PDFDocument, StandardFonts, rgb, type PDFFont } from 'pdf-lib';
import QRCode from 'qrcode';

/** What one page of the eTickets' PDF carries. */
export interface PrintedTicket {
  barcode: string;
  eventName: string;
  venue: string;
  /** Venue-local date and time, as the buyer reads it ("Mon, Nov 23, 2026 · 7:30 PM"). */
  when: string;
  section: string;
  row: string;
  /** "GA" for general admission. */
  seat: string;
  /** A companion seat bought with a wheelchair space (RULES 10.16): printed as such. */
  companion?: boolean;
  orderId: string;
  holder: string;
}

/** US Letter, in points. */
const PAGE = { width: 612, height: 792 } as const;
const MARGIN = 54;

/** The text as the standard font can print it: a character it has no glyph for becomes "?". */
function printable(text: string, font: PDFFont): string {
  let out = '';
  for (const ch of text.normalize('NFC')) {
    try {
      font.encodeText(ch);
      out += ch;
    } catch {
      const plain = ch.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
      try {
        font.encodeText(plain);
        out += plain;
      } catch {
        out += '?';
      }
    }
  }
  return out;
}

/** Cuts a line to fit `width` at `size`, ending it with an ellipsis when it had to. */
function fitted(text: string, font: PDFFont, size: number, width: number): string {
  if (font.widthOfTextAtSize(text, size) <= width) return text;
  let cut = text;
  while (cut.length > 1 && font.widthOfTextAtSize(`${cut}...`, size) > width) cut = cut.slice(0, -1);
  return `${cut}...`;
}

/**
 * The eTickets of an order: one page per ticket with its QR code (the signed barcode value) and what the
 * entrance checks: event, venue, venue-local date and time, section, row, seat, order id and holder's name.
 */
export async function ticketsPdf(tickets: readonly PrintedTicket[], title: string): Promise<Uint8Array> {
  if (tickets.length === 0) throw new RangeError('a tickets PDF needs at least one ticket');
  const doc = await PDFDocument.create();
  doc.setTitle(title);
  doc.setCreator('Ticket storefront');
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const width = PAGE.width - 2 * MARGIN;
  for (const [i, t] of tickets.entries()) {
    const page = doc.addPage([PAGE.width, PAGE.height]);
    let y = PAGE.height - MARGIN;
    const line = (text: string, font: PDFFont, size: number, gap = 8) => {
      y -= size;
      page.drawText(fitted(printable(text, font), font, size, width), {
        x: MARGIN,
        y,
        size,
        font,
        color: rgb(0.1, 0.1, 0.12),
      });
      y -= gap;
    };
    line(`eTicket ${i + 1} of ${tickets.length}`, regular, 11, 14);
    line(t.eventName, bold, 22, 10);
    line(t.venue, regular, 13, 6);
    line(t.when, regular, 13, 22);
    line(`Section ${t.section}    Row ${t.row}    Seat ${t.seat}`, bold, 16, t.companion ? 8 : 22);
    if (t.companion) line('Companion seat', bold, 14, 22);
    line(`Holder: ${t.holder}`, regular, 12, 6);
    line(`Order: ${t.orderId}`, regular, 12, 24);

    // Error correction M and a 4-module quiet zone: what entrance scanners read off a phone or paper. Four pixels a
    // module keeps the image small and quick to make (at 8 a page took ten times as long to make and embed).
    const png = await QRCode.toBuffer(t.barcode, { type: 'png', errorCorrectionLevel: 'M', margin: 4, scale: 4 });
    const image = await doc.embedPng(png);
    const side = 216;
    y -= side;
    page.drawImage(image, { x: MARGIN, y, width: side, height: side });
    y -= 16;
    page.drawText(t.barcode, { x: MARGIN, y, size: 9, font: regular, color: rgb(0.3, 0.3, 0.32) });
    page.drawText('Scanned once at the entrance: do not share or copy this ticket.', {
      x: MARGIN,
      y: MARGIN,
      size: 10,
      font: regular,
      color: rgb(0.3, 0.3, 0.32),
    });
  }
  return doc.save();
}
