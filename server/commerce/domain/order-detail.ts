import type { z } from 'zod';
import {
  DELIVERY_LABELS,
  DELIVERY_METHODS,
  type ListingTerms,
  type OrderDetailEntrySchema,
  type OrderStatus,
} from '../../../shared/schemas/commerce.js';
import { NOT_HELD_ORDER_NOTE, listingNotes } from '../../../shared/rules/disclosures.js';
import { formatMoney } from '../../../shared/rules/pricing.js';
import type { EventDocument } from '../../../shared/schemas/documents.js';
import { venueAddress } from '../../../shared/rules/address.js';
import { TBD_DATE, eventTime } from '../../../shared/rules/event-card.js';
import { parseLocalTimestamp, zonedDateTime } from '../../../shared/rules/local-time.js';
import { ORDER_STATUS_LABELS } from './order-lifecycle.js';

export type OrderDetailEntry = z.infer<typeof OrderDetailEntrySchema>;
type DeliveryMethod = (typeof DELIVERY_METHODS)[number];

/** RULES 10.8: order detail titles, exactly as the app reads them. */
export const ORDER_DETAIL_TITLES = {
  eventLocation: 'Event Location',
  section: 'Section',
  row: 'Row',
  orderStatus: 'Order Status',
  orderDate: 'Order Date',
  orderId: 'Order Id',
  importantNotes: 'Important Notes',
  method: 'Method',
} as const;

export const DEFAULT_IMPORTANT_NOTES = 'No notes from the seller. Bring a photo ID matching the name on your order.';

/** How each delivery method reaches the buyer (the "Method" entry). */
export const DELIVERY_INSTRUCTIONS: Readonly<Record<DeliveryMethod, string>> = {
  eticket:
    'Download your tickets from this page once they are ready, then print ' +
    'them or show them on your phone at the entrance.',
  mobile_transfer:
    'The seller transfers the tickets to the email on your order. Accept the ' +
    'transfer in the team or venue app and show the tickets on your phone.',
  will_call:
    'Collect your tickets at the venue box office on the day of the event. Bring a photo ID and your order id.',
  physical_mail: 'Your tickets are shipped by tracked mail to your billing address. A signature may be required.',
};

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

const longDate = (year: number, month: number, day: number) => `${MONTHS[month - 1]!} ${day}, ${year}`;

/** "Nov 21, 2026" for an ISO date (`2026-11-21`), or null for anything else. */
export function formatIsoDate(date: string): string | null {
  const m = ISO_DATE.exec(date);
  const local = m ? parseLocalTimestamp(`${date}T00:00:00`) : null;
  return local ? longDate(local.year, local.month, local.day) : null;
}

/** RULES 10.8, date entry: "JAN", "5", "07:30 PM" read from the venue-local start; 03:30 is "(TBD)". */
export function orderDateEntry(localTimestamp: string | null): Extract<OrderDetailEntry, { type: 'date' }> {
  const local = parseLocalTimestamp(localTimestamp);
  if (!local) return { type: 'date', month: TBD_DATE, day: '', time: '' };
  return {
    type: 'date',
    month: MONTHS[local.month - 1]!.toUpperCase(),
    day: String(local.day),
    time: eventTime(local),
  };
}

/** The calendar day of an instant at the venue (its UTC offset), or in `timeZone` when given. */
function orderDay(createdAt: Date | string, offsetHours: number, timeZone?: string): string {
  const ms = new Date(createdAt).getTime();
  if (Number.isNaN(ms)) throw new RangeError(`order date is not a time: ${String(createdAt)}`);
  if (timeZone) {
    const t = zonedDateTime(ms, timeZone);
    return longDate(t.year, t.month, t.day);
  }
  const d = new Date(ms + Math.round(offsetHours * 3_600_000));
  return longDate(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate());
}

export interface OrderDetailInput {
  event: EventDocument;
  /** The listing's terms (RULES 20.1); those left out are taken as not said. */
  listing: {
    section: string;
    row: string;
    deliveryMethod: DeliveryMethod;
    sellerNotes: string;
    inHandDate: string;
  } & Partial<ListingTerms>;
  order: { id: string; status: OrderStatus; createdAt: Date | string };
  /** The shopper's IANA zone for the order date; the venue's offset when absent. */
  timeZone?: string;
}

/** RULES 10.8: order detail, in display order. */
export function orderDetailEntries({ event, listing, order, timeZone }: OrderDetailInput): OrderDetailEntry[] {
  const ready = formatIsoDate(listing.inHandDate);
  // RULES 20.1: the listing's notes as every page shows them, each once (where the seats are and how they come have
  // entries of their own).
  const notes = listingNotes(
    {
      accessible: false,
      obstructedView: false,
      ageRestriction: null,
      faceValue: null,
      ticketsHeld: true,
      ...listing,
    },
    (dollars) => formatMoney(dollars),
  )
    .map((l) => (l.kind === 'not_held' ? NOT_HELD_ORDER_NOTE : l.text).replace(/\.$/, ''))
    .join('. ');
  return [
    orderDateEntry(event.event_local_timestamp),
    { type: 'header', title: ORDER_DETAIL_TITLES.eventLocation },
    // RULES 10.8: the entry after the "Event Location" header holds the location title.
    { type: 'header', title: venueAddress(event) },
    { type: 'row', title: ORDER_DETAIL_TITLES.section, value: listing.section },
    { type: 'row', title: ORDER_DETAIL_TITLES.row, value: listing.row },
    { type: 'row', title: ORDER_DETAIL_TITLES.orderStatus, value: ORDER_STATUS_LABELS[order.status] },
    {
      type: 'row',
      title: ORDER_DETAIL_TITLES.orderDate,
      value: orderDay(order.createdAt, event.venue_time_zone_offset, timeZone),
    },
    { type: 'row', title: ORDER_DETAIL_TITLES.orderId, value: order.id },
    {
      type: 'rowSubtitle',
      title: ORDER_DETAIL_TITLES.importantNotes,
      subtitle: notes === '' ? DEFAULT_IMPORTANT_NOTES : notes,
    },
    {
      type: 'rowSubtitle',
      title: DELIVERY_LABELS[listing.deliveryMethod],
      subtitle: ready ? `Tickets ready by ${ready}` : 'Tickets ready once the event date is set',
    },
    { type: 'rowSubtitle', title: ORDER_DETAIL_TITLES.method, subtitle: DELIVERY_INSTRUCTIONS[listing.deliveryMethod] },
  ];
}
