import { TICKET_STATES, type DELIVERY_METHODS, type OrderStatus } from '../../../shared/schemas/commerce.js';
import { parseLocalTimestamp } from '../../../shared/rules/local-time.js';

/**
 * When an order's tickets reach the buyer (product decisions; the spec is silent). All dates are venue-local
 * calendar days as ISO dates (`2026-11-23`), which compare as strings.
 *
 * The in-hand rule: tickets are ready by the seller's in-hand date, but never before the day the order is
 * placed and never after the event's day. An eTicket whose in-hand date has passed is ready at once: the seller
 * already has it, so the buyer downloads it as soon as the seller has confirmed the order.
 */
export const IN_HAND_RULE =
  'Tickets are ready on the seller’s in-hand date, never before the day you ' +
  'ordered and never after the event day. eTickets can be downloaded here ' +
  'from that day, once the seller has confirmed your order.';

type DeliveryMethod = (typeof DELIVERY_METHODS)[number];

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const isoDate = (d: { year: number; month: number; day: number }) => `${pad(d.year, 4)}-${pad(d.month)}-${pad(d.day)}`;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The venue-local calendar day of an instant, given the venue's UTC offset in hours. */
export function venueDay(at: Date | string | number, offsetHours: number): string {
  const ms = new Date(at).getTime();
  if (Number.isNaN(ms)) throw new RangeError(`not a time: ${String(at)}`);
  const d = new Date(ms + Math.round(offsetHours * 3_600_000));
  return isoDate({ year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() });
}

/** The instant a venue-local calendar day (`2026-11-23`) begins, given the venue's UTC offset in hours. */
export function venueDayStart(day: string, offsetHours: number): Date {
  if (!ISO_DATE.test(day)) throw new RangeError(`not an ISO date: ${day}`);
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d) - Math.round(offsetHours * 3_600_000));
}

/** The event's venue-local day from its local timestamp, or null while its date is not set. */
export function eventDay(eventLocalTimestamp: string | null | undefined): string | null {
  const local = parseLocalTimestamp(eventLocalTimestamp);
  return local ? isoDate(local) : null;
}

/**
 * The day the tickets are ready: max(in-hand date, order day), never after the event day. Null when there is
 * no in-hand date (the event's date is not set yet). The same rule with today as the order day gives the
 * in-hand date a listing shows, so a listing never says "In hand by" a day already gone.
 */
export function readyByDate(input: { inHandDate: string; orderDay: string; eventDay: string | null }): string | null {
  if (!ISO_DATE.test(input.inHandDate)) return null;
  if (!ISO_DATE.test(input.orderDay)) throw new RangeError(`order day must be an ISO date, got ${input.orderDay}`);
  const ready = input.inHandDate > input.orderDay ? input.inHandDate : input.orderDay;
  return input.eventDay !== null && ready > input.eventDay ? input.eventDay : ready;
}

/** Whether tickets ready by `readyBy` are ready on `today` (both venue-local days). */
export function isReady(readyBy: string | null, today: string): boolean {
  return readyBy !== null && today >= readyBy;
}

/**
 * One ticket's state: `awaiting_seller` until the seller confirms, `scheduled` until its ready-by day, then
 * `ready`; `used` once scanned at the entrance; `void` when its order was rejected, cancelled, expired or refunded.
 */
export type TicketState = (typeof TICKET_STATES)[number];

const VOID_STATUSES: readonly OrderStatus[] = ['rejected', 'expired', 'cancelled', 'refunded'];
const UNCONFIRMED_STATUSES: readonly OrderStatus[] = ['reserved', 'pending_seller_confirmation'];
/** Orders whose tickets a venue admits (confirmed by the seller and still standing). */
export const ADMITTED_STATUSES: readonly OrderStatus[] = ['confirmed', 'delivered', 'completed'];

export function ticketState(input: {
  orderStatus: OrderStatus;
  readyBy: string | null;
  today: string;
  scannedAt: string | null;
}): TicketState {
  if (VOID_STATUSES.includes(input.orderStatus)) return 'void';
  if (UNCONFIRMED_STATUSES.includes(input.orderStatus)) return 'awaiting_seller';
  if (input.scannedAt !== null) return 'used';
  return isReady(input.readyBy, input.today) ? 'ready' : 'scheduled';
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

/** "Nov 23, 2026" for an ISO date. */
export function displayDate(iso: string): string {
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  return `${MONTHS[m - 1] ?? '?'} ${d}, ${y}`;
}

/** "7:30 PM" for a venue-local hour and minute. */
function displayTime(hour: number, minute: number): string {
  const h12 = hour % 12 === 0 ? 12 : hour % 12;
  return `${h12}:${pad(minute)} ${hour < 12 ? 'AM' : 'PM'}`;
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;

/**
 * The event's venue-local start as a ticket prints it: "Mon, Nov 23, 2026 · 7:30 PM" (RULES 4.2: 03:30 is a time to be
 * announced).
 */
export function eventStartText(eventLocalTimestamp: string | null | undefined): string {
  const local = parseLocalTimestamp(eventLocalTimestamp);
  if (!local) return 'Date to be announced';
  const weekday = WEEKDAYS[new Date(Date.UTC(local.year, local.month - 1, local.day)).getUTCDay()]!;
  const time = local.hour === 3 && local.minute === 30 ? 'time to be announced' : displayTime(local.hour, local.minute);
  return `${weekday}, ${displayDate(isoDate(local))} · ${time} (venue time)`;
}

/** Product decision: the will-call window opens this long before the event starts. */
export const WILL_CALL_OPENS_HOURS_BEFORE = 2;

/** When the will-call window opens, as the page says it: "6:00 PM on Nov 23, 2026", or the day alone. */
export function willCallOpens(eventLocalTimestamp: string | null | undefined): string | null {
  const local = parseLocalTimestamp(eventLocalTimestamp);
  if (!local) return null;
  const day = displayDate(isoDate(local));
  // RULES 4.2: 03:30 venue-local is the placeholder of a start time not announced yet.
  if (local.hour === 3 && local.minute === 30) return `on ${day}`;
  // An event starting just after midnight opens its window at midnight, on its own day.
  const minutes = Math.max(0, local.hour * 60 + local.minute - WILL_CALL_OPENS_HOURS_BEFORE * 60);
  return `from ${displayTime(Math.floor(minutes / 60), minutes % 60)} on ${day}`;
}

/** What the order page says of one ticket, by its delivery method and state. */
export function ticketStateText(input: {
  method: DeliveryMethod;
  state: TicketState;
  readyBy: string | null;
  email: string;
  eventLocalTimestamp: string | null;
  orderStatusLabel: string;
}): string {
  const { method, state, readyBy, email } = input;
  const by = readyBy ? displayDate(readyBy) : null;
  switch (state) {
    case 'void':
      return `No longer valid: the order is ${input.orderStatusLabel.toLowerCase()}`;
    case 'used':
      return 'Used: scanned at the entrance';
    case 'awaiting_seller':
      return by ? `Waiting for the seller to confirm; ready by ${by}` : 'Waiting for the seller to confirm';
    default:
      break;
  }
  const ready = state === 'ready';
  switch (method) {
    case 'eticket':
      return ready
        ? 'Ready: download your eTickets below'
        : by
          ? `Ready to download on ${by}`
          : 'Ready to download once the event date is set';
    case 'mobile_transfer':
      return ready
        ? `Transferred to ${email}: accept it in the team or venue app`
        : `Arrives by ${by ?? 'the event date'} as a transfer to ${email}; accept it in the team or venue app`;
    case 'will_call': {
      const opens = willCallOpens(input.eventLocalTimestamp);
      return opens
        ? `At the venue’s will-call window ${opens}; bring a photo ID`
        : 'At the venue’s will-call window on the event day; bring a photo ID';
    }
    case 'physical_mail':
      return ready
        ? 'Shipped by tracked mail to your billing address'
        : `Ships by ${by ?? 'the event date'} by tracked mail to your billing address`;
  }
}
