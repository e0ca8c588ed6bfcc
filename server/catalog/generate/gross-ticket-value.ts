import type { CatalogWriters } from './catalog-writers.js';
import type { VenueRec } from './catalog-records.js';

type KeyType = 'zip3' | 'zip2' | 'state';

/**
 * Gross ticket value of upcoming US events per city, summed by three-digit zip prefix, two-digit prefix and
 * state: each key's determination is the city with the most value there.
 */
export class GrossTicketValue {
  private readonly buckets: Record<KeyType, Map<string, Map<string, number>>> = {
    zip3: new Map(),
    zip2: new Map(),
    state: new Map(),
  };
  private readonly cityOf = new Map<string, VenueRec>();

  add(venue: VenueRec, value: number): void {
    const cityKey = `${venue.city}|${venue.state}`;
    this.cityOf.set(cityKey, venue);
    for (const [bucket, key] of [
      [this.buckets.zip3, venue.zip.slice(0, 3)],
      [this.buckets.zip2, venue.zip.slice(0, 2)],
      [this.buckets.state, venue.state],
    ] as const) {
      const byCity = bucket.get(key) ?? new Map<string, number>();
      byCity.set(cityKey, (byCity.get(cityKey) ?? 0) + value);
      bucket.set(key, byCity);
    }
  }

  /** One determination per key, keys in order within each key type. */
  write(writer: CatalogWriters['ZipEventDetermination']): void {
    for (const [keyType, bucket] of Object.entries(this.buckets) as [KeyType, Map<string, Map<string, number>>][]) {
      for (const key of [...bucket.keys()].sort()) {
        const byCity = bucket.get(key)!;
        let best = '';
        let total = 0;
        for (const [city, value] of byCity) {
          total += value;
          if (!best || value > byCity.get(best)! || (value === byCity.get(best)! && city < best)) best = city;
        }
        const venue = this.cityOf.get(best)!;
        writer.write({
          id: `${keyType}-${key}`,
          key,
          key_type: keyType,
          determination: `${venue.city}-${venue.state}`.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
          city: venue.city,
          state: venue.state,
          location: [venue.lat, venue.lng],
          gross_ticket_value: Math.round(total * 100) / 100,
        });
      }
    }
  }
}
