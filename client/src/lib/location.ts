/** The shopper's chosen location, kept in this browser: coordinates from the browser, or a ZIP code. */
export type ShopperLocation = { lat: number; lng: number } | { zip: string } | null;
const KEY = 'shopperLocation';

export function storedLocation(): ShopperLocation {
  try {
    const raw = JSON.parse(localStorage.getItem(KEY) ?? 'null') as unknown;
    if (raw && typeof raw === 'object') {
      const r = raw as Record<string, unknown>;
      if (typeof r.lat === 'number' && typeof r.lng === 'number') return { lat: r.lat, lng: r.lng };
      if (typeof r.zip === 'string' && /^\d{5}$/.test(r.zip)) return { zip: r.zip };
    }
  } catch {
    // fall through to no location
  }
  return null;
}

export function storeLocation(location: ShopperLocation): void {
  if (location) localStorage.setItem(KEY, JSON.stringify(location));
  else localStorage.removeItem(KEY);
}

export function locationParams(location: ShopperLocation): string {
  if (!location) return '';
  if ('zip' in location) return `zip=${location.zip}`;
  // Two decimals (about a kilometre) is all the rows need, and all that is worth sending.
  return `lat=${location.lat.toFixed(2)}&lng=${location.lng.toFixed(2)}`;
}
