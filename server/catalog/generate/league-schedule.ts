import type { League } from '../data/types.js';
import {
  ARENA_PLAY_AFTER_GAME,
  ARENA_PLAY_RESTED,
  ARENA_TIMES,
  FLEX_TIME,
  inSeason,
  LEAGUES,
  MLB_DAY,
  MLB_NIGHT,
  MLB_SERIES_MIN,
  MLS_DAYS,
  NFL_BYE_WEEKS,
  NFL_BYES_PER_WEEK,
  NFL_FLEX_FROM_DAY,
  NFL_KICKOFFS,
} from './league-rules.js';
import type { Random } from './random.js';

/**
 * League seasons built as real schedules: rounds in which a team plays at most once a day, at the home team's
 * venue, with each league's rhythm (`league-rules.ts`). Times are venue-local wall-clock times.
 */

export interface ScheduleDay {
  index: number;
  year: number;
  month: number;
  day: number;
  weekday: number;
}

export interface ScheduleTeam {
  /** The team's venue (shared venues share it). */
  venueId: number;
}

export interface LeagueGame {
  home: number;
  away: number;
  day: number;
  time: readonly [number, number];
  /** Consecutive MLB games between one pair at one park share a series number. */
  series?: number;
}

/** Which venue-days already hold a league game, across leagues (NBA and NHL teams share arenas). */
export class VenueDays {
  private readonly taken = new Set<number>();
  has(venueId: number, day: number): boolean {
    return this.taken.has(venueId * 1024 + day);
  }
  add(venueId: number, day: number): void {
    this.taken.add(venueId * 1024 + day);
  }
}

/** One league's games over the window `days` (consecutive calendar days), in day order. */
export function scheduleLeague(
  league: League,
  teams: readonly ScheduleTeam[],
  days: readonly ScheduleDay[],
  rng: Random,
  venueDays: VenueDays,
): LeagueGame[] {
  const season = days.filter((d) => inSeason(d, LEAGUES[league].season));
  if (teams.length < 2 || season.length === 0) return [];
  const ctx = new Scheduler(teams, days, rng, venueDays);
  switch (league) {
    case 'NFL':
      return ctx.nfl(season);
    case 'MLB':
      return ctx.mlb(season);
    case 'NBA':
    case 'NHL':
      return ctx.arena(season, ARENA_TIMES[league]);
    case 'MLS':
      return ctx.mls(season);
  }
}

class Scheduler {
  private readonly homeGames: number[];
  private readonly games: LeagueGame[] = [];

  constructor(
    private readonly teams: readonly ScheduleTeam[],
    private readonly days: readonly ScheduleDay[],
    private readonly rng: Random,
    private readonly venueDays: VenueDays,
  ) {
    this.homeGames = teams.map(() => 0);
  }

  /** Orders a pair so the team with fewer home games so far hosts (ties at random). */
  private hostOrder(a: number, b: number): [number, number] {
    const ha = this.homeGames[a]!;
    const hb = this.homeGames[b]!;
    return ha < hb || (ha === hb && this.rng.chance(0.5)) ? [a, b] : [b, a];
  }

  /** The pair as [home, away] with the home venue free on every day given, or null when neither venue is. */
  private host(a: number, b: number, dayIndexes: readonly number[]): [number, number] | null {
    for (const [home, away] of [this.hostOrder(a, b)].flatMap(
      ([x, y]) =>
        [
          [x, y],
          [y, x],
        ] as [number, number][],
    )) {
      const venue = this.teams[home]!.venueId;
      if (dayIndexes.every((d) => !this.venueDays.has(venue, d))) return [home, away];
    }
    return null;
  }

  private add(home: number, away: number, day: number, time: readonly [number, number], series?: number) {
    this.venueDays.add(this.teams[home]!.venueId, day);
    this.homeGames[home]!++;
    this.games.push({ home, away, day, time, ...(series === undefined ? {} : { series }) });
  }

  private shuffled(items: number[]): number[] {
    return this.rng.sample(items, items.length);
  }

  /** Weekly rounds: Thursday night, Sunday (1:00, 4:25, night), Monday night; byes in mid-season weeks. */
  nfl(season: readonly ScheduleDay[]): LeagueGame[] {
    const first = this.days[0]!.index;
    const last = this.days[this.days.length - 1]!.index;
    const byeOrders = new Map<number, number[]>();
    let mondayTeams = new Set<number>();
    for (const sunday of season.filter((d) => d.weekday === 0)) {
      // Week numbers count from the season's first Sunday (September 4 or later) of that season's year.
      const seasonYear = sunday.month >= 9 ? sunday.year : sunday.year - 1;
      const opening = Date.UTC(seasonYear, 8, 4);
      const firstSunday = opening + ((7 - new Date(opening).getUTCDay()) % 7) * 86_400_000;
      const week =
        Math.floor((Date.UTC(sunday.year, sunday.month - 1, sunday.day) - firstSunday) / (7 * 86_400_000)) + 1;
      let byeOrder = byeOrders.get(seasonYear);
      if (!byeOrder) byeOrders.set(seasonYear, (byeOrder = this.shuffled(this.teams.map((_, i) => i))));
      const byeSlot = NFL_BYE_WEEKS.indexOf(week);
      const byes = new Set(
        byeSlot < 0 ? [] : byeOrder.slice(byeSlot * NFL_BYES_PER_WEEK, (byeSlot + 1) * NFL_BYES_PER_WEEK),
      );
      const playing = this.shuffled(this.teams.map((_, i) => i).filter((t) => !byes.has(t)));
      const thursday = sunday.index - 3 >= first ? sunday.index - 3 : null;
      const monday = sunday.index + 1 <= last ? sunday.index + 1 : null;
      const onSunday: [number, number][] = [];
      const sundayVenues = new Set<number>();
      let thursdayGame: [number, number] | null = null;
      let mondayGame: [number, number] | null = null;
      const nextMonday = new Set<number>();
      for (let i = 0; i + 1 < playing.length; i += 2) {
        const a = playing[i]!;
        const b = playing[i + 1]!;
        const pair = this.hostOrder(a, b);
        const venue = this.teams[pair[0]]!.venueId;
        // A team that played last Monday night does not play this Thursday night (two days' rest is too few).
        const canThursday =
          thursday !== null &&
          !thursdayGame &&
          !mondayTeams.has(a) &&
          !mondayTeams.has(b) &&
          !this.venueDays.has(venue, thursday);
        const canMonday = monday !== null && !mondayGame && !this.venueDays.has(venue, monday);
        if (
          !sundayVenues.has(venue) &&
          !this.venueDays.has(venue, sunday.index) &&
          !(canThursday && this.rng.chance(1 / 8)) &&
          !(canMonday && this.rng.chance(1 / 7))
        ) {
          onSunday.push(pair);
          sundayVenues.add(venue);
        } else if (canThursday) thursdayGame = pair;
        else if (canMonday) mondayGame = pair;
        // A shared stadium already in use every day of the week: this pair rests this week.
      }
      if (thursdayGame) this.add(thursdayGame[0], thursdayGame[1], thursday!, NFL_KICKOFFS.get(4)![0]!);
      const night = onSunday.length > 2 ? this.rng.int(0, onSunday.length - 1) : -1;
      onSunday.forEach(([home, away], i) => {
        const flex = (sunday.month === 12 || sunday.month === 1) && sunday.index - first > NFL_FLEX_FROM_DAY;
        const time = flex
          ? FLEX_TIME
          : i === night
            ? NFL_KICKOFFS.get(0)![2]!
            : NFL_KICKOFFS.get(0)![this.rng.chance(0.6) ? 0 : 1]!;
        this.add(home, away, sunday.index, time);
      });
      if (mondayGame) {
        this.add(mondayGame[0], mondayGame[1], monday!, NFL_KICKOFFS.get(1)![0]!);
        nextMonday.add(mondayGame[0]).add(mondayGame[1]);
      }
      mondayTeams = nextMonday;
    }
    return this.sorted();
  }

  /**
   * Weekly rounds of series: Monday to Thursday a series of two to four games (off days around it), then a
   * three-game weekend series Friday to Sunday with another opponent. Hosts alternate by who has hosted less.
   */
  mlb(season: readonly ScheduleDay[]): LeagueGame[] {
    const inSeasonDays = new Set(season.map((d) => d.index));
    let lastOpponent = this.teams.map(() => -1);
    let series = 0;
    const block = (dayIndexes: number[], shapes: readonly (readonly number[])[]) => {
      const playing = this.shuffled(this.teams.map((_, i) => i));
      const opponentNow = this.teams.map(() => -1);
      // Pair each team with one it did not just play, so two series of one pair never run together.
      const pairs: [number, number][] = [];
      while (playing.length >= 2) {
        const a = playing.shift()!;
        const j = playing.findIndex((b) => lastOpponent[a] !== b);
        if (j < 0) continue;
        const b = playing.splice(j, 1)[0]!;
        pairs.push([a, b]);
      }
      for (const [a, b] of pairs) {
        const shape = this.rng.pick(shapes);
        const gameDays = shape
          .map((offset) => dayIndexes[offset])
          .filter((d): d is number => d !== undefined && inSeasonDays.has(d));
        if (gameDays.length < MLB_SERIES_MIN) continue;
        const hosted = this.host(a, b, gameDays);
        if (!hosted) continue;
        series++;
        gameDays.forEach((d, k) => {
          const weekday = this.days[d - this.days[0]!.index]!.weekday;
          // Sunday games and the last game of a series (a getaway day) are often day games.
          const dayGame = weekday === 0 ? this.rng.chance(0.8) : k === gameDays.length - 1 && this.rng.chance(0.3);
          this.add(hosted[0], hosted[1], d, dayGame ? MLB_DAY : this.rng.pick(MLB_NIGHT), series);
        });
        opponentNow[a] = b;
        opponentNow[b] = a;
      }
      lastOpponent = opponentNow;
    };
    const weekStarts = new Set(season.map((d) => d.index - ((d.weekday + 6) % 7)));
    for (const start of weekStarts) {
      const weekDays = Array.from({ length: 7 }, (_, k) => start + k);
      // Monday to Thursday: a four-game series, or two or three games with an off day before or after.
      block(weekDays.slice(0, 4), [
        [0, 1, 2, 3],
        [1, 2, 3],
        [0, 1, 2],
        [1, 2],
        [2, 3],
      ]);
      block(weekDays.slice(4, 7), [[0, 1, 2]]);
    }
    return this.sorted();
  }

  /**
   * Day by day: a rested team usually plays, one that played yesterday seldom, one that played two days running never.
   */
  arena(season: readonly ScheduleDay[], times: readonly (readonly [number, number])[]): LeagueGame[] {
    const played = this.teams.map(() => [] as number[]);
    for (const day of season) {
      const d = day.index;
      const wanting = this.teams
        .map((_, t) => t)
        .filter((t) => {
          const mine = played[t]!;
          const yesterday = mine[mine.length - 1] === d - 1;
          const twoRunning = yesterday && mine[mine.length - 2] === d - 2;
          if (twoRunning) return false;
          return this.rng.chance(yesterday ? ARENA_PLAY_AFTER_GAME : ARENA_PLAY_RESTED);
        });
      const order = this.shuffled(wanting);
      for (let i = 0; i + 1 < order.length; i += 2) {
        const hosted = this.host(order[i]!, order[i + 1]!, [d]);
        if (!hosted) continue;
        this.add(hosted[0], hosted[1], d, this.rng.pick(times));
        played[hosted[0]]!.push(d);
        played[hosted[1]]!.push(d);
      }
    }
    return this.sorted();
  }

  /** Weekly rounds, one match per team per week (Monday to Sunday). */
  mls(season: readonly ScheduleDay[]): LeagueGame[] {
    const inSeasonDays = new Set(season.map((d) => d.index));
    const weekStarts = new Set(season.map((d) => d.index - ((d.weekday + 6) % 7)));
    for (const start of weekStarts) {
      const playing = this.shuffled(this.teams.map((_, i) => i));
      for (let i = 0; i + 1 < playing.length; i += 2) {
        const slot = this.rng.pick(MLS_DAYS);
        const d = start + ((slot.weekday + 6) % 7);
        if (!inSeasonDays.has(d)) continue;
        const hosted = this.host(playing[i]!, playing[i + 1]!, [d]);
        if (!hosted) continue;
        this.add(hosted[0], hosted[1], d, this.rng.pick(slot.times));
      }
    }
    return this.sorted();
  }

  private sorted(): LeagueGame[] {
    return this.games.sort((a, b) => a.day - b.day || a.home - b.home);
  }
}

/**
 * A shortened season for a catalog too small for a whole one: `count` of the games, chosen at random, MLB
 * by whole series so every series keeps its shape. Returned in day order.
 */
export function shortenSeason(games: readonly LeagueGame[], count: number, rng: Random): LeagueGame[] {
  if (count >= games.length) return games.slice();
  const groups = new Map<string, LeagueGame[]>();
  games.forEach((g, i) => {
    const key = g.series === undefined ? `g${i}` : `s${g.series}`;
    const list = groups.get(key);
    if (list) list.push(g);
    else groups.set(key, [g]);
  });
  const kept: LeagueGame[] = [];
  for (const group of rng.sample([...groups.values()], groups.size)) {
    if (kept.length >= count) break;
    if (kept.length + group.length > count && group.length > 1) continue;
    kept.push(...group);
  }
  return kept.sort((a, b) => a.day - b.day || a.home - b.home);
}
