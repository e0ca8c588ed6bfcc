import { describe, expect, it } from 'vitest';
import { TICKET_STATES } from '../../../shared/schemas/commerce.js';
import {
  eventDay,
  eventStartText,
  isReady,
  readyByDate,
  ticketState,
  ticketStateText,
  venueDay,
  venueDayStart,
  willCallOpens,
} from './delivery.js';

describe('the in-hand rule: ready by max(in-hand date, order day), never after the event day', () => {
  it('keeps a seller’s in-hand date that is still to come', () => {
    expect(readyByDate({ inHandDate: '2026-11-20', orderDay: '2026-11-01', eventDay: '2026-11-23' })).toBe(
      '2026-11-20',
    );
  });

  it('never says a day before the order (the shopper’s Nov 4 for an order of Nov 23)', () => {
    expect(readyByDate({ inHandDate: '2026-11-04', orderDay: '2026-11-23', eventDay: '2026-11-23' })).toBe(
      '2026-11-23',
    );
    expect(readyByDate({ inHandDate: '2026-11-04', orderDay: '2026-11-10', eventDay: '2026-11-23' })).toBe(
      '2026-11-10',
    );
  });

  it('never says a day after the event', () => {
    expect(readyByDate({ inHandDate: '2026-11-30', orderDay: '2026-11-01', eventDay: '2026-11-23' })).toBe(
      '2026-11-23',
    );
  });

  it('has no day while the event’s date is not set', () => {
    expect(readyByDate({ inHandDate: '', orderDay: '2026-11-01', eventDay: null })).toBeNull();
    expect(readyByDate({ inHandDate: '2026-11-30', orderDay: '2026-11-01', eventDay: null })).toBe('2026-11-30');
  });

  it('holds for any in-hand date, order day and event day', () => {
    const day = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 86_400_000).toISOString().slice(0, 10);
    for (let inHand = 0; inHand < 40; inHand += 3) {
      for (let order = 0; order < 40; order += 4) {
        for (let event = order; event < 45; event += 5) {
          const ready = readyByDate({ inHandDate: day(inHand), orderDay: day(order), eventDay: day(event) })!;
          expect(ready >= day(order)).toBe(true);
          expect(ready <= day(event)).toBe(true);
          expect(ready >= day(Math.min(inHand, event))).toBe(true);
        }
      }
    }
  });

  it('is ready from the ready-by day on', () => {
    expect(isReady('2026-11-20', '2026-11-19')).toBe(false);
    expect(isReady('2026-11-20', '2026-11-20')).toBe(true);
    expect(isReady('2026-11-20', '2026-11-21')).toBe(true);
    expect(isReady(null, '2026-11-21')).toBe(false);
  });

  it('reads days at the venue', () => {
    // 03:00 UTC on Nov 24 is still Nov 23 in New York (UTC-5) and already Nov 24 in London.
    expect(venueDay('2026-11-24T03:00:00Z', -5)).toBe('2026-11-23');
    expect(venueDay('2026-11-24T03:00:00Z', 0)).toBe('2026-11-24');
    expect(eventDay('2026-11-23T19:30:00')).toBe('2026-11-23');
    expect(eventDay(null)).toBeNull();
    expect(() => venueDay('soon', 0)).toThrow(RangeError);
  });
});

describe('venueDayStart: the instant a venue-local day begins', () => {
  it.each([
    ['New York (-5)', -5, '2026-11-23T05:00:00.000Z'],
    ['Tokyo (+9)', 9, '2026-11-22T15:00:00.000Z'],
    ['Kolkata (+5.5)', 5.5, '2026-11-22T18:30:00.000Z'],
  ])('%s', (_case, offset, iso) => {
    const start = venueDayStart('2026-11-23', offset);
    expect(start.toISOString()).toBe(iso);
    expect(venueDay(start, offset)).toBe('2026-11-23');
    expect(venueDay(start.getTime() - 1, offset)).toBe('2026-11-22');
  });
  it('refuses what is not an ISO date', () => {
    expect(() => venueDayStart('23/11/2026', -5)).toThrow(RangeError);
  });
});

describe('ticket states', () => {
  const base = { readyBy: '2026-11-20', today: '2026-11-21', scannedAt: null };

  it('follows the order and the ready-by day', () => {
    expect(ticketState({ ...base, orderStatus: 'pending_seller_confirmation' })).toBe('awaiting_seller');
    expect(ticketState({ ...base, orderStatus: 'confirmed', today: '2026-11-19' })).toBe('scheduled');
    expect(ticketState({ ...base, orderStatus: 'confirmed' })).toBe('ready');
    expect(ticketState({ ...base, orderStatus: 'delivered' })).toBe('ready');
    expect(ticketState({ ...base, orderStatus: 'delivered', scannedAt: '2026-11-23T23:00:00.000Z' })).toBe('used');
    expect(ticketState({ ...base, orderStatus: 'confirmed', readyBy: null })).toBe('scheduled');
    for (const s of ['rejected', 'expired', 'cancelled', 'refunded'] as const)
      expect(ticketState({ ...base, orderStatus: s })).toBe('void');
  });

  it('says what each state means for each delivery method', () => {
    const text = (
      method: 'eticket' | 'mobile_transfer' | 'will_call' | 'physical_mail',
      state: (typeof TICKET_STATES)[number],
    ) =>
      ticketStateText({
        method,
        state,
        readyBy: '2026-11-20',
        email: 'ada@example.com',
        eventLocalTimestamp: '2026-11-23T19:30:00',
        orderStatusLabel: 'Refunded',
      });
    expect(text('eticket', 'ready')).toMatch(/download/i);
    expect(text('eticket', 'scheduled')).toBe('Ready to download on Nov 20, 2026');
    expect(text('mobile_transfer', 'scheduled')).toBe(
      'Arrives by Nov 20, 2026 as a transfer to ada@example.com; accept it in the team or venue app',
    );
    expect(text('mobile_transfer', 'ready')).toContain('Transferred to ada@example.com');
    expect(text('will_call', 'scheduled')).toBe(
      'At the venue’s will-call window from 5:30 PM on Nov 23, 2026; bring a photo ID',
    );
    expect(text('physical_mail', 'scheduled')).toContain('Ships by Nov 20, 2026');
    expect(text('eticket', 'void')).toContain('refunded');
    expect(text('eticket', 'used')).toMatch(/scanned/);
    expect(text('eticket', 'awaiting_seller')).toContain('Nov 20, 2026');
  });

  it('prints the venue-local start, and a time to be announced as such', () => {
    expect(eventStartText('2026-11-23T19:30:00')).toBe('Mon, Nov 23, 2026 · 7:30 PM (venue time)');
    expect(eventStartText('2026-11-23T03:30:00')).toContain('time to be announced');
    expect(eventStartText(null)).toBe('Date to be announced');
    expect(willCallOpens('2026-11-23T01:00:00')).toBe('from 12:00 AM on Nov 23, 2026');
    expect(willCallOpens('2026-11-23T03:30:00')).toBe('on Nov 23, 2026');
  });
});
