import { describe, expect, it } from 'vitest';
import { OrderDetailEntrySchema } from '../../../shared/schemas/commerce.js';
import { eventDocument } from '../../test/documents.js';
import {
  DEFAULT_IMPORTANT_NOTES,
  DELIVERY_INSTRUCTIONS,
  formatIsoDate,
  orderDateEntry,
  orderDetailEntries,
  type OrderDetailInput,
} from './order-detail.js';

const base: OrderDetailInput = {
  event: eventDocument({ event_local_timestamp: '2027-01-05T19:30:00' }),
  listing: {
    section: 'Section 112',
    row: '14',
    deliveryMethod: 'eticket',
    sellerNotes: 'Aisle seats',
    inHandDate: '2027-01-02',
  },
  order: { id: 'ORD-7K2M9Q', status: 'confirmed', createdAt: '2026-11-21T15:04:05.000Z' },
};

describe('orderDetailEntries (RULES 10.8 order detail)', () => {
  it('lists the typed entries with the exact titles, in order', () => {
    expect(orderDetailEntries(base)).toEqual([
      { type: 'date', month: 'JAN', day: '5', time: '07:30 PM' },
      { type: 'header', title: 'Event Location' },
      { type: 'header', title: 'Madison Square Garden, New York, NY' },
      { type: 'row', title: 'Section', value: 'Section 112' },
      { type: 'row', title: 'Row', value: '14' },
      { type: 'row', title: 'Order Status', value: 'Confirmed' },
      { type: 'row', title: 'Order Date', value: 'Nov 21, 2026' },
      { type: 'row', title: 'Order Id', value: 'ORD-7K2M9Q' },
      { type: 'rowSubtitle', title: 'Important Notes', subtitle: 'Aisle seats' },
      { type: 'rowSubtitle', title: 'eTicket', subtitle: 'Tickets ready by Jan 2, 2027' },
      { type: 'rowSubtitle', title: 'Method', subtitle: DELIVERY_INSTRUCTIONS.eticket },
    ]);
  });

  it('matches the API schema', () => {
    for (const entry of orderDetailEntries(base)) OrderDetailEntrySchema.parse(entry);
  });

  it('pins the titles of rows and row subtitles whatever the delivery method', () => {
    const entries = orderDetailEntries({ ...base, listing: { ...base.listing, deliveryMethod: 'mobile_transfer' } });
    expect(entries.filter((e) => e.type === 'row').map((e) => e.title)).toEqual([
      'Section',
      'Row',
      'Order Status',
      'Order Date',
      'Order Id',
    ]);
    expect(entries.filter((e) => e.type === 'rowSubtitle').map((e) => e.title)).toEqual([
      'Important Notes',
      'Mobile transfer',
      'Method',
    ]);
  });

  it('shows the human label of the order status', () => {
    const value = (status: OrderDetailInput['order']['status']) =>
      orderDetailEntries({ ...base, order: { ...base.order, status } }).find(
        (e) => e.type === 'row' && e.title === 'Order Status',
      );
    expect(value('pending_seller_confirmation')).toMatchObject({ value: 'Awaiting Seller Confirmation' });
    expect(value('refunded')).toMatchObject({ value: 'Refunded' });
  });

  it('falls back to default notes when the seller wrote none', () => {
    const entries = orderDetailEntries({ ...base, listing: { ...base.listing, sellerNotes: '  ' } });
    expect(entries.find((e) => e.type === 'rowSubtitle' && e.title === 'Important Notes')).toMatchObject({
      subtitle: DEFAULT_IMPORTANT_NOTES,
    });
  });

  it('dates the order on the venue calendar unless a zone is given', () => {
    const late = { ...base, order: { ...base.order, createdAt: '2026-11-22T03:30:00.000Z' } };
    const date = (input: OrderDetailInput) =>
      orderDetailEntries(input).find((e) => e.type === 'row' && e.title === 'Order Date');
    expect(date(late)).toMatchObject({ value: 'Nov 21, 2026' });
    expect(date({ ...late, timeZone: 'Europe/London' })).toMatchObject({ value: 'Nov 22, 2026' });
    expect(() => orderDetailEntries({ ...base, order: { ...base.order, createdAt: 'yesterday' } })).toThrow(RangeError);
  });

  it('says when tickets come for an event whose date is not set', () => {
    const tbd = orderDetailEntries({
      ...base,
      event: eventDocument({ event_local_timestamp: null, event_timestamp: null }),
      listing: { ...base.listing, inHandDate: '' },
    });
    expect(tbd[0]).toEqual({ type: 'date', month: 'TBD', day: '', time: '' });
    expect(tbd[9]).toEqual({
      type: 'rowSubtitle',
      title: 'eTicket',
      subtitle: 'Tickets ready once the event date is set',
    });
  });
});

describe('orderDateEntry', () => {
  it.each<[string | null, { month: string; day: string; time: string }]>([
    ['2027-01-05T19:30:00', { month: 'JAN', day: '5', time: '07:30 PM' }],
    ['2026-12-31T00:05:00', { month: 'DEC', day: '31', time: '12:05 AM' }],
    ['2027-03-14T03:30:00', { month: 'MAR', day: '14', time: '(TBD)' }],
    ['2027-02-30T19:00:00', { month: 'TBD', day: '', time: '' }],
    [null, { month: 'TBD', day: '', time: '' }],
  ])('%s → %j', (ts, expected) => {
    expect(orderDateEntry(ts)).toEqual({ type: 'date', ...expected });
  });
});

describe('formatIsoDate', () => {
  it.each<[string, string | null]>([
    ['2026-11-21', 'Nov 21, 2026'],
    ['2027-01-02', 'Jan 2, 2027'],
    ['2027-02-30', null],
    ['', null],
  ])('%j → %j', (iso, text) => {
    expect(formatIsoDate(iso)).toBe(text);
  });
});
