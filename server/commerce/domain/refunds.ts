import { formatMoney } from '../../../shared/rules/pricing.js';
import type { EventStatus } from './order-lifecycle.js';

import { REFUND_WINDOW_DAYS } from '../../../shared/rules/disclosures.js';

export { REFUND_WINDOW_DAYS };
const DAY_MS = 86_400_000;

/** Why money went back. */
export const REFUND_REASONS = ['event_cancelled', 'event_rescheduled', 'operator'] as const;
export type RefundReasonCode = (typeof REFUND_REASONS)[number];
export const REFUND_REQUESTERS = ['system', 'buyer', 'operator'] as const;
export type RefundRequester = (typeof REFUND_REQUESTERS)[number];

/** The longest note an operator may give a refund. */
export const MAX_REFUND_NOTE_LENGTH = 500;

/** What an event looked like to the buyers who were last told of it: its status and local start (null: no date). */
export interface EventShape {
  status: EventStatus;
  starts: string | null;
}

/**
 * What a change of an event means for its buyers (RULES 19.1, 19.2): `cancelled` refunds every order, `postponed`
 * (no date yet) and `rescheduled` (a new date or time, whatever the catalog calls its status) keep the orders and
 * open a refund window; anything else (a new name, a new image) tells nobody.
 */
export function eventChange(before: EventShape, after: EventShape): 'cancelled' | 'postponed' | 'rescheduled' | null {
  if (after.status === 'cancelled') return before.status === 'cancelled' ? null : 'cancelled';
  if (after.status === 'postponed' && before.status !== 'postponed') return 'postponed';
  if (after.starts !== before.starts) return after.starts === null ? 'postponed' : 'rescheduled';
  return null;
}

/** The end of the refund window a notice given at `noticeAt` opens. */
export function refundWindowEnd(noticeAt: Date): Date {
  return new Date(noticeAt.getTime() + REFUND_WINDOW_DAYS * DAY_MS);
}

export type RefundAmount =
  | { ok: true; amountCents: number; closesOrder: boolean }
  | { ok: false; code: 'nothing_to_refund' | 'amount_too_large' | 'invalid_amount'; message: string };

/**
 * The amount of a refund (RULES 19.3): the whole of what is left of the charge when none is asked for, else the
 * amount asked, in whole cents, never more than is left. A refund that leaves nothing closes the order.
 */
export function refundAmount(input: {
  chargedCents: number;
  refundedCents: number;
  requestedCents?: number;
}): RefundAmount {
  const left = input.chargedCents - input.refundedCents;
  if (left <= 0) return { ok: false, code: 'nothing_to_refund', message: 'This order has been refunded in full' };
  const asked = input.requestedCents ?? left;
  if (!Number.isSafeInteger(asked) || asked <= 0)
    return { ok: false, code: 'invalid_amount', message: 'amount must be a positive amount of dollars and cents' };
  if (asked > left)
    return {
      ok: false,
      code: 'amount_too_large',
      message:
        `amount ${formatMoney(asked / 100)} is more than the ${formatMoney(left / 100)} left to refund ` +
        `of the ${formatMoney(input.chargedCents / 100)} charged`,
    };
  return { ok: true, amountCents: asked, closesOrder: asked === left };
}

/** The order's timeline note for a refund requested, as its buyer reads it. */
export function refundRequestedNote(reason: RefundReasonCode, amountCents: number, note: string): string {
  const amount = formatMoney(amountCents / 100);
  switch (reason) {
    case 'event_cancelled':
      return (
        `The event was cancelled. Your order is called off and a full refund of ${amount}, fees included, ` +
        'is on its way.'
      );
    case 'event_rescheduled':
      return (
        `You asked for a refund after the event moved. Your order is called off and ${amount} ` + 'is on its way back.'
      );
    case 'operator':
      return `A refund of ${amount} is on its way${note ? `: ${note}` : ''}.`;
  }
}

/** The order's timeline note once the processor has returned the money. */
export function refundedNote(amountCents: number, closesOrder: boolean): string {
  const amount = formatMoney(amountCents / 100);
  return closesOrder
    ? `Refunded ${amount} to your original payment method.`
    : `Refunded ${amount} of your order to your original payment method.`;
}
