import type { Order } from '../../../../shared/schemas/commerce.js';
import { paymentFailedEventName, purchaseTrackingEvent } from '../../../../shared/rules/checkout-tracking.js';

/** RULES 14.12, 14.13: log wording. */
export const PURCHASE_TRACKING_FAILURE = 'Something went wrong while tracking the purchase';
export const PAYMENT_FAILURE_TRACKING_FAILURE = 'Something went wrong in tracking the payment failing';

export type PaymentType = 'card' | 'applepay';

/** RULES 9.8: `{ event: 'purchase', phet }`, 95 × total. Tracking never stands between the shopper and the order. */
export function trackPurchase(order: Pick<Order, 'tracking' | 'totalPrice'>): void {
  try {
    const event = order.tracking ?? purchaseTrackingEvent(order.totalPrice.value);
    (window.dataLayer ??= []).push({ event: event.event, phet: event.phet });
  } catch (err) {
    console.error(PURCHASE_TRACKING_FAILURE, err);
  }
}

/** RULES 9.9: a failed payment is tracked as `<paymentType>_failed`. */
export function trackPaymentFailure(paymentType: PaymentType, reason: string): void {
  try {
    (window.dataLayer ??= []).push({ event: paymentFailedEventName(paymentType), reason });
  } catch (err) {
    console.error(PAYMENT_FAILURE_TRACKING_FAILURE, err);
  }
}
