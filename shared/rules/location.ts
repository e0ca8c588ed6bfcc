import type { ZIP_KEY_TYPES } from '../schemas/documents.js';
import type { ResolvedLocation } from '../schemas/layout.js';
import {
  DIRECT_MARKET_STATES,
  NATIONAL_MARKET,
  ZIP2_PREFIX_LENGTH,
  ZIP3_PREFIX_LENGTH,
  ZIP_DETERMINATION_FAILURE_MESSAGE,
} from './constants.js';
import type { ErrorLogger } from '../logger.js';

/** A US ZIP code: five digits. */
export const ZIP_PATTERN = /^\d{5}$/;
export const MAX_LATITUDE = 90;
export const MAX_LONGITUDE = 180;
/** Two decimals (about a kilometre) is all the rows need of the shopper's coordinates, and all worth sending. */
export const PLACE_DECIMALS = 2;
/** The time zone of the fallback location, and of a place whose city is not found. */
export const DEFAULT_TIME_ZONE = 'America/New_York';

/** The place the shopper chose, kept in their browser: their coordinates, a ZIP code, or none yet. */
export type ChosenPlace = { lat: number; lng: number } | { zip: string } | null;

/** A layout request's place as the API reads it: coordinates (both or neither), a ZIP code, or neither. */
export interface LocationQuery {
  lat?: number;
  lng?: number;
  zip?: string;
}

/** Where the shopper is, as the layout found it (RULES 6.1, 6.4), with the time zone their rows are dated in. */
export interface ZonedLocation extends ResolvedLocation {
  timeZone: string;
}

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

/** RULES 6.3: the fallback location, New York 10007 (Lower Manhattan, by City Hall; GeoNames' postal point). */
export const DEFAULT_LOCATION: DefaultLocation = Object.freeze({
  city: 'New York',
  state: 'NY',
  country: 'US',
  postalCode: '10007',
  lat: 40.7139,
  lng: -74.0079,
});

/** A chosen place as text (`10001`, or `41.88,-87.63`), or null when it is neither. */
export function parsePlace(text: string | undefined | null): ChosenPlace {
  if (!text) return null;
  if (ZIP_PATTERN.test(text)) return { zip: text };
  const match = /^(-?\d{1,2}(?:\.\d+)?),(-?\d{1,3}(?:\.\d+)?)$/.exec(text);
  if (!match) return null;
  const lat = Number(match[1]);
  const lng = Number(match[2]);
  return Math.abs(lat) <= MAX_LATITUDE && Math.abs(lng) <= MAX_LONGITUDE ? { lat, lng } : null;
}

/** A chosen place as the text `parsePlace` reads back. */
export function placeText(place: NonNullable<ChosenPlace>): string {
  return 'zip' in place ? place.zip : `${place.lat.toFixed(PLACE_DECIMALS)},${place.lng.toFixed(PLACE_DECIMALS)}`;
}

/** The layout API's parameters for a chosen place (`zip`, or `lat` and `lng`), as the client sends them. */
export function placeParams(place: ChosenPlace): [string, string][] {
  if (!place) return [];
  if ('zip' in place) return [['zip', place.zip]];
  return [
    ['lat', place.lat.toFixed(PLACE_DECIMALS)],
    ['lng', place.lng.toFixed(PLACE_DECIMALS)],
  ];
}

/** RULES 6.3: the fallback location, New York 10007, with the ZIP the shopper gave when there was one. */
export function defaultLocation(zip: string | undefined): ZonedLocation {
  return {
    lat: DEFAULT_LOCATION.lat,
    lng: DEFAULT_LOCATION.lng,
    city: DEFAULT_LOCATION.city,
    state: DEFAULT_LOCATION.state,
    country: DEFAULT_LOCATION.country,
    source: 'default',
    ...(zip ? { zip } : {}),
    timeZone: DEFAULT_TIME_ZONE,
  };
}

/**
 * Where the shopper is when nothing could be looked up in time: their own coordinates (without a city), else
 * the fallback location.
 */
export function unlookedLocation(query: LocationQuery): ZonedLocation {
  if (query.lat !== undefined && query.lng !== undefined) {
    return {
      lat: query.lat,
      lng: query.lng,
      city: '',
      state: '',
      country: '',
      source: 'coordinates',
      timeZone: DEFAULT_TIME_ZONE,
    };
  }
  return defaultLocation(query.zip);
}

const DIRECT = new Set<string>(DIRECT_MARKET_STATES);

function zipPrefix(zip: string, length: number): string | null {
  const prefix = zip.slice(0, length);
  return prefix.length === length && /^\d+$/.test(prefix) ? prefix : null;
}

/**
 * RULES 6.1: HI, AK, DE and RI are their own market. Otherwise the 3-digit ZIP prefix, then the 2-digit prefix,
 * then the state are looked up, in that order, and the first market found wins; none gives 'national'.
 * RULES 14.9: a failing lookup is logged and gives 'national'.
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
