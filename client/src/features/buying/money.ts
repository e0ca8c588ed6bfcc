import type { Listing } from '../../../../shared/schemas/commerce.js';
import { seatLocation } from '../../../../shared/rules/disclosures.js';
import { formatMoney as formatDollars } from '../../../../shared/rules/pricing.js';
import type { ErrorLogger } from '../../../../shared/logger.js';

/** RULES 14.11: a price that cannot be formatted is logged and shown as it is; checkout carries on. */
const priceLogger: ErrorLogger = { error: (obj, msg) => console.error(msg, obj) };

/** "$1,234.50", "$12" (RULES 3.6: thousands separators). */
export function formatMoney(dollars: number): string {
  return formatDollars(dollars, priceLogger);
}

export function formatRate(rate: number): string {
  return `${Math.round(rate * 1000) / 10}%`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "Nov 21, 2026" for an ISO date or date-time, read as a calendar date (no time-zone shift). */
export function formatCalendarDate(iso: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso);
  const month = m ? MONTHS[Number(m[2]) - 1] : undefined;
  return m && month ? `${month} ${Number(m[3])}, ${m[1]}` : iso;
}

/** The quantities a shopper can take from a listing now: the seller's splits that fit what is left. */
export function allowedQuantities(listing: Pick<Listing, 'splits' | 'quantityAvailable'>): number[] {
  return [...new Set(listing.splits)].filter((n) => n <= listing.quantityAvailable).sort((a, b) => a - b);
}

/** "Section 112, Row F", "Pit, general admission" (RULES 20.1). */
export function seatLabel(listing: Pick<Listing, 'section' | 'row'>): string {
  return seatLocation(listing);
}
