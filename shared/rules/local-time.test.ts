import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addDays,
  addYears,
  isTimeZone,
  lastDayOfMonth,
  parseLocalTimestamp,
  venueLocalToEpochMs,
  weekday,
  zonedDateTime,
  zonedToEpochMs,
} from './local-time.js';

const at = (iso: string) => Date.parse(iso);

describe('parseLocalTimestamp (shared/schemas/documents.ts: venue-local YYYY-MM-DDTHH:mm:ss)', () => {
  it.each([
    ['2027-01-05T19:30:00', { year: 2027, month: 1, day: 5, hour: 19, minute: 30, second: 0 }],
    ['2028-02-29T00:00:00', { year: 2028, month: 2, day: 29, hour: 0, minute: 0, second: 0 }],
  ])('%s is read as written, without any zone', (text, parts) => {
    expect(parseLocalTimestamp(text)).toEqual(parts);
  });

  it.each([
    null,
    undefined,
    '',
    '2027-02-30T10:00:00',
    '2027-02-29T10:00:00',
    '2027-13-01T10:00:00',
    '2027-01-05T24:00:00',
    '2027-01-05 19:30:00',
    '2027-01-05T19:30:00Z',
  ])('%s is not a local start', (text) => {
    expect(parseLocalTimestamp(text)).toBeNull();
  });
});

describe('calendar arithmetic', () => {
  it('knows weekdays (0 = Sunday)', () => {
    expect(weekday({ year: 2027, month: 1, day: 2 })).toBe(6);
    expect(weekday({ year: 2024, month: 2, day: 29 })).toBe(4);
  });

  it('adds days across month and year ends', () => {
    expect(addDays({ year: 2026, month: 12, day: 31 }, 1)).toEqual({ year: 2027, month: 1, day: 1 });
    expect(addDays({ year: 2028, month: 2, day: 28 }, 1)).toEqual({ year: 2028, month: 2, day: 29 });
    expect(addDays({ year: 2027, month: 3, day: 1 }, -1)).toEqual({ year: 2027, month: 2, day: 28 });
  });

  it('finds the last day of a month, leap years included', () => {
    expect(lastDayOfMonth({ year: 2028, month: 2, day: 3 })).toEqual({ year: 2028, month: 2, day: 29 });
    expect(lastDayOfMonth({ year: 2100, month: 2, day: 3 })).toEqual({ year: 2100, month: 2, day: 28 });
    expect(lastDayOfMonth({ year: 2026, month: 12, day: 31 })).toEqual({ year: 2026, month: 12, day: 31 });
  });

  it('adds years, turning 29 February into 28 February in a common year', () => {
    expect(addYears({ year: 2028, month: 2, day: 29 }, 100)).toEqual({ year: 2128, month: 2, day: 29 });
    expect(addYears({ year: 2024, month: 2, day: 29 }, 1)).toEqual({ year: 2025, month: 2, day: 28 });
  });
});

describe('venueLocalToEpochMs (shared/schemas/documents.ts: venue_time_zone_offset in hours, DST included)', () => {
  it.each([
    ['2027-01-05T19:30:00', -5, '2027-01-06T00:30:00Z'],
    ['2027-07-05T19:30:00', -4, '2027-07-05T23:30:00Z'],
    ['2027-07-05T19:30:00', 1, '2027-07-05T18:30:00Z'],
    ['2027-07-05T19:30:00', 5.5, '2027-07-05T14:00:00Z'],
    ['2027-07-05T19:30:00', 5.75, '2027-07-05T13:45:00Z'],
  ])('%s at UTC%+d is %s', (local, offset, utc) => {
    expect(venueLocalToEpochMs(parseLocalTimestamp(local)!, offset)).toBe(at(utc));
  });
});

describe('zoned time through Intl', () => {
  it('reads the wall clock of a zone', () => {
    expect(zonedDateTime(at('2027-01-01T04:59:59Z'), 'America/New_York')).toEqual({
      year: 2026,
      month: 12,
      day: 31,
      hour: 23,
      minute: 59,
      second: 59,
    });
    expect(zonedDateTime(at('2027-01-01T00:00:00Z'), 'Asia/Tokyo')).toEqual({
      year: 2027,
      month: 1,
      day: 1,
      hour: 9,
      minute: 0,
      second: 0,
    });
  });

  it('takes the earlier of a repeated time and moves a skipped time forward by the gap', () => {
    // New York, 7 Nov 2027: 01:30 happens at -4 and again at -5
    expect(zonedToEpochMs({ year: 2027, month: 11, day: 7, hour: 1, minute: 30, second: 0 }, 'America/New_York')).toBe(
      at('2027-11-07T05:30:00Z'),
    );
    // New York, 14 Mar 2027: 02:30 does not exist; it reads as 03:30 EDT
    expect(zonedToEpochMs({ year: 2027, month: 3, day: 14, hour: 2, minute: 30, second: 0 }, 'America/New_York')).toBe(
      at('2027-03-14T07:30:00Z'),
    );
    // Santiago skips midnight on 8 Sep 2024: the day starts at 01:00 -03
    expect(zonedToEpochMs({ year: 2024, month: 9, day: 8, hour: 0, minute: 0, second: 0 }, 'America/Santiago')).toBe(
      at('2024-09-08T04:00:00Z'),
    );
  });

  it('round-trips every instant that is not in a repeated hour', () => {
    const zones = [
      'UTC',
      'America/New_York',
      'Europe/London',
      'Asia/Tokyo',
      'Pacific/Honolulu',
      'Australia/Lord_Howe',
      'Asia/Kathmandu',
    ];
    fc.assert(
      fc.property(
        fc.integer({ min: at('1990-01-01T00:00:00Z') / 1000, max: at('2090-01-01T00:00:00Z') / 1000 }),
        fc.constantFrom(...zones),
        (s, zone) => {
          const ms = s * 1000;
          const back = zonedToEpochMs(zonedDateTime(ms, zone), zone);
          // in a repeated hour the earlier instant comes back, which is at most an hour before
          expect(back === ms || (back < ms && ms - back <= 3_600_000)).toBe(true);
        },
      ),
    );
  });

  it('tells known zones from unknown ones', () => {
    expect(isTimeZone('Pacific/Honolulu')).toBe(true);
    expect(isTimeZone('Mars/Olympus_Mons')).toBe(false);
  });
});
