import type { TopCategory } from '../schemas/documents.js';

/** The kinds of venue the catalog knows; each category is played at some of them. */
export type VenueKind =
  | 'stadium'
  | 'arena'
  | 'theater'
  | 'club'
  | 'amphitheater'
  | 'concert-hall'
  | 'opera-house'
  | 'raceway'
  | 'golf-course'
  | 'casino-theater';

/** The menu group a category route sits in (spec §2 "Routes linked or navigated to"). */
export type CategoryGroup = 'sports' | 'concerts' | 'theater' | 'other';

/**
 * How a category's events are scheduled: league home games, tours across metros, runs at one theater,
 * or multi-day tournaments at a specialised venue.
 */
export type ScheduleKind = 'league' | 'tour' | 'residency' | 'tournament';

export interface CategoryDefinition {
  slug: string;
  name: string;
  group: CategoryGroup;
  parent: TopCategory;
  child: string;
  grandchild: string;
  schedule: ScheduleKind;
  venueKinds: readonly VenueKind[];
  /** Share of the non-league events this category receives. */
  weight: number;
  /** Whether its fictional performers are people (`person`) or acts (`band`); real names come from the data lists. */
  names: 'person' | 'band' | 'show' | 'team';
  /** False for the Concerts page's sub-segments that spec §2 does not list among the menu's category links. */
  inMenu?: false;
}

const concertHalls: VenueKind[] = ['arena', 'amphitheater', 'club', 'theater', 'concert-hall'];
const theaters: VenueKind[] = ['theater', 'concert-hall', 'opera-house'];
const arenas: VenueKind[] = ['arena'];

/**
 * Every category route of spec §2, plus the concert sub-segments of the Concerts page that have no route of
 * their own (Techno & Electronic, Jazz & Blues).
 */
export const CATEGORIES: readonly CategoryDefinition[] = [
  {
    slug: 'nfl',
    name: 'NFL Football',
    group: 'sports',
    parent: 'SPORTS',
    child: 'FOOTBALL',
    grandchild: 'NFL',
    schedule: 'league',
    venueKinds: ['stadium'],
    weight: 0,
    names: 'team',
  },
  {
    slug: 'mlb',
    name: 'MLB Baseball',
    group: 'sports',
    parent: 'SPORTS',
    child: 'BASEBALL',
    grandchild: 'MLB',
    schedule: 'league',
    venueKinds: ['stadium'],
    weight: 0,
    names: 'team',
  },
  {
    slug: 'nba',
    name: 'NBA Basketball',
    group: 'sports',
    parent: 'SPORTS',
    child: 'BASKETBALL',
    grandchild: 'NBA',
    schedule: 'league',
    venueKinds: ['arena'],
    weight: 0,
    names: 'team',
  },
  {
    slug: 'nhl',
    name: 'NHL Hockey',
    group: 'sports',
    parent: 'SPORTS',
    child: 'HOCKEY',
    grandchild: 'NHL',
    schedule: 'league',
    venueKinds: ['arena'],
    weight: 0,
    names: 'team',
  },

  {
    slug: 'alternative',
    name: 'Alternative',
    group: 'concerts',
    parent: 'CONCERTS',
    child: 'ALTERNATIVE',
    grandchild: '',
    schedule: 'tour',
    venueKinds: concertHalls,
    weight: 6,
    names: 'band',
  },
  {
    slug: 'classical',
    name: 'Classical',
    group: 'concerts',
    parent: 'CONCERTS',
    child: 'CLASSICAL',
    grandchild: '',
    schedule: 'tour',
    venueKinds: ['concert-hall', 'theater', 'opera-house'],
    weight: 3,
    names: 'show',
  },
  {
    slug: 'comedy',
    name: 'Comedy',
    group: 'concerts',
    parent: 'CONCERTS',
    child: 'COMEDY',
    grandchild: '',
    schedule: 'tour',
    venueKinds: ['theater', 'club', 'casino-theater'],
    weight: 5,
    names: 'person',
  },
  {
    slug: 'country-folk',
    name: 'Country & Folk',
    group: 'concerts',
    parent: 'CONCERTS',
    child: 'COUNTRY',
    grandchild: 'FOLK',
    schedule: 'tour',
    venueKinds: concertHalls,
    weight: 6,
    names: 'person',
  },
  {
    slug: 'family-friendly-concerts',
    name: 'Family Friendly Concerts',
    group: 'concerts',
    parent: 'CONCERTS',
    child: 'FAMILY',
    grandchild: '',
    schedule: 'tour',
    venueKinds: ['theater', 'arena', 'concert-hall'],
    weight: 2,
    names: 'band',
  },
  {
    slug: 'festivals',
    name: 'Festivals',
    group: 'concerts',
    parent: 'CONCERTS',
    child: 'FESTIVAL',
    grandchild: '',
    schedule: 'tournament',
    venueKinds: ['amphitheater', 'stadium'],
    weight: 1,
    names: 'show',
  },
  {
    slug: 'hard-rock-metal',
    name: 'Hard Rock & Metal',
    group: 'concerts',
    parent: 'CONCERTS',
    child: 'ROCK',
    grandchild: 'HARD ROCK METAL',
    schedule: 'tour',
    venueKinds: concertHalls,
    weight: 5,
    names: 'band',
  },
  {
    slug: 'latin',
    name: 'Latin',
    group: 'concerts',
    parent: 'CONCERTS',
    child: 'LATIN',
    grandchild: '',
    schedule: 'tour',
    venueKinds: concertHalls,
    weight: 4,
    names: 'person',
  },
  {
    slug: 'oldies',
    name: 'Oldies',
    group: 'concerts',
    parent: 'CONCERTS',
    child: 'OLDIES',
    grandchild: '',
    schedule: 'tour',
    venueKinds: ['theater', 'casino-theater', 'amphitheater'],
    weight: 2,
    names: 'band',
  },
  {
    slug: 'pop',
    name: 'Pop & Rock',
    group: 'concerts',
    parent: 'CONCERTS',
    child: 'POP',
    grandchild: 'ROCK',
    schedule: 'tour',
    venueKinds: concertHalls,
    weight: 9,
    names: 'person',
  },
  {
    slug: 'rap-hip-hop',
    name: 'Rap & Hip-Hop',
    group: 'concerts',
    parent: 'CONCERTS',
    child: 'RAP',
    grandchild: 'HIP HOP',
    schedule: 'tour',
    venueKinds: concertHalls,
    weight: 6,
    names: 'person',
  },
  {
    slug: 'religious',
    name: 'Religious',
    group: 'concerts',
    parent: 'CONCERTS',
    child: 'RELIGIOUS',
    grandchild: '',
    schedule: 'tour',
    venueKinds: ['arena', 'theater', 'concert-hall'],
    weight: 1,
    names: 'show',
  },
  {
    slug: 'electronic',
    name: 'Techno & Electronic',
    group: 'concerts',
    parent: 'CONCERTS',
    child: 'ELECTRONIC',
    grandchild: 'TECHNO',
    schedule: 'tour',
    venueKinds: ['club', 'arena', 'amphitheater'],
    weight: 4,
    names: 'person',
    inMenu: false,
  },
  {
    slug: 'jazz-blues',
    name: 'Jazz & Blues',
    group: 'concerts',
    parent: 'CONCERTS',
    child: 'JAZZ',
    grandchild: 'BLUES',
    schedule: 'tour',
    venueKinds: ['club', 'concert-hall', 'theater'],
    weight: 3,
    names: 'band',
    inMenu: false,
  },

  {
    slug: 'ballet',
    name: 'Ballet',
    group: 'theater',
    parent: 'THEATRE',
    child: 'DANCE',
    grandchild: 'BALLET',
    schedule: 'residency',
    venueKinds: ['opera-house', 'theater', 'concert-hall'],
    weight: 2,
    names: 'show',
  },
  {
    slug: 'broadway',
    name: 'Broadway',
    group: 'theater',
    parent: 'THEATRE',
    child: 'BROADWAY',
    grandchild: '',
    schedule: 'residency',
    venueKinds: theaters,
    weight: 7,
    names: 'show',
  },
  {
    slug: 'cirque-du-soleil',
    name: 'Cirque du Soleil',
    group: 'theater',
    parent: 'THEATRE',
    child: 'CIRCUS',
    grandchild: 'CIRQUE DU SOLEIL',
    schedule: 'residency',
    venueKinds: ['casino-theater', 'arena', 'theater'],
    weight: 2,
    names: 'show',
  },
  {
    slug: 'dance',
    name: 'Dance',
    group: 'theater',
    parent: 'THEATRE',
    child: 'DANCE',
    grandchild: '',
    schedule: 'tour',
    venueKinds: theaters,
    weight: 2,
    names: 'show',
  },
  {
    slug: 'family-friendly-shows',
    name: 'Family Friendly Shows',
    group: 'theater',
    parent: 'THEATRE',
    child: 'FAMILY',
    grandchild: '',
    schedule: 'tour',
    venueKinds: ['arena', 'theater'],
    weight: 3,
    names: 'show',
  },
  {
    slug: 'musicals',
    name: 'Musicals',
    group: 'theater',
    parent: 'THEATRE',
    child: 'MUSICAL',
    grandchild: 'PLAY',
    schedule: 'residency',
    venueKinds: theaters,
    weight: 5,
    names: 'show',
  },
  {
    slug: 'off-broadway',
    name: 'Off-Broadway',
    group: 'theater',
    parent: 'THEATRE',
    child: 'OFF BROADWAY',
    grandchild: '',
    schedule: 'residency',
    venueKinds: ['theater'],
    weight: 2,
    names: 'show',
  },
  {
    slug: 'opera',
    name: 'Opera',
    group: 'theater',
    parent: 'THEATRE',
    child: 'OPERA',
    grandchild: '',
    schedule: 'residency',
    venueKinds: ['opera-house', 'concert-hall', 'theater'],
    weight: 2,
    names: 'show',
  },
  {
    slug: 'las-vegas-shows',
    name: 'Las Vegas Shows',
    group: 'theater',
    parent: 'THEATRE',
    child: 'LAS VEGAS',
    grandchild: '',
    schedule: 'residency',
    venueKinds: ['casino-theater', 'theater'],
    weight: 3,
    names: 'show',
  },
  {
    slug: 'west-end',
    name: 'West End',
    group: 'theater',
    parent: 'THEATRE',
    child: 'WEST END',
    grandchild: '',
    schedule: 'residency',
    venueKinds: ['theater'],
    weight: 2,
    names: 'show',
  },

  {
    slug: 'wwe',
    name: 'WWE',
    group: 'other',
    parent: 'OTHER',
    child: 'WRESTLING',
    grandchild: 'WWE',
    schedule: 'tour',
    venueKinds: arenas,
    weight: 2,
    names: 'show',
  },
  {
    slug: 'boxing',
    name: 'Boxing',
    group: 'other',
    parent: 'OTHER',
    child: 'FIGHTING',
    grandchild: 'BOXING',
    schedule: 'tour',
    venueKinds: ['arena', 'casino-theater'],
    weight: 1,
    names: 'show',
  },
  {
    slug: 'soccer',
    name: 'Soccer',
    group: 'other',
    parent: 'SPORTS',
    child: 'SOCCER',
    grandchild: 'MLS',
    schedule: 'league',
    venueKinds: ['stadium'],
    weight: 0,
    names: 'team',
  },
  {
    slug: 'mma',
    name: 'MMA',
    group: 'other',
    parent: 'OTHER',
    child: 'FIGHTING',
    grandchild: 'MMA',
    schedule: 'tour',
    venueKinds: arenas,
    weight: 1,
    names: 'show',
  },
  {
    slug: 'racing',
    name: 'Racing',
    group: 'other',
    parent: 'OTHER',
    child: 'RACING',
    grandchild: '',
    schedule: 'tournament',
    venueKinds: ['raceway'],
    weight: 1,
    names: 'show',
  },
  {
    slug: 'golf',
    name: 'Golf',
    group: 'other',
    parent: 'OTHER',
    child: 'GOLF',
    grandchild: '',
    schedule: 'tournament',
    venueKinds: ['golf-course'],
    weight: 1,
    names: 'show',
  },
  {
    slug: 'rodeo',
    name: 'Rodeo',
    group: 'other',
    parent: 'OTHER',
    child: 'RODEO',
    grandchild: '',
    schedule: 'tour',
    venueKinds: ['arena', 'stadium'],
    weight: 1,
    names: 'show',
  },
  {
    slug: 'tennis',
    name: 'Tennis',
    group: 'other',
    parent: 'OTHER',
    child: 'TENNIS',
    grandchild: '',
    schedule: 'tournament',
    venueKinds: ['stadium', 'arena'],
    weight: 1,
    names: 'show',
  },
];

export const CATEGORY_BY_SLUG: ReadonlyMap<string, CategoryDefinition> = new Map(CATEGORIES.map((c) => [c.slug, c]));

/** The lower-cased `parent/child/grandchild` path of spec §3's category-to-image map. */
export function categoryPath(parent: string, child = '', grandchild = ''): string {
  return [parent, child, grandchild]
    .filter((part) => part !== '')
    .join('/')
    .toLowerCase();
}

/**
 * Spec §3: the category-to-image map, lower-cased `parent/child/grandchild` → image code `NN-NNN-NNN`.
 * Every category above has an entry at each of its levels, plus sub-categories the catalog has no
 * performers in yet (other leagues, Olympic sports…), so a future category finds its art.
 */
export const CATEGORY_IMAGE_CODES: ReadonlyMap<string, string> = buildImageCodes();

function buildImageCodes(): Map<string, string> {
  const extraPaths = [
    'sports/hockey/ahl',
    'sports/hockey/college hockey',
    'sports/hockey/ohl',
    'sports/hockey/world juniors',
    'sports/soccer/premier league',
    'sports/soccer/la liga',
    'sports/soccer/liga mx',
    'sports/soccer/nwsl',
    'sports/soccer/international friendlies',
    'sports/soccer/usl championship',
    'sports/olympic sports',
    'sports/olympic sports/gymnastics',
    'sports/olympic sports/figure skating',
    'sports/olympic sports/track and field',
    'sports/olympic sports/swimming',
    'sports/football/college football',
    'sports/football/ufl',
    'sports/basketball/wnba',
    'sports/basketball/college basketball',
    'sports/baseball/minor league baseball',
    'sports/lacrosse',
    'sports/volleyball',
    'other/horse racing',
    'other/esports',
    'other/motorsports/monster trucks',
    'theatre/comedy',
    'theatre/magic',
    'concerts/reggae',
    'concerts/r&b',
    'concerts/k-pop',
  ];
  const paths = new Set<string>();
  for (const c of CATEGORIES) {
    paths.add(categoryPath(c.parent));
    paths.add(categoryPath(c.parent, c.child));
    paths.add(categoryPath(c.parent, c.child, c.grandchild));
  }
  for (const p of extraPaths) {
    const parts = p.split('/');
    for (let i = 1; i <= parts.length; i++) paths.add(parts.slice(0, i).join('/'));
  }
  // Codes are assigned by position in the sorted list of paths: NN is the top level, NNN the child within
  // it, NNN the grandchild within that; 000 marks a level that is absent.
  const sorted = [...paths].sort();
  const codes = new Map<string, string>();
  const counters = new Map<string, number>();
  const next = (key: string) => {
    const n = (counters.get(key) ?? 0) + 1;
    counters.set(key, n);
    return n;
  };
  for (const p of sorted) {
    const parts = p.split('/');
    const top = parts[0]!;
    const topCode = codes.get(top)?.slice(0, 2) ?? String(next('')).padStart(2, '0');
    if (parts.length === 1) {
      codes.set(p, `${topCode}-000-000`);
      continue;
    }
    const childKey = parts.slice(0, 2).join('/');
    const childCode = codes.get(childKey)?.slice(3, 6) ?? String(next(top)).padStart(3, '0');
    if (parts.length === 2) {
      codes.set(p, `${topCode}-${childCode}-000`);
      continue;
    }
    codes.set(p, `${topCode}-${childCode}-${String(next(childKey)).padStart(3, '0')}`);
  }
  return codes;
}

export function categoryImageCode(category: CategoryDefinition): string {
  const code = CATEGORY_IMAGE_CODES.get(categoryPath(category.parent, category.child, category.grandchild));
  if (!code) throw new Error(`category ${category.slug} has no image code`);
  return code;
}
