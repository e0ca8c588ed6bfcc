import type { Order } from '../../../../shared/schemas/commerce.js';
import { paymentFailedEventName, purchaseTrackingEvent } from '../../../../shared/rules/checkout-tracking.js';
import { EVENT_TEXT_MAX } from '../../../../shared/schemas/browser-events.js';
import { track } from '../../lib/analytics.js';
import { pushToDataLayer } from '../../lib/data-layer.js';

/** RULES 14.12, 14.13: log wording. */
export const PURCHASE_TRACKING_FAILURE = 'Something went wrong while tracking the purchase';
export const PAYMENT_FAILURE_TRACKING_FAILURE = 'Something went wrong in tracking the payment failing';

export type PaymentType = 'card' | 'applepay';

const REASON_MAX = EVENT_TEXT_MAX.reason;

/** RULES 9.8: `{ event: 'purchase', phet }`, 95 × total. Tracking never stands between the shopper and the order. */
export function trackPurchase(order: Pick<Order, 'tracking' | 'totalPrice'>): void {
  try {
    const event = order.tracking ?? purchaseTrackingEvent(order.totalPrice.value);
    pushToDataLayer({ event: event.event, phet: event.phet });
  } catch (err) {
    console.error(PURCHASE_TRACKING_FAILURE, err);
  }
}

/**
 * RULES 9.9: a failed payment is tracked as `<paymentType>_failed`; the first-party event's reason names both,
 * `card_failed:payment_declined`.
 */
export function trackPaymentFailure(paymentType: PaymentType, reason: string): void {
  const event = paymentFailedEventName(paymentType);
  try {
    pushToDataLayer({ event, reason });
  } catch (err) {
    console.error(PAYMENT_FAILURE_TRACKING_FAILURE, err);
  }
  track({ name: 'checkout_failed', reason: `${event}:${reason}`.slice(0, REASON_MAX) });
}

/** The shopper's tickets are held in a new cart: the listing is the item added. */
export function trackAddToCart(listingId: number): void {
  track({ name: 'add_to_cart', item: `listing:${listingId}` });
}
