/** Mean Earth radius in miles, as geo filters in miles use. */
export const EARTH_RADIUS_MILES = 3958.8;

const rad = (deg: number) => (deg * Math.PI) / 180;

/** Great-circle distance between two points, in miles. */
export function haversineMiles(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const dLat = rad(lat2 - lat1);
  const dLng = rad(lng2 - lng1);
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(rad(lat1)) * Math.cos(rad(lat2)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_MILES * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** Miles per degree of latitude, for sizing a cell search (the exact check is haversine). */
const MILES_PER_DEGREE_LAT = 69;

/** Degrees of latitude a distance spans, with a little slack: a point further off in latitude is out of range. */
export function latitudeSpan(miles: number): number {
  return miles / MILES_PER_DEGREE_LAT + 0.01;
}

/** The 1° grid cell a point lies in. */
export function cellOf(lat: number, lng: number): string {
  return `${Math.floor(lat)}:${Math.floor(lng)}`;
}

/** The cell of a coarser grid (`degrees` a side, a divisor of 180) a point lies in; named apart from 1° cells. */
export function coarseCellOf(lat: number, lng: number, degrees: number): string {
  return `${degrees}°${Math.floor(lat / degrees)}:${Math.floor(lng / degrees)}`;
}

/**
 * The cells that cover a radius around a point, or null when the radius spans every longitude: 1° cells, or those
 * of a coarser grid (`coarseCellOf`) when `degrees` is given.
 */
export function coveringCells(geo: { lat: number; lng: number; radiusMiles: number }, degrees = 1): string[] | null {
  const latSpan = geo.radiusMiles / MILES_PER_DEGREE_LAT;
  const cos = Math.max(0.01, Math.cos((Math.min(89, Math.abs(geo.lat) + latSpan) * Math.PI) / 180));
  const lngSpan = Math.min(180, geo.radiusMiles / (MILES_PER_DEGREE_LAT * cos));
  if (Math.floor(geo.lng + lngSpan) - Math.floor(geo.lng - lngSpan) + 1 >= 360) return null;
  const cell = degrees === 1 ? cellOf : (lat: number, lng: number) => coarseCellOf(lat, lng, degrees);
  const cells: string[] = [];
  for (let lat = Math.floor((geo.lat - latSpan) / degrees); lat <= Math.floor((geo.lat + latSpan) / degrees); lat++) {
    for (let lng = Math.floor((geo.lng - lngSpan) / degrees); lng <= Math.floor((geo.lng + lngSpan) / degrees); lng++) {
      cells.push(cell(lat * degrees, ((((lng * degrees + 180) % 360) + 360) % 360) - 180));
    }
  }
  return cells;
}
