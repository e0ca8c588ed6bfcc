import { OPT_OUT_COOKIE } from '../../../shared/rules/opt-out-cookie.js';
import { documentCookies, readCookie } from './cookies.js';

/**
 * RULES 21.4: whether the shopper opted out of the sale or sharing of their data: Global Privacy Control (the
 * browser says so on every page), or the choice they made on /policies#optout (the server's cookie says so). Either
 * way nothing is collected (first-party events) and nothing is shared (the tag manager's data layer).
 */
export function globalPrivacyControl(): boolean {
  if (typeof navigator === 'undefined') return false;
  return (navigator as Navigator & { globalPrivacyControl?: boolean }).globalPrivacyControl === true;
}

/** The choice made on /policies#optout, as the server's cookie tells it. */
export function optedOutByChoice(): boolean {
  return readCookie(documentCookies(), OPT_OUT_COOKIE) === '1';
}

/** RULES 21.4: what leaves the site (the data layer a tag manager reads) may go: not once the shopper opted out. */
export function sharingAllowed(): boolean {
  return typeof window !== 'undefined' && !globalPrivacyControl() && !optedOutByChoice();
}
