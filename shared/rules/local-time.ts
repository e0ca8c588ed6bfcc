/**
 * Calendar and wall-clock arithmetic that never consults the server's own time zone: venue-local
 * timestamps are read as plain calendar values, and a shopper's zone is resolved through Intl.
 */

export interface LocalDate {
  year: number;
  /** 1–12. */
  month: number;
  day: number;
}

export interface LocalDateTime extends LocalDate {
  hour: number;
  minute: number;
  second: number;
}

const DAY_MS = 86_400_000;
const LOCAL_TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})$/;

/** UTC milliseconds of the wall-clock value read as if it were UTC (years 0–99 are not shifted to 19xx). */
export function wallClockMs(t: LocalDate & Partial<LocalDateTime>): number {
  const d = new Date(0);
  d.setUTCFullYear(t.year, t.month - 1, t.day);
  d.setUTCHours(t.hour ?? 0, t.minute ?? 0, t.second ?? 0, 0);
  return d.getTime();
}

function fromWallClockMs(ms: number): LocalDateTime {
  const d = new Date(ms);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
  };
}

/** A venue-local `YYYY-MM-DDTHH:mm:ss`, or null when absent or not a real calendar time (`2027-02-30…`). */
export function parseLocalTimestamp(text: string | null | undefined): LocalDateTime | null {
  const m = text ? LOCAL_TIMESTAMP.exec(text) : null;
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const t = { year, month, day, hour, minute, second };
  if (hour > 23 || minute > 59 || second > 59) return null;
  const back = fromWallClockMs(wallClockMs(t));
  return back.year === year && back.month === month && back.day === day ? t : null;
}

/** 0 = Sunday … 6 = Saturday. */
export function weekday(date: LocalDate): number {
  return new Date(wallClockMs(date)).getUTCDay();
}

export function addDays(date: LocalDate, days: number): LocalDate {
  const { year, month, day } = fromWallClockMs(wallClockMs(date) + days * DAY_MS);
  return { year, month, day };
}

export function lastDayOfMonth(date: LocalDate): LocalDate {
  const { year, month, day } = fromWallClockMs(
    wallClockMs({ year: date.year, month: date.month + 1, day: 1 }) - DAY_MS,
  );
  return { year, month, day };
}

/** Same month and day `years` later; 29 February becomes 28 February in a common year. */
export function addYears(date: LocalDate, years: number): LocalDate {
  const target = { year: date.year + years, month: date.month, day: 1 };
  return { ...target, day: Math.min(date.day, lastDayOfMonth(target).day) };
}

/**
 * The instant of a venue-local start, given the venue's UTC offset in hours at that time (fractional
 * offsets such as +5.5 or +5.75 included): local minus offset.
 */
export function venueLocalToEpochMs(local: LocalDateTime, offsetHours: number): number {
  return wallClockMs(local) - Math.round(offsetHours * 3_600_000);
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, f);
  }
  return f;
}

/** Whether `zone` is an IANA time zone this runtime knows. */
export function isTimeZone(zone: string): boolean {
  try {
    formatterFor(zone);
    return true;
  } catch {
    return false;
  }
}

/** The wall clock in `zone` at instant `ms`. Throws a RangeError for an unknown zone. */
export function zonedDateTime(ms: number, zone: string): LocalDateTime {
  const parts: Record<string, number> = {};
  for (const p of formatterFor(zone).formatToParts(ms)) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  return {
    year: parts.year ?? NaN,
    month: parts.month ?? NaN,
    day: parts.day ?? NaN,
    hour: (parts.hour ?? NaN) % 24,
    minute: parts.minute ?? NaN,
    second: parts.second ?? NaN,
  };
}

function offsetMs(ms: number, zone: string): number {
  const whole = Math.floor(ms / 1000) * 1000;
  return wallClockMs(zonedDateTime(whole, zone)) - whole;
}

/**
 * The instant a wall-clock time occurs in `zone`. Of a time that occurs twice (clocks turned back) the
 * earlier is taken; a time skipped by clocks turned forward moves forward by the gap (02:30 on a US
 * spring-forward night is 03:30), so the start of a day whose midnight is skipped is its first real instant.
 */
export function zonedToEpochMs(local: LocalDateTime, zone: string): number {
  const asUtc = wallClockMs(local);
  const before = asUtc - offsetMs(asUtc - DAY_MS, zone);
  const after = asUtc - offsetMs(asUtc + DAY_MS, zone);
  // One offset on both sides: the answer is that instant, whether or not the time occurs.
  if (before === after) return before;
  const valid = [before, after].filter((t) => wallClockMs(zonedDateTime(t, zone)) === asUtc);
  return valid.length > 0 ? Math.min(...valid) : before;
}
