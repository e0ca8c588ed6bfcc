import type { League, VenueKind } from '../data/types.js';
import { TBD_LOCAL_TIME } from '../../../shared/rules/constants.js';

/**
 * Each league's season and rhythm: when it plays, at which kind of venue, and the days and venue-local
 * wall-clock times its games take. The schedules built from them are `league-schedule.ts`'s.
 */

export interface LeagueRule {
  slug: string;
  /** Season as [month, day] from and to, inclusive; may wrap the year end. */
  season: [[number, number], [number, number]];
  kind: VenueKind;
  basePrice: number;
  versus: 'at' | 'vs';
}

export const LEAGUES: Record<League, LeagueRule> = {
  NFL: {
    slug: 'nfl',
    season: [
      [9, 4],
      [1, 4],
    ],
    kind: 'stadium',
    basePrice: 110,
    versus: 'at',
  },
  MLB: {
    slug: 'mlb',
    season: [
      [3, 26],
      [9, 27],
    ],
    kind: 'stadium',
    basePrice: 24,
    versus: 'at',
  },
  NBA: {
    slug: 'nba',
    season: [
      [10, 21],
      [4, 12],
    ],
    kind: 'arena',
    basePrice: 58,
    versus: 'at',
  },
  NHL: {
    slug: 'nhl',
    season: [
      [10, 7],
      [4, 16],
    ],
    kind: 'arena',
    basePrice: 48,
    versus: 'at',
  },
  MLS: {
    slug: 'soccer',
    season: [
      [2, 21],
      [10, 18],
    ],
    kind: 'stadium',
    basePrice: 32,
    versus: 'vs',
  },
};

/** The league a category slug holds the games of. */
export const LEAGUE_BY_CATEGORY: ReadonlyMap<string, League> = new Map(
  (Object.entries(LEAGUES) as [League, LeagueRule][]).map(([league, rule]) => [rule.slug, league]),
);

/**
 * NFL kick-offs by weekday (0 = Sunday), in the venue's own time. Product decision: times are venue-local
 * (a Sunday 1:00 PM game in Seattle starts at 1:00 PM there), so every page shows the time printed on the ticket.
 * Sunday 1:00 and 4:25 PM, Sunday night 8:20 PM, Monday and Thursday nights 8:15 PM.
 */
export const NFL_KICKOFFS: ReadonlyMap<number, readonly (readonly [number, number])[]> = new Map([
  [
    0,
    [
      [13, 0],
      [16, 25],
      [20, 20],
    ],
  ],
  [1, [[20, 15]]],
  [4, [[20, 15]]],
]);
/** An NFL team's games are at least this many days apart (Sunday, then Thursday night, is the shortest turn). */
export const NFL_MIN_DAYS_BETWEEN = 4;
/** Real NFL byes fall in weeks 5 to 14; four teams rest in each of eight of those weeks. */
export const NFL_BYE_WEEKS = [5, 6, 7, 8, 9, 10, 11, 12];
export const NFL_BYES_PER_WEEK = 4;
/** Product decision: Sunday games in December and January more than three weeks out are "flexed" (time TBD). */
export const NFL_FLEX_FROM_DAY = 21;
/** RULES 4.2: 03:30 AM marks a time not set yet (a flexed game). */
export const FLEX_TIME = TBD_LOCAL_TIME.split(':').map(Number) as unknown as readonly [number, number];

/** An MLB series is two to four games between one pair at one park on consecutive days. */
export const MLB_SERIES_MIN = 2;
export const MLB_SERIES_MAX = 4;
export const MLB_NIGHT: readonly [number, number][] = [
  [19, 5],
  [19, 10],
  [18, 40],
];
export const MLB_DAY: [number, number] = [13, 5];

/** NBA and NHL teams never play on three days running (no back-to-back-to-back). */
export const ARENA_MAX_DAYS_RUNNING = 2;
export const ARENA_TIMES: Record<'NBA' | 'NHL', readonly [number, number][]> = {
  NBA: [
    [19, 30],
    [19, 0],
    [20, 0],
  ],
  NHL: [
    [19, 0],
    [19, 30],
  ],
};
/** Chance a rested team plays today, and one that played yesterday: about a game every other day. */
export const ARENA_PLAY_RESTED = 0.8;
export const ARENA_PLAY_AFTER_GAME = 0.12;

/** MLS: one match a week per team, mostly Saturday nights, some Sundays and midweek Wednesdays. */
export const MLS_DAYS: readonly { weekday: number; times: readonly [number, number][] }[] = [
  {
    weekday: 6,
    times: [
      [19, 30],
      [19, 0],
    ],
  },
  { weekday: 6, times: [[19, 30]] },
  { weekday: 6, times: [[19, 30]] },
  {
    weekday: 0,
    times: [
      [17, 0],
      [19, 0],
    ],
  },
  { weekday: 3, times: [[19, 30]] },
];

/** Whether a day falls in the season (which may wrap the year end). */
export function inSeason(day: { month: number; day: number }, [[fm, fd], [tm, td]]: LeagueRule['season']): boolean {
  const x = day.month * 100 + day.day;
  const from = fm * 100 + fd;
  const to = tm * 100 + td;
  return from <= to ? x >= from && x <= to : x >= from || x <= to;
}
