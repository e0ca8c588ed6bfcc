import {
  APPLE_PAY_VERSION,
  FF20_DISCOUNT_FACTOR,
  FF20_PROMO_CODE,
  PAYMENT_FAILED_SUFFIX,
  PURCHASE_VALUE_MULTIPLIER,
} from './constants.js';

function toCents(amount: number): number {
  return Math.round(amount * 100);
}

/**
 * Spec §9: promo FF20 multiplies by 0.8 (20% off). It applies to the ticket subtotal only (price × quantity);
 * service fees and delivery are added afterwards at full price, so the discount never reduces a fee. The code
 * is matched case-insensitively; any other code leaves the amount unchanged. Rounded to whole cents.
 */
export function applyPromo(code: string | null | undefined, ticketSubtotal: number): number {
  if (!Number.isFinite(ticketSubtotal) || ticketSubtotal < 0) {
    throw new RangeError(`ticket subtotal must be a finite amount of at least 0, got ${ticketSubtotal}`);
  }
  if ((code ?? '').trim().toUpperCase() !== FF20_PROMO_CODE) return ticketSubtotal;
  return Math.round(toCents(ticketSubtotal) * FF20_DISCOUNT_FACTOR) / 100;
}

export interface PurchaseTrackingEvent {
  event: 'purchase';
  phet: number;
}

/**
 * Spec §7, §9: the purchase event's value is 95 times the total, in the field phet. The total is taken to
 * whole cents first, which keeps the product exact ($12.34 → 1172.3).
 */
export function purchaseTrackingEvent(total: number): PurchaseTrackingEvent {
  return { event: 'purchase', phet: (toCents(total) * PURCHASE_VALUE_MULTIPLIER) / 100 };
}

/** Spec §4: a payment failure is tracked under the payment type plus a failed suffix ("paypal_failed"). */
export function paymentFailedEventName(paymentType: string): string {
  return `${paymentType}${PAYMENT_FAILED_SUFFIX}`;
}

/** The two checks of the browser's ApplePaySession this rule needs. */
export interface ApplePayEnvironment {
  supportsVersion(version: number): boolean;
  canMakePayments(): boolean;
}

/**
 * Spec §5: Apple Pay is offered only when version 3 is supported and the device can make payments. A missing
 * ApplePaySession, or one that throws (insecure context, iframe), means no Apple Pay.
 */
export function canOfferApplePay(env: ApplePayEnvironment | undefined): boolean {
  if (!env) return false;
  try {
    return env.supportsVersion(APPLE_PAY_VERSION) === true && env.canMakePayments() === true;
  } catch {
    return false;
  }
}
