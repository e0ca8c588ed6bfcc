import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { eventBadges, type BadgeSignals } from './badges.js';

const signals = (s: Partial<BadgeSignals>): BadgeSignals => ({
  event_orders_d1: 0,
  event_cart_d1: 0,
  event_mpv_d1: 0,
  tickets_available: 0,
  ...s,
});
const types = (s: Partial<BadgeSignals>) => eventBadges(signals(s)).map((b) => b.type);

describe('eventBadges (RULES 5.1 event badges and their thresholds)', () => {
  it.each<[string, Partial<BadgeSignals>, string[]]>([
    // hotEvent: orders in the last day and at least 5 carts in the last day
    ['1 order, 5 carts → hot', { event_orders_d1: 1, event_cart_d1: 5 }, ['hotEvent']],
    ['1 order, 4 carts → not hot', { event_orders_d1: 1, event_cart_d1: 4 }, []],
    ['0 orders, 50 carts → not hot', { event_orders_d1: 0, event_cart_d1: 50 }, []],
    // peopleViewing: otherwise, at least 10 viewing
    ['10 viewing → peopleViewing', { event_mpv_d1: 10 }, ['peopleViewing']],
    ['9 viewing → none', { event_mpv_d1: 9 }, []],
    ['hot and 500 viewing → hot only', { event_orders_d1: 3, event_cart_d1: 9, event_mpv_d1: 500 }, ['hotEvent']],
    // ticketLeft: more than 1 and fewer than 100 tickets
    ['1 ticket → none', { tickets_available: 1 }, []],
    ['2 tickets → ticketLeft', { tickets_available: 2 }, ['ticketLeft']],
    ['99 tickets → ticketLeft', { tickets_available: 99 }, ['ticketLeft']],
    ['100 tickets → none', { tickets_available: 100 }, []],
    ['0 tickets → none', { tickets_available: 0 }, []],
    [
      'hot with 50 tickets → both',
      { event_orders_d1: 1, event_cart_d1: 5, tickets_available: 50 },
      ['hotEvent', 'ticketLeft'],
    ],
    ['viewing with 2 tickets → both', { event_mpv_d1: 10, tickets_available: 2 }, ['peopleViewing', 'ticketLeft']],
  ])('%s', (_case, input, expected) => {
    expect(types(input)).toEqual(expected);
  });

  it.each<[Partial<BadgeSignals>, string[]]>([
    [{ event_orders_d1: 1, event_cart_d1: 5 }, ['Selling fast']],
    [{ event_mpv_d1: 10 }, ['10 people viewing']],
    [{ event_mpv_d1: 1234 }, ['1,234 people viewing']],
    [{ tickets_available: 2 }, ['Only 2 tickets left']],
    [{ tickets_available: 99 }, ['Only 99 tickets left']],
  ])('labels %j as %j', (input, labels) => {
    expect(eventBadges(signals(input)).map((b) => b.label)).toEqual(labels);
  });

  const arbitrary = fc.record({
    event_orders_d1: fc.nat({ max: 20 }),
    event_cart_d1: fc.nat({ max: 20 }),
    event_mpv_d1: fc.nat({ max: 50 }),
    tickets_available: fc.nat({ max: 200 }),
  });

  it('never gives more than 2 badges, nor both hotEvent and peopleViewing, nor a badge twice', () => {
    fc.assert(
      fc.property(arbitrary, (s) => {
        const t = eventBadges(s).map((b) => b.type);
        expect(t.length).toBeLessThanOrEqual(2);
        expect(t.includes('hotEvent') && t.includes('peopleViewing')).toBe(false);
        expect(new Set(t).size).toBe(t.length);
      }),
    );
  });

  it('gives ticketLeft exactly when 1 < tickets < 100, always last', () => {
    fc.assert(
      fc.property(arbitrary, (s) => {
        const t = eventBadges(s).map((b) => b.type);
        const within = s.tickets_available > 1 && s.tickets_available < 100;
        expect(t.includes('ticketLeft')).toBe(within);
        if (within) expect(t.at(-1)).toBe('ticketLeft');
      }),
    );
  });

  it('gives hotEvent exactly on orders > 0 and carts ≥ 5, and peopleViewing only without it at ≥ 10 viewers', () => {
    fc.assert(
      fc.property(arbitrary, (s) => {
        const t = eventBadges(s).map((b) => b.type);
        const hot = s.event_orders_d1 > 0 && s.event_cart_d1 >= 5;
        expect(t.includes('hotEvent')).toBe(hot);
        expect(t.includes('peopleViewing')).toBe(!hot && s.event_mpv_d1 >= 10);
      }),
    );
  });
});
