import { describe, expect, it } from 'vitest';
import {
  REFUND_WINDOW_DAYS,
  eventChange,
  refundAmount,
  refundRequestedNote,
  refundWindowEnd,
  refundedNote,
  type EventShape,
} from './refunds.js';

const at = (status: EventShape['status'], starts: string | null = '2026-12-05T20:00:00'): EventShape => ({
  status,
  starts,
});

describe('eventChange (RULES 19.1, 19.2)', () => {
  it.each([
    [at('scheduled'), at('cancelled'), 'cancelled'],
    [at('rescheduled'), at('cancelled'), 'cancelled'],
    [at('cancelled'), at('cancelled'), null],
    [at('scheduled'), at('postponed', null), 'postponed'],
    [at('scheduled'), at('postponed'), 'postponed'],
    [at('postponed', null), at('postponed', null), null],
    [at('scheduled'), at('rescheduled', '2026-12-19T20:00:00'), 'rescheduled'],
    [at('scheduled'), at('scheduled', '2026-12-05T21:00:00'), 'rescheduled'],
    [at('postponed', null), at('rescheduled', '2027-01-09T20:00:00'), 'rescheduled'],
    [at('scheduled'), at('scheduled', null), 'postponed'],
    [at('scheduled'), at('rescheduled'), null],
    [at('scheduled'), at('scheduled'), null],
  ] as const)('%j → %j is %s', (before, after, expected) => {
    expect(eventChange(before, after)).toBe(expected);
  });
});

describe('refundWindowEnd', () => {
  it(`is ${REFUND_WINDOW_DAYS} days after the notice`, () => {
    expect(refundWindowEnd(new Date('2026-11-27T10:00:00Z')).toISOString()).toBe('2026-12-27T10:00:00.000Z');
  });
});

describe('refundAmount (RULES 19.3)', () => {
  it('refunds what is left when no amount is asked, closing the order', () => {
    expect(refundAmount({ chargedCents: 7072, refundedCents: 0 })).toEqual({
      ok: true,
      amountCents: 7072,
      closesOrder: true,
    });
    expect(refundAmount({ chargedCents: 7072, refundedCents: 500 })).toEqual({
      ok: true,
      amountCents: 6572,
      closesOrder: true,
    });
  });

  it('refunds part, and closes the order when the part is all that is left', () => {
    expect(refundAmount({ chargedCents: 7072, refundedCents: 0, requestedCents: 500 })).toEqual({
      ok: true,
      amountCents: 500,
      closesOrder: false,
    });
    expect(refundAmount({ chargedCents: 7072, refundedCents: 500, requestedCents: 6572 })).toMatchObject({
      closesOrder: true,
    });
  });

  it('never refunds more than is left, nothing, or a fraction of a cent', () => {
    expect(refundAmount({ chargedCents: 7072, refundedCents: 500, requestedCents: 6573 })).toMatchObject({
      ok: false,
      code: 'amount_too_large',
      message: 'amount $65.73 is more than the $65.72 left to refund of the $70.72 charged',
    });
    expect(refundAmount({ chargedCents: 7072, refundedCents: 7072 })).toMatchObject({ code: 'nothing_to_refund' });
    expect(refundAmount({ chargedCents: 7072, refundedCents: 0, requestedCents: 0 })).toMatchObject({
      code: 'invalid_amount',
    });
    expect(refundAmount({ chargedCents: 7072, refundedCents: 0, requestedCents: 1.5 })).toMatchObject({
      code: 'invalid_amount',
    });
  });
});

describe('refund notes', () => {
  it('say what happened, with the amount, in the buyer’s words', () => {
    expect(refundRequestedNote('event_cancelled', 7072, '')).toBe(
      'The event was cancelled. Your order is called off and a full refund of $70.72, fees included, is on its way.',
    );
    expect(refundRequestedNote('operator', 500, 'Late gates')).toBe('A refund of $5 is on its way: Late gates.');
    expect(refundedNote(7072, true)).toBe('Refunded $70.72 to your original payment method.');
    expect(refundedNote(500, false)).toBe('Refunded $5 of your order to your original payment method.');
  });
});
