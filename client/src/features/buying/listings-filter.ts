import type { ListingsCallFilter } from '../../../../shared/schemas/api-calls.js';
import { MAX_TICKETS_PER_EVENT } from '../../../../shared/rules/constants.js';
import { SORTS, type ListingSort } from './buying-api.js';

/** RULES 8.1, 8.4: the quantities a shopper picks from, 1 up to what one shopper may buy of an event. */
export const QUANTITY_CHOICES: readonly number[] = Array.from({ length: MAX_TICKETS_PER_EVENT }, (_, i) => i + 1);
/** Most tickets are bought in pairs. */
export const DEFAULT_QUANTITY = 2;

function readQuantity(text: string | null): number {
  const n = Number(text);
  return Number.isInteger(n) && n >= 1 && n <= QUANTITY_CHOICES.length ? n : DEFAULT_QUANTITY;
}

/** A price typed or in the address: a non-negative number, or undefined for none or anything else. */
export function readPrice(text: string | null): number | undefined {
  if (text === null || text.trim() === '') return undefined;
  const n = Number(text);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

function readSort(text: string | null): ListingSort {
  return (SORTS as readonly string[]).includes(text ?? '') ? (text as ListingSort) : 'price_asc';
}

/** The address parameter of "Accessible seating only" (RULES 10.15): `1` when on, absent when off. */
export const ACCESSIBLE_PARAM = 'accessible';

function readAccessible(text: string | null): boolean {
  return text === '1' || text === 'true';
}

export type ActiveFilter = ListingsCallFilter & { quantity: number; sort: ListingSort };

/** The listing filters live in the address, so Back and a shared link keep them. */
export function readListingsFilter(params: URLSearchParams): ActiveFilter {
  const filter: ActiveFilter = { quantity: readQuantity(params.get('quantity')), sort: readSort(params.get('sort')) };
  const minPrice = readPrice(params.get('minPrice'));
  const maxPrice = readPrice(params.get('maxPrice'));
  if (minPrice !== undefined) filter.minPrice = minPrice;
  if (maxPrice !== undefined) filter.maxPrice = maxPrice;
  if (readAccessible(params.get(ACCESSIBLE_PARAM))) filter.accessible = true;
  return filter;
}
