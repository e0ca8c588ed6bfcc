import { addDays as addLocalDays, wallClockMs, weekday, zonedToEpochMs } from '../../../shared/rules/local-time.js';

/**
 * Venue-local wall-clock times and their UTC instants for the generator. The zone maths is the rules'
 * (`rules/local-time.ts`); this adds a cache per zone and hour, because a catalog asks the same few thousand
 * questions a million times.
 */
export interface LocalDateTime {
  year: number;
  month: number; // 1–12
  day: number;
  hour: number;
  minute: number;
}

/** A wall-clock hour in a zone: the UTC instant its minute 0 falls on, and the offset in force. */
interface ZonedHour {
  utcMs: number;
  offsetMinutes: number;
}

/** Per zone, each wall-clock hour asked about, by `hourKey`. */
const hourCache = new Map<string, Map<number, ZonedHour>>();

/**
 * One number per wall-clock hour: year, month, day and hour side by side in decimal, the year counted from 2000
 * so that the keys of this century are small integers, which a Map looks up fastest.
 */
const hourKey = (local: LocalDateTime) =>
  (((local.year - 2000) * 100 + local.month) * 100 + local.day) * 100 + local.hour;

const MINUTE_MS = 60_000;

/** The UTC instant of a wall-clock time in a zone, with the offset in force then. */
export function zonedToUtc(local: LocalDateTime, timeZone: string): { utcMs: number; offsetMinutes: number } {
  let hours = hourCache.get(timeZone);
  if (!hours) hourCache.set(timeZone, (hours = new Map()));
  const key = hourKey(local);
  let hour = hours.get(key);
  if (!hour) {
    // The offset is the one at the first time asked about in this hour; the instant is kept for its minute 0.
    const wall = wallClockMs(local);
    const offset = Math.round((wall - zonedToEpochMs({ ...local, second: 0 }, timeZone)) / MINUTE_MS);
    hour = { utcMs: wall - local.minute * MINUTE_MS - offset * MINUTE_MS, offsetMinutes: offset };
    hours.set(key, hour);
  }
  return { utcMs: hour.utcMs + local.minute * MINUTE_MS, offsetMinutes: hour.offsetMinutes };
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** `YYYY-MM-DDTHH:mm:ss`, the catalog's local timestamp format. */
export function formatLocal(local: LocalDateTime): string {
  return `${pad(local.year, 4)}-${pad(local.month)}-${pad(local.day)}T${pad(local.hour)}:${pad(local.minute)}:00`;
}

/** Calendar arithmetic on plain dates, with the weekday (0 = Sunday) of the result. */
export function addDays(date: { year: number; month: number; day: number }, days: number) {
  const d = addLocalDays(date, days);
  return { ...d, weekday: weekday(d) };
}
