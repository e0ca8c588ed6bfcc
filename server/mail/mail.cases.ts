import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BrandRegistrySchema, type Brand } from '../../shared/schemas/brand-registry.js';
import type { MailAttachments, MailLinks, OrderMailFacts, OutgoingMail } from './mail-kinds.js';

/** The brands as shipped (`segments/brands.json`). */
export function shippedBrands(): Brand[] {
  const file = path.resolve('segments', 'brands.json');
  return BrandRegistrySchema.parse(JSON.parse(readFileSync(file, 'utf8'))).brands;
}

export function brandLookup(brands: Brand[] = shippedBrands()): (id: string) => Brand {
  return (id) => brands.find((b) => b.id === id) ?? brands[0]!;
}

/** Links as the commerce side will make them: signed, per brand. */
export const testLinks: MailLinks = {
  order: (orderId, brand) => `https://shop.example/${brand}/order/${orderId}?sig=order-signature`,
  tickets: (orderId, brand) => `https://shop.example/${brand}/order/${orderId}/tickets.pdf?sig=tickets-signature`,
  guarantee: (brand) => `https://shop.example/${brand}/guarantee`,
};

/** A small stand-in for the tickets PDF (its bytes are what is checked, not its drawing). */
export const TEST_PDF = new TextEncoder().encode('%PDF-1.4\n% tickets for the mail tests\n%%EOF\n');

export const testAttachments: MailAttachments = {
  ticketsPdf: async (orderId) => ({ filename: `tickets-${orderId}.pdf`, content: TEST_PDF }),
};

export function facts(overrides: Partial<OrderMailFacts> = {}): OrderMailFacts {
  return {
    orderId: 'ORD-7KQ2M9',
    eventName: 'The Midnight Owls',
    venue: 'Lakeside Hall, 12 Harbor Rd, Portland, OR',
    when: 'Sat, Dec 5, 2026 · 8:00 PM',
    quantity: 2,
    section: '104',
    row: 'F',
    seats: 'Seats 12–13',
    buyerName: 'Ada Lovelace',
    ...overrides,
  };
}

/** One mail of every kind, for `brand`. */
export function mailOfEveryKind(brand: string, base: Partial<OrderMailFacts> = {}): OutgoingMail[] {
  const f = facts(base);
  return [
    {
      key: `order_confirmation:${f.orderId}`,
      brand,
      to: 'ada@example.com',
      kind: 'order_confirmation',
      data: {
        ...f,
        totalCents: 25_470,
        lineItems: [
          { label: 'Tickets (2 × $98.00)', cents: 19_600 },
          { label: 'Service fee', cents: 3_528 },
          { label: 'Delivery', cents: 500 },
          { label: 'Promo FF20', cents: -1_000 },
          { label: 'Sales tax', cents: 2_842 },
        ],
        delivery: 'eTicket',
        readyBy: '2026-12-01',
        terms: ['Obstructed or limited view', 'Face value $80 per ticket'],
      },
    },
    { key: `tickets_ready:${f.orderId}`, brand, to: 'ada@example.com', kind: 'tickets_ready', data: f },
    {
      key: 'refund:RF-1',
      brand,
      to: 'ada@example.com',
      kind: 'refund',
      data: {
        ...f,
        amountCents: 12_735,
        refundedCents: 12_735,
        totalCents: 25_470,
        reason: 'One ticket returned',
        at: '2026-11-28T15:30:00Z',
      },
    },
    {
      key: `event_cancelled:${f.orderId}`,
      brand,
      to: 'ada@example.com',
      kind: 'event_cancelled',
      data: { ...f, amountCents: 25_470, at: '2026-11-29T10:00:00Z' },
    },
    {
      key: `event_changed:${f.orderId}:1`,
      brand,
      to: 'ada@example.com',
      kind: 'event_changed',
      data: {
        ...f,
        when: 'Sun, Jan 10, 2027 · 7:30 PM',
        status: 'rescheduled',
        previousWhen: 'Sat, Dec 5, 2026 · 8:00 PM',
        refundUntil: '2027-01-11T03:30:00Z',
      },
    },
  ];
}

/** A plain order confirmation numbered `n`, for volume tests. */
export function numberedMail(n: number, brand = 'base'): OutgoingMail {
  const mail = mailOfEveryKind(brand, { orderId: `ORD-N${String(n).padStart(4, '0')}` })[0]!;
  return { ...mail, to: `buyer${n}@example.com` };
}
