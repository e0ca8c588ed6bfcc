import type { CatalogWriters } from './catalog-writers.js';
import type { VenueRec } from './catalog-records.js';

type KeyType = 'zip3' | 'zip2' | 'state';

/** A city's running total under one key. */
interface CityTotal {
  value: number;
}

/** A city, with the venue last counted there: the place its determinations name. */
interface City {
  venue: VenueRec;
}

/**
 * Gross ticket value of upcoming US events per city, summed by three-digit zip prefix, two-digit prefix and
 * state: each key's determination is the city with the most value there.
 */
export class GrossTicketValue {
  private readonly buckets: Record<KeyType, Map<string, Map<string, CityTotal>>> = {
    zip3: new Map(),
    zip2: new Map(),
    state: new Map(),
  };
  private readonly cityOf = new Map<string, City>();
  /** Per venue counted: its city and the city's totals under the venue's three keys. */
  private readonly venueTotals = new Map<VenueRec, { city: City; totals: CityTotal[] }>();

  add(venue: VenueRec, value: number): void {
    let entry = this.venueTotals.get(venue);
    if (!entry) this.venueTotals.set(venue, (entry = this.totalsOf(venue)));
    entry.city.venue = venue;
    for (const total of entry.totals) total.value += value;
  }

  /** The venue's city and its totals under the venue's zip3, zip2 and state keys, opened at 0 when new. */
  private totalsOf(venue: VenueRec): { city: City; totals: CityTotal[] } {
    const cityKey = `${venue.city}|${venue.state}`;
    let city = this.cityOf.get(cityKey);
    if (!city) this.cityOf.set(cityKey, (city = { venue }));
    const totals = (
      [
        [this.buckets.zip3, venue.zip.slice(0, 3)],
        [this.buckets.zip2, venue.zip.slice(0, 2)],
        [this.buckets.state, venue.state],
      ] as const
    ).map(([bucket, key]) => {
      let byCity = bucket.get(key);
      if (!byCity) bucket.set(key, (byCity = new Map()));
      let total = byCity.get(cityKey);
      if (!total) byCity.set(cityKey, (total = { value: 0 }));
      return total;
    });
    return { city, totals };
  }

  /** One determination per key, keys in order within each key type. */
  write(writer: CatalogWriters['ZipEventDetermination']): void {
    for (const [keyType, bucket] of Object.entries(this.buckets) as [KeyType, Map<string, Map<string, CityTotal>>][]) {
      for (const key of [...bucket.keys()].sort()) {
        const byCity = bucket.get(key)!;
        let best = '';
        let total = 0;
        for (const [city, { value }] of byCity) {
          total += value;
          if (!best || value > byCity.get(best)!.value || (value === byCity.get(best)!.value && city < best))
            best = city;
        }
        const { venue } = this.cityOf.get(best)!;
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
