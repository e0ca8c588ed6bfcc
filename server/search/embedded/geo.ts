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
