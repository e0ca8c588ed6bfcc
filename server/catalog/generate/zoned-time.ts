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

/** Per zone, the offset (in minutes) at each wall-clock hour asked about, by `hourKey`. */
const offsetCache = new Map<string, Map<number, number>>();

/**
 * One number per wall-clock hour: year, month, day and hour side by side in decimal, the year counted from 2000
 * so that the keys of this century are small integers, which a Map looks up fastest.
 */
const hourKey = (local: LocalDateTime) =>
  (((local.year - 2000) * 100 + local.month) * 100 + local.day) * 100 + local.hour;

/** The UTC instant of a wall-clock time in a zone, with the offset in force then. */
export function zonedToUtc(local: LocalDateTime, timeZone: string): { utcMs: number; offsetMinutes: number } {
  let offsets = offsetCache.get(timeZone);
  if (!offsets) offsetCache.set(timeZone, (offsets = new Map()));
  const key = hourKey(local);
  const wall = wallClockMs(local);
  let offset = offsets.get(key);
  if (offset === undefined) {
    offset = Math.round((wall - zonedToEpochMs({ ...local, second: 0 }, timeZone)) / 60_000);
    offsets.set(key, offset);
  }
  return { utcMs: wall - offset * 60_000, offsetMinutes: offset };
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
