import { AppError } from '../http/errors.js';
import { resolveLocation, zipLocation } from '../layout/location-lookup.js';
import type { LocationQuery } from '../../shared/rules/location.js';
import type { SearchEngine } from '../search/search-engine.js';

/** A ZIP, coordinates, or a city ("Chicago, IL" or "Chicago"): the city's ZIP, then as shoppers are placed. */
export async function previewPlace(query: LocationQuery & { city?: string }, engine: SearchEngine) {
  if (query.city) {
    const [name, state] = query.city.split(',').map((s) => s.trim());
    const found = await engine.search({
      collection: 'USCity',
      q: name!,
      queryBy: ['city'],
      filters: state ? [{ op: 'eq', field: 'state_id', value: state.toUpperCase() }] : [],
      sort: [{ by: 'population', order: 'desc' }],
      perPage: 10,
    });
    const city = found.hits
      .map((h) => h.document as { city: string; zip: string; location: [number, number] })
      .find((c) => c.city.toLowerCase() === name!.toLowerCase());
    if (!city) throw new AppError(404, 'unknown_city', `No US city "${query.city}" in the catalog`);
    return resolveLocation({ lat: city.location[0], lng: city.location[1] }, engine);
  }
  if (query.zip && query.lat === undefined) {
    // A ZIP nobody knows is said so, as the storefront's place form says it, not drawn as New York.
    const found = await zipLocation(query.zip, engine);
    if (!found) throw new AppError(404, 'unknown_zip', `We don't know ZIP code ${query.zip}`);
    return found;
  }
  return resolveLocation(query, engine);
}
