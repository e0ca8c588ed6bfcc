import { z } from 'zod';
import { fromText } from '../../shared/schemas/zod.js';
import type { USCityDocument, ZipEventDeterminationDocument } from '../../shared/schemas/documents.js';
import {
  DEFAULT_TIME_ZONE,
  defaultLocation,
  MAX_LATITUDE,
  MAX_LONGITUDE,
  resolveMarket,
  unlookedLocation,
  ZIP_PATTERN,
  type LocationQuery,
  type ZonedLocation,
} from '../../shared/rules/location.js';
import type { ErrorLogger } from '../../shared/logger.js';
import { zipDeterminationRequest } from '../search/queries.js';
import type { SearchEngine } from '../search/search-engine.js';

/** How far to look for the city a pair of coordinates is in. */
const NEAREST_CITY_MILES = 100;
/** How long finding the shopper's city or market may take before the page goes on without it. */
export const LOCATION_DEADLINE_MS = 300;

const latitudeRange = `lat must be between -${MAX_LATITUDE} and ${MAX_LATITUDE}`;
const longitudeRange = `lng must be between -${MAX_LONGITUDE} and ${MAX_LONGITUDE}`;

/** A place in a request's query (the layout API's, the studio preview's), checked by the location rules. */
export const LocationQuerySchema = z
  .object({
    lat: fromText(
      z.number({ error: 'lat must be a number' }).min(-MAX_LATITUDE, latitudeRange).max(MAX_LATITUDE, latitudeRange),
    ).optional(),
    lng: fromText(
      z
        .number({ error: 'lng must be a number' })
        .min(-MAX_LONGITUDE, longitudeRange)
        .max(MAX_LONGITUDE, longitudeRange),
    ).optional(),
    zip: z.string().regex(ZIP_PATTERN, 'zip must be a 5-digit US ZIP code').optional(),
  })
  .refine((q) => (q.lat === undefined) === (q.lng === undefined), {
    message: 'lat and lng go together',
    path: ['lng'],
  }) satisfies z.ZodType<LocationQuery>;

/**
 * Where the shopper is (RULES 6.4): their coordinates when given; else their ZIP's market (3-digit prefix,
 * then 2-digit, per the location rules); else New York 10007.
 */
export async function resolveLocation(
  query: LocationQuery,
  engine: SearchEngine,
  logger?: ErrorLogger,
  deadlineMs = LOCATION_DEADLINE_MS,
): Promise<ZonedLocation> {
  // Finding the city is a nicety: a slow search must not hold the page, so past the deadline the shopper's
  // own coordinates (or New York) serve without a city name.
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), deadlineMs);
  });
  try {
    const found = await Promise.race([lookup(query, engine, logger).catch(() => null), late]);
    return found ?? unlookedLocation(query);
  } finally {
    clearTimeout(timer);
  }
}

async function lookup(query: LocationQuery, engine: SearchEngine, logger?: ErrorLogger): Promise<ZonedLocation> {
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
 * A ZIP code's market as the layout finds it (RULES 6.1: 3-digit prefix, then 2-digit), or null when no market
 * knows the ZIP: the shopper is told so, rather than silently shown New York.
 */
export async function zipLocation(
  zip: string,
  engine: SearchEngine,
  logger?: ErrorLogger,
): Promise<ZonedLocation | null> {
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
