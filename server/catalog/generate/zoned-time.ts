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

const offsetCache = new Map<string, number>();

/** The UTC instant of a wall-clock time in a zone, with the offset in force then. */
export function zonedToUtc(local: LocalDateTime, timeZone: string): { utcMs: number; offsetMinutes: number } {
  const key = `${timeZone}|${local.year}-${local.month}-${local.day}-${local.hour}`;
  const wall = wallClockMs({ ...local, second: 0 });
  let offset = offsetCache.get(key);
  if (offset === undefined) {
    offset = Math.round((wall - zonedToEpochMs({ ...local, second: 0 }, timeZone)) / 60_000);
    offsetCache.set(key, offset);
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
