import { parseLocalTimestamp } from '../../../shared/rules/local-time.js';
import { displayDate, eventDay, eventStartText, venueDay } from './delivery.js';

/**
 * RULES 19.6: a show that runs past midnight still admits late arrivals until this hour of the next morning,
 * venue time (a doors-at-23:00 club night is still "today" at 01:30).
 */
export const SCAN_LATE_UNTIL_HOUR = 6;

const HOUR_MS = 3_600_000;

/**
 * RULES 19.6, the day rule: an event's tickets are scanned on the event's venue-local day, from midnight, and until
 * `SCAN_LATE_UNTIL_HOUR` the morning after. An event with no date yet is never on the day.
 */
export function isScanDay(
  now: Date,
  venueOffsetHours: number,
  eventLocalTimestamp: string | null | undefined,
): boolean {
  const day = eventDay(eventLocalTimestamp);
  if (day === null) return false;
  return (
    venueDay(now, venueOffsetHours) === day ||
    venueDay(now.getTime() - SCAN_LATE_UNTIL_HOUR * HOUR_MS, venueOffsetHours) === day
  );
}

/** "Sat, Nov 28, 2026 · 7:30 PM (venue time)", or that the date is not set. */
export function eventWhenText(eventLocalTimestamp: string | null | undefined): string {
  return parseLocalTimestamp(eventLocalTimestamp) ? eventStartText(eventLocalTimestamp) : 'a date to be announced';
}

/** "7:42 PM on Nov 23, 2026 (venue time)": when a ticket was first scanned, at the venue's clock. */
export function scannedAtText(at: string, venueOffsetHours: number): string {
  const local = new Date(new Date(at).getTime() + Math.round(venueOffsetHours * HOUR_MS));
  const hour = local.getUTCHours();
  const h12 = hour % 12 === 0 ? 12 : hour % 12;
  const time = `${h12}:${String(local.getUTCMinutes()).padStart(2, '0')} ${hour < 12 ? 'AM' : 'PM'}`;
  return `${time} on ${displayDate(venueDay(at, venueOffsetHours))} (venue time)`;
}
