import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COLLECTION_NAMES, type EventDocument } from '../../../shared/schemas/documents.js';
import { loadCatalog, type Catalog } from '../load-catalog.js';
import { collectionFile } from '../manifest.js';
import { CATEGORIES } from '../../../shared/catalog/categories.js';
import { CATEGORY_IMAGE_CODES, categoryPath } from '../../../shared/catalog/category-images.js';
import { checkCatalogInvariants } from './check-catalog.js';
import { generateCatalog } from './generate-catalog.js';

const START = '2026-11-21';
const startSeconds = Date.UTC(2026, 10, 21) / 1000;
let tmp: string;
let catalog: Catalog;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'catalog-test-'));
  await generateCatalog({ events: 20_000, seed: 22791, start: START, outDir: path.join(tmp, 'default') });
  catalog = await loadCatalog(path.join(tmp, 'default'));
});
afterAll(() => rm(tmp, { recursive: true, force: true }));

const events = () => catalog.collections.Event;
const performers = () => catalog.collections.Performer;

describe('generateCatalog at the default size', () => {
  it('writes exactly the events asked for, every collection non-empty and re-validated on load', () => {
    expect(catalog.manifest.counts.Event).toBe(20_000);
    for (const name of COLLECTION_NAMES) expect(catalog.collections[name].length, name).toBeGreaterThan(0);
  });

  it('keeps every catalog invariant: league rhythm, venues, documents agreeing with their events, dates', async () => {
    const result = await checkCatalogInvariants(path.join(tmp, 'default'));
    expect(result.violations).toEqual([]);
    expect(result.events).toBe(20_000);
    expect(result.leagueGames).toBeGreaterThan(5_000);
  });

  it('plays NFL games on Sundays, Monday and Thursday nights only, MLB in series, no team twice a day', () => {
    const nfl = events().filter((e) => e.category === 'nfl');
    const weekdays = new Set(
      nfl.map((e) => new Date(`${e.event_local_timestamp!.slice(0, 10)}T00:00:00Z`).getUTCDay()),
    );
    expect([...weekdays].sort()).toEqual([0, 1, 4]);
    expect(
      nfl
        .filter((e) => e.event_local_timestamp!.endsWith('T13:00:00'))
        .every((e) => new Date(`${e.event_local_timestamp}Z`).getUTCDay() === 0),
    ).toBe(true);
    const yankees = events()
      .filter((e) => e.category === 'mlb' && e.event_name.includes('New York Yankees'))
      .map((e) => e.event_local_timestamp!.slice(0, 10));
    expect(new Set(yankees).size).toBe(yankees.length);
    expect(yankees.length).toBeGreaterThan(140);
  });

  it('has every real team of the four leagues, each with home games at its real venue', () => {
    const byLeague = (grandchild: string) =>
      performers().filter((p) => p.grandchild === grandchild && p.parent === 'SPORTS');
    expect(byLeague('NFL')).toHaveLength(32);
    expect(byLeague('MLB')).toHaveLength(30);
    expect(byLeague('NBA')).toHaveLength(30);
    expect(byLeague('NHL')).toHaveLength(32);
    const names = new Set(performers().map((p) => p.performer_name));
    for (const team of [
      'Green Bay Packers',
      'New York Yankees',
      'Boston Celtics',
      'Toronto Maple Leafs',
      'Utah Mammoth',
    ]) {
      expect(names, team).toContain(team);
    }
    const packersHome = events().filter((e) => e.event_name.endsWith(' at Green Bay Packers'));
    expect(packersHome.length).toBeGreaterThanOrEqual(8);
    expect(new Set(packersHome.map((e) => e.venue_name))).toEqual(new Set(['Lambeau Field']));
  });

  it('gives every category route at least 10 performers with upcoming events', () => {
    for (const c of CATEGORIES) {
      const live = performers().filter((p) => p.category === c.slug && p.events_available > 0);
      expect(live.length, c.slug).toBeGreaterThanOrEqual(10);
    }
  });

  it('spreads venues over at least 60 US metros and London, Toronto and Mexico City', () => {
    const venues = catalog.collections.Venue;
    const usMetros = new Set(
      venues
        .filter((v) => v.venue_country_short === 'US')
        .map((v) => `${v.venue_city}|${v.venue_state_province_short}`),
    );
    expect(usMetros.size).toBeGreaterThanOrEqual(60);
    expect(venues.some((v) => v.venue_city === 'London' && v.venue_country_short === 'GB')).toBe(true);
    expect(venues.some((v) => v.venue_city === 'Toronto' && v.venue_country_short === 'CA')).toBe(true);
    expect(venues.some((v) => v.venue_country_short === 'MX')).toBe(true);
    expect(events().some((e) => e.category === 'west-end' && e.venue_country_short === 'GB')).toBe(true);
  });

  it('has at least 300 real US cities', () => {
    const cities = catalog.collections.USCity;
    expect(cities.length).toBeGreaterThanOrEqual(300);
    expect(cities.find((c) => c.city === 'Chicago')).toMatchObject({ state_id: 'IL' });
  });

  it('includes the deliberate edge cases: no date, time TBD, more than 10 years ahead, already past', () => {
    const tenYears = startSeconds + 10 * 365.25 * 86400;
    expect(
      events().filter((e) => e.event_timestamp === null && e.event_local_timestamp === null).length,
    ).toBeGreaterThanOrEqual(3);
    expect(events().filter((e) => e.event_local_timestamp?.endsWith('T03:30:00')).length).toBeGreaterThanOrEqual(10);
    expect(events().filter((e) => (e.event_timestamp ?? 0) > tenYears).length).toBeGreaterThanOrEqual(3);
    expect(
      events().filter((e) => e.event_timestamp !== null && e.event_timestamp < startSeconds).length,
    ).toBeGreaterThanOrEqual(3);
  });

  it('keeps local time, offset and UTC instant consistent, daylight saving included', () => {
    for (const e of events()) {
      if (e.event_local_timestamp === null) continue;
      const local = Date.parse(`${e.event_local_timestamp}Z`) / 1000;
      expect(local - e.venue_time_zone_offset * 3600, String(e.event_id)).toBe(e.event_timestamp);
    }
    const nyc = (month: string) =>
      events().find((e) => e.venue_city === 'New York' && e.event_local_timestamp?.slice(5, 7) === month);
    expect(nyc('07')?.venue_time_zone_offset).toBe(-4);
    expect(nyc('01')?.venue_time_zone_offset).toBe(-5);
    const london = events().find((e) => e.venue_city === 'London' && e.event_local_timestamp?.slice(5, 7) === '12');
    expect(london?.venue_time_zone_offset).toBe(0);
  });

  it('has demand figures that produce every badge of RULES 5.1', () => {
    const hot = events().filter((e) => e.event_orders_d1 > 0 && e.event_cart_d1 >= 5);
    const viewing = events().filter((e) => e.event_mpv_d1 >= 10);
    const fewLeft = events().filter((e) => e.tickets_available > 1 && e.tickets_available < 100);
    for (const group of [hot, viewing, fewLeft]) expect(group.length).toBeGreaterThan(50);
  });

  it('aggregates performers from their events: counts, first venue and rank', () => {
    const byId = new Map<number, EventDocument[]>();
    for (const e of events()) for (const id of e.performer_ids) byId.set(id, [...(byId.get(id) ?? []), e]);
    const p = performers().find((x) => x.performer_name === 'Dallas Cowboys')!;
    const own = byId.get(p.performer_id)!;
    const upcoming = own.filter(
      (e) => e.event_status !== 'cancelled' && (e.event_timestamp === null || e.event_timestamp >= startSeconds),
    );
    expect(p.events_available).toBe(upcoming.length);
    const first = upcoming
      .filter((e) => e.event_timestamp !== null)
      .sort((a, b) => a.event_timestamp! - b.event_timestamp!)[0]!;
    expect(p.venues[0]!.venue_id).toBe(first.venue_id);
    const ranks = performers()
      .map((x) => x.order_rank)
      .sort((a, b) => a - b);
    expect(ranks).toEqual(ranks.map((_, i) => i + 1));
    expect(performers().filter((x) => x.custom_label === 'topperf').length).toBeGreaterThan(0);
  });

  it('writes zip determinations, some above the RULES 6.2 threshold of 25,000', () => {
    const det = catalog.collections.ZipEventDetermination;
    expect(det.some((d) => d.key_type === 'zip3' && d.gross_ticket_value > 25_000)).toBe(true);
    expect(det.some((d) => d.key_type === 'state' && d.key === 'NY')).toBe(true);
    expect(catalog.collections.ZipEvent.every((z) => /^\d{3}$/.test(z.zip))).toBe(true);
  });

  it('links explore entries and banners to slug routes', () => {
    for (const x of catalog.collections.Explore) expect(x.url).toMatch(/^\/(performers|venues|category)\/[a-z0-9-]+$/);
    for (const b of catalog.collections.Banner) expect(b.url).toMatch(/^\/(performers|category)\/[a-z0-9-]+$/);
  });
});

describe('the category-to-image map (RULES 5.8)', () => {
  it('has an NN-NNN-NNN code for every level of every category, codes unique', () => {
    for (const c of CATEGORIES) {
      for (const p of [
        categoryPath(c.parent),
        categoryPath(c.parent, c.child),
        categoryPath(c.parent, c.child, c.grandchild),
      ]) {
        expect(CATEGORY_IMAGE_CODES.get(p), p).toMatch(/^\d{2}-\d{3}-\d{3}$/);
      }
    }
    const codes = [...CATEGORY_IMAGE_CODES.values()];
    expect(new Set(codes).size).toBe(codes.length);
    expect(CATEGORY_IMAGE_CODES.get('sports/olympic sports')).toBeDefined();
    expect(CATEGORY_IMAGE_CODES.get('sports/soccer/premier league')).toBeDefined();
  });
});

describe('determinism', () => {
  it('writes the same bytes for the same seed, size and start, and different ones for another seed', async () => {
    const options = { events: 1500, seed: 7, start: START };
    await generateCatalog({ ...options, outDir: path.join(tmp, 'a') });
    await generateCatalog({ ...options, outDir: path.join(tmp, 'b') });
    await generateCatalog({ ...options, seed: 8, outDir: path.join(tmp, 'c') });
    for (const name of COLLECTION_NAMES) {
      const a = await readFile(collectionFile(path.join(tmp, 'a'), name), 'utf8');
      const b = await readFile(collectionFile(path.join(tmp, 'b'), name), 'utf8');
      expect(a === b, name).toBe(true);
    }
    const a = await readFile(collectionFile(path.join(tmp, 'a'), 'Event'), 'utf8');
    const c = await readFile(collectionFile(path.join(tmp, 'c'), 'Event'), 'utf8');
    expect(a).not.toBe(c);
  });

  it('finishes the smallest catalogs, with exactly the events asked for', async () => {
    for (const events of [100, 200, 333]) {
      const manifest = await generateCatalog({
        events,
        seed: 5,
        start: START,
        outDir: path.join(tmp, `small-${events}`),
      });
      expect(manifest.counts.Event).toBe(events);
    }
  });

  it('refuses nonsense sizes and dates', async () => {
    await expect(generateCatalog({ events: 5, seed: 1, start: START, outDir: path.join(tmp, 'x') })).rejects.toThrow(
      /at least 100/,
    );
    await expect(
      generateCatalog({ events: 500, seed: 1, start: '21/11/2026', outDir: path.join(tmp, 'x') }),
    ).rejects.toThrow(/YYYY-MM-DD/);
  });
});

describe('the first week of the schedule', () => {
  it('has as many concerts as the later weeks (a "this week" row is not emptier the day it starts)', async () => {
    /** Concerts per week of the schedule, by the venue's calendar. */
    const weekly = (catalog: Catalog) => {
      const weeks = new Array<number>(52).fill(0);
      for (const e of catalog.collections.Event) {
        if (e.major_category !== 'CONCERTS' || !e.event_local_timestamp) continue;
        const day = (Date.parse(`${e.event_local_timestamp.slice(0, 10)}T00:00:00Z`) / 1000 - startSeconds) / 86_400;
        const week = Math.floor(day / 7);
        if (week >= 0 && week < weeks.length) weeks[week]!++;
      }
      return weeks;
    };
    /** The first week's count, and the least, middle and most of the later ones. */
    const shape = (weeks: number[]) => {
      const [first, ...later] = weeks as [number, ...number[]];
      const sorted = [...later].sort((a, b) => a - b);
      return { first, min: sorted[0]!, median: sorted[Math.floor(sorted.length / 2)]!, max: sorted.at(-1)! };
    };
    const pooled = new Array<number>(52).fill(0);
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const dir = path.join(tmp, `weeks-${seed}`);
      await generateCatalog({ events: 2000, seed, start: START, outDir: dir });
      const weeks = weekly(await loadCatalog(dir));
      weeks.forEach((n, i) => (pooled[i]! += n));
      const { first, min, max } = shape(weeks);
      expect(first, `seed ${seed}`).toBeGreaterThanOrEqual(min);
      expect(first, `seed ${seed}`).toBeLessThanOrEqual(max);
    }
    // Summed over the six, the first week sits with the others (a schedule cut at the start gave a third of the
    // median).
    const { first, min, median, max } = shape(pooled);
    expect(first).toBeGreaterThanOrEqual(Math.max(min, 0.8 * median));
    expect(first).toBeLessThanOrEqual(max);
  }, 60_000);
});
