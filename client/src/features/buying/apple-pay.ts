import { canOfferApplePay, type ApplePayEnvironment } from '../../../../shared/rules/apple-pay.js';

declare global {
  interface Window {
    ApplePaySession?: ApplePayEnvironment;
  }
}

/** The payment token the sandbox processor accepts for Apple Pay; a real session would hand one over. */
export const SANDBOX_APPLE_PAY_TOKEN = 'applepay-success';

/** RULES 10.4: only with version 3 support and a device that can make payments. */
export function applePayAvailable(): boolean {
  return typeof window !== 'undefined' && canOfferApplePay(window.ApplePaySession);
}
