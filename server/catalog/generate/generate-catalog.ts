import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  COLLECTION_SCHEMAS,
  type CollectionName,
  type EventDocument,
  type PerformerDocument,
  type TopCategory,
} from '../../../shared/schemas/documents.js';
import { US_CITIES } from '../data/cities.js';
import { TEAMS } from '../data/teams.js';
import type { League, VenueKind } from '../data/types.js';
import { VENUES } from '../data/venues.js';
import { JsonlWriter } from '../jsonl.js';
import {
  CATALOG_FORMAT_VERSION,
  CATALOG_GENERATOR_VERSION,
  collectionFile,
  MANIFEST_FILE,
  type CatalogManifest,
} from '../manifest.js';
import type { CategoryDefinition } from '../../../shared/catalog/taxonomy.js';
import { CATEGORIES, CATEGORY_BY_SLUG } from '../../../shared/catalog/categories.js';
import { categoryImageCode } from '../../../shared/catalog/category-images.js';
import { TBD_LOCAL_TIME } from '../../../shared/rules/constants.js';
import { entitySlug } from '../../../shared/rules/slug.js';
import { LEAGUES, scheduleLeague, shortenSeason, VenueDays } from './league-schedule.js';
import { NameSource } from './names.js';
import { Random } from './random.js';
import { addDays, formatLocal, zonedToUtc, type LocalDateTime } from './zoned-time.js';

export interface GenerateOptions {
  /** How many events to write (the catalog holds exactly this many). */
  events: number;
  seed: number;
  /** First day of the one-year schedule, `YYYY-MM-DD`. */
  start: string;
  outDir: string;
  log?: (message: string) => void;
}

const WINDOW_DAYS = 365;
/** Real venues carry about this many events each before the generator adds venues of its own. */
const EVENTS_PER_VENUE = 200;
/** Deliberate edge cases, as shares of the catalog with a floor so small catalogs have them too. */
const EDGE_CASES = {
  timeTbd: { share: 0.01, min: 10 },
  dateTbd: { share: 0.002, min: 3 },
  farFuture: { share: 0.0005, min: 3 },
  past: { share: 0.001, min: 3 },
} as const;
type EdgeCase = keyof typeof EDGE_CASES;
/** Spec §3: a time of 03:30 AM means the time is not set yet. */
const [tbdHour, tbdMinute] = TBD_LOCAL_TIME.split(':').map(Number) as [number, number];
const TBD_TIME = { hour: tbdHour, minute: tbdMinute };
const MIN_PERFORMERS_PER_CATEGORY = 12;
/** At most this share of a catalog is league games; a full season of every league fits from about 19,000 events. */
const LEAGUE_SHARE = 0.3;
const TOP_PERFORMER_SHARE = 0.05;

const BASE_PRICE: Record<string, number> = {
  classical: 42,
  comedy: 38,
  festivals: 149,
  broadway: 89,
  'off-broadway': 59,
  'west-end': 45,
  'las-vegas-shows': 69,
  'cirque-du-soleil': 75,
  opera: 65,
  ballet: 55,
  wwe: 35,
  boxing: 65,
  mma: 60,
  racing: 45,
  golf: 70,
  rodeo: 30,
  tennis: 55,
};

interface VenueRec {
  id: number;
  name: string;
  kind: VenueKind;
  city: string;
  state: string;
  stateName: string;
  country: string;
  zip: string;
  lat: number;
  lng: number;
  timeZone: string;
  capacity: number;
  upcoming: number;
  inventory: number;
}

interface PerformerRec {
  id: number;
  name: string;
  category: CategoryDefinition;
  popularity: number;
  home?: VenueRec;
  upcoming: number;
  tickets: number;
  groups: number;
  inventory: number;
  ordersD7: number;
  ordersT12: number;
  /** Per venue: its lowest price and the first upcoming start there (venue order on the performer card). */
  venues: Map<number, { venue: VenueRec; minPrice: number; first: number }>;
  lastStart: number;
}

interface DayInfo extends LocalDateTime {
  index: number;
  weekday: number;
}

interface EmitInput {
  name: string;
  performers: PerformerRec[];
  venue: VenueRec;
  category: CategoryDefinition;
  day: DayInfo;
  time: readonly [number, number];
  basePrice: number;
  /** Non-league events may be turned into one of the deliberate edge cases. */
  ordinal?: number;
}

/** Generates the whole catalog into `outDir` and returns its manifest. Same options, same bytes. */
export async function generateCatalog(options: GenerateOptions): Promise<CatalogManifest> {
  const { events: target, seed, start, log = () => {} } = options;
  if (!Number.isInteger(target) || target < 100) throw new Error('events must be an integer of at least 100');
  const startMatch = /^(\d{4})-(\d{2})-(\d{2})$/.exec(start);
  if (!startMatch) throw new Error('start must be YYYY-MM-DD');
  const startDate = { year: Number(startMatch[1]), month: Number(startMatch[2]), day: Number(startMatch[3]) };
  const startMs = Date.UTC(startDate.year, startDate.month - 1, startDate.day);
  const rng = new Random(seed);
  const names = new NameSource(rng);

  // Everything is written to a sibling folder and swapped in at the end, so a reader never sees half a catalog.
  const outDir = path.resolve(options.outDir);
  const workDir = `${outDir}.partial-${process.pid}`;
  await rm(workDir, { recursive: true, force: true });
  await mkdir(workDir, { recursive: true });
  const writers = Object.fromEntries(
    (Object.keys(COLLECTION_SCHEMAS) as CollectionName[]).map((c) => [
      c,
      new JsonlWriter(collectionFile(workDir, c), COLLECTION_SCHEMAS[c], c),
    ]),
  ) as { [C in CollectionName]: JsonlWriter<(typeof COLLECTION_SCHEMAS)[C]> };

  const days: DayInfo[] = Array.from({ length: WINDOW_DAYS }, (_, index) => ({
    ...addDays(startDate, index),
    hour: 0,
    minute: 0,
    index,
  }));

  // ---- venues -------------------------------------------------------------------------------------------
  const venues: VenueRec[] = [];
  const venueKey = new Set<string>();
  const addVenue = (v: Omit<VenueRec, 'id' | 'upcoming' | 'inventory'>) => {
    const key = `${v.name}|${v.city}`;
    if (venueKey.has(key)) return venues.find((x) => x.name === v.name && x.city === v.city)!;
    venueKey.add(key);
    const rec = { ...v, id: 501 + venues.length, upcoming: 0, inventory: 0 };
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
  generateExtraVenues(rng, venues, Math.round(target / EVENTS_PER_VENUE) - venues.length, addVenue);
  log(`venues: ${venues.length}`);

  // ---- performers -------------------------------------------------------------------------------------
  const performers: PerformerRec[] = [];
  const newPerformer = (name: string, category: CategoryDefinition, popularity: number, home?: VenueRec) => {
    const rec: PerformerRec = {
      id: 1001 + performers.length,
      name,
      category,
      popularity,
      home,
      upcoming: 0,
      tickets: 0,
      groups: 0,
      inventory: 0,
      ordersD7: 0,
      ordersT12: 0,
      venues: new Map(),
      lastStart: 0,
    };
    performers.push(rec);
    return rec;
  };
  const popularity = () => Math.min(1, rng.logNormal(-1.6, 0.8));

  const teamsByLeague = new Map<League, PerformerRec[]>();
  for (const t of TEAMS) {
    const rec = newPerformer(
      names.claim(t.name),
      CATEGORY_BY_SLUG.get(LEAGUES[t.league].slug)!,
      0.25 + 0.75 * rng.next(),
      teamVenue.get(t.name),
    );
    teamsByLeague.set(t.league, [...(teamsByLeague.get(t.league) ?? []), rec]);
  }

  // League seasons are real schedules fixed by the calendar; a small catalog plays a shortened one so the rest
  // still fits. A venue-day with a league game is kept free of everything else.
  const venueDays = new VenueDays();
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
  const seasons = fullSeasons.map((s, i) => ({
    league: s.league,
    games: shortenSeason(s.games, seasonShares[i]!, rng),
  }));
  const leagueEvents = seasons.reduce((n, s) => n + s.games.length, 0);
  const otherBudget = target - leagueEvents;

  const other = CATEGORIES.filter((c) => c.schedule !== 'league');
  const totalWeight = other.reduce((n, c) => n + c.weight, 0);
  const budgets = new Map<CategoryDefinition, number>();
  let assigned = 0;
  other.forEach((c, i) => {
    const b = i === other.length - 1 ? otherBudget - assigned : Math.floor((otherBudget * c.weight) / totalWeight);
    budgets.set(c, b);
    assigned += b;
  });

  // ---- edge cases -------------------------------------------------------------------------------------
  const edgeByOrdinal = new Map<number, EdgeCase>();
  for (const [kind, { share, min }] of Object.entries(EDGE_CASES) as [EdgeCase, { share: number; min: number }][]) {
    const want = Math.max(min, Math.round(target * share));
    let placed = 0;
    while (placed < want && edgeByOrdinal.size < otherBudget) {
      const o = rng.int(0, otherBudget - 1);
      if (!edgeByOrdinal.has(o)) {
        edgeByOrdinal.set(o, kind);
        placed++;
      }
    }
  }

  // ---- event emission ---------------------------------------------------------------------------------
  let nextEventId = 100001;
  const nowSeconds = Math.floor(startMs / 1000);
  const gtv = {
    zip3: new Map<string, Map<string, number>>(),
    zip2: new Map<string, Map<string, number>>(),
    state: new Map<string, Map<string, number>>(),
  };
  const cityOf = new Map<string, VenueRec>();

  const emit = async (input: EmitInput) => {
    const { venue, category, performers: acts } = input;
    const edge = input.ordinal === undefined ? undefined : edgeByOrdinal.get(input.ordinal);
    let local: LocalDateTime | null = { ...input.day, hour: input.time[0], minute: input.time[1] };
    let status: EventDocument['event_status'] = 'scheduled';
    if (edge === 'timeTbd') local = { ...local, ...TBD_TIME };
    if (edge === 'past') local = { ...addDays(startDate, -rng.int(1, 3)), hour: input.time[0], minute: input.time[1] };
    if (edge === 'farFuture') local = { ...local, year: local.year + rng.int(11, 20) };
    if (edge === 'dateTbd') {
      local = null;
      status = rng.chance(0.5) ? 'postponed' : 'scheduled';
    } else if (rng.chance(0.004)) {
      status = rng.pick(['postponed', 'rescheduled', 'cancelled'] as const);
    }
    const zoned = local ? zonedToUtc(local, venue.timeZone) : null;
    const timestamp = zoned ? Math.floor(zoned.utcMs / 1000) : null;
    const offsetHours = zoned
      ? zoned.offsetMinutes / 60
      : zonedToUtc({ ...input.day, hour: 12, minute: 0 }, venue.timeZone).offsetMinutes / 60;
    const daysAhead = timestamp === null ? 60 : (timestamp - nowSeconds) / 86400;
    const isPast = timestamp !== null && timestamp < nowSeconds;
    const isFar = daysAhead > WINDOW_DAYS * 2;

    // Demand: interest grows with the act's popularity; sales concentrate in the last weeks before the date.
    const interest = Math.min(1, Math.max(...acts.map((a) => a.popularity)) * (0.6 + 0.8 * rng.next()));
    const soldOut = rng.chance(0.01);
    const tickets = soldOut
      ? 0
      : Math.max(1, Math.round(venue.capacity * (0.002 + 0.05 * rng.next()) * (1.3 - interest)));
    const groups = tickets === 0 ? 0 : Math.max(1, Math.round(tickets / rng.int(2, 6)));
    const price = Math.round(input.basePrice * (0.55 + 1.6 * interest) * (0.8 + 0.4 * rng.next()) * 100) / 100;
    const urgency = isFar ? 0 : daysAhead < 14 ? 1 : daysAhead < 60 ? 0.5 : 0.2;
    const ordersT12 = isFar ? 0 : Math.round(venue.capacity * 0.04 * interest * (0.5 + rng.next()));
    const ordersD7 = Math.round(ordersT12 * 0.12 * urgency * rng.next() * 2);
    const ordersD1 = rng.poisson((ordersD7 / 7) * (0.5 + rng.next()));
    const cartD1 = rng.poisson(ordersD1 * 1.4 + interest * 5 * urgency);
    const viewing = rng.poisson(interest * 18 * (0.3 + urgency));

    const doc: EventDocument = {
      id: String(nextEventId),
      event_id: nextEventId++,
      event_name: input.name,
      event_status: status,
      venue_id: venue.id,
      venue_name: venue.name,
      venue_city: venue.city,
      venue_state: venue.stateName,
      venue_state_province_short: venue.state,
      venue_country_short: venue.country,
      venue_zip: venue.zip,
      venue_location: [venue.lat, venue.lng],
      event_local_timestamp: local ? formatLocal(local) : null,
      venue_time_zone_offset: offsetHours,
      event_timestamp: timestamp,
      event_orders_d1: ordersD1,
      event_cart_d1: cartD1,
      event_mpv_d1: viewing,
      event_orders_d7: ordersD7,
      event_orders_t12: ordersT12,
      tickets_available: tickets,
      ticket_groups_available: groups,
      min_ticket_price: price,
      major_category: category.parent,
      parent_category: category.child,
      child_category: category.grandchild,
      category: category.slug,
      performer_ids: acts.map((a) => a.id),
      performer_names: acts.map((a) => a.name),
    };
    writers.Event.write(doc);
    if (venue.country === 'US' && /^\d{5}$/.test(venue.zip)) {
      writers.ZipEvent.write({
        id: doc.id,
        cat: category.slug,
        zip: venue.zip.slice(0, 3),
        event_id: doc.event_id,
        event_local_timestamp: doc.event_local_timestamp,
        event_timestamp: timestamp,
      });
    }

    if (!isPast && status !== 'cancelled') {
      const inventory = tickets * price * 1.35;
      venue.upcoming++;
      venue.inventory += inventory;
      const sortKey = timestamp ?? Number.MAX_SAFE_INTEGER;
      for (const act of acts) {
        act.upcoming++;
        act.tickets += tickets;
        act.groups += groups;
        act.inventory += inventory;
        act.ordersD7 += ordersD7;
        act.ordersT12 += ordersT12;
        if (timestamp !== null && !isFar) act.lastStart = Math.max(act.lastStart, timestamp);
        const seen = act.venues.get(venue.id);
        if (!seen) act.venues.set(venue.id, { venue, minPrice: price, first: sortKey });
        else {
          seen.minPrice = Math.min(seen.minPrice, price);
          seen.first = Math.min(seen.first, sortKey);
        }
      }
      if (venue.country === 'US' && /^\d{5}$/.test(venue.zip) && !isFar) {
        const value = ordersT12 * price * 1.8;
        const cityKey = `${venue.city}|${venue.state}`;
        cityOf.set(cityKey, venue);
        for (const [bucket, key] of [
          [gtv.zip3, venue.zip.slice(0, 3)],
          [gtv.zip2, venue.zip.slice(0, 2)],
          [gtv.state, venue.state],
        ] as const) {
          const byCity = bucket.get(key) ?? new Map<string, number>();
          byCity.set(cityKey, (byCity.get(cityKey) ?? 0) + value);
          bucket.set(key, byCity);
        }
      }
    }
    if ((nextEventId & 4095) === 0) await Promise.all([writers.Event.settle(), writers.ZipEvent.settle()]);
  };

  // ---- league seasons ---------------------------------------------------------------------------------
  for (const { league, games } of seasons) {
    const rule = LEAGUES[league];
    const teams = teamsByLeague.get(league)!;
    for (const game of games) {
      const team = teams[game.home]!;
      const opponent = teams[game.away]!;
      await emit({
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
  log(`league events: ${leagueEvents}`);

  // ---- tours, residencies and tournaments -------------------------------------------------------------
  const poolByCategory = new Map<CategoryDefinition, VenueRec[]>();
  const poolFor = (c: CategoryDefinition) => {
    let pool = poolByCategory.get(c);
    if (!pool) {
      const place = placeFilter(c.slug);
      pool = venues.filter((v) => c.venueKinds.includes(v.kind) && place(v));
      if (pool.length === 0) pool = venues.filter((v) => c.venueKinds.includes(v.kind));
      if (pool.length === 0) pool = venues.filter((v) => v.kind === 'theater' || v.kind === 'arena');
      pool.sort((a, b) => a.capacity - b.capacity || a.id - b.id);
      poolByCategory.set(c, pool);
    }
    return pool;
  };
  // Popular acts play bigger rooms: pick near the capacity their popularity asks for, with some spread.
  const pickVenue = (pool: VenueRec[], pop: number) => {
    const want = 300 + pop * pop * 25000;
    let lo = 0;
    let hi = pool.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (pool[mid]!.capacity < want) lo = mid + 1;
      else hi = mid;
    }
    const spread = Math.max(2, Math.round(pool.length * 0.2));
    return pool[Math.min(pool.length - 1, Math.max(0, lo + Math.round(rng.gauss() * spread)))]!;
  };

  /** A venue of the pool without a league game that day: near the act's size first, else the first free one. */
  const freeVenue = (pool: VenueRec[], pop: number, day: number) => {
    for (let tries = 0; tries < 8; tries++) {
      const venue = pickVenue(pool, pop);
      if (!venueDays.has(venue.id, day)) return venue;
    }
    const from = rng.int(0, pool.length - 1);
    for (let k = 0; k < pool.length; k++) {
      const venue = pool[(from + k) % pool.length]!;
      if (!venueDays.has(venue.id, day)) return venue;
    }
    return pool[from]!;
  };

  let ordinal = 0;
  for (const category of other) {
    const budget = budgets.get(category)!;
    // A catalog too small to give this category a single event leaves it out.
    if (budget <= 0) continue;
    const average = category.schedule === 'tour' ? 24 : category.schedule === 'residency' ? 64 : 4;
    const count = Math.min(Math.max(MIN_PERFORMERS_PER_CATEGORY, Math.ceil(budget / average)), Math.max(1, budget));
    const acts = Array.from({ length: count }, (_, i) => newPerformer(names.take(category, i), category, popularity()));
    // Split the budget by popularity, at least one event each.
    const shares = acts.map((a) => a.popularity + 0.2);
    const shareSum = shares.reduce((n, s) => n + s, 0);
    const counts = shares.map((s) => Math.max(1, Math.floor(((budget - count) * s) / shareSum) + 1));
    let surplus = counts.reduce((n, c) => n + c, 0) - budget;
    for (let i = 0; surplus !== 0; i = (i + 1) % counts.length) {
      if (surplus > 0 && counts[i]! > 1) {
        counts[i]!--;
        surplus--;
      } else if (surplus < 0) {
        counts[i]!++;
        surplus++;
      }
    }
    const pool = poolFor(category);
    const basePrice = BASE_PRICE[category.slug] ?? 48;
    for (let i = 0; i < acts.length; i++) {
      const act = acts[i]!;
      for (const slot of schedule(rng, category, counts[i]!, days)) {
        const home = slot.newVenue || !act.home ? pickVenue(pool, act.popularity) : act.home;
        act.home = home;
        // A league game that day at this venue: this one date plays elsewhere.
        const venue = venueDays.has(home.id, slot.day.index) ? freeVenue(pool, act.popularity, slot.day.index) : home;
        let lineup = [act];
        let name = act.name;
        if (category.schedule === 'tour' && acts.length > 1 && rng.chance(0.12)) {
          const opener = acts[(i + 1 + rng.int(0, acts.length - 2)) % acts.length]!;
          lineup = [act, opener];
          name = `${act.name} with ${opener.name}`;
        }
        await emit({
          name,
          performers: lineup,
          venue,
          category,
          day: slot.day,
          time: slot.time,
          basePrice,
          ordinal: ordinal++,
        });
      }
      act.home = undefined;
    }
  }
  log(`events: ${writers.Event.count}`);

  // ---- performers, venues and the indexes built from them ---------------------------------------------
  const ranked = performers.slice().sort((a, b) => b.ordersT12 - a.ordersT12 || a.id - b.id);
  const rankOf = new Map(ranked.map((p, i) => [p.id, i + 1]));
  const topCut = Math.max(1, Math.round(performers.length * TOP_PERFORMER_SHARE));
  for (const p of performers) {
    const venueList = [...p.venues.values()].sort((a, b) => a.first - b.first || a.venue.id - b.venue.id);
    const doc: PerformerDocument = {
      id: String(p.id),
      performer_id: p.id,
      performer_name: p.name,
      image: performerImage(p.id),
      events_available: p.upcoming,
      tickets_available: p.tickets,
      ticket_groups_available: p.groups,
      total_inventory_value: Math.round(p.inventory * 100) / 100,
      venues: venueList.map(({ venue, minPrice }) => ({
        venue_id: venue.id,
        venue_name: venue.name,
        venue_city: venue.city,
        min_ticket_price: minPrice,
      })),
      venue_locations: venueList.map(({ venue }) => [venue.lat, venue.lng] as [number, number]),
      category: p.category.slug,
      parent: p.category.parent as TopCategory,
      child: p.category.child,
      grandchild: p.category.grandchild,
      order_rank: rankOf.get(p.id)!,
      expiry_datetime: p.lastStart ? new Date(p.lastStart * 1000).toISOString() : '',
      performer_orders_d7: p.ordersD7,
      performer_orders_t12: p.ordersT12,
      custom_label: rankOf.get(p.id)! <= topCut ? 'topperf' : '',
    };
    writers.Performer.write(doc);
    writers.TSImage.write({ id: doc.id, image_url: doc.image });
  }
  for (const v of venues) {
    writers.Venue.write({
      id: String(v.id),
      venue_id: v.id,
      venue_name: v.name,
      venue_kind: v.kind,
      venue_city: v.city,
      venue_state: v.stateName,
      venue_state_province_short: v.state,
      venue_country_short: v.country,
      venue_zip: v.zip,
      venue_time_zone: v.timeZone,
      venue_location: [v.lat, v.lng],
      capacity: v.capacity,
      events_available: v.upcoming,
      total_inventory_value: Math.round(v.inventory * 100) / 100,
    });
  }

  let oid = 0;
  for (const c of CATEGORIES) {
    writers.Explore.write({
      id: `category-${c.slug}`,
      _oid: oid++,
      entity_id: CATEGORIES.indexOf(c) + 1,
      entity_type: 'category',
      text: c.name,
      path_picture: categoryImage(categoryImageCode(c)),
      url: `/category/${c.slug}`,
      rank: 1_000_000,
    });
  }
  for (const p of ranked) {
    writers.Explore.write({
      id: `performer-${p.id}`,
      _oid: oid++,
      entity_id: p.id,
      entity_type: 'performer',
      text: p.name,
      path_picture: performerImage(p.id),
      url: `/performers/${entitySlug(p.name, p.id)}`,
      rank: p.ordersT12,
    });
  }
  for (const v of venues.filter((x) => x.upcoming > 0)) {
    writers.Explore.write({
      id: `venue-${v.id}`,
      _oid: oid++,
      entity_id: v.id,
      entity_type: 'venue',
      text: v.name,
      path_picture: `/media/venues/${v.id}.svg`,
      url: `/venues/${entitySlug(v.name, v.id)}`,
      rank: v.upcoming,
    });
  }

  writeBanners(writers.Banner, ranked, Math.floor(startMs / 1000));

  for (const [keyType, bucket] of Object.entries(gtv) as [
    'zip3' | 'zip2' | 'state',
    Map<string, Map<string, number>>,
  ][]) {
    for (const key of [...bucket.keys()].sort()) {
      const byCity = bucket.get(key)!;
      let best = '';
      let total = 0;
      for (const [city, value] of byCity) {
        total += value;
        if (!best || value > byCity.get(best)! || (value === byCity.get(best)! && city < best)) best = city;
      }
      const venue = cityOf.get(best)!;
      writers.ZipEventDetermination.write({
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

  US_CITIES.forEach((c, i) => {
    writers.USCity.write({
      id: String(i + 1),
      city: c.city,
      state_name: c.stateName,
      state_id: c.stateId,
      population: c.population,
      location: [c.lat, c.lng],
      zip: c.zip,
      time_zone: c.timeZone,
    });
  });

  await Promise.all(Object.values(writers).map((w) => w.close()));
  const counts = Object.fromEntries(Object.entries(writers).map(([c, w]) => [c, w.count])) as Record<
    CollectionName,
    number
  >;
  const manifest: CatalogManifest = {
    version: CATALOG_FORMAT_VERSION,
    generator: CATALOG_GENERATOR_VERSION,
    seed,
    events: target,
    start,
    generatedAt: new Date().toISOString(),
    counts,
  };
  await writeFile(path.join(workDir, MANIFEST_FILE), JSON.stringify(manifest, null, 2) + '\n');
  await rm(outDir, { recursive: true, force: true });
  await mkdir(path.dirname(outDir), { recursive: true });
  await rename(workDir, outDir);
  return manifest;
}

export const performerImage = (id: number) => `/media/performers/${id}.svg`;
export const categoryImage = (code: string) => `/media/categories/${code}.svg`;

/** Splits `total` in proportion to `weights` into whole numbers that add up to exactly `total`. */
export function shareOut(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  const exact = weights.map((w) => (sum > 0 ? (total * w) / sum : 0));
  const parts = exact.map(Math.floor);
  let left = total - parts.reduce((a, b) => a + b, 0);
  const byRemainder = exact.map((x, i) => ({ i, r: x - Math.floor(x) })).sort((a, b) => b.r - a.r || a.i - b.i);
  for (let k = 0; left > 0; k = (k + 1) % byRemainder.length, left--) parts[byRemainder[k]!.i]!++;
  return parts;
}

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

interface Slot {
  day: DayInfo;
  time: [number, number];
  newVenue: boolean;
}

/** The dates and times of one act's events, by the shape of its category. */
function* schedule(
  rng: Random,
  category: CategoryDefinition,
  count: number,
  days: readonly DayInfo[],
): Generator<Slot> {
  let emitted = 0;
  if (category.schedule === 'residency') {
    // Eight shows a week: Tuesday to Sunday evenings plus Wednesday and Saturday matinees; Monday dark.
    const longRun = ['broadway', 'off-broadway', 'west-end', 'las-vegas-shows', 'cirque-du-soleil'].includes(
      category.slug,
    );
    let dayIndex = rng.int(0, Math.max(0, days.length - Math.ceil(count / 8) * 7 - 1));
    let newVenue = true;
    let runLeft = longRun ? Infinity : rng.int(16, 64);
    while (emitted < count) {
      if (dayIndex >= days.length) {
        dayIndex = 0;
        newVenue = true;
      }
      const day = days[dayIndex++]!;
      const times: [number, number][] =
        day.weekday === 1
          ? []
          : day.weekday === 3 || day.weekday === 6
            ? [
                [14, 0],
                [20, 0],
              ]
            : day.weekday === 0
              ? [[15, 0]]
              : [[19, 30]];
      for (const time of times) {
        if (emitted >= count) break;
        yield { day, time, newVenue };
        newVenue = false;
        emitted++;
        if (--runLeft <= 0) {
          runLeft = rng.int(16, 64);
          newVenue = true;
          dayIndex += rng.int(3, 14);
        }
      }
    }
    return;
  }
  if (category.schedule === 'tournament') {
    const length = category.slug === 'tennis' ? 7 : category.slug === 'golf' ? 4 : 3;
    const time: [number, number] = category.slug === 'golf' ? [8, 0] : category.slug === 'racing' ? [15, 0] : [12, 0];
    while (emitted < count) {
      let dayIndex = rng.int(0, days.length - length);
      for (let d = 0; d < length && emitted < count; d++, emitted++) {
        yield { day: days[dayIndex++]!, time, newVenue: d === 0 };
      }
    }
    return;
  }
  // Tours: legs of dates one to three days apart, a new city each night.
  const late = category.slug === 'electronic';
  let dayIndex = rng.int(0, days.length - 1);
  while (emitted < count) {
    if (dayIndex >= days.length) dayIndex = rng.int(0, 60);
    const day = days[dayIndex]!;
    let time: [number, number] = rng.pick([
      [19, 30],
      [20, 0],
      [19, 0],
      [20, 30],
    ] as [number, number][]);
    // Club nights run late; some start after midnight, which is the next calendar day locally.
    if (late && rng.chance(0.5))
      time = rng.pick([
        [22, 0],
        [23, 0],
        [23, 30],
        [0, 30],
      ] as [number, number][]);
    if (category.slug === 'comedy' && rng.chance(0.3)) time = [21, 45];
    yield { day, time, newVenue: true };
    emitted++;
    dayIndex += rng.int(1, 3);
  }
}

const VENUE_SUFFIX: [VenueKind, string, number, number][] = [
  ['concert-hall', 'Music Hall', 1200, 2800],
  ['arena', 'Civic Arena', 6000, 16000],
  ['amphitheater', 'Amphitheater', 5000, 20000],
  ['theater', 'Playhouse', 600, 2200],
  ['club', 'Ballroom', 300, 1500],
  ['club', 'Social Club', 200, 900],
];

/** Adds venues in real cities (by population) when the catalog is larger than the real venues carry. */
function generateExtraVenues(
  rng: Random,
  venues: VenueRec[],
  extra: number,
  add: (v: Omit<VenueRec, 'id' | 'upcoming' | 'inventory'>) => VenueRec,
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
      name: venues.some((v) => v.name === name && v.city === city.city) ? `${name} ${rng.int(2, 99)}` : name,
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

function writeBanners(writer: JsonlWriter<(typeof COLLECTION_SCHEMAS)['Banner']>, ranked: PerformerRec[], now: number) {
  const day = 86400;
  const promos: {
    title: string;
    subtitle: string;
    slug?: string;
    performer?: PerformerRec;
    from: number;
    to: number;
  }[] = [
    { title: 'Football Sundays', subtitle: 'Every NFL home game, all-in prices', slug: 'nfl', from: -30, to: 75 },
    { title: 'Hoops Season', subtitle: 'Courtside to the rafters: NBA tickets', slug: 'nba', from: -30, to: 150 },
    { title: 'Puck Drop', subtitle: 'NHL games near you', slug: 'nhl', from: -30, to: 150 },
    { title: 'Opening Day Is Coming', subtitle: 'MLB tickets for the new season', slug: 'mlb', from: 0, to: 310 },
    {
      title: 'A Night on Broadway',
      subtitle: 'The shows everyone is talking about',
      slug: 'broadway',
      from: -10,
      to: 365,
    },
    { title: 'Festival Season', subtitle: 'Multi-day passes and single days', slug: 'festivals', from: 0, to: 365 },
    { title: 'Laugh Out Loud', subtitle: 'Stand-up comedy on tour', slug: 'comedy', from: 0, to: 200 },
    { title: 'Family Fun', subtitle: 'Shows for every age', slug: 'family-friendly-shows', from: 0, to: 365 },
    { title: 'Last Season Clearance', subtitle: 'This promotion has ended', slug: 'pop', from: -120, to: -1 },
  ];
  for (const top of ranked.filter((p) => p.category.schedule === 'tour').slice(0, 3)) {
    promos.push({ title: top.name, subtitle: 'On tour now: find a date near you', performer: top, from: -5, to: 120 });
  }
  promos.forEach((p, i) => {
    const category = p.slug ? CATEGORY_BY_SLUG.get(p.slug)! : p.performer!.category;
    writer.write({
      id: String(i + 1),
      banner_id: i + 1,
      brand: '*',
      placement: 'promo',
      title: p.title,
      subtitle: p.subtitle,
      image: p.performer ? performerImage(p.performer.id) : categoryImage(categoryImageCode(category)),
      url: p.performer ? `/performers/${entitySlug(p.performer.name, p.performer.id)}` : `/category/${category.slug}`,
      priority: promos.length - i,
      starts_at: now + p.from * day,
      ends_at: now + p.to * day,
    });
  });
}
