import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LayoutResponse } from '../../shared/schemas/layout.js';
import type { EventDocument } from '../../shared/schemas/documents.js';
import { generateCatalog } from '../catalog/generate/generate-catalog.js';
import { loadCatalog, type Catalog } from '../catalog/load-catalog.js';
import { EmbeddedEngine } from '../search/embedded/embedded-engine.js';
import { SegmentRepository } from '../segments/segment-repository.js';
import { LayoutService } from './layout-service.js';
import type { ZonedLocation } from '../../shared/rules/location.js';
import { defaultTabIndex, nationalTitle } from './rows.js';

const logger = pino({ level: 'silent' });
// A November Sunday: the NFL, NBA and NHL are in season, MLB is not (its season opens in late March).
const NOW = new Date('2026-11-22T15:00:00Z');
const NEW_YORK: ZonedLocation = {
  lat: 40.75,
  lng: -73.99,
  city: 'New York',
  state: 'NY',
  country: 'US',
  source: 'coordinates',
  timeZone: 'America/New_York',
};
// Mid-Pacific: nothing within any row's radius.
const NOWHERE: ZonedLocation = {
  lat: 20,
  lng: -150,
  city: 'Nowhere',
  state: '',
  country: 'US',
  source: 'coordinates',
  timeZone: 'Pacific/Honolulu',
};

let tmp: string;
let catalog: Catalog;
let layout: LayoutService;
let segments: SegmentRepository;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'popular-local-'));
  await generateCatalog({ events: 8000, seed: 11, start: '2026-11-21', outDir: path.join(tmp, 'catalog') });
  catalog = await loadCatalog(path.join(tmp, 'catalog'));
  const engine = await EmbeddedEngine.build(catalog.collections);
  segments = new SegmentRepository(path.resolve('segments'), logger);
  await segments.load();
  layout = new LayoutService({ segments, engine: () => engine, logger, rowDeadlineMs: 5_000, now: () => NOW });
});
afterAll(() => rm(tmp, { recursive: true, force: true }));

const miles = (a: readonly [number, number], b: readonly [number, number]) => {
  const rad = Math.PI / 180;
  const h =
    Math.sin(((b[0] - a[0]) * rad) / 2) ** 2 +
    Math.cos(a[0] * rad) * Math.cos(b[0] * rad) * Math.sin(((b[1] - a[1]) * rad) / 2) ** 2;
  return 2 * 3958.8 * Math.asin(Math.sqrt(h));
};
const page = (slug: string, where: ZonedLocation) =>
  layout.layout(slug === 'home' ? { page: 'home' } : { page: 'category', slug }, segments.brand('base')!, where);
const row = (answer: LayoutResponse, id: string) => answer.rows.find((r) => r.id === id)!;

/** Events headlined by the performer within `radius` miles of the shopper, from `from` to `to` (seconds). */
const localEvents = (performerId: number, where: ZonedLocation, radius: number, from: number, to = Infinity) =>
  catalog.collections.Event.filter(
    (e: EventDocument) =>
      e.performer_ids[0] === performerId &&
      e.event_status !== 'cancelled' &&
      e.event_timestamp !== null &&
      e.event_timestamp >= from &&
      e.event_timestamp <= to &&
      miles(e.venue_location, [where.lat, where.lng]) <= radius + 1,
  );

describe('popular local rows', () => {
  const now = Math.floor(NOW.getTime() / 1000);

  it('hold only performers headlining an upcoming event near the shopper: home teams, not visitors', async () => {
    for (const [slug, id] of [
      ['sports', 'popular-local-sports'],
      ['home', 'popular-local-performers'],
    ] as const) {
      const popular = row(await page(slug, NEW_YORK), id);
      expect(popular.title).not.toMatch(/Nationally/);
      expect(popular.items.length, id).toBeGreaterThan(0);
      for (const item of popular.items as { id: number; name: string }[]) {
        expect(localEvents(item.id, NEW_YORK, 50, now).length, `${id}: ${item.name}`).toBeGreaterThan(0);
      }
    }
    const sports = (row(await page('sports', NEW_YORK), 'popular-local-sports').items as { name: string }[]).map(
      (p) => p.name,
    );
    for (const visitor of ['Colorado Rockies', 'Los Angeles Dodgers', 'San Francisco Giants', 'Green Bay Packers'])
      expect(sports).not.toContain(visitor);
  });

  it('keep to the row window: performers this week have an event near this week', async () => {
    const thisWeek = row(await page('home', NEW_YORK), 'local-performers-this-week');
    const endOfWeek = now + 8 * 86_400;
    for (const item of thisWeek.items as { id: number; name: string }[]) {
      expect(localEvents(item.id, NEW_YORK, 50, now, endOfWeek).length, item.name).toBeGreaterThan(0);
    }
  });

  it('fall back to nationally popular performers of the same filter when nothing is near, and say so', async () => {
    const sports = row(await page('sports', NOWHERE), 'popular-local-sports');
    expect(sports.title).toBe('Popular Sports Nationally');
    expect(sports.status).toBe('ok');
    expect(sports.items.length).toBe(9);
    const parents = new Map(catalog.collections.Performer.map((p) => [p.performer_id, p.parent]));
    for (const item of sports.items as { id: number }[]) expect(parents.get(item.id)).toBe('SPORTS');
    expect(row(await page('home', NOWHERE), 'popular-local-performers').title).toBe('Popular Performers Nationally');
  });
});

describe('the sports page in November', () => {
  it('opens "Sports Events Coming Up" on a league in season, not MLB, keeping the tab order', async () => {
    const coming = row(await page('sports', NEW_YORK), 'sports-events-coming-up');
    if (coming.type !== 'events') throw new Error('expected an events row');
    expect(coming.tabs!.map((t) => t.id)).toEqual(['mlb-baseball', 'nfl-football', 'nba-basketball', 'nhl-hockey']);
    expect(coming.defaultTab).toBe('nfl-football');
    expect(coming.items).toEqual(coming.tabs!.find((t) => t.id === 'nfl-football')!.items);
  });
});

describe('defaultTabIndex and nationalTitle', () => {
  const now = new Date('2026-11-22T00:00:00Z');
  const at = (days: number) => ({ event_timestamp: Math.floor(now.getTime() / 1000) + days * 86_400 });

  it('picks the first tab with an event in the coming three weeks, else the first with any, else the first', () => {
    expect(defaultTabIndex([[at(120)], [at(3)], [at(1)]], now)).toBe(1);
    expect(defaultTabIndex([[], [at(90)], [at(100)]], now)).toBe(1);
    expect(defaultTabIndex([[], []], now)).toBe(0);
    expect(defaultTabIndex([[at(2)], [at(1)]], now)).toBe(0);
  });

  it('drops "Local" and says "Nationally"', () => {
    expect(nationalTitle('Popular Local Sports')).toBe('Popular Sports Nationally');
    expect(nationalTitle('Sports Events Coming Up')).toBe('Sports Events Coming Up Nationally');
  });
});
