import type { ZIP_KEY_TYPES } from '../schemas/documents.js';
import {
  DIRECT_MARKET_STATES,
  NATIONAL_MARKET,
  ZIP2_PREFIX_LENGTH,
  ZIP3_PREFIX_LENGTH,
  ZIP_DETERMINATION_FAILURE_MESSAGE,
} from './constants.js';
import type { ErrorLogger } from '../logger.js';

export type MarketKeyType = (typeof ZIP_KEY_TYPES)[number];
/** Finds the market of a key (the ZipEventDetermination search behind it); null when there is none. */
export type MarketLookup = (key: string, keyType: MarketKeyType) => Promise<string | null>;

export interface MarketInput {
  state?: string | null;
  zip?: string | null;
}

export interface DefaultLocation {
  readonly city: string;
  readonly state: string;
  readonly country: string;
  readonly postalCode: string;
  readonly lat: number;
  readonly lng: number;
}

/** Spec §3, §9: the fallback location, New York 10007 (Lower Manhattan, by City Hall; GeoNames' postal point). */
export const DEFAULT_LOCATION: DefaultLocation = Object.freeze({
  city: 'New York',
  state: 'NY',
  country: 'US',
  postalCode: '10007',
  lat: 40.7139,
  lng: -74.0079,
});

const DIRECT = new Set<string>(DIRECT_MARKET_STATES);

function zipPrefix(zip: string, length: number): string | null {
  const prefix = zip.slice(0, length);
  return prefix.length === length && /^\d+$/.test(prefix) ? prefix : null;
}

/**
 * Spec §4: HI, AK, DE and RI are their own market. Otherwise the 3-digit ZIP prefix, then the 2-digit prefix,
 * then the state are looked up, in that order, and the first market found wins; none gives 'national'.
 * Spec §8: a failing lookup is logged and gives 'national'.
 */
export async function resolveMarket(input: MarketInput, lookup: MarketLookup, logger?: ErrorLogger): Promise<string> {
  const state = (input.state ?? '').trim().toUpperCase();
  if (DIRECT.has(state)) return state;
  const zip = (input.zip ?? '').trim();
  const keys: [string, MarketKeyType][] = [];
  const zip3 = zipPrefix(zip, ZIP3_PREFIX_LENGTH);
  const zip2 = zipPrefix(zip, ZIP2_PREFIX_LENGTH);
  if (zip3) keys.push([zip3, 'zip3']);
  if (zip2) keys.push([zip2, 'zip2']);
  if (state !== '') keys.push([state, 'state']);
  try {
    for (const [key, keyType] of keys) {
      const market = await lookup(key, keyType);
      if (market) return market;
    }
  } catch (err) {
    logger?.error({ err, state, zip }, ZIP_DETERMINATION_FAILURE_MESSAGE);
  }
  return NATIONAL_MARKET;
}
