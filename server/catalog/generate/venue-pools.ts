import type { CategoryDefinition } from '../../../shared/catalog/taxonomy.js';
import type { VenueRec } from './catalog-records.js';
import type { VenueDays } from './league-schedule.js';
import type { Random } from './random.js';

/** Where a category's events may take place, beyond the venue kind. */
function placeFilter(slug: string): (v: VenueRec) => boolean {
  switch (slug) {
    case 'broadway':
    case 'off-broadway':
      return (v) => v.city === 'New York';
    case 'west-end':
      return (v) => v.country === 'GB';
    case 'las-vegas-shows':
    case 'cirque-du-soleil':
      return (v) => v.city === 'Las Vegas';
    default:
      return (v) => v.country !== 'GB' || slug === 'classical' || slug === 'pop';
  }
}

/** The venues each category may play, smallest first, and the choice of one for an act. */
export class VenuePools {
  private readonly poolByCategory = new Map<CategoryDefinition, VenueRec[]>();

  constructor(
    private readonly venues: readonly VenueRec[],
    private readonly rng: Random,
    private readonly venueDays: VenueDays,
  ) {}

  poolFor(c: CategoryDefinition): VenueRec[] {
    let pool = this.poolByCategory.get(c);
    if (!pool) {
      const place = placeFilter(c.slug);
      pool = this.venues.filter((v) => c.venueKinds.includes(v.kind) && place(v));
      if (pool.length === 0) pool = this.venues.filter((v) => c.venueKinds.includes(v.kind));
      if (pool.length === 0) pool = this.venues.filter((v) => v.kind === 'theater' || v.kind === 'arena');
      pool.sort((a, b) => a.capacity - b.capacity || a.id - b.id);
      this.poolByCategory.set(c, pool);
    }
    return pool;
  }

  /** Popular acts play bigger rooms: pick near the capacity their popularity asks for, with some spread. */
  pickVenue(pool: VenueRec[], pop: number): VenueRec {
    const want = 300 + pop * pop * 25000;
    let lo = 0;
    let hi = pool.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (pool[mid]!.capacity < want) lo = mid + 1;
      else hi = mid;
    }
    const spread = Math.max(2, Math.round(pool.length * 0.2));
    return pool[Math.min(pool.length - 1, Math.max(0, lo + Math.round(this.rng.gauss() * spread)))]!;
  }

  /** A venue of the pool without a league game that day: near the act's size first, else the first free one. */
  freeVenue(pool: VenueRec[], pop: number, day: number): VenueRec {
    for (let tries = 0; tries < 8; tries++) {
      const venue = this.pickVenue(pool, pop);
      if (!this.venueDays.has(venue.id, day)) return venue;
    }
    const from = this.rng.int(0, pool.length - 1);
    for (let k = 0; k < pool.length; k++) {
      const venue = pool[(from + k) % pool.length]!;
      if (!this.venueDays.has(venue.id, day)) return venue;
    }
    return pool[from]!;
  }
}
