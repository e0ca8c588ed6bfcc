import { PAGE_COOKIES } from '../../../shared/schemas/page-render.js';
import { parsePlace, placeText, type ChosenPlace } from '../../../shared/rules/location.js';
import { documentCookies, readCookie, writeCookie } from './cookies.js';

/** Kept in a cookie so the server renders a landing page for the same place the page then asks for. */
export const LOCATION_COOKIE = PAGE_COOKIES.location;
const LEGACY_KEY = 'shopperLocation';
const YEAR_SECONDS = 365 * 24 * 3600;

/** The place kept in this browser's cookies. */
export function storedLocation(): ChosenPlace {
  const fromCookie = parsePlace(readCookie(documentCookies(), LOCATION_COOKIE));
  if (fromCookie) return fromCookie;
  // A place chosen before the cookie existed is moved into it.
  if (typeof localStorage === 'undefined') return null;
  try {
    const raw = JSON.parse(localStorage.getItem(LEGACY_KEY) ?? 'null') as Record<string, unknown> | null;
    const legacy =
      raw && typeof raw.lat === 'number' && typeof raw.lng === 'number'
        ? parsePlace(`${raw.lat},${raw.lng}`)
        : raw && typeof raw.zip === 'string'
          ? parsePlace(raw.zip)
          : null;
    localStorage.removeItem(LEGACY_KEY);
    if (legacy) storeLocation(legacy);
    return legacy;
  } catch {
    return null;
  }
}

export function storeLocation(location: ChosenPlace): void {
  writeCookie(LOCATION_COOKIE, location ? placeText(location) : null, YEAR_SECONDS);
}
