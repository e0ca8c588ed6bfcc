import { describe, expect, it } from 'vitest';
import { AppError } from '../../http/errors.js';
import { eventStartMs, isStale } from '../../../shared/rules/lists.js';
import { assertOnSale, saleState } from './sale-window.js';

const event = (local: string | null, offset = -5, status: 'scheduled' | 'postponed' | 'cancelled' = 'scheduled') => ({
  event_status: status,
  event_local_timestamp: local,
  venue_time_zone_offset: offset,
});

describe('saleState (RULES 4.3, 10.2: the start is venue-local time adjusted by the venue offset)', () => {
  const now = new Date('2026-11-23T20:00:00Z');

  it.each([
    ['a New York event later tonight sells', '2026-11-23T19:30:00', -5, true],
    ['a New York event that began at 14:59 local is closed', '2026-11-23T14:59:00', -5, false],
    ['an event starting this very instant is closed', '2026-11-23T15:00:00', -5, false],
    ['a Los Angeles event at 12:30 local (20:30 UTC) still sells', '2026-11-23T12:30:00', -8, true],
    ['a London event at 19:30 local (already 30 minutes in) is closed', '2026-11-23T19:30:00', 0, false],
    ['a Kolkata event at 01:31 tomorrow local (20:01 UTC) still sells', '2026-11-24T01:31:00', 5.5, true],
    ['an event that started yesterday is closed', '2026-11-22T19:00:00', -5, false],
  ])('%s', (_case, local, offset, onSale) => {
    expect(saleState(event(local, offset), now).onSale).toBe(onSale);
  });

  it('stops the sale at the instant the home page calls the event stale, and not a millisecond before', () => {
    const e = event('2026-11-23T15:00:00', -5);
    const start = eventStartMs(e)!;
    for (const at of [start - 1, start, start + 1]) {
      const now = new Date(at);
      expect(saleState(e, now).onSale).toBe(!isStale(e, now));
    }
    expect(saleState(e, new Date(start - 1)).onSale).toBe(true);
    expect(saleState(e, new Date(start)).onSale).toBe(false);
  });

  it('sells a postponed event with no date, its date to be announced', () => {
    expect(saleState(event(null, -5, 'postponed'), now)).toEqual({ onSale: true, dateToBeAnnounced: true });
    expect(saleState(event('2026-12-01T19:00:00'), now)).toEqual({ onSale: true, dateToBeAnnounced: false });
  });

  it('never sells a cancelled event, dated or not', () => {
    expect(saleState(event('2027-01-01T19:00:00', -5, 'cancelled'), now)).toMatchObject({
      onSale: false,
      code: 'event_cancelled',
    });
    expect(saleState(event(null, -5, 'cancelled'), now)).toMatchObject({ onSale: false, code: 'event_cancelled' });
  });

  it('refuses a started event with a 409 event_started', () => {
    let thrown: unknown;
    try {
      assertOnSale(event('2026-11-22T19:00:00'), now);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(AppError);
    expect(thrown).toMatchObject({ status: 409, code: 'event_started' });
    expect(() => assertOnSale(event('2026-11-24T19:00:00'), now)).not.toThrow();
  });
});
