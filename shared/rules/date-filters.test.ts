import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DATE_FILTER_NAMES } from './constants.js';
import { computeDateWindow, dateWindow, isDateFilterName, type DateFilterName } from './date-filters.js';
import { zonedDateTime } from './local-time.js';

const s = (iso: string) => Date.parse(iso) / 1000;
const window = (name: DateFilterName, nowIso: string, zone: string) => dateWindow(name, new Date(nowIso), zone)!;

describe('dateWindow (RULES 4.4 date filter names and windows)', () => {
  // Wednesday 14 Apr 2027, 10:00 in New York (EDT, UTC-4)
  const now = '2027-04-14T14:00:00Z';
  const ny = 'America/New_York';

  it.each<[DateFilterName, string, string, string]>([
    ['all', 'today to +100 years', '2027-04-14T04:00:00Z', '2127-04-15T03:59:59Z'],
    ['this_week', 'tomorrow to end of week (ISO: Sunday)', '2027-04-15T04:00:00Z', '2027-04-19T03:59:59Z'],
    ['this_month', 'tomorrow to end of month', '2027-04-15T04:00:00Z', '2027-05-01T03:59:59Z'],
    ['this_quarter', '120 days', '2027-04-15T04:00:00Z', '2027-08-13T03:59:59Z'],
    ['next_7_days', 'tomorrow to 8 days', '2027-04-15T04:00:00Z', '2027-04-23T03:59:59Z'],
    ['next_30_days', 'tomorrow to +30 days', '2027-04-15T04:00:00Z', '2027-05-15T03:59:59Z'],
    ['next_60_days', 'tomorrow to +60 days', '2027-04-15T04:00:00Z', '2027-06-14T03:59:59Z'],
  ])('%s (spec: %s)', (name, _spec, from, to) => {
    expect(window(name, now, ny)).toEqual({ from: s(from), to: s(to) });
  });

  it('RULES 4.5: an unknown name is ignored (null), not an error', () => {
    expect(dateWindow('next_week', new Date(now), ny)).toBeNull();
    expect(dateWindow('', new Date(now), ny)).toBeNull();
    expect(dateWindow('__proto__', new Date(now), ny)).toBeNull();
    expect(isDateFilterName('this_week')).toBe(true);
    expect(isDateFilterName('THIS_WEEK')).toBe(false);
    expect(isDateFilterName(7)).toBe(false);
  });

  it('an unknown zone throws a RangeError', () => {
    expect(() => dateWindow('all', new Date(now), 'Nowhere/Else')).toThrow(RangeError);
  });

  describe('this_week (ISO week, Monday–Sunday)', () => {
    it.each([
      ['Monday', '2027-04-12T14:00:00Z', '2027-04-13T04:00:00Z', '2027-04-19T03:59:59Z'],
      ['Saturday: only Sunday is left', '2027-04-17T14:00:00Z', '2027-04-18T04:00:00Z', '2027-04-19T03:59:59Z'],
      [
        'Sunday: tomorrow starts a new week, so the window is that whole week',
        '2027-04-18T14:00:00Z',
        '2027-04-19T04:00:00Z',
        '2027-04-26T03:59:59Z',
      ],
    ])('%s', (_when, nowIso, from, to) => {
      expect(window('this_week', nowIso, 'America/New_York')).toEqual({ from: s(from), to: s(to) });
    });

    it('a week with the March clock change is 23 hours short, ending at local midnight', () => {
      // Thu 11 Mar 2027 in New York; clocks go forward on Sunday 14 Mar
      const w = window('this_week', '2027-03-11T17:00:00Z', 'America/New_York');
      expect(w).toEqual({ from: s('2027-03-12T05:00:00Z'), to: s('2027-03-15T03:59:59Z') });
      expect(w.to + 1 - w.from).toBe(3 * 86_400 - 3_600);
    });

    it('a week with the November clock change is an hour long', () => {
      // Thu 4 Nov 2027 in New York; clocks go back on Sunday 7 Nov
      const w = window('this_week', '2027-11-04T17:00:00Z', 'America/New_York');
      expect(w).toEqual({ from: s('2027-11-05T04:00:00Z'), to: s('2027-11-08T04:59:59Z') });
      expect(w.to + 1 - w.from).toBe(3 * 86_400 + 3_600);
    });

    it('Europe changes clocks on another Sunday than the US', () => {
      // Fri 26 Mar 2027 in London (GMT); BST starts Sunday 28 Mar
      expect(window('this_week', '2027-03-26T12:00:00Z', 'Europe/London')).toEqual({
        from: s('2027-03-27T00:00:00Z'),
        to: s('2027-03-28T22:59:59Z'),
      });
    });
  });

  describe('month and year ends', () => {
    it.each([
      ['mid-February of a leap year', '2028-02-10T12:00:00Z', 'UTC', '2028-02-11T00:00:00Z', '2028-02-29T23:59:59Z'],
      [
        '30 April: tomorrow is in May, so the window is May',
        '2027-04-30T12:00:00Z',
        'UTC',
        '2027-05-01T00:00:00Z',
        '2027-05-31T23:59:59Z',
      ],
      [
        '31 December: the window is January of the next year',
        '2027-12-31T12:00:00Z',
        'UTC',
        '2028-01-01T00:00:00Z',
        '2028-01-31T23:59:59Z',
      ],
      ['30 December', '2027-12-30T12:00:00Z', 'UTC', '2027-12-31T00:00:00Z', '2027-12-31T23:59:59Z'],
    ])('this_month on %s', (_when, nowIso, zone, from, to) => {
      expect(window('this_month', nowIso, zone)).toEqual({ from: s(from), to: s(to) });
    });

    it('next_7_days runs into the new year', () => {
      expect(window('next_7_days', '2027-12-28T12:00:00Z', 'UTC')).toEqual({
        from: s('2027-12-29T00:00:00Z'),
        to: s('2028-01-05T23:59:59Z'),
      });
    });

    it('all from 29 February ends on 29 February a hundred years on, or on the 28th when that year is common', () => {
      expect(window('all', '2028-02-29T12:00:00Z', 'UTC').to).toBe(s('2128-02-29T23:59:59Z'));
      expect(window('all', '2000-02-29T12:00:00Z', 'UTC').to).toBe(s('2100-02-28T23:59:59Z'));
    });
  });

  describe('the shopper’s zone decides what "today" is', () => {
    // 2027-04-14T08:30Z: Tuesday 22:30 in Honolulu (UTC-10), Wednesday 17:30 in Tokyo (UTC+9)
    const instant = '2027-04-14T08:30:00Z';

    it('Pacific/Honolulu', () => {
      expect(window('all', instant, 'Pacific/Honolulu').from).toBe(s('2027-04-13T10:00:00Z'));
      expect(window('next_7_days', instant, 'Pacific/Honolulu')).toEqual({
        from: s('2027-04-14T10:00:00Z'),
        to: s('2027-04-22T09:59:59Z'),
      });
    });

    it('Asia/Tokyo', () => {
      expect(window('all', instant, 'Asia/Tokyo').from).toBe(s('2027-04-13T15:00:00Z'));
      expect(window('this_week', instant, 'Asia/Tokyo')).toEqual({
        from: s('2027-04-14T15:00:00Z'),
        to: s('2027-04-18T14:59:59Z'),
      });
    });

    it('near midnight the same instant is a different day', () => {
      // 23:59:59 on Wed in New York, already Thursday in UTC
      expect(window('all', '2027-04-15T03:59:59Z', 'America/New_York').from).toBe(s('2027-04-14T04:00:00Z'));
      expect(window('all', '2027-04-15T04:00:00Z', 'America/New_York').from).toBe(s('2027-04-15T04:00:00Z'));
    });

    it('a day whose midnight is skipped starts at its first real instant (Santiago, 8 Sep 2024)', () => {
      expect(window('next_7_days', '2024-09-07T12:00:00Z', 'America/Santiago').from).toBe(s('2024-09-08T04:00:00Z'));
    });
  });

  describe('properties', () => {
    const zones = [
      'UTC',
      'America/New_York',
      'America/Los_Angeles',
      'America/St_Johns',
      'Europe/London',
      'Europe/Berlin',
      'Asia/Tokyo',
      'Asia/Kolkata',
      'Asia/Kathmandu',
      'Australia/Sydney',
      'Australia/Lord_Howe',
      'Pacific/Honolulu',
      'Pacific/Kiritimati',
      'Pacific/Pago_Pago',
      'America/Santiago',
    ];
    const instants = fc.integer({ min: Date.parse('1995-01-01T00:00:00Z'), max: Date.parse('2085-01-01T00:00:00Z') });
    const zone = fc.constantFrom(...zones);
    // Santiago's clocks spring forward at midnight, so some of its days start at 01:00.
    const midnightZone = (z: string) => z !== 'America/Santiago';

    it('every window has from < to, from at the start of a local day and to just before one', () => {
      fc.assert(
        fc.property(instants, zone, fc.constantFrom(...DATE_FILTER_NAMES), (ms, z, name) => {
          const w = dateWindow(name, new Date(ms), z)!;
          expect(Number.isInteger(w.from) && Number.isInteger(w.to)).toBe(true);
          expect(w.from).toBeLessThan(w.to);
          if (midnightZone(z)) {
            const start = zonedDateTime(w.from * 1000, z);
            const next = zonedDateTime((w.to + 1) * 1000, z);
            expect([start.hour, start.minute, start.second]).toEqual([0, 0, 0]);
            expect([next.hour, next.minute, next.second]).toEqual([0, 0, 0]);
            expect(zonedDateTime(w.to * 1000, z)).toMatchObject({ hour: 23, minute: 59, second: 59 });
          }
        }),
      );
    });

    it('a remembered window is the one worked out afresh, across midnights and clock changes', () => {
      // Instants close together (within a few days), so the same zone's day is often reused and often left.
      const steps = fc.array(fc.integer({ min: 0, max: 3 * 86_400_000 }), { minLength: 20, maxLength: 60 });
      fc.assert(
        fc.property(instants, steps, zone, fc.constantFrom(...DATE_FILTER_NAMES), (start, gaps, z, name) => {
          let ms = start;
          for (const gap of gaps) {
            ms += gap;
            expect(dateWindow(name, new Date(ms), z)).toEqual(computeDateWindow(name, new Date(ms), z));
          }
        }),
        { numRuns: 300 },
      );
      // Either side of New York's midnight, and of a spring-forward midnight in Santiago.
      for (const iso of [
        '2027-04-15T03:59:59.999Z',
        '2027-04-15T04:00:00Z',
        '2024-09-08T03:59:59Z',
        '2024-09-08T04:00:00Z',
      ]) {
        for (const z of ['America/New_York', 'America/Santiago'])
          expect(dateWindow('all', new Date(iso), z)).toEqual(computeDateWindow('all', new Date(iso), z));
      }
    });

    it('windows are ordered: all starts today, the others tomorrow, and they nest by length', () => {
      fc.assert(
        fc.property(instants, zone, (ms, z) => {
          const now = new Date(ms);
          const w = (name: DateFilterName) => dateWindow(name, now, z)!;
          const all = w('all');
          expect(all.from).toBeLessThanOrEqual(ms / 1000);
          expect(all.to).toBeGreaterThan(ms / 1000);
          const tomorrow = w('next_7_days').from;
          expect(tomorrow).toBeGreaterThan(ms / 1000);
          expect(tomorrow - all.from).toBeGreaterThanOrEqual(82_800); // one local day, 23–25 h
          expect(tomorrow - all.from).toBeLessThanOrEqual(90_000);
          for (const name of DATE_FILTER_NAMES.filter((n) => n !== 'all')) expect(w(name).from).toBe(tomorrow);
          expect(w('this_week').to).toBeLessThanOrEqual(w('next_7_days').to);
          expect(w('next_7_days').to).toBeLessThan(w('next_30_days').to);
          expect(w('this_month').to).toBeLessThanOrEqual(w('next_60_days').to);
          expect(w('next_30_days').to).toBeLessThan(w('next_60_days').to);
          expect(w('next_60_days').to).toBeLessThan(w('this_quarter').to);
          expect(w('this_quarter').to).toBeLessThan(all.to);
        }),
      );
    });
  });
});
