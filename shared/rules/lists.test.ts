import type { Logger } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import {
  dropFarFuture,
  eventStartMs,
  hasStarted,
  isStale,
  logStaleEvents,
  STALE_EVENT_MESSAGE,
  type DatedEvent,
} from './lists.js';
import type { WarnLogger } from '../logger.js';

const ev = (id: number, local: string | null, offset = -5): DatedEvent & { event_id: number } => ({
  event_id: id,
  event_local_timestamp: local,
  venue_time_zone_offset: offset,
});

describe('eventStartMs: venue-local start minus the venue offset', () => {
  it.each<[string | null, number, number | null]>([
    ['2027-01-02T19:30:00', -5, Date.parse('2027-01-03T00:30:00Z')],
    ['2027-07-02T19:30:00', 1, Date.parse('2027-07-02T18:30:00Z')],
    ['2027-07-02T19:30:00', 5.5, Date.parse('2027-07-02T14:00:00Z')],
    [null, -5, null],
  ])('%s at %d', (local, offset, expected) => {
    expect(eventStartMs(ev(1, local, offset))).toBe(expected);
  });
});

describe('dropFarFuture (RULES 5.2: events beyond 10 years ahead are dropped)', () => {
  const now = new Date('2027-03-01T12:00:00Z');

  it('keeps events up to exactly 10 years ahead and undated ones, drops later ones, in order', () => {
    const events = [
      ev(1, '2027-03-02T19:00:00'),
      ev(2, '2037-03-01T07:00:00'), // 12:00Z: exactly 10 years
      ev(3, '2037-03-01T07:00:01'), // one second more
      ev(4, null),
      ev(5, '2099-01-01T20:00:00'),
      ev(6, '2020-01-01T20:00:00'),
    ];
    expect(dropFarFuture(events, now).map((e) => e.event_id)).toEqual([1, 2, 4, 6]);
  });

  it('counts 10 calendar years, so from 29 February the limit is 1 March', () => {
    const leap = new Date('2028-02-29T12:00:00Z');
    expect(
      dropFarFuture([ev(1, '2038-03-01T12:00:00', 0), ev(2, '2038-03-01T12:00:01', 0)], leap).map((e) => e.event_id),
    ).toEqual([1]);
  });
});

describe('isStale (RULES 4.3, 5.3: start, adjusted by the venue offset, already past)', () => {
  it.each<[string, string | null, number, string, boolean]>([
    [
      'New York 19:30 EST is 00:30Z next day: not past at 00:29Z',
      '2027-01-02T19:30:00',
      -5,
      '2027-01-03T00:29:59Z',
      false,
    ],
    ['…past one second after 00:30Z', '2027-01-02T19:30:00', -5, '2027-01-03T00:30:01Z', true],
    [
      'exactly at the start it has started (hasStarted): stale',
      '2027-01-02T19:30:00',
      -5,
      '2027-01-03T00:30:00Z',
      true,
    ],
    ['a millisecond before the start it has not', '2027-01-02T19:30:00', -5, '2027-01-03T00:29:59.999Z', false],
    [
      'Tokyo 09:00 (+9) is 00:00Z: past at 00:00:01Z although 09:00 looks later',
      '2027-01-03T09:00:00',
      9,
      '2027-01-03T00:00:01Z',
      true,
    ],
    [
      'Honolulu 20:00 (-10) is 06:00Z next day: not past at 23:00Z the same day',
      '2027-01-03T20:00:00',
      -10,
      '2027-01-03T23:00:00Z',
      false,
    ],
    ['undated events are never stale', null, -5, '2099-01-01T00:00:00Z', false],
  ])('%s', (_case, local, offset, now, stale) => {
    expect(isStale(ev(1, local, offset), new Date(now))).toBe(stale);
  });
});

describe('hasStarted (RULES 4.3: the one rule for "started")', () => {
  const start = Date.parse('2027-01-03T00:30:00Z');
  it('has started from the start instant on, not a millisecond before', () => {
    expect(hasStarted(start, new Date(start - 1))).toBe(false);
    expect(hasStarted(start, new Date(start))).toBe(true);
    expect(hasStarted(start, start)).toBe(true);
    expect(hasStarted(start, start + 1)).toBe(true);
  });
  it('never for an event with no date', () => {
    expect(hasStarted(null, new Date('2099-01-01T00:00:00Z'))).toBe(false);
  });
});

describe('logStaleEvents (RULES 5.3: logged as stale, still listed)', () => {
  it('warns once per stale event and returns every event', () => {
    const logger: WarnLogger = { warn: vi.fn() };
    const events = [
      ev(1, '2027-01-01T10:00:00'),
      ev(2, '2027-06-01T10:00:00'),
      ev(3, null),
      ev(4, '2026-12-01T10:00:00'),
    ];
    const listed = logStaleEvents(events, new Date('2027-03-01T00:00:00Z'), logger);
    expect(listed).toEqual(events);
    expect(logger.warn).toHaveBeenCalledTimes(2);
    expect(logger.warn).toHaveBeenCalledWith(
      { eventId: 1, localStart: '2027-01-01T10:00:00', venueOffsetHours: -5 },
      STALE_EVENT_MESSAGE,
    );
    expect(logger.warn).toHaveBeenCalledWith(expect.objectContaining({ eventId: 4 }), STALE_EVENT_MESSAGE);
  });

  it("takes the app's pino logger", () => {
    const accepts = (logger: Logger): WarnLogger => logger;
    expect(accepts).toBeTypeOf('function');
  });
});
