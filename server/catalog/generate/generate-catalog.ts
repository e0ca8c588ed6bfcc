import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CATEGORIES } from '../../../shared/catalog/categories.js';
import type { CollectionName } from '../../../shared/schemas/documents.js';
import { CATALOG_FORMAT_VERSION, CATALOG_GENERATOR_VERSION, MANIFEST_FILE, type CatalogManifest } from '../manifest.js';
import { categoryBudgets, writeActEvents } from './act-events.js';
import { writeBanners } from './banners.js';
import { PerformerRoster, WINDOW_DAYS, type DayInfo } from './catalog-records.js';
import { buildVenues } from './catalog-venues.js';
import { openCatalogWriters } from './catalog-writers.js';
import { placeEdgeCases } from './edge-cases.js';
import { rankPerformers, writeExplore, writePerformers, writeUsCities, writeVenues } from './entity-documents.js';
import { EventWriter } from './event-writer.js';
import { GrossTicketValue } from './gross-ticket-value.js';
import { addTeams, leagueSeasons, writeLeagueEvents } from './league-events.js';
import { VenueDays } from './league-schedule.js';
import { NameSource } from './names.js';
import { Random } from './random.js';
import { VenuePools } from './venue-pools.js';
import { addDays } from './zoned-time.js';

export interface GenerateOptions {
  /** How many events to write (the catalog holds exactly this many). */
  events: number;
  seed: number;
  /** First day of the one-year schedule, `YYYY-MM-DD`. */
  start: string;
  outDir: string;
  log?: (message: string) => void;
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
  const writers = openCatalogWriters(workDir);

  const days: DayInfo[] = Array.from({ length: WINDOW_DAYS }, (_, index) => ({
    ...addDays(startDate, index),
    hour: 0,
    minute: 0,
    index,
  }));

  const { venues, teamVenue } = buildVenues(rng, target);
  log(`venues: ${venues.length}`);

  const roster = new PerformerRoster();
  const teamsByLeague = addTeams(roster, names, rng, teamVenue);
  const venueDays = new VenueDays();
  const seasons = leagueSeasons(teamsByLeague, days, rng, venueDays, target);
  const leagueEvents = seasons.reduce((n, s) => n + s.games.length, 0);
  const otherBudget = target - leagueEvents;
  const budgets = categoryBudgets(
    CATEGORIES.filter((c) => c.schedule !== 'league'),
    otherBudget,
  );
  const edgeByOrdinal = placeEdgeCases(rng, target, otherBudget);

  const gtv = new GrossTicketValue();
  const events = new EventWriter(writers, rng, startDate, Math.floor(startMs / 1000), edgeByOrdinal, gtv);
  await writeLeagueEvents(seasons, teamsByLeague, days, events);
  log(`league events: ${leagueEvents}`);
  const pools = new VenuePools(venues, rng, venueDays);
  await writeActEvents({ budgets, days, rng, names, roster, pools, venueDays, events });
  log(`events: ${writers.Event.count}`);

  const ranked = rankPerformers(roster.all);
  writePerformers(writers, roster.all, ranked);
  writeVenues(writers.Venue, venues);
  writeExplore(writers.Explore, ranked, venues);
  writeBanners(writers.Banner, ranked, Math.floor(startMs / 1000));
  gtv.write(writers.ZipEventDetermination);
  writeUsCities(writers.USCity);

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
