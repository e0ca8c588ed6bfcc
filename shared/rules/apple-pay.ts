import { APPLE_PAY_VERSION } from './constants.js';

/** The two checks of the browser's ApplePaySession this rule needs. */
export interface ApplePayEnvironment {
  supportsVersion(version: number): boolean;
  canMakePayments(): boolean;
}

/**
 * RULES 10.4: Apple Pay is offered only when version 3 is supported and the device can make payments. A missing
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
