import { EVENT_DETAIL_FIELDS, type EventCard, type EventDetail } from '../schemas/cards.js';
import type { EventDocument } from '../schemas/documents.js';
import { venueAddress } from './address.js';
import { lowestAllInPrice } from './pricing.js';
import { eventBadges } from './badges.js';
import { TBD_LOCAL_TIME } from './constants.js';
import { parseLocalTimestamp, weekday, type LocalDateTime } from './local-time.js';
import { eventPath } from './site-paths.js';

const WEEKDAYS = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'] as const;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;
export const TBD_DATE = 'TBD';
export const TBD_TIME = '(TBD)';

const pad2 = (n: number) => String(n).padStart(2, '0');

/** `hh:mm AM/PM` of a venue-local time; RULES 4.2: 03:30 AM is the placeholder for "time not set". */
export function eventTime(local: Pick<LocalDateTime, 'hour' | 'minute'>): string {
  if (`${pad2(local.hour)}:${pad2(local.minute)}` === TBD_LOCAL_TIME) return TBD_TIME;
  return `${pad2(local.hour % 12 || 12)}:${pad2(local.minute)} ${local.hour < 12 ? 'AM' : 'PM'}`;
}

/** Day, date, time and year of the card, all read from the venue-local wall clock (RULES 4.1). */
export function eventWhen(localTimestamp: string | null): Pick<EventCard, 'day' | 'date' | 'time' | 'year'> {
  const local = parseLocalTimestamp(localTimestamp);
  if (!local) return { day: '', date: TBD_DATE, time: '', year: '' };
  return {
    day: WEEKDAYS[weekday(local)]!,
    date: `${MONTHS[local.month - 1]!} ${local.day}`,
    time: eventTime(local),
    year: String(local.year),
  };
}

/**
 * Why an event has nothing a shopper can buy, or undefined when it has: cancelled, or sold out (no ticket group
 * left, no ticket left, or no price). The demand signals keep these fields as they stand: with nothing on sale,
 * `min_ticket_price` is 0 and `ticket_groups_available` counts no group (`server/live-catalog/demand.ts`).
 */
export function eventUnavailable(
  doc: Pick<EventDocument, 'event_status' | 'tickets_available' | 'ticket_groups_available' | 'min_ticket_price'>,
): EventCard['unavailable'] {
  if (doc.event_status === 'cancelled') return 'Cancelled';
  if (
    doc.ticket_groups_available <= 0 ||
    doc.tickets_available <= 0 ||
    lowestAllInPrice(doc.min_ticket_price) === undefined
  )
    return 'Sold out';
  return undefined;
}

/** The shopper's view of an event's document: the fields `EventDetailSchema` lists, and no other. */
export function eventDetail(doc: EventDocument): EventDetail {
  const detail: Partial<Record<keyof EventDetail, unknown>> = {};
  for (const field of EVENT_DETAIL_FIELDS) detail[field] = doc[field];
  return detail as EventDetail;
}

/**
 * RULES 5.5: the event card. Its "From" price is the lowest all-in price per ticket (`pricing.ts`), and only of
 * an event that has tickets to sell: a sold-out or cancelled event says so instead (`eventUnavailable`). The
 * shopper's view of the document (`eventDetail`) rides along as `detail` only when asked for.
 */
export function eventCard(doc: EventDocument, { includeDetail = false }: { includeDetail?: boolean } = {}): EventCard {
  const unavailable = eventUnavailable(doc);
  const minPrice = unavailable ? undefined : lowestAllInPrice(doc.min_ticket_price);
  return {
    id: doc.event_id,
    name: doc.event_name,
    badges: eventBadges(doc),
    address: venueAddress(doc),
    ...eventWhen(doc.event_local_timestamp),
    url: eventPath(doc.event_name, doc.event_id),
    ...(minPrice !== undefined ? { minPrice } : {}),
    ...(unavailable ? { unavailable } : {}),
    ...(includeDetail ? { detail: eventDetail(doc) } : {}),
  };
}
