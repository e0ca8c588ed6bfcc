import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LayoutResponseSchema, type LayoutResponse } from '../../shared/schemas/layout.js';
import { generateCatalog } from '../catalog/generate/generate-catalog.js';
import { loadCatalog } from '../catalog/load-catalog.js';
import { FlagService } from '../flags/flag-service.js';
import { StaticFlagSource, type FlagPayload } from '../flags/flags-file.js';
import { CachedEngine } from '../search/cached-engine.js';
import { EmbeddedEngine } from '../search/embedded/embedded-engine.js';
import type { SearchEngine } from '../search/search-engine.js';
import { SearchService } from '../search/search-service.js';
import { renderJsonSchema, segmentJsonSchemas } from '../segments/json-schema.js';
import { SegmentRepository } from '../segments/segment-repository.js';
import { testApp } from '../test/test-app.js';
import { LayoutAnswers } from './layout-answers.js';
import { LayoutService } from './layout-service.js';
import type { ZonedLocation } from '../../shared/rules/location.js';

const logger = pino({ level: 'silent' });
let tmp: string;
let engine: SearchEngine;
const search = new SearchService();
let segments: SegmentRepository;
let app: ReturnType<typeof testApp>['app'];

const NEW_YORK: ZonedLocation = {
  lat: 40.75,
  lng: -73.99,
  city: 'New York',
  state: 'NY',
  country: 'US',
  source: 'coordinates',
  timeZone: 'America/New_York',
};

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'layout-'));
  await generateCatalog({
    events: 8000,
    seed: 11,
    start: new Date().toISOString().slice(0, 10),
    outDir: path.join(tmp, 'catalog'),
  });
  engine = await EmbeddedEngine.build((await loadCatalog(path.join(tmp, 'catalog'))).collections);
  search.set(new CachedEngine(engine));
  segments = new SegmentRepository(path.resolve('segments'), logger);
  await segments.load();
  app = testApp({ search, segments }).app;
});
afterAll(() => rm(tmp, { recursive: true, force: true }));

const getLayout = async (url: string, headers: Record<string, string> = {}) => {
  const res = await request(app).get(url).set(headers);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return LayoutResponseSchema.parse(res.body);
};
const row = (layout: LayoutResponse, id: string) => layout.rows.find((r) => r.id === id)!;

describe('the shipped segment files', () => {
  it('all validate, for every brand and page', () => {
    expect(segments.status().problems).toEqual([]);
  });

  it('match the generated JSON Schemas they reference', async () => {
    for (const [file, schema] of Object.entries(segmentJsonSchemas())) {
      const onDisk = await readFile(path.resolve('shared/schemas/json', file), 'utf8');
      expect(onDisk, `${file} is out of date: run npm run segments -- schema`).toBe(renderJsonSchema(schema));
    }
  });
});

describe('GET /api/layout/home (RULES 11.1 Explore, 11.2 sizes, 6.5 radii)', () => {
  it('lists the Explore rows in the spec order with the spec sizes', async () => {
    const layout = await getLayout('/api/layout/home?lat=40.75&lng=-73.99');
    expect(layout.rows.map((r) => r.title)).toEqual([
      'Popular Local Performers',
      'Local Events',
      'Local Performers This Week',
      'Local Venues',
      'National Trending Events',
      'Browse By Category',
    ]);
    expect(layout.rows.map((r) => r.status)).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', 'ok']);
    expect(row(layout, 'popular-local-performers').items).toHaveLength(4);
    const events = row(layout, 'local-events');
    expect(events.type).toBe('events');
    // RULES 11.2: 5 events per list; the row shows its first tab's.
    expect(events.items).toHaveLength(5);
    if (events.type === 'events') {
      expect(events.tabs!.map((t) => t.title)).toEqual([
        'All Events',
        'This Week',
        'This Month',
        'Next 30 Days',
        'Next 60 Days',
      ]);
      for (const tab of events.tabs!) expect(tab.items.length).toBeLessThanOrEqual(5);
      expect(events.tabs![0]!.items).toHaveLength(5);
    }
    expect(row(layout, 'local-venues').items).toHaveLength(8);
    expect(row(layout, 'national-trending-events').items).toHaveLength(5);
    expect(row(layout, 'browse-by-category').items.map((t) => ('title' in t ? t.title : ''))).toEqual([
      'Concerts',
      'Sports',
      'Theater',
      'Country',
      'Broadway & Play',
      'NFL',
      'MLB',
      'NBA',
    ]);
    expect(layout.experiments).toEqual([]);
  });

  it('keeps local rows within 50 miles and category tiles within 200', async () => {
    const layout = await getLayout('/api/layout/home?lat=41.88&lng=-87.63');
    const venues = row(layout, 'local-venues').items as { address: string }[];
    expect(venues.every((v) => /, (IL|IN|WI)$/.test(v.address))).toBe(true);
    const tiles = row(layout, 'browse-by-category').items as { slug: string; eventCount: number }[];
    expect(tiles.find((t) => t.slug === 'nfl')!.eventCount).toBeGreaterThan(0);
  });

  it('says how it found the location: coordinates, zip market, or the New York fallback', async () => {
    expect((await getLayout('/api/layout/home?lat=34.05&lng=-118.24')).location).toMatchObject({
      source: 'coordinates',
      city: 'Los Angeles',
    });
    expect((await getLayout('/api/layout/home?zip=60614')).location).toMatchObject({
      source: 'zip',
      city: 'Chicago',
      zip: '60614',
    });
    expect((await getLayout('/api/layout/home')).location).toMatchObject({
      source: 'default',
      city: 'New York',
      state: 'NY',
    });
    expect((await getLayout('/api/layout/home?zip=00501')).location).toMatchObject({ source: 'default', zip: '00501' });
  });

  it(
    'checks a ZIP code the shopper typed: its market, or a 404 naming a ZIP ' + 'no market knows, and a 400 for no ZIP',
    async () => {
      const known = await request(app).get('/api/location?zip=60614');
      expect(known.status).toBe(200);
      expect(known.body).toMatchObject({ source: 'zip', city: 'Chicago', zip: '60614' });
      const unknown = await request(app).get('/api/location?zip=00000');
      expect(unknown.status).toBe(404);
      expect(unknown.body.error).toMatchObject({
        code: 'unknown_zip',
        message: 'ZIP code 00000 is not a US ZIP code we know',
      });
      for (const bad of ['/api/location', '/api/location?zip=1234', '/api/location?zip=abcde']) {
        const res = await request(app).get(bad);
        expect(res.status, bad).toBe(400);
        expect(JSON.stringify(res.body.error)).toContain('zip');
      }
    },
  );

  it('serves the second brand its Explore variant with Promos and Top Categories', async () => {
    const byParam = await getLayout('/api/layout/home?brand=encore');
    expect(byParam.brand).toEqual({ id: 'encore', name: 'Encore Seats' });
    expect(byParam.rows.slice(0, 2).map((r) => r.title)).toEqual(['Promos', 'Top Categories']);
    expect(row(byParam, 'promos').items.length).toBeGreaterThan(0);
    expect(byParam.rows.some((r) => r.id === 'browse-by-category')).toBe(false);
    const bySiteId = await getLayout('/api/layout/home', { 'X-Site-Id': '22792' });
    expect(bySiteId.brand.id).toBe('encore');
    expect((await getLayout('/api/layout/home', { 'X-Site-Id': '22791' })).brand.id).toBe('base');
  });

  it('refuses bad input with a clear 4xx', async () => {
    const cases: [string, Record<string, string>, number, RegExp][] = [
      ['/api/layout/home?lat=91&lng=0', {}, 400, /lat/],
      ['/api/layout/home?lat=40', {}, 400, /lat and lng go together/],
      ['/api/layout/home?lat=abc&lng=1', {}, 400, /lat/],
      ['/api/layout/home?zip=1234', {}, 400, /zip/],
      ['/api/layout/home?brand=nope', {}, 404, /No brand "nope"/],
      ['/api/layout/home', { 'X-Site-Id': '1' }, 400, /Unknown site id/],
      ['/api/layout/category/not-a-category', {}, 404, /No category page "not-a-category"/],
      ['/api/layout/category/NFL%3Cscript%3E', {}, 400, /slug/],
    ];
    for (const [url, headers, status, message] of cases) {
      const res = await request(app).get(url).set(headers);
      expect(res.status, url).toBe(status);
      expect(res.body.error.message, url).toMatch(message);
    }
  });
});

describe('GET /api/layout/category/:slug', () => {
  it.each([
    [
      'theater',
      ['Popular Local Theater', 'Theater Events Coming Up'],
      ['Children and Family', 'Broadway', 'Musical / Play'],
    ],
    [
      'concerts',
      ['Popular Local Concerts', 'Concert Events This Week'],
      [
        'Pop & Rock',
        'Techno & Electronic',
        'Hard Rock & Metal',
        'Hip-Hop & Rap',
        'Festival',
        'Country & Folk',
        'Jazz & Blues',
      ],
    ],
    [
      'sports',
      ['Popular Local Sports', 'Sports Events Coming Up'],
      ['MLB Baseball', 'NFL Football', 'NBA Basketball', 'NHL Hockey'],
    ],
  ])('%s has its segments, sub-segment tabs and 9 performers', async (slug, titles, tabs) => {
    const layout = await getLayout(`/api/layout/category/${slug}`);
    expect(layout.rows.map((r) => r.title)).toEqual(titles);
    expect(layout.rows[0]!.items).toHaveLength(9);
    const events = layout.rows[1]!;
    if (events.type !== 'events') throw new Error('expected an events row');
    expect(events.tabs!.map((t) => t.title)).toEqual(tabs);
    for (const tab of events.tabs!) expect(tab.items.length).toBeLessThanOrEqual(5);
    // Not vacuous: some tab has events. "Concert Events This Week" is tomorrow to Sunday, which near New York in
    // an 8,000-event catalog may hold no concert of these genres at all; the pages of weeks and months may not.
    if (slug !== 'concerts') expect(events.tabs!.some((t) => t.items.length > 0)).toBe(true);
  });

  it('serves every other category route from the template, filled with the category', async () => {
    for (const slug of ['nfl', 'broadway', 'comedy', 'wwe', 'west-end']) {
      const layout = await getLayout(`/api/layout/category/${slug}`);
      expect(layout).toMatchObject({ page: 'category', category: slug });
      expect(layout.rows.length, slug).toBeGreaterThan(0);
      expect(layout.rows[0]!.items.length, slug).toBeGreaterThan(0);
    }
    const nfl = await getLayout('/api/layout/category/nfl?lat=39.74&lng=-104.99');
    expect(nfl.title).toBe('NFL Football');
    expect(nfl.rows[0]!.title).toBe('Popular NFL Football Near You');
    expect(nfl.rows[0]!.items.map((p) => (p as { name: string }).name)).toContain('Denver Broncos');
  });
});

describe('the row cache', () => {
  it('keeps rows up to its bytes, their filed requests counted, and leaves none filed that it pushed out', async () => {
    const bytes = 256 * 1024;
    const layout = new LayoutService({
      segments,
      engine: () => engine,
      logger,
      rowDeadlineMs: 5_000,
      rowCacheBytes: bytes,
    });
    let asked = 0;
    for (let i = 0; i < 40; i++) {
      const answer = await layout.layout({ page: 'home' }, segments.defaultBrand, {
        ...NEW_YORK,
        lat: 30 + i * 0.5,
        lng: -120 + i,
      });
      asked += answer.rows.length;
    }
    expect(layout.cachedRows).toBeGreaterThan(0);
    expect(layout.cachedRows).toBeLessThan(asked);
    expect(layout.filedRows).toBe(layout.cachedRows);
  });
});

describe('row isolation', () => {
  const base = { lat: 40.75, lng: -73.99 };
  const faulty = (fault: (collection: string) => 'throw' | 'hang' | null): SearchEngine => ({
    kind: 'embedded',
    health: () => engine.health(),
    search: (req) => {
      const f = fault(req.collection);
      if (f === 'throw') return Promise.reject(new Error('search node down'));
      if (f === 'hang') return new Promise(() => {});
      return engine.search(req);
    },
  });

  it('marks a failing row error and a hanging row timeout while the others are ok, within the deadline', async () => {
    const layout = new LayoutService({
      segments,
      engine: () => faulty((c) => (c === 'Venue' ? 'throw' : c === 'Banner' ? 'hang' : null)),
      logger,
      rowDeadlineMs: 150,
    });
    // The hanging row never answers: the page coming back at all is the deadline at work.
    const answer = await layout.layout({ page: 'home' }, segments.brand('encore')!, { ...NEW_YORK, ...base });
    const statuses = Object.fromEntries(answer.rows.map((r) => [r.id, r.status]));
    expect(statuses).toMatchObject({
      promos: 'timeout',
      'local-venues': 'error',
      'popular-local-performers': 'ok',
      'local-events': 'ok',
    });
  });

  it(
    'times a slow row out at its deadline while the process goes on ' + 'answering, when the engine works in slices',
    async () => {
      // Venue searches take 600 ms of work in 2 ms slices, yielding between them, as long engine work must.
      let slowDone = false;
      const slow: SearchEngine = {
        kind: 'embedded',
        health: () => engine.health(),
        search: async (req) => {
          if (req.collection !== 'Venue') return engine.search(req);
          const until = performance.now() + 600;
          while (performance.now() < until) {
            const slice = performance.now() + 2;
            while (performance.now() < slice) {
              /* busy */
            }
            await new Promise((r) => setImmediate(r));
          }
          slowDone = true;
          return engine.search(req);
        },
      };
      const layout = new LayoutService({ segments, engine: () => slow, logger, rowDeadlineMs: 100 });
      const pending = layout.layout({ page: 'home' }, segments.brand('encore')!, { ...NEW_YORK, ...base });
      const health = await request(app).get('/healthz');
      expect(health.status).toBe(200);
      expect(slowDone).toBe(false);
      const answer = await pending;
      expect(slowDone).toBe(false);
      const statuses = Object.fromEntries(answer.rows.map((r) => [r.id, r.status]));
      expect(statuses).toMatchObject({ 'local-venues': 'timeout', 'local-events': 'ok' });
    },
  );

  it('serves the last good items of a row whose engine then fails', async () => {
    let broken = false;
    const layout = new LayoutService({
      segments,
      engine: () => faulty(() => (broken ? 'throw' : null)),
      logger,
      rowDeadlineMs: 1000,
      rowCacheTtlMs: 1,
    });
    const good = await layout.layout({ page: 'home' }, segments.defaultBrand, NEW_YORK);
    await new Promise((r) => setTimeout(r, 5));
    broken = true;
    const degraded = await layout.layout({ page: 'home' }, segments.defaultBrand, NEW_YORK);
    const venues = degraded.rows.find((r) => r.id === 'local-venues')!;
    expect(venues.status).toBe('error');
    expect(venues.items).toEqual(good.rows.find((r) => r.id === 'local-venues')!.items);
  });
});

describe('swapping in a new segment set while serving', () => {
  it('serves the new pages at once, for every brand that builds on them', async () => {
    const repo = new SegmentRepository(path.resolve('segments'), logger);
    await repo.load();
    const live = testApp({ search, segments: repo }).app;
    const before = LayoutResponseSchema.parse((await request(live).get('/api/layout/home')).body);
    expect(before.rows[0]!.title).not.toBe('Trending Now');
    const files = new Map(repo.current.files);
    const page = JSON.parse(files.get('base/explore.json')!);
    page.rows.unshift({ id: 'trending-now', kind: 'performers', title: 'Trending Now', sort: 'trending', size: 4 });
    files.set('base/explore.json', JSON.stringify(page));
    repo.use(files);
    const layout = LayoutResponseSchema.parse((await request(live).get('/api/layout/home')).body);
    expect(layout.rows[0]!.title).toBe('Trending Now');
    const encore = LayoutResponseSchema.parse((await request(live).get('/api/layout/home?brand=encore')).body);
    expect(encore.rows.map((r) => r.title).slice(0, 3)).toEqual(['Trending Now', 'Promos', 'Top Categories']);
  });
});

describe('a publish while a layout is drawn', () => {
  it('leaves no layout of the old set for the fast lane to replay (RULES 13.11)', async () => {
    const repo = new SegmentRepository(path.resolve('segments'), logger);
    await repo.load();
    const live = testApp({ search, segments: repo }).app;
    const files = new Map(repo.current.files);
    const page = JSON.parse(files.get('base/explore.json')!);
    page.rows.unshift({ id: 'trending-now', kind: 'performers', title: 'Trending Now', sort: 'trending', size: 4 });
    files.set('base/explore.json', JSON.stringify(page));
    // The new set goes live once the answer is drawn, before it is handed to the lane.
    const answer = LayoutAnswers.prototype.answer;
    const during = vi.spyOn(LayoutAnswers.prototype, 'answer').mockImplementationOnce(async function (
      this: LayoutAnswers,
      ...args: Parameters<LayoutAnswers['answer']>
    ) {
      const found = await answer.apply(this, args);
      repo.use(files);
      return found;
    });
    const address = '/api/layout/home?lat=39.95&lng=-75.17';
    try {
      const drawn = LayoutResponseSchema.parse((await request(live).get(address)).body);
      expect(drawn.rows[0]!.title).not.toBe('Trending Now');
    } finally {
      during.mockRestore();
    }
    const lane = live.fastLane.served;
    const next = LayoutResponseSchema.parse((await request(live).get(address)).body);
    expect(next.rows[0]!.title).toBe('Trending Now');
    expect(live.fastLane.served).toBe(lane);
  });
});

describe('the home layout experiment (flag home_layout)', () => {
  const token = async () => (await request(app).post('/api/customers/session')).body.sessionToken as string;

  it('assigns a guest one variation, keeps it, and lists the exposure once', async () => {
    const auth = { Authorization: `Bearer ${await token()}` };
    const first = await getLayout('/api/layout/home', auth);
    const again = await getLayout('/api/layout/home', auth);
    expect(first.experiments).toEqual([{ key: 'home-layout', variationId: expect.stringMatching(/^[01]$/) }]);
    expect(again.experiments).toEqual(first.experiments);
    expect(again.rows.map((r) => r.id)).toEqual(first.rows.map((r) => r.id));
    const promos = first.experiments[0]!.variationId === '1';
    expect(first.rows[0]!.id).toBe(promos ? 'promos' : 'popular-local-performers');
  });

  it('splits guests between the base layout and the Promos variation', async () => {
    const seen = new Set<string>();
    for (let i = 0; i < 24 && seen.size < 2; i++) {
      seen.add((await getLayout('/api/layout/home', { Authorization: `Bearer ${await token()}` })).rows[0]!.id);
    }
    expect(seen).toEqual(new Set(['promos', 'popular-local-performers']));
  });

  it('lets QA force a variation with gb_force, and refuses a malformed one', async () => {
    const auth = { Authorization: `Bearer ${await token()}` };
    expect((await getLayout('/api/layout/home?gb_force=home-layout:1', auth)).rows[0]!.id).toBe('promos');
    expect((await getLayout('/api/layout/home?gb_force=home-layout:0', auth)).rows[0]!.id).toBe(
      'popular-local-performers',
    );
    const bad = await request(app).get('/api/layout/home?gb_force=home-layout:9').set(auth);
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/gb_force/);
  });

  it('shows the base layout with no experiment to a request without a guest token', async () => {
    const layout = await getLayout('/api/layout/home');
    expect(layout.experiments).toEqual([]);
    expect(layout.rows[0]!.id).toBe('popular-local-performers');
  });
});

describe("forcing a variation with GrowthBook's ?<experiment-key>=<index>", () => {
  const token = async () => (await request(app).post('/api/customers/session')).body.sessionToken as string;
  /** A guest GrowthBook's hashing puts in the given variation of home-layout, with their token. */
  const guestIn = async (variationId: '0' | '1') => {
    for (let i = 0; i < 40; i++) {
      const auth = { Authorization: `Bearer ${await token()}` };
      if ((await getLayout('/api/layout/home', auth)).experiments[0]?.variationId === variationId) return auth;
    }
    throw new Error(`no guest in variation ${variationId}`);
  };
  const cases = async () =>
    [
      ['without a guest token', {}],
      ['with a guest token', { Authorization: `Bearer ${await token()}` }],
    ] as const;

  it('shows the forced variation with or without a guest token, and lists no exposure', async () => {
    for (const [who, auth] of await cases()) {
      const promos = await getLayout('/api/layout/home?home-layout=1', auth);
      expect([promos.rows[0]!.id, promos.experiments], who).toEqual(['promos', []]);
      expect(
        promos.rows.map((r) => r.title),
        who,
      ).toContain('Top Categories');
      const base = await getLayout('/api/layout/home?home-layout=0', auth);
      expect([base.rows[0]!.id, base.experiments], who).toEqual(['popular-local-performers', []]);
      expect(
        base.rows.map((r) => r.title),
        who,
      ).toContain('Browse By Category');
    }
  });

  it(
    'is no exposure for a guest forced into the variation they are assigned, ' + 'while their plain view is one',
    async () => {
      const auth = await guestIn('1');
      expect((await getLayout('/api/layout/home', auth)).experiments).toEqual([
        { key: 'home-layout', variationId: '1' },
      ]);
      const forced = await getLayout('/api/layout/home?home-layout=1', auth);
      expect([forced.rows[0]!.id, forced.experiments]).toEqual(['promos', []]);
    },
  );

  it(
    'refuses an index out of range or not an integer with a 400 naming the ' +
      'experiment and its indexes, with or without a token',
    async () => {
      for (const [who, auth] of await cases()) {
        for (const url of [
          '/api/layout/home?home-layout=7',
          '/api/layout/home?home-layout=abc',
          '/api/layout/home?home-layout=1.5',
          '/api/layout/home?home-layout=-1',
          '/api/layout/home?home-layout=',
          '/api/layout/home?home-layout=1&home-layout=0',
          '/api/layout/category/nfl?home-layout=2',
        ]) {
          const res = await request(app).get(url).set(auth);
          expect(res.status, `${who} ${url}`).toBe(400);
          expect(res.body.error.code).toBe('invalid_request');
          expect(res.body.error.message, `${who} ${url}`).toMatch(
            /^home-layout: experiment "home-layout" has variations 0 to 1, not /,
          );
          expect(res.body.error.details).toEqual([{ path: 'home-layout', message: expect.stringContaining('0 to 1') }]);
        }
      }
    },
  );

  it('keeps gb_force as an alias that behaves the same with or without a token', async () => {
    for (const [who, auth] of await cases()) {
      const forced = await getLayout('/api/layout/home?gb_force=home-layout:1,ab-search:1', auth);
      expect([forced.rows[0]!.id, forced.experiments], who).toEqual(['promos', []]);
      for (const [url, message] of [
        ['/api/layout/home?gb_force=home-layout:7', 'gb_force: experiment "home-layout" has variations 0 to 1, not 7'],
        [
          '/api/layout/home?gb_force=no-such:0',
          'gb_force: no experiment "no-such" (experiments: ab-search, home-layout)',
        ],
        [
          '/api/layout/home?gb_force=home-layout:1&home-layout=0',
          'gb_force: experiment "home-layout" is forced to 1 here and to 0 by ?home-layout=',
        ],
      ] as const) {
        const res = await request(app).get(url).set(auth);
        expect([res.status, res.body.error?.message], `${who} ${url}`).toEqual([400, message]);
      }
    }
  });

  it('ignores parameters that are not experiment keys, as before', async () => {
    for (const [who, auth] of await cases()) {
      const layout = await getLayout(
        '/api/layout/home?homelayout=1&home_layout=1&utm_source=mail&Home-Layout=1&x=%20',
        auth,
      );
      expect(layout.experiments, who).toEqual(
        'Authorization' in auth ? [{ key: 'home-layout', variationId: expect.stringMatching(/^[01]$/) }] : [],
      );
    }
    expect((await getLayout('/api/layout/home?homelayout=1&utm_source=mail')).rows[0]!.id).toBe(
      'popular-local-performers',
    );
  });

  it('never serves a forced view, from the app or the fast lane, to a request that did not force it', async () => {
    const url = '/api/layout/home?lat=39.95&lng=-75.17';
    const plainGuest = await guestIn('0');
    const promosGuest = await guestIn('1');
    // The forced views first, each twice so the second comes from the fast lane.
    for (const auth of [{}, plainGuest, promosGuest]) {
      for (let i = 0; i < 2; i++) {
        const lanes = app.fastLane.served;
        const res = await request(app).get(`${url}&home-layout=1`).set(auth);
        expect(res.status).toBe(200);
        expect([res.body.rows[0].id, res.body.experiments]).toEqual(['promos', []]);
        expect(res.headers['cache-control']).toBe('private, max-age=60');
        expect(res.headers.vary).toMatch(/^X-Site-Id, Authorization/);
        if (i === 1) expect(app.fastLane.served - lanes).toBe(1);
      }
    }
    // Then the same place without the override, twice each: everyone gets what they would have got.
    for (let i = 0; i < 2; i++) {
      const anonymous = await getLayout(url);
      expect([anonymous.rows[0]!.id, anonymous.experiments]).toEqual(['popular-local-performers', []]);
      const base = await getLayout(url, plainGuest);
      expect([base.rows[0]!.id, base.experiments]).toEqual([
        'popular-local-performers',
        [{ key: 'home-layout', variationId: '0' }],
      ]);
      const promos = await getLayout(url, promosGuest);
      expect([promos.rows[0]!.id, promos.experiments]).toEqual(['promos', [{ key: 'home-layout', variationId: '1' }]]);
    }
  });
});

describe('GET /api/features/:clientKey (GrowthBook payload)', () => {
  it('serves the flags with SSE support announced', async () => {
    const res = await request(app).get('/api/features/sdk-storefront');
    expect(res.status).toBe(200);
    expect(res.headers['x-sse-support']).toBe('enabled');
    expect(Object.keys(res.body.features)).toEqual(
      expect.arrayContaining(['recent_trending_search', 'isABSearch', 'home_layout']),
    );
    // As GrowthBook answers an unknown SDK key (see server/flags/routes.ts).
    const unknown = await request(app).get('/api/features/unknown-key');
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toEqual({ code: 'unknown_client_key', message: 'Invalid API Key' });
  });
});

describe('repeated layout answers (the fast lane in front of Express)', () => {
  const url = '/api/layout/home?lat=41.88&lng=-87.63';
  const asStorefront = { 'X-Site-Id': '22791', 'X-Client-Id': 'storefront-web' };
  const served = () => app.fastLane.served;
  // Both send the body whole, with its length: the app compresses it once, as the lane does.
  const sameButId = (headers: Record<string, unknown>) => {
    const { date: _date, 'x-request-id': _id, ...rest } = headers;
    return rest;
  };

  it('sends a repeat byte for byte with the headers the app sent, in every encoding', async () => {
    for (const encoding of ['identity', 'gzip', 'br']) {
      // A URL of its own per encoding, so the first request of each is the app's.
      const path = `${url}&for=${encoding}`;
      const before = served();
      const first = await request(app).get(path).set(asStorefront).set('Accept-Encoding', encoding);
      const again = await request(app).get(path).set(asStorefront).set('Accept-Encoding', encoding);
      expect(served() - before, encoding).toBe(1);
      expect([first.status, again.status]).toEqual([200, 200]);
      expect(again.text).toBe(first.text);
      expect(sameButId(again.headers)).toEqual(sameButId(first.headers));
      expect(again.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(again.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
      expect(again.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
      expect(again.headers.vary).toBe('X-Site-Id, Authorization, Accept-Encoding');
      expect(again.headers['content-encoding']).toBe(encoding === 'identity' ? undefined : encoding);
      expect(first.headers['transfer-encoding']).toBeUndefined();
    }
  });

  it('answers a repeat whose ETag the browser holds with 304', async () => {
    const first = await request(app).get(url).set(asStorefront);
    const before = served();
    const again = await request(app).get(url).set(asStorefront).set('If-None-Match', first.headers.etag!);
    expect(served() - before).toBe(1);
    expect(again.status).toBe(304);
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(again.text).toBe('');
  });

  it('leaves to the app what it must judge: a bad client id, a cross-origin call, an unverified token', async () => {
    await request(app).get(url).set(asStorefront);
    const before = served();
    const badClient = await request(app)
      .get(url)
      .set({ ...asStorefront, 'X-Client-Id': 'no spaces allowed' });
    expect(badClient.status).toBe(400);
    expect(badClient.body.error.code).toBe('invalid_client_id');
    const badSite = await request(app)
      .get(url)
      .set({ ...asStorefront, 'X-Site-Id': '999' });
    expect(badSite.status).toBe(400);
    const crossOrigin = await request(app)
      .get(url)
      .set({ ...asStorefront, Origin: 'https://elsewhere.example' });
    expect(crossOrigin.status).toBe(200);
    expect(crossOrigin.headers['access-control-allow-origin']).toBeUndefined();
    const forged = await request(app)
      .get(url)
      .set({ ...asStorefront, Authorization: 'Bearer abc.def.ghi' });
    expect(forged.status).toBe(200);
    expect(LayoutResponseSchema.parse(forged.body).experiments).toEqual([]);
    expect(served() - before).toBe(0);
  });

  it('gives a verified guest their own variation from the lane, and QA its forced one', async () => {
    const { sessionToken } = (await request(app).post('/api/customers/session')).body as { sessionToken: string };
    const auth = { ...asStorefront, Authorization: `Bearer ${sessionToken}` };
    const first = await getLayout(url, auth);
    const before = served();
    const again = await getLayout(url, auth);
    expect(served() - before).toBe(1);
    expect(again).toEqual(first);
    // Each forced variation is built by the app once, then replayed from the lane.
    for (const [index, firstRow] of [
      [1, 'promos'],
      [0, 'popular-local-performers'],
    ] as const) {
      const forced = `${url}&gb_force=home-layout:${index}`;
      expect((await getLayout(forced, auth)).rows[0]!.id).toBe(firstRow);
      const lanes = served();
      expect((await getLayout(forced, auth)).rows[0]!.id).toBe(firstRow);
      expect(served() - lanes).toBe(1);
    }
    // A request without a token is forced the same way, and neither lists an exposure.
    const anonymous = await getLayout(`${url}&gb_force=home-layout:1`, asStorefront);
    expect([anonymous.experiments, anonymous.rows[0]!.id]).toEqual([[], 'promos']);
  });

  it('replays nothing for a token that has expired since the lane last read it', async () => {
    const { sessionToken } = (await request(app).post('/api/customers/session')).body as { sessionToken: string };
    const auth = { ...asStorefront, Authorization: `Bearer ${sessionToken}` };
    await getLayout(url, auth);
    const before = served();
    await getLayout(url, auth);
    expect(served() - before).toBe(1);
    // Past the token's lifetime, the lane leaves the request to the app, which answers it as anyone's: the guest's
    // experiment is not listed.
    expect((await getLayout(url, auth)).experiments).not.toEqual([]);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 2 * 24 * 3_600_000 });
    try {
      const late = await request(app).get(url).set(auth);
      expect(late.status).toBe(200);
      expect(late.body.experiments).toEqual([]);
      expect(served() - before).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('a guest remembered by the layout', () => {
  it('is assigned again for a URL whose query a rule looks at', async () => {
    const payload = JSON.parse(readFileSync(path.resolve('segments/flags.json'), 'utf8')) as FlagPayload;
    const experiment = payload.features.home_layout!.rules![0]!;
    // Everyone sees the base layout, except visitors of the spring campaign.
    const campaign = { id: 'spring-campaign', condition: { url: { $regex: 'utm_campaign=spring' } }, force: 'promos' };
    const rules = [campaign, { ...experiment, weights: [1, 0] }];
    const flags = new FlagService(
      new StaticFlagSource({
        ...payload,
        features: { ...payload.features, home_layout: { ...payload.features.home_layout!, rules } },
      }),
    );
    const live = testApp({ search, segments, flags }).app;
    const { sessionToken } = (await request(live).post('/api/customers/session')).body as { sessionToken: string };
    const firstRow = async (url: string) =>
      LayoutResponseSchema.parse(
        (
          await request(live)
            .get(url)
            .set({ Authorization: `Bearer ${sessionToken}` })
        ).body,
      ).rows[0]!.id;
    expect(await firstRow('/api/layout/home?lat=41.88&lng=-87.63')).toBe('popular-local-performers');
    expect(await firstRow('/api/layout/home?lat=41.88&lng=-87.63&utm_campaign=spring')).toBe('promos');
  });

  it('follows a change of the flag payload at once, from the app and from the lane', async () => {
    const payload = JSON.parse(readFileSync(path.resolve('segments/flags.json'), 'utf8')) as FlagPayload;
    const source = new StaticFlagSource(payload);
    const live = testApp({ search, segments, flags: new FlagService(source) }).app;
    const { sessionToken } = (await request(live).post('/api/customers/session')).body as { sessionToken: string };
    const auth = { Authorization: `Bearer ${sessionToken}` };
    const firstRow = async () => {
      const res = await request(live).get('/api/layout/home?lat=41.88&lng=-87.63').set(auth);
      return LayoutResponseSchema.parse(res.body).rows[0]!.id;
    };
    const before = await firstRow();
    expect(await firstRow()).toBe(before);
    // Everyone into the variation this guest is not in.
    const other = before === 'promos' ? 0 : 1;
    const rule = payload.features.home_layout!.rules![0]!;
    source.set({
      ...payload,
      features: {
        ...payload.features,
        home_layout: { ...payload.features.home_layout!, rules: [{ ...rule, weights: other === 1 ? [0, 1] : [1, 0] }] },
      },
    });
    const after = await firstRow();
    expect(after).toBe(other === 1 ? 'promos' : 'popular-local-performers');
    expect(await firstRow()).toBe(after);
  });
});
