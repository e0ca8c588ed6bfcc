import { z } from 'zod';
import type { USCityDocument, ZipEventDeterminationDocument } from '../../shared/schemas/documents.js';
import type { ResolvedLocation } from '../../shared/schemas/layout.js';
import { DEFAULT_LOCATION, resolveMarket } from '../../shared/rules/location.js';
import type { ErrorLogger } from '../../shared/logger.js';
import { zipDeterminationRequest } from '../search/queries.js';
import type { SearchEngine } from '../search/search-engine.js';

export const DEFAULT_TIME_ZONE = 'America/New_York';
/** How far to look for the city a pair of coordinates is in. */
const NEAREST_CITY_MILES = 100;
/** How long finding the shopper's city or market may take before the page goes on without it. */
export const LOCATION_DEADLINE_MS = 300;

export const LocationQuerySchema = z
  .object({
    lat: z.coerce
      .number()
      .min(-90, 'lat must be between -90 and 90')
      .max(90, 'lat must be between -90 and 90')
      .optional(),
    lng: z.coerce
      .number()
      .min(-180, 'lng must be between -180 and 180')
      .max(180, 'lng must be between -180 and 180')
      .optional(),
    zip: z
      .string()
      .regex(/^\d{5}$/, 'zip must be a 5-digit US ZIP code')
      .optional(),
  })
  .refine((q) => (q.lat === undefined) === (q.lng === undefined), {
    message: 'lat and lng go together',
    path: ['lng'],
  });
export type LocationQuery = z.infer<typeof LocationQuerySchema>;

export interface ShopperLocation extends ResolvedLocation {
  timeZone: string;
}

/**
 * Where the shopper is (spec §4, §5): their coordinates when given; else their ZIP's market (3-digit prefix,
 * then 2-digit, per the location rules); else New York 10007.
 */
export async function resolveLocation(
  query: LocationQuery,
  engine: SearchEngine,
  logger?: ErrorLogger,
  deadlineMs = LOCATION_DEADLINE_MS,
): Promise<ShopperLocation> {
  // Finding the city is a nicety: a slow search must not hold the page, so past the deadline the shopper's
  // own coordinates (or New York) serve without a city name.
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), deadlineMs);
  });
  try {
    const found = await Promise.race([lookup(query, engine, logger).catch(() => null), late]);
    return found ?? fallback(query);
  } finally {
    clearTimeout(timer);
  }
}

function fallback(query: LocationQuery): ShopperLocation {
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

function defaultLocation(zip: string | undefined): ShopperLocation {
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

async function lookup(query: LocationQuery, engine: SearchEngine, logger?: ErrorLogger): Promise<ShopperLocation> {
  if (query.lat !== undefined && query.lng !== undefined) {
    const city = await nearestCity(engine, query.lat, query.lng);
    return {
      lat: query.lat,
      lng: query.lng,
      city: city?.city ?? '',
      state: city?.state_id ?? '',
      country: city ? 'US' : '',
      source: 'coordinates',
      timeZone: city?.time_zone ?? DEFAULT_TIME_ZONE,
    };
  }
  if (query.zip) {
    const found = new Map<string, ZipEventDeterminationDocument>();
    const market = await resolveMarket(
      { zip: query.zip },
      async (key, keyType) => {
        const result = await engine.search(zipDeterminationRequest(key, keyType));
        const doc = result.hits[0]?.document as ZipEventDeterminationDocument | undefined;
        if (doc) found.set(doc.determination, doc);
        return doc?.determination ?? null;
      },
      logger,
    );
    const doc = found.get(market);
    if (doc) {
      const city = await nearestCity(engine, doc.location[0], doc.location[1]);
      return {
        lat: doc.location[0],
        lng: doc.location[1],
        city: doc.city,
        state: doc.state,
        country: 'US',
        source: 'zip',
        zip: query.zip,
        market,
        timeZone: city?.time_zone ?? DEFAULT_TIME_ZONE,
      };
    }
  }
  return defaultLocation(query.zip);
}

/**
 * A ZIP code's market as the layout finds it (spec §4: 3-digit prefix, then 2-digit), or null when no market
 * knows the ZIP: the shopper is told so, rather than silently shown New York.
 */
export async function zipLocation(
  zip: string,
  engine: SearchEngine,
  logger?: ErrorLogger,
): Promise<ShopperLocation | null> {
  const found = await lookup({ zip }, engine, logger);
  return found.source === 'zip' ? found : null;
}

async function nearestCity(engine: SearchEngine, lat: number, lng: number): Promise<USCityDocument | undefined> {
  const result = await engine.search({
    collection: 'USCity',
    geo: { field: 'location', lat, lng, radiusMiles: NEAREST_CITY_MILES },
    sort: [{ by: '_geo_distance', order: 'asc' }],
    perPage: 1,
  });
  return result.hits[0]?.document as USCityDocument | undefined;
}
