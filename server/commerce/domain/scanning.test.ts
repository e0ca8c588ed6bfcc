import { describe, expect, it } from 'vitest';
import { SCAN_LATE_UNTIL_HOUR, eventWhenText, isScanDay, scannedAtText } from './scanning.js';

/** The instant a venue at `offset` hours from UTC reads `local` on its clock. */
const atVenue = (local: string, offset: number) => new Date(Date.parse(`${local}Z`) - offset * 3_600_000);

describe('the day rule (RULES 19.6): an event’s tickets scan on its venue-local day and the early hours after', () => {
  const show = '2026-12-05T19:30:00';

  it('admits from midnight of the event’s day, at the venue’s clock', () => {
    for (const offset of [-10, -5, 0, 5.5, 13]) {
      expect(isScanDay(atVenue('2026-12-05T00:00:00', offset), offset, show)).toBe(true);
      expect(isScanDay(atVenue('2026-12-05T19:29:00', offset), offset, show)).toBe(true);
      expect(isScanDay(atVenue('2026-12-05T23:59:59', offset), offset, show)).toBe(true);
    }
  });

  it('refuses the day before, however late, and a week ahead', () => {
    expect(isScanDay(atVenue('2026-12-04T23:59:59', -5), -5, show)).toBe(false);
    expect(isScanDay(atVenue('2026-12-04T12:00:00', -5), -5, show)).toBe(false);
    expect(isScanDay(atVenue('2026-11-28T19:30:00', -5), -5, show)).toBe(false);
  });

  it(`still admits past midnight until ${SCAN_LATE_UNTIL_HOUR}:00 the next morning, and not after`, () => {
    expect(isScanDay(atVenue('2026-12-06T01:30:00', -5), -5, show)).toBe(true);
    expect(isScanDay(atVenue('2026-12-06T05:59:59', -5), -5, show)).toBe(true);
    expect(isScanDay(atVenue('2026-12-06T06:00:00', -5), -5, show)).toBe(false);
    expect(isScanDay(atVenue('2026-12-06T19:30:00', -5), -5, show)).toBe(false);
  });

  it('reads the venue’s clock, not UTC: 01:00 UTC is still the evening before in New York', () => {
    const utc = new Date('2026-12-06T01:00:00Z');
    // 20:00 on Dec 5 in New York (UTC-5): the show's day.
    expect(isScanDay(utc, -5, show)).toBe(true);
    // 14:00 on Dec 6 in Auckland (UTC+13): the day after, past the late hours.
    expect(isScanDay(utc, 13, show)).toBe(false);
  });

  it('never admits an event with no date yet', () => {
    expect(isScanDay(new Date('2026-12-05T12:00:00Z'), 0, null)).toBe(false);
    expect(isScanDay(new Date('2026-12-05T12:00:00Z'), 0, undefined)).toBe(false);
    expect(isScanDay(new Date('2026-12-05T12:00:00Z'), 0, 'not a time')).toBe(false);
  });
});

describe('the texts gate staff read', () => {
  it('say when an event is, or that it has no date', () => {
    expect(eventWhenText('2026-12-05T19:30:00')).toBe('Sat, Dec 5, 2026 · 7:30 PM (venue time)');
    expect(eventWhenText(null)).toBe('a date to be announced');
  });

  it('say when a ticket was first scanned, at the venue’s clock', () => {
    expect(scannedAtText('2026-12-06T00:42:00.000Z', -5)).toBe('7:42 PM on Dec 5, 2026 (venue time)');
    expect(scannedAtText('2026-12-05T12:05:00.000Z', 0)).toBe('12:05 PM on Dec 5, 2026 (venue time)');
  });
});
