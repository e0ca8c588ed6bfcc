/**
 * Venue-local wall-clock times and their UTC instants. Offsets come from the IANA zone through Intl, so
 * daylight-saving changes land on the right day for every venue; results are cached per zone and hour
 * because a catalog asks the same few thousand questions a million times.
 */
export interface LocalDateTime {
  year: number;
  month: number; // 1–12
  day: number;
  hour: number;
  minute: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
const offsetCache = new Map<string, number>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The zone's offset from UTC in minutes at the instant `utcMs`. */
export function zoneOffsetMinutes(timeZone: string, utcMs: number): number {
  const parts: Record<string, number> = {};
  for (const p of formatter(timeZone).formatToParts(new Date(utcMs))) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  const asUtc = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  return Math.round((asUtc - Math.floor(utcMs / 1000) * 1000) / 60_000);
}

/** The UTC instant of a wall-clock time in a zone, with the offset in force then. */
export function zonedToUtc(local: LocalDateTime, timeZone: string): { utcMs: number; offsetMinutes: number } {
  const key = `${timeZone}|${local.year}-${local.month}-${local.day}-${local.hour}`;
  const naive = Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute);
  let offset = offsetCache.get(key);
  if (offset === undefined) {
    const first = zoneOffsetMinutes(timeZone, naive);
    const second = zoneOffsetMinutes(timeZone, naive - first * 60_000);
    offset = second;
    offsetCache.set(key, offset);
  }
  return { utcMs: naive - offset * 60_000, offsetMinutes: offset };
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** `YYYY-MM-DDTHH:mm:ss`, the catalog's local timestamp format. */
export function formatLocal(local: LocalDateTime): string {
  return `${pad(local.year, 4)}-${pad(local.month)}-${pad(local.day)}T${pad(local.hour)}:${pad(local.minute)}:00`;
}

/** Calendar arithmetic on plain dates, independent of any zone. */
export function addDays(date: { year: number; month: number; day: number }, days: number) {
  const d = new Date(Date.UTC(date.year, date.month - 1, date.day + days));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), weekday: d.getUTCDay() };
}
