import { describe, expect, it } from 'vitest';
import { ORDER_STATUSES, type OrderStatus } from '../../../shared/schemas/commerce.js';
import { EVENT_STATUSES } from '../../../shared/schemas/documents.js';
import {
  ORDER_STATUS_LABELS,
  OrderTransitionError,
  TERMINAL_STATUSES,
  canTransition,
  isTerminal,
  newOrder,
  nextStatuses,
  refundEligibility,
  transition,
  type EventStatus,
  type RefundEligibility,
} from './order-lifecycle.js';

const ALLOWED: [OrderStatus, OrderStatus][] = [
  ['reserved', 'pending_seller_confirmation'],
  ['reserved', 'expired'],
  ['reserved', 'cancelled'],
  ['pending_seller_confirmation', 'confirmed'],
  ['pending_seller_confirmation', 'rejected'],
  ['pending_seller_confirmation', 'cancelled'],
  ['confirmed', 'delivered'],
  ['confirmed', 'cancelled'],
  ['confirmed', 'refunded'],
  ['delivered', 'completed'],
  ['delivered', 'cancelled'],
  ['delivered', 'refunded'],
  ['rejected', 'refunded'],
  ['cancelled', 'refunded'],
];
const allowed = new Set(ALLOWED.map(([a, b]) => `${a}>${b}`));
const FORBIDDEN = ORDER_STATUSES.flatMap((from) =>
  ORDER_STATUSES.map((to) => [from, to] as [OrderStatus, OrderStatus]),
).filter(([a, b]) => !allowed.has(`${a}>${b}`));

const T0 = '2026-11-21T15:00:00.000Z';
const at = (minutes: number) => new Date(Date.parse(T0) + minutes * 60_000).toISOString();

/** An order that reached `path`'s last status through every step of it. */
function walk(path: OrderStatus[]) {
  let order = newOrder(T0) as { status: OrderStatus; history: { status: OrderStatus; at: string; note: string }[] };
  path.forEach((to, i) => (order = transition(order, to, at(i + 1), `to ${to}`)));
  return order;
}

describe('canTransition', () => {
  it.each(ALLOWED)('%s → %s is allowed', (from, to) => {
    expect(canTransition(from, to)).toBe(true);
  });

  it.each(FORBIDDEN)('%s → %s is forbidden', (from, to) => {
    expect(canTransition(from, to)).toBe(false);
  });

  it('covers all 81 pairs', () => {
    expect(ALLOWED.length + FORBIDDEN.length).toBe(ORDER_STATUSES.length ** 2);
  });
});

describe('terminal statuses', () => {
  it('are completed, expired and refunded', () => {
    expect([...TERMINAL_STATUSES].sort()).toEqual(['completed', 'expired', 'refunded']);
    expect(isTerminal('completed')).toBe(true);
    expect(isTerminal('cancelled')).toBe(false);
  });

  it('a hold cancelled before payment has nowhere to go; one cancelled after payment can be refunded', () => {
    expect(nextStatuses(walk(['cancelled']))).toEqual([]);
    expect(nextStatuses(walk(['pending_seller_confirmation', 'cancelled']))).toEqual(['refunded']);
  });
});

describe('transition', () => {
  it('records every step with its time and note, leaving the input unchanged', () => {
    const start = newOrder(T0);
    const pending = transition(start, 'pending_seller_confirmation', new Date(at(1)), 'Payment taken');
    expect(start.history).toHaveLength(1);
    expect(start.status).toBe('reserved');
    const done = transition(
      transition(transition(pending, 'confirmed', at(2), 'Seller confirmed'), 'delivered', at(3)),
      'completed',
      at(4),
      'Event took place',
    );
    expect(done.status).toBe('completed');
    expect(done.history).toEqual([
      { status: 'reserved', at: T0, note: 'Tickets held' },
      { status: 'pending_seller_confirmation', at: at(1), note: 'Payment taken' },
      { status: 'confirmed', at: at(2), note: 'Seller confirmed' },
      { status: 'delivered', at: at(3), note: '' },
      { status: 'completed', at: at(4), note: 'Event took place' },
    ]);
  });

  it('keeps the other fields of the order', () => {
    const order = { id: 'ord_1', quantity: 2, ...newOrder(T0) };
    expect(transition(order, 'expired', at(10), 'Hold ran out')).toMatchObject({
      id: 'ord_1',
      quantity: 2,
      status: 'expired',
    });
  });

  it.each(FORBIDDEN)('throws OrderTransitionError for %s → %s', (from, to) => {
    const order = {
      status: from,
      history: [{ status: 'pending_seller_confirmation' as OrderStatus, at: T0, note: '' }],
    };
    expect(() => transition(order, to, at(1))).toThrow(OrderTransitionError);
  });

  it('refunds a rejected order, but never an order that was not charged', () => {
    expect(walk(['pending_seller_confirmation', 'rejected', 'refunded']).status).toBe('refunded');
    expect(() => walk(['cancelled', 'refunded'])).toThrow(/never charged/);
  });

  it('refuses a time before the last recorded one, and a non-time', () => {
    const pending = walk(['pending_seller_confirmation']);
    expect(() => transition(pending, 'confirmed', at(-5))).toThrow(OrderTransitionError);
    expect(() => transition(pending, 'confirmed', 'soon')).toThrow(RangeError);
    expect(transition(pending, 'confirmed', at(1)).status).toBe('confirmed');
  });

  it('reports the pair on the error', () => {
    const err = (() => {
      try {
        transition(newOrder(T0), 'completed', at(1));
      } catch (e) {
        return e;
      }
    })();
    expect(err).toMatchObject({ from: 'reserved', to: 'completed', status: 409, code: 'invalid_order_transition' });
  });
});

describe('ORDER_STATUS_LABELS', () => {
  it('names every status', () => {
    for (const s of ORDER_STATUSES) expect(ORDER_STATUS_LABELS[s]).toMatch(/^[A-Z]/);
  });
});

describe('refundEligibility (RULES 10.10 money-back guarantee)', () => {
  const FULL_AUTO = { refund: 'full', automatic: true } as const;
  const ON_REQUEST = { refund: 'full', automatic: false } as const;
  const NONE = { refund: 'none', automatic: false } as const;
  type Row = [EventStatus, OrderStatus, RefundEligibility];

  const table: Row[] = [
    ['cancelled', 'pending_seller_confirmation', { ...FULL_AUTO, reason: 'event_cancelled' }],
    ['cancelled', 'confirmed', { ...FULL_AUTO, reason: 'event_cancelled' }],
    ['cancelled', 'delivered', { ...FULL_AUTO, reason: 'event_cancelled' }],
    ['cancelled', 'cancelled', { ...FULL_AUTO, reason: 'event_cancelled' }],
    ['cancelled', 'rejected', { ...FULL_AUTO, reason: 'seller_rejected' }],
    ['postponed', 'confirmed', { ...NONE, reason: 'window_closed' }],
    ['rescheduled', 'delivered', { ...NONE, reason: 'window_closed' }],
    ['postponed', 'pending_seller_confirmation', { ...ON_REQUEST, reason: 'not_yet_confirmed' }],
    ['scheduled', 'pending_seller_confirmation', { ...ON_REQUEST, reason: 'not_yet_confirmed' }],
    ['scheduled', 'confirmed', { ...NONE, reason: 'sale_final' }],
    ['scheduled', 'delivered', { ...NONE, reason: 'sale_final' }],
    ['scheduled', 'rejected', { ...FULL_AUTO, reason: 'seller_rejected' }],
    ['scheduled', 'cancelled', { ...FULL_AUTO, reason: 'order_cancelled' }],
  ];

  it.each(table)('event %s, order %s → %j', (eventStatus, orderStatus, expected) => {
    expect(refundEligibility(eventStatus, orderStatus)).toEqual(expected);
  });

  it.each(EVENT_STATUSES)(
    'nothing to refund for an uncharged, completed or refunded order (event %s)',
    (eventStatus) => {
      expect(refundEligibility(eventStatus, 'reserved')).toEqual({ ...NONE, reason: 'not_charged' });
      expect(refundEligibility(eventStatus, 'expired')).toEqual({ ...NONE, reason: 'not_charged' });
      expect(refundEligibility(eventStatus, 'completed')).toEqual({ ...NONE, reason: 'order_completed' });
      expect(refundEligibility(eventStatus, 'refunded')).toEqual({ ...NONE, reason: 'already_refunded' });
    },
  );

  it("refunds a changed event in full on request while its notice's window is open (RULES 19.2)", () => {
    for (const eventStatus of ['postponed', 'rescheduled', 'scheduled'] as const)
      for (const orderStatus of ['pending_seller_confirmation', 'confirmed', 'delivered'] as const)
        expect(refundEligibility(eventStatus, orderStatus, { windowOpen: true })).toEqual({
          ...ON_REQUEST,
          reason: 'event_rescheduled',
        });
    expect(refundEligibility('cancelled', 'confirmed', { windowOpen: true })).toEqual({
      ...FULL_AUTO,
      reason: 'event_cancelled',
    });
    expect(refundEligibility('rescheduled', 'completed', { windowOpen: true })).toEqual({
      ...NONE,
      reason: 'order_completed',
    });
  });
});
