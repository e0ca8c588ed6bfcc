import type { EventDocument, PerformerDocument, VenueDocument } from '../../../shared/schemas/documents.js';
import type { League } from '../data/types.js';
import { fileLines } from '../jsonl.js';
import { collectionFile, readManifest } from '../manifest.js';
import { TBD_LOCAL_TIME } from '../../../shared/rules/constants.js';
import {
  ARENA_MAX_DAYS_RUNNING,
  LEAGUE_BY_CATEGORY,
  MLB_SERIES_MAX,
  MLB_SERIES_MIN,
  NFL_KICKOFFS,
  NFL_MIN_DAYS_BETWEEN,
} from './league-rules.js';

/** The generator's window, its deliberate edge cases (RULES 15.7: past, time TBD, more than 10 years ahead). */
const WINDOW_DAYS = 365;
const PAST_EDGE_DAYS = 3;
const FAR_FUTURE_YEARS = 10;
const DAY = 86_400;

export interface CatalogViolation {
  rule: string;
  message: string;
}

export interface CatalogCheck {
  events: number;
  leagueGames: number;
  /** Every violation found, by rule, with at most `examples` messages each. */
  counts: Record<string, number>;
  violations: CatalogViolation[];
}

interface Game {
  day: number;
  minutes: number;
  venue: number;
  opponent: number;
  home: boolean;
}

/** The documents of a JSON Lines file, a chunk's worth at a time. */
async function* documents<T>(file: string): AsyncGenerator<T[]> {
  for await (const lines of fileLines(file)) yield lines.filter((line) => line).map((line) => JSON.parse(line) as T);
}

/** Days since 1970-01-01 of a local `YYYY-MM-DDTHH:mm:ss`, and the minutes into that day. */
function localDay(local: string): { day: number; minutes: number } {
  const day =
    Date.UTC(Number(local.slice(0, 4)), Number(local.slice(5, 7)) - 1, Number(local.slice(8, 10))) / 86_400_000;
  return { day, minutes: Number(local.slice(11, 13)) * 60 + Number(local.slice(14, 16)) };
}
const weekdayOf = (day: number) => (day + 4) % 7;
const [tbdH, tbdM] = TBD_LOCAL_TIME.split(':').map(Number) as [number, number];
const TBD_MINUTES = tbdH * 60 + tbdM;

/**
 * Streams the catalog in `dir` and reports every broken invariant: league rhythm (a team at most once a day,
 * NFL weekdays and kick-offs, MLB series of two to four, no NBA/NHL back-to-back-to-back, one MLS match a
 * week), venues (one league game a day, nothing else on a game day), documents agreeing with their events
 * (performers exist, counts and venues, venue counts, ranks) and dates (inside the window but for the
 * deliberate edge cases, local time and UTC instant consistent).
 */
export async function checkCatalogInvariants(dir: string, { examples = 20 } = {}): Promise<CatalogCheck> {
  const manifest = await readManifest(dir);
  if (!manifest) throw new Error(`no readable catalog manifest in ${dir}`);
  const counts: Record<string, number> = {};
  const violations: CatalogViolation[] = [];
  const report = (rule: string, message: string) => {
    counts[rule] = (counts[rule] ?? 0) + 1;
    if (counts[rule] <= examples) violations.push({ rule, message });
  };

  const startSeconds = Date.parse(`${manifest.start}T00:00:00Z`) / 1000;
  const startDay = startSeconds / DAY;
  const performers = new Map<number, PerformerDocument>();
  for await (const batch of documents<PerformerDocument>(collectionFile(dir, 'Performer')))
    for (const p of batch) performers.set(p.performer_id, p);

  const upcoming = new Map<number, number>();
  const performerVenues = new Map<number, Set<number>>();
  const venueUpcoming = new Map<number, number>();
  const games = new Map<number, { league: League; list: Game[] }>();
  const homeVenue = new Map<number, number>();
  const leagueVenueDays = new Set<number>();
  const otherVenueDays = new Set<number>();
  let events = 0;
  let leagueGames = 0;

  const checkEvent = (e: EventDocument) => {
    events++;
    const id = `event ${e.event_id}`;
    for (const pid of e.performer_ids)
      if (!performers.has(pid)) report('performer-exists', `${id} names performer ${pid}, not in Performer`);
    if (e.performer_ids.length !== e.performer_names.length)
      report('performer-exists', `${id}: ${e.performer_ids.length} ids, ${e.performer_names.length} names`);

    // Dates: local time, offset and instant agree; inside the window unless a deliberate edge case.
    const local = e.event_local_timestamp;
    if ((local === null) !== (e.event_timestamp === null))
      report('dates', `${id}: local time and instant disagree on being set`);
    const when = local ? localDay(local) : null;
    if (
      local !== null &&
      e.event_timestamp !== null &&
      Date.parse(`${local}Z`) / 1000 - e.venue_time_zone_offset * 3600 !== e.event_timestamp
    ) {
      report('dates', `${id}: ${local} at offset ${e.venue_time_zone_offset} is not ${e.event_timestamp}`);
    }
    const league = LEAGUE_BY_CATEGORY.get(e.category);
    if (when) {
      const inWindow = when.day >= startDay && when.day < startDay + WINDOW_DAYS;
      const past = when.day >= startDay - PAST_EDGE_DAYS && when.day < startDay;
      const far = when.day >= startDay + FAR_FUTURE_YEARS * 365;
      if (!inWindow && (league || (!past && !far)))
        report('dates', `${id} on ${local} is outside the window from ${manifest.start}`);
    }

    const counted = e.event_status !== 'cancelled' && (e.event_timestamp === null || e.event_timestamp >= startSeconds);
    if (counted) {
      venueUpcoming.set(e.venue_id, (venueUpcoming.get(e.venue_id) ?? 0) + 1);
      for (const pid of e.performer_ids) {
        upcoming.set(pid, (upcoming.get(pid) ?? 0) + 1);
        let set = performerVenues.get(pid);
        if (!set) performerVenues.set(pid, (set = new Set()));
        set.add(e.venue_id);
      }
    }

    if (!when) return;
    const venueDay = e.venue_id * 1_000_000 + when.day;
    if (!league) {
      otherVenueDays.add(venueDay);
      return;
    }
    leagueGames++;
    if (leagueVenueDays.has(venueDay))
      report('venue-double-booked', `${id}: a second league game at venue ${e.venue_id} on ${local!.slice(0, 10)}`);
    leagueVenueDays.add(venueDay);
    if (e.performer_ids.length !== 2) {
      report('league-game', `${id}: a league game with ${e.performer_ids.length} teams`);
      return;
    }
    const [home, away] = e.performer_ids as [number, number];
    for (const team of [home, away]) {
      const doc = performers.get(team);
      if (doc && doc.category !== e.category)
        report('league-game', `${id}: ${doc.performer_name} is not in ${e.category}`);
    }
    const seen = homeVenue.get(home);
    if (seen === undefined) homeVenue.set(home, e.venue_id);
    else if (seen !== e.venue_id)
      report('league-game', `${id}: performer ${home} hosts at venues ${seen} and ${e.venue_id}`);
    for (const [team, opponent, isHome] of [
      [home, away, true],
      [away, home, false],
    ] as const) {
      let entry = games.get(team);
      if (!entry) games.set(team, (entry = { league, list: [] }));
      entry.list.push({ day: when.day, minutes: when.minutes, venue: e.venue_id, opponent, home: isHome });
    }
    if (league === 'NFL') {
      const weekday = weekdayOf(when.day);
      const allowed = NFL_KICKOFFS.get(weekday) ?? [];
      const ok =
        allowed.some(([h, m]) => h * 60 + m === when.minutes) || (weekday === 0 && when.minutes === TBD_MINUTES);
      if (!ok) report('nfl-kickoff', `${id}: NFL game on weekday ${weekday} at ${local!.slice(11, 16)}`);
    }
  };
  for await (const batch of documents<EventDocument>(collectionFile(dir, 'Event')))
    for (const e of batch) checkEvent(e);

  for (const key of otherVenueDays) {
    if (leagueVenueDays.has(key))
      report('venue-double-booked', `venue ${Math.floor(key / 1_000_000)} holds another event on a league game day`);
  }

  for (const [team, { league, list }] of games) {
    list.sort((a, b) => a.day - b.day || a.minutes - b.minutes);
    const name = performers.get(team)?.performer_name ?? String(team);
    for (let i = 1; i < list.length; i++) {
      const gap = list[i]!.day - list[i - 1]!.day;
      if (gap === 0) report('team-twice-a-day', `${name} plays twice on day ${list[i]!.day}`);
      if (league === 'NFL' && gap > 0 && gap < NFL_MIN_DAYS_BETWEEN)
        report('nfl-rest', `${name}: games ${gap} days apart`);
      if (
        league === 'MLS' &&
        gap > 0 &&
        Math.floor((list[i]!.day + 3) / 7) === Math.floor((list[i - 1]!.day + 3) / 7)
      ) {
        report('mls-weekly', `${name}: two matches in one week`);
      }
    }
    if (league === 'NBA' || league === 'NHL') {
      let running = 1;
      for (let i = 1; i < list.length; i++) {
        running = list[i]!.day - list[i - 1]!.day === 1 ? running + 1 : 1;
        if (running > ARENA_MAX_DAYS_RUNNING)
          report('arena-rest', `${name} plays ${running} days running to day ${list[i]!.day}`);
      }
    }
    if (league === 'MLB') {
      // A series: consecutive days, one opponent, one park.
      let length = 1;
      for (let i = 1; i <= list.length; i++) {
        const a = list[i - 1]!;
        const b = list[i];
        if (b && b.day - a.day === 1 && b.opponent === a.opponent && b.venue === a.venue) {
          length++;
          continue;
        }
        if (length < MLB_SERIES_MIN || length > MLB_SERIES_MAX)
          report('mlb-series', `${name}: a series of ${length} against ${a.opponent} ending on day ${a.day}`);
        length = 1;
      }
    }
  }

  const ranks: number[] = [];
  for (const p of performers.values()) {
    ranks.push(p.order_rank);
    const want = upcoming.get(p.performer_id) ?? 0;
    if (p.events_available !== want)
      report('performer-counts', `${p.performer_name}: events_available ${p.events_available}, events say ${want}`);
    const venues = performerVenues.get(p.performer_id) ?? new Set<number>();
    const listed = new Set(p.venues.map((v) => v.venue_id));
    if (
      listed.size !== venues.size ||
      [...listed].some((v) => !venues.has(v)) ||
      p.venue_locations.length !== p.venues.length
    ) {
      report('performer-counts', `${p.performer_name}: venues listed do not match its events' venues`);
    }
  }
  ranks.sort((a, b) => a - b);
  if (ranks.some((r, i) => r !== i + 1)) report('performer-counts', 'order_rank is not 1..n');
  for await (const batch of documents<VenueDocument>(collectionFile(dir, 'Venue'))) {
    for (const v of batch) {
      const want = venueUpcoming.get(v.venue_id) ?? 0;
      if (v.events_available !== want)
        report('venue-counts', `${v.venue_name}: events_available ${v.events_available}, events say ${want}`);
    }
  }
  if (events !== manifest.counts.Event)
    report('manifest', `manifest says ${manifest.counts.Event} events, file has ${events}`);
  return { events, leagueGames, counts, violations };
}
