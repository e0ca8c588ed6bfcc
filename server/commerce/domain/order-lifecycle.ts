import { ORDER_STATUSES, type OrderStatus } from '../../../shared/schemas/commerce.js';
export { ORDER_STATUS_LABELS } from '../../../shared/schemas/commerce.js';
import { EVENT_STATUSES } from '../../../shared/schemas/documents.js';

/**
 * The order lifecycle (RULES 10.9: product decisions, as the spec leaves it unshown). The buyer's card is charged
 * when a hold becomes an order (reserved → pending_seller_confirmation); from then on every way out that does
 * not end in `completed` returns the money through `refunded`.
 */

export type EventStatus = (typeof EVENT_STATUSES)[number];

export interface OrderTimelineEntry {
  status: OrderStatus;
  at: string;
  note: string;
}

export interface OrderState {
  status: OrderStatus;
  history: readonly OrderTimelineEntry[];
}

export const ORDER_TRANSITIONS: Readonly<Record<OrderStatus, readonly OrderStatus[]>> = {
  // The hold ran out (expired) or the shopper let go (cancelled); nothing was charged.
  reserved: ['pending_seller_confirmation', 'expired', 'cancelled'],
  // The seller cannot fill the order (rejected) or it is called off before the seller answers (cancelled).
  pending_seller_confirmation: ['confirmed', 'rejected', 'cancelled'],
  // RULES 19.1: a full refund calls the order off at once (its tickets void); it is refunded when the money is back.
  confirmed: ['delivered', 'cancelled', 'refunded'],
  delivered: ['completed', 'cancelled', 'refunded'],
  // A rejected order is refunded automatically; a cancelled one only if it was charged (see `transition`).
  rejected: ['refunded'],
  cancelled: ['refunded'],
  completed: [],
  expired: [],
  refunded: [],
};

/** Orders whose tickets went back (or never came): they no longer count against a buyer's share of an event. */
export const TICKETS_RETURNED_STATUSES: readonly OrderStatus[] = ['rejected', 'expired', 'cancelled', 'refunded'];

/**
 * Statuses the order housekeeping moves on by itself (the seller's confirmation, delivery, the event): an order in
 * one carries when its next step is due (`orders.due_at`); in any other it waits for a person, or has ended.
 */
export const HOUSEKEPT_STATUSES: readonly OrderStatus[] = ['pending_seller_confirmation', 'confirmed', 'delivered'];

/** Statuses with no way out. A cancelled hold that was never charged has none either (see `nextStatuses`). */
export const TERMINAL_STATUSES: readonly OrderStatus[] = ORDER_STATUSES.filter(
  (s) => ORDER_TRANSITIONS[s].length === 0,
);

/** The status at which the buyer's payment was taken. */
export const CHARGED_STATUS: OrderStatus = 'pending_seller_confirmation';

export class OrderTransitionError extends Error {
  readonly code = 'invalid_order_transition';
  readonly status = 409;
  constructor(
    readonly from: OrderStatus,
    readonly to: OrderStatus,
    reason = `an order cannot go from ${from} to ${to}`,
  ) {
    super(reason);
    this.name = 'OrderTransitionError';
  }
}

export function canTransition(from: OrderStatus, to: OrderStatus): boolean {
  return ORDER_TRANSITIONS[from].includes(to);
}

export function isTerminal(status: OrderStatus): boolean {
  return ORDER_TRANSITIONS[status].length === 0;
}

export function wasCharged(order: Pick<OrderState, 'history'>): boolean {
  return order.history.some((h) => h.status === CHARGED_STATUS);
}

/** Where this order may go next, with its history taken into account. */
export function nextStatuses(order: OrderState): OrderStatus[] {
  return ORDER_TRANSITIONS[order.status].filter((to) => to !== 'refunded' || wasCharged(order));
}

const iso = (at: Date | string): string => {
  const d = typeof at === 'string' ? new Date(at) : at;
  if (Number.isNaN(d.getTime())) throw new RangeError(`not a time: ${String(at)}`);
  return d.toISOString();
};

/** A new order's state: a hold on the tickets. */
export function newOrder(
  at: Date | string,
  note = 'Tickets held',
): { status: 'reserved'; history: OrderTimelineEntry[] } {
  return { status: 'reserved', history: [{ status: 'reserved', at: iso(at), note }] };
}

/**
 * The order moved to `to` at `at`, the move appended to its history; the input is left as it was. Throws
 * OrderTransitionError for a move the lifecycle forbids, for a refund of an order never charged, and for a
 * time earlier than the last recorded one.
 */
export function transition<T extends OrderState>(order: T, to: OrderStatus, at: Date | string, note = ''): T {
  const from = order.status;
  if (!canTransition(from, to)) throw new OrderTransitionError(from, to);
  if (to === 'refunded' && !wasCharged(order))
    throw new OrderTransitionError(from, to, 'an order that was never charged cannot be refunded');
  const when = iso(at);
  const last = order.history[order.history.length - 1];
  if (last && when < last.at)
    throw new OrderTransitionError(from, to, `the move to ${to} at ${when} is earlier than the last one at ${last.at}`);
  return { ...order, status: to, history: [...order.history, { status: to, at: when, note }] };
}

export type RefundReason =
  | 'event_cancelled'
  | 'seller_rejected'
  | 'event_rescheduled'
  | 'not_yet_confirmed'
  | 'order_cancelled'
  | 'sale_final'
  | 'window_closed'
  | 'order_completed'
  | 'not_charged'
  | 'already_refunded';

export interface RefundEligibility {
  /** The whole amount paid, fees included, or nothing: the guarantee has no partial refunds. */
  refund: 'full' | 'none';
  /** True when the refund is made without the buyer asking. */
  automatic: boolean;
  reason: RefundReason;
}

const full = (reason: RefundReason, automatic: boolean): RefundEligibility => ({ refund: 'full', automatic, reason });
const none = (reason: RefundReason): RefundEligibility => ({ refund: 'none', automatic: false, reason });

/**
 * The 100% Money Back Guarantee (RULES 10.10, 19.1, 19.2), as decided here:
 * - a cancelled event is refunded in full, automatically, whatever the order's paid state;
 * - a seller who cannot fill the order: refunded in full, automatically;
 * - a postponed or rescheduled event: the tickets stay valid for the new date, and the buyer may instead ask
 *   for a full refund until the window the change's notice opened closes (`refundUntil`, 30 days from it);
 * - a scheduled event: the buyer may call the order off for a full refund until the seller confirms; after
 *   confirmation the sale is final.
 * Orders never charged (reserved, expired) and orders completed or already refunded have nothing to refund.
 */
export function refundEligibility(
  eventStatus: EventStatus,
  orderStatus: OrderStatus,
  { windowOpen = false }: { windowOpen?: boolean } = {},
): RefundEligibility {
  switch (orderStatus) {
    case 'reserved':
    case 'expired':
      return none('not_charged');
    case 'refunded':
      return none('already_refunded');
    case 'completed':
      return none('order_completed');
    case 'rejected':
      return full('seller_rejected', true);
    case 'cancelled':
      // Money taken before the cancellation (if any: see `wasCharged`) all goes back.
      return full(eventStatus === 'cancelled' ? 'event_cancelled' : 'order_cancelled', true);
    case 'pending_seller_confirmation':
    case 'confirmed':
    case 'delivered':
      break;
  }
  if (eventStatus === 'cancelled') return full('event_cancelled', true);
  if (windowOpen) return full('event_rescheduled', false);
  if (orderStatus === 'pending_seller_confirmation') return full('not_yet_confirmed', false);
  return none(eventStatus === 'postponed' || eventStatus === 'rescheduled' ? 'window_closed' : 'sale_final');
}
