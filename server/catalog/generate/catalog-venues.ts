import { US_CITIES } from '../data/cities.js';
import { TEAMS } from '../data/teams.js';
import type { VenueKind } from '../data/types.js';
import { VENUES } from '../data/venues.js';
import type { VenueRec, VenueSpec } from './catalog-records.js';
import { LEAGUES } from './league-rules.js';
import type { Random } from './random.js';

/** Real venues carry about this many events each before the generator adds venues of its own. */
const EVENTS_PER_VENUE = 200;

const VENUE_SUFFIX: [VenueKind, string, number, number][] = [
  ['concert-hall', 'Music Hall', 1200, 2800],
  ['arena', 'Civic Arena', 6000, 16000],
  ['amphitheater', 'Amphitheater', 5000, 20000],
  ['theater', 'Playhouse', 600, 2200],
  ['club', 'Ballroom', 300, 1500],
  ['club', 'Social Club', 200, 900],
];

/**
 * Every venue of a catalog of `target` events: the teams' home venues, the real venues, then venues of its own
 * in real cities when the catalog is larger than those carry. Ids are handed out in that order.
 */
export function buildVenues(rng: Random, target: number): { venues: VenueRec[]; teamVenue: Map<string, VenueRec> } {
  const venues: VenueRec[] = [];
  const byNameAndCity = new Map<string, VenueRec>();
  const named = (name: string, city: string) => byNameAndCity.get(`${name}|${city}`);
  const addVenue = (v: VenueSpec) => {
    const known = named(v.name, v.city);
    if (known) return known;
    const rec = { ...v, id: 501 + venues.length, upcoming: 0, inventory: 0 };
    byNameAndCity.set(`${v.name}|${v.city}`, rec);
    venues.push(rec);
    return rec;
  };
  const teamVenue = new Map<string, VenueRec>();
  for (const t of TEAMS) {
    teamVenue.set(
      t.name,
      addVenue({
        name: t.venue,
        kind: LEAGUES[t.league].kind,
        city: t.city,
        state: t.state,
        stateName: t.stateName,
        country: t.country,
        zip: t.zip,
        lat: t.lat,
        lng: t.lng,
        timeZone: t.timeZone,
        capacity: t.capacity,
      }),
    );
  }
  for (const v of VENUES) {
    addVenue({
      name: v.name,
      kind: v.kind,
      city: v.city,
      state: v.state,
      stateName: v.stateName,
      country: v.country,
      zip: v.zip,
      lat: v.lat,
      lng: v.lng,
      timeZone: v.timeZone,
      capacity: v.capacity,
    });
  }
  generateExtraVenues(rng, venues, Math.round(target / EVENTS_PER_VENUE) - venues.length, addVenue, named);
  return { venues, teamVenue };
}

/** Adds venues in real cities (by population) when the catalog is larger than the real venues carry. */
function generateExtraVenues(
  rng: Random,
  venues: VenueRec[],
  extra: number,
  add: (v: VenueSpec) => VenueRec,
  named: (name: string, city: string) => VenueRec | undefined,
) {
  if (extra <= 0) return;
  const prefixes = [
    'Grand',
    'Union',
    'Liberty',
    'Riverside',
    'Paramount',
    'Capitol',
    'Majestic',
    'Harbor',
    'Summit',
    'Lakeside',
    'Pioneer',
    'Heritage',
  ];
  const start = venues.length;
  for (let i = 0; venues.length - start < extra && i < extra * 4; i++) {
    const city = rng.weighted(US_CITIES, (c) => Math.sqrt(c.population));
    const [kind, suffix, minCap, maxCap] = rng.pick(VENUE_SUFFIX);
    const name = rng.chance(0.5) ? `${city.city} ${suffix}` : `${rng.pick(prefixes)} ${suffix} ${city.city}`;
    const jitter = () => (rng.next() - 0.5) * 0.08;
    add({
      name: named(name, city.city) ? `${name} ${rng.int(2, 99)}` : name,
      kind,
      city: city.city,
      state: city.stateId,
      stateName: city.stateName,
      country: 'US',
      zip: city.zip,
      lat: round(city.lat + jitter(), 4),
      lng: round(city.lng + jitter(), 4),
      timeZone: city.timeZone,
      capacity: rng.int(minCap, maxCap),
    });
  }
}

const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;
