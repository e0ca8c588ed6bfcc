import {
  ALL_DATES_YEARS,
  DATE_FILTER_NAMES,
  NEXT_30_DAYS_SPAN,
  NEXT_60_DAYS_SPAN,
  NEXT_7_DAYS_SPAN,
  THIS_QUARTER_DAYS,
} from './constants.js';
import {
  addDays,
  addYears,
  lastDayOfMonth,
  weekday,
  zonedDateTime,
  zonedToEpochMs,
  type LocalDate,
} from './local-time.js';

export type DateFilterName = (typeof DATE_FILTER_NAMES)[number];

/** Unix seconds, both ends inclusive (a `between` filter on event_timestamp). */
export interface DateWindow {
  from: number;
  to: number;
}

export function isDateFilterName(name: unknown): name is DateFilterName {
  return typeof name === 'string' && (DATE_FILTER_NAMES as readonly string[]).includes(name);
}

/**
 * The windows of one local day in one zone, and the instants that day spans: every window stays the same from
 * its first to its last instant, so a day's answer is worked out once (the Intl calls cost more than a row query).
 */
interface ZoneDay {
  starts: number;
  ends: number;
  windows: Map<DateFilterName, DateWindow>;
}
const days = new Map<string, ZoneDay>();
/** Zones remembered at once; a shopper's zone is checked with `isTimeZone` first, so this bounds memory only. */
const ZONES_KEPT = 512;

/**
 * RULES 4.4 date filters as windows of whole local days in the shopper's IANA zone (`computeDateWindow`),
 * remembered for the rest of the local day. RULES 4.5: an unknown name is ignored, so it gives null rather than an
 * error. An unknown zone throws a RangeError; check it first with `isTimeZone` (local-time.ts).
 */
export function dateWindow(name: string, now: Date, zone: string): DateWindow | null {
  if (!isDateFilterName(name)) return null;
  const ms = now.getTime();
  let day = days.get(zone);
  if (!day || ms < day.starts || ms >= day.ends) {
    const today = zonedDateTime(ms, zone);
    day = {
      starts: zonedToEpochMs({ ...today, hour: 0, minute: 0, second: 0 }, zone),
      ends: zonedToEpochMs({ ...addDays(today, 1), hour: 0, minute: 0, second: 0 }, zone),
      windows: new Map(),
    };
    if (days.size >= ZONES_KEPT) days.clear();
    days.set(zone, day);
  }
  let window = day.windows.get(name);
  if (!window) day.windows.set(name, (window = computeDateWindow(name, now, zone)!));
  return window;
}

/**
 * RULES 4.4 date filters as windows of whole local days in the shopper's IANA zone. `from` is the first
 * second of its day; `to` is the last second (23:59:59) of its day, so that day counts in full.
 *
 * - all: today to the end of the same date 100 years on.
 * - this_week: tomorrow to the end of Sunday of the ISO (Monday–Sunday) week that contains tomorrow.
 * - this_month: tomorrow to the end of the last day of the month that contains tomorrow.
 *   Taking the week or month of tomorrow means that on a Sunday, or on a month's last day, the window is the
 *   next week or month rather than empty.
 * - this_quarter: tomorrow to the end of today + 120 days.
 * - next_7_days: tomorrow to the end of today + 8 days (the spec's figure, kept as written).
 * - next_30_days, next_60_days: tomorrow to the end of today + 30 or + 60 days.
 *
 * Unknown names give null; an unknown zone throws a RangeError.
 */
export function computeDateWindow(name: string, now: Date, zone: string): DateWindow | null {
  if (!isDateFilterName(name)) return null;
  const today = zonedDateTime(now.getTime(), zone);
  const tomorrow = addDays(today, 1);
  const startOf = (d: LocalDate) => Math.floor(zonedToEpochMs({ ...d, hour: 0, minute: 0, second: 0 }, zone) / 1000);
  const endOf = (d: LocalDate) => startOf(addDays(d, 1)) - 1;
  const fromTomorrow = (last: LocalDate): DateWindow => ({ from: startOf(tomorrow), to: endOf(last) });
  switch (name) {
    case 'all':
      return { from: startOf(today), to: endOf(addYears(today, ALL_DATES_YEARS)) };
    case 'this_week':
      return fromTomorrow(addDays(tomorrow, (7 - weekday(tomorrow)) % 7));
    case 'this_month':
      return fromTomorrow(lastDayOfMonth(tomorrow));
    case 'this_quarter':
      return fromTomorrow(addDays(today, THIS_QUARTER_DAYS));
    case 'next_7_days':
      return fromTomorrow(addDays(today, NEXT_7_DAYS_SPAN));
    case 'next_30_days':
      return fromTomorrow(addDays(today, NEXT_30_DAYS_SPAN));
    case 'next_60_days':
      return fromTomorrow(addDays(today, NEXT_60_DAYS_SPAN));
  }
}
