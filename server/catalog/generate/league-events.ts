import { CATEGORY_BY_SLUG } from '../../../shared/catalog/categories.js';
import { TEAMS } from '../data/teams.js';
import type { League } from '../data/types.js';
import type { DayInfo, PerformerRec, PerformerRoster, VenueRec } from './catalog-records.js';
import type { EventWriter } from './event-writer.js';
import { LEAGUES } from './league-rules.js';
import { scheduleLeague, shortenSeason, type LeagueGame, type VenueDays } from './league-schedule.js';
import type { NameSource } from './names.js';
import type { Random } from './random.js';
import { shareOut } from './share-out.js';

/** At most this share of a catalog is league games; a full season of every league fits from about 19,000 events. */
const LEAGUE_SHARE = 0.3;

export interface LeagueSeason {
  league: League;
  games: LeagueGame[];
}

/** Every team as a performer of its league's category, playing at its home venue. */
export function addTeams(
  roster: PerformerRoster,
  names: NameSource,
  rng: Random,
  teamVenue: ReadonlyMap<string, VenueRec>,
): Map<League, PerformerRec[]> {
  const teamsByLeague = new Map<League, PerformerRec[]>();
  for (const t of TEAMS) {
    const rec = roster.add(
      names.claim(t.name),
      CATEGORY_BY_SLUG.get(LEAGUES[t.league].slug)!,
      0.25 + 0.75 * rng.next(),
      teamVenue.get(t.name),
    );
    teamsByLeague.set(t.league, [...(teamsByLeague.get(t.league) ?? []), rec]);
  }
  return teamsByLeague;
}

/**
 * League seasons are real schedules fixed by the calendar; a small catalog of `target` events plays a shortened
 * one so the rest still fits. A venue-day with a league game is kept free of everything else (`venueDays`).
 */
export function leagueSeasons(
  teamsByLeague: ReadonlyMap<League, PerformerRec[]>,
  days: readonly DayInfo[],
  rng: Random,
  venueDays: VenueDays,
  target: number,
): LeagueSeason[] {
  const fullSeasons = (['MLB', 'NFL', 'NBA', 'NHL', 'MLS'] as const).map((league) => ({
    league,
    games: scheduleLeague(
      league,
      (teamsByLeague.get(league) ?? []).map((t) => ({ venueId: t.home!.id })),
      days,
      rng,
      venueDays,
    ),
  }));
  const fullSeason = fullSeasons.reduce((n, s) => n + s.games.length, 0);
  const seasonShares = shareOut(
    Math.min(fullSeason, Math.round(target * LEAGUE_SHARE)),
    fullSeasons.map((s) => s.games.length),
  );
  return fullSeasons.map((s, i) => ({
    league: s.league,
    games: shortenSeason(s.games, seasonShares[i]!, rng),
  }));
}

/** Each game as an event at the home team's venue, named the league's way (`A at B` or `B vs. A`). */
export async function writeLeagueEvents(
  seasons: readonly LeagueSeason[],
  teamsByLeague: ReadonlyMap<League, PerformerRec[]>,
  days: readonly DayInfo[],
  events: EventWriter,
): Promise<void> {
  for (const { league, games } of seasons) {
    const rule = LEAGUES[league];
    const teams = teamsByLeague.get(league)!;
    for (const game of games) {
      const team = teams[game.home]!;
      const opponent = teams[game.away]!;
      await events.write({
        name: rule.versus === 'at' ? `${opponent.name} at ${team.name}` : `${team.name} vs. ${opponent.name}`,
        performers: [team, opponent],
        venue: team.home!,
        category: team.category,
        day: days[game.day]!,
        time: game.time,
        basePrice: rule.basePrice,
      });
    }
  }
}
