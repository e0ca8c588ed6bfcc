import { PAGE_COOKIES } from '../../../shared/schemas/page-render.js';
import { documentCookies, readCookie, writeCookie } from './cookies.js';

/** The shopper's chosen location, kept in this browser: coordinates from the browser, or a ZIP code. */
export type ShopperLocation = { lat: number; lng: number } | { zip: string } | null;

/** Kept in a cookie so the server renders a landing page for the same place the page then asks for. */
export const LOCATION_COOKIE = PAGE_COOKIES.location;
const LEGACY_KEY = 'shopperLocation';
const YEAR_SECONDS = 365 * 24 * 3600;

/** A stored location as text (`10001`, or `41.88,-87.63`), or null when it is neither. */
export function parseLocation(text: string | undefined | null): ShopperLocation {
  if (!text) return null;
  if (/^\d{5}$/.test(text)) return { zip: text };
  const match = /^(-?\d{1,2}(?:\.\d+)?),(-?\d{1,3}(?:\.\d+)?)$/.exec(text);
  if (!match) return null;
  const lat = Number(match[1]);
  const lng = Number(match[2]);
  return Math.abs(lat) <= 90 && Math.abs(lng) <= 180 ? { lat, lng } : null;
}

function locationText(location: Exclude<ShopperLocation, null>): string {
  return 'zip' in location ? location.zip : `${location.lat.toFixed(2)},${location.lng.toFixed(2)}`;
}

/** The location from a `Cookie` header or `document.cookie`. */
export function cookieLocation(cookies: string): ShopperLocation {
  return parseLocation(readCookie(cookies, LOCATION_COOKIE));
}

/** The place kept in the cookies (`document.cookie` unless given the request's, on the server). */
export function storedLocation(cookies = documentCookies()): ShopperLocation {
  const fromCookie = cookieLocation(cookies);
  if (fromCookie) return fromCookie;
  // A place chosen before the cookie existed is moved into it (in the browser; the server has no storage).
  if (typeof localStorage === 'undefined') return null;
  try {
    const raw = JSON.parse(localStorage.getItem(LEGACY_KEY) ?? 'null') as Record<string, unknown> | null;
    const legacy =
      raw && typeof raw.lat === 'number' && typeof raw.lng === 'number'
        ? parseLocation(`${raw.lat},${raw.lng}`)
        : raw && typeof raw.zip === 'string'
          ? parseLocation(raw.zip)
          : null;
    localStorage.removeItem(LEGACY_KEY);
    if (legacy) storeLocation(legacy);
    return legacy;
  } catch {
    return null;
  }
}

export function storeLocation(location: ShopperLocation): void {
  writeCookie(LOCATION_COOKIE, location ? locationText(location) : null, YEAR_SECONDS);
}

export function locationParams(location: ShopperLocation): string {
  if (!location) return '';
  if ('zip' in location) return `zip=${location.zip}`;
  // Two decimals (about a kilometre) is all the rows need, and all that is worth sending.
  return `lat=${location.lat.toFixed(2)}&lng=${location.lng.toFixed(2)}`;
}
