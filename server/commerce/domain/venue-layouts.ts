import type { EventDocument } from '../../../shared/schemas/documents.js';
import type { Random } from '../../catalog/generate/random.js';
import type { LayoutName } from '../../../shared/schemas/seating.js';

/**
 * Venue seating layouts: the zones each layout sells, with their price multiples, rows and notes, and the layout
 * an event's venue has.
 */
export interface Zone {
  /** Price multiple of the cheapest zone (1). */
  factor: readonly [number, number];
  weight: number;
  /** The seat map zone (`shared/schemas/seating.ts`) whose sections it sells, so every section sold is on the map. */
  zone: string;
  /** Row label and how far forward it is (1 front … 0 back). */
  row(rng: Random): { label: string; front: number };
  notes?: readonly string[];
}

// Theaters skip I and O, which read as 1 and 0.
const ROW_LETTERS = 'ABCDEFGHJKLMNPQRSTUVWXYZ';

const numbered = (max: number) => (rng: Random) => {
  const n = rng.int(1, max);
  return { label: String(n), front: 1 - (n - 1) / max };
};
const lettered = (max: number) => (rng: Random) => {
  const n = rng.int(1, Math.min(max, ROW_LETTERS.length));
  return { label: ROW_LETTERS[n - 1]!, front: 1 - (n - 1) / max };
};
export const generalAdmission = () => ({ label: 'GA', front: 0 });

const STADIUM_ZONES: readonly Zone[] = [
  { factor: [1, 1.3], weight: 40, zone: 'upper', row: numbered(30) },
  { factor: [1.5, 2.1], weight: 20, zone: 'mezzanine', row: numbered(20) },
  { factor: [1.9, 2.8], weight: 30, zone: 'lower', row: numbered(40) },
  { factor: [3, 4.5], weight: 10, zone: 'club', row: numbered(15), notes: ['Includes club lounge access'] },
];

export const LAYOUTS: Record<LayoutName, readonly Zone[]> = {
  stadium: STADIUM_ZONES,
  ballpark: STADIUM_ZONES,
  'stadium-concert': [
    { factor: [1, 1.3], weight: 35, zone: 'upper', row: numbered(30) },
    { factor: [1.6, 2.4], weight: 35, zone: 'lower', row: numbered(40) },
    { factor: [2.8, 4.2], weight: 20, zone: 'floor', row: numbered(40) },
    { factor: [4.5, 6.5], weight: 10, zone: 'pit', row: generalAdmission, notes: ['Standing room only'] },
  ],
  'arena-sports': [
    { factor: [1, 1.4], weight: 45, zone: 'upper', row: numbered(20) },
    { factor: [1.8, 2.8], weight: 45, zone: 'lower', row: numbered(25) },
    { factor: [3.5, 5], weight: 10, zone: 'club', row: numbered(6), notes: ['Includes club lounge access'] },
  ],
  court: [
    { factor: [1, 1.4], weight: 45, zone: 'upper', row: numbered(20) },
    { factor: [1.8, 2.8], weight: 40, zone: 'lower', row: numbered(25) },
    { factor: [3.5, 5], weight: 10, zone: 'club', row: numbered(6), notes: ['Includes club lounge access'] },
    { factor: [8, 12], weight: 5, zone: 'courtside', row: numbered(2), notes: ['Includes club lounge access'] },
  ],
  'arena-concert': [
    { factor: [1, 1.4], weight: 40, zone: 'upper', row: numbered(20) },
    { factor: [1.6, 2.3], weight: 35, zone: 'lower', row: numbered(25) },
    { factor: [2.5, 3.8], weight: 25, zone: 'floor', row: numbered(30) },
  ],
  fight: [
    { factor: [1, 1.4], weight: 45, zone: 'upper', row: numbered(20) },
    { factor: [1.8, 2.8], weight: 40, zone: 'lower', row: numbered(25) },
    { factor: [5, 8], weight: 15, zone: 'ringside', row: numbered(8) },
  ],
  theater: [
    { factor: [1, 1.3], weight: 25, zone: 'balcony', row: lettered(12), notes: ['Steep incline', 'Obstructed view'] },
    { factor: [1.3, 1.8], weight: 30, zone: 'mezzanine', row: lettered(14) },
    { factor: [1.9, 2.5], weight: 15, zone: 'front-mezzanine', row: lettered(6) },
    { factor: [1.8, 2.8], weight: 30, zone: 'orchestra', row: lettered(24) },
  ],
  amphitheater: [
    {
      factor: [1, 1.2],
      weight: 35,
      zone: 'lawn',
      row: generalAdmission,
      notes: ['Lawn seating: bring a blanket, no chairs'],
    },
    { factor: [1.5, 2.2], weight: 35, zone: 'upper', row: numbered(30) },
    { factor: [2.2, 3.2], weight: 20, zone: 'lower', row: numbered(25) },
    { factor: [3.2, 4.8], weight: 10, zone: 'pit', row: generalAdmission, notes: ['Standing room only'] },
  ],
  club: [
    { factor: [1, 1.25], weight: 80, zone: 'ga', row: generalAdmission, notes: ['Standing room only'] },
    { factor: [1.6, 2.4], weight: 20, zone: 'vip', row: generalAdmission, notes: ['Includes VIP bar access'] },
  ],
  festival: [
    { factor: [1, 1.2], weight: 70, zone: 'ga', row: generalAdmission },
    { factor: [1.8, 2.6], weight: 25, zone: 'ga-plus', row: generalAdmission },
    { factor: [3.5, 5], weight: 5, zone: 'vip', row: generalAdmission, notes: ['Includes VIP lounge access'] },
  ],
  speedway: [
    { factor: [1, 1.3], weight: 40, zone: 'backstretch', row: numbered(40) },
    { factor: [1.4, 2], weight: 40, zone: 'frontstretch', row: numbered(50) },
    { factor: [2.5, 3.5], weight: 20, zone: 'infield', row: generalAdmission, notes: ['Includes pit pass'] },
  ],
  grounds: [
    { factor: [1, 1.2], weight: 80, zone: 'grounds', row: generalAdmission },
    { factor: [2.5, 4], weight: 20, zone: 'hospitality', row: generalAdmission, notes: ['Includes food and drink'] },
  ],
};

const LAYOUT_BY_CATEGORY: Readonly<Record<string, LayoutName>> = {
  nfl: 'stadium',
  mlb: 'ballpark',
  soccer: 'stadium',
  nba: 'court',
  nhl: 'arena-sports',
  tennis: 'court',
  rodeo: 'arena-sports',
  wwe: 'fight',
  boxing: 'fight',
  mma: 'fight',
  racing: 'speedway',
  golf: 'grounds',
  festivals: 'festival',
};

const STADIUM_NAME = /stadium|field\b|park\b|speedway/i;
const AMPHITHEATER_NAME = /amphithea|bowl\b|pavilion|shell\b/i;
const THEATER_NAME = /theat|opera|hall\b|auditorium|performing arts|symphony|playhouse|academy/i;
const ARENA_NAME = /arena|garden|forum|dome|fieldhouse|center|centre|coliseum|colosseum/i;
// "Center" alone names as many performing-arts halls as arenas; a stage show needs a plainer arena name.
const STRICT_ARENA_NAME = /arena|garden|forum|dome|fieldhouse|coliseum/i;

/**
 * The seating layout of the event's venue (and so its seat map), read from its category and, for touring acts,
 * the venue name: a league's category fixes the layout (a baseball game: a ballpark; an NBA game: a court),
 * except that an arena sport played in a stadium is drawn as a stadium; otherwise the venue's name says
 * stadium, amphitheater, theater or arena, and a concert anywhere else is in a club.
 */
export function layoutFor(event: EventDocument): LayoutName {
  const byCategory = LAYOUT_BY_CATEGORY[event.category];
  const name = event.venue_name;
  if ((byCategory === 'arena-sports' || byCategory === 'court') && STADIUM_NAME.test(name)) return 'stadium';
  if (byCategory) return byCategory;
  switch (event.major_category) {
    case 'SPORTS':
      return STADIUM_NAME.test(name) ? 'stadium' : 'arena-sports';
    case 'THEATRE':
      return STRICT_ARENA_NAME.test(name) && !THEATER_NAME.test(name) ? 'arena-concert' : 'theater';
    default:
      if (STADIUM_NAME.test(name)) return 'stadium-concert';
      if (AMPHITHEATER_NAME.test(name)) return 'amphitheater';
      if (THEATER_NAME.test(name)) return 'theater';
      if (ARENA_NAME.test(name)) return 'arena-concert';
      return event.major_category === 'CONCERTS' ? 'club' : 'arena-concert';
  }
}
