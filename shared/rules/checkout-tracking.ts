import { PAYMENT_FAILED_SUFFIX, PURCHASE_VALUE_MULTIPLIER } from './constants.js';
import { toCents } from './pricing.js';

export interface PurchaseTrackingEvent {
  event: 'purchase';
  phet: number;
}

/**
 * RULES 9.8: the purchase event's value is 95 times the total, in the field phet. The total is taken to
 * whole cents first, which keeps the product exact ($12.34 → 1172.3).
 */
export function purchaseTrackingEvent(total: number): PurchaseTrackingEvent {
  return { event: 'purchase', phet: (toCents(total) * PURCHASE_VALUE_MULTIPLIER) / 100 };
}

/** RULES 9.9: a payment failure is tracked under the payment type plus a failed suffix ("paypal_failed"). */
export function paymentFailedEventName(paymentType: string): string {
  return `${paymentType}${PAYMENT_FAILED_SUFFIX}`;
}
