import { PRICE_FORMAT_FAILURE_MESSAGE, SUBMIT_KEYCODE } from './constants.js';
import type { ErrorLogger } from '../logger.js';

const NUMERIC = /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)$/;
const grouped = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const cents = new Intl.NumberFormat('en-US', {
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
  signDisplay: 'negative',
});

/**
 * RULES 3.6: a numeric price (a finite number, or a plain decimal string such as "1234.5") gets thousands
 * separators; anything else comes back unchanged. Whole amounts show no decimals ("1,234"), any other
 * amount shows cents ("1,234.50"); one that rounds to whole dollars shows none (1234.001 → "1,234").
 * RULES 14.11: a failure is logged and the input is returned, so checkout carries on.
 */
export function formatPrice<T>(value: T, logger?: ErrorLogger): string | T {
  let n: number;
  if (typeof value === 'number') n = value;
  else if (typeof value === 'string' && NUMERIC.test(value.trim())) n = Number(value.trim());
  else return value;
  if (!Number.isFinite(n)) return value;
  try {
    const text = cents.format(n);
    return text.endsWith('.00') ? text.slice(0, -3) : text;
  } catch (err) {
    logger?.error({ err, value }, PRICE_FORMAT_FAILURE_MESSAGE);
    return value;
  }
}

/** A count with its noun, grouped by thousands: "0 Events", "1 Event", "1,234 Events". */
export function formatCount(n: number, singular: string, plural: string): string {
  return `${grouped.format(n)} ${n === 1 ? singular : plural}`;
}

/**
 * RULES 2.8: a query-string parameter, '' when absent; '+' reads as a space. Takes `location.search` (with or
 * without '?') or a whole URL. Malformed percent escapes are kept as written instead of throwing.
 */
export function readQueryParam(search: string, name: string): string {
  // A '?' before any '=' or '&' ends a URL or path; a later one belongs to a value.
  const mark = search.indexOf('?');
  const firstPair = search.search(/[=&]/);
  let query = mark >= 0 && (firstPair < 0 || mark < firstPair) ? search.slice(mark + 1) : search;
  const hash = query.indexOf('#');
  if (hash >= 0) query = query.slice(0, hash);
  return new URLSearchParams(query).get(name) ?? '';
}

/** RULES 7.4: the query is lower-cased; surrounding whitespace is not part of it. */
export function normalizeSearchQuery(q: string): string {
  return q.trim().toLowerCase();
}

/** RULES 7.6: a search is sent only when the (normalised) query is not empty, so "   " sends nothing. */
export function shouldSearch(q: string): boolean {
  return normalizeSearchQuery(q).length > 0;
}

export interface KeyLike {
  key?: string;
  code?: string;
  keyCode?: number;
  isComposing?: boolean;
}

/**
 * RULES 7.7: Enter, numpad Enter or keycode 13 submits a full search. Not while an input method is composing:
 * that Enter picks a candidate character, not the query.
 */
export function isSubmitKey(event: KeyLike): boolean {
  if (event.isComposing) return false;
  return (
    event.key === 'Enter' || event.code === 'Enter' || event.code === 'NumpadEnter' || event.keyCode === SUBMIT_KEYCODE
  );
}
