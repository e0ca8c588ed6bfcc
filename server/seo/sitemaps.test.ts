import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventDocument, PerformerDocument, VenueDocument } from '../../shared/schemas/documents.js';
import { ChangeLog } from '../live-catalog/change-log.js';
import { Invalidator } from '../live-catalog/invalidation.js';
import { LiveCatalog } from '../live-catalog/live-catalog.js';
import { CATEGORIES } from '../../shared/catalog/categories.js';
import { parseEnv } from '../config/env.js';
import { MAX_YEARS_AHEAD } from '../../shared/rules/constants.js';
import { eventCard } from '../../shared/rules/event-card.js';
import { performerCard } from '../../shared/rules/performer-card.js';
import { venueCard } from '../../shared/rules/venue-card.js';
import { CachedEngine } from '../search/cached-engine.js';
import { EmbeddedCatalog } from '../search/embedded/embedded-catalog.js';
import { EmbeddedEngine } from '../search/embedded/embedded-engine.js';
import { SearchService } from '../search/search-service.js';
import { GROUP_PAGES } from '../segments/segment-set.js';
import type { Sql } from '../store/sql.js';
import { catalogFixture, type CatalogFixture } from '../test/catalog-fixture.js';
import { testApp, testAppWithSegments } from '../test/test-app.js';
import { CatalogTimes, loggedChangeTimes } from './catalog-times.js';
import { categoryPages } from './category-pages.js';
import { DISALLOWED_PATHS } from './robots.js';
import { MAX_SITEMAP_BYTES, w3cDatetime } from './sitemap-protocol.js';
import { SitemapService } from './sitemap-service.js';
import { childTexts, parseXml } from './xml-for-tests.js';
import { openMigratedPglite } from '../store/test-stores.js';

const KEY = 'operator-key-0123456789';
const ORIGIN = 'https://tickets.example.com';
/** Small files, so a catalog of a couple of thousand events splits into several (the protocol's is 50,000). */
const URLS_PER_FILE = 333;
const W3C_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

let fixture: CatalogFixture;
let sql: Sql;
let app: ReturnType<typeof testApp>['app'];
let times: CatalogTimes;
const now = new Date();
const nowSeconds = Math.floor(now.getTime() / 1000);
const horizon = new Date(now);
horizon.setUTCFullYear(horizon.getUTCFullYear() + MAX_YEARS_AHEAD);

beforeAll(async () => {
  fixture = await catalogFixture(2_000, 5);
  sql = await openMigratedPglite();
  // The server's wiring (`main.ts`): the embedded engine behind the result cache, the change log in the store,
  // and every applied change clearing the caches, timing the document and dropping the stale sitemap files.
  const embedded = await EmbeddedEngine.build(fixture.catalog.collections);
  const search = new SearchService();
  search.set(new CachedEngine(embedded), new EmbeddedCatalog(embedded));
  times = new CatalogTimes();
  // Changes applied before the app is made have no caches to clear.
  let made: Awaited<ReturnType<typeof testAppWithSegments>> | undefined = undefined;
  const invalidator = new Invalidator(() => ({
    engine: search.engine,
    layout: made!.deps.layout,
    fastLane: made!.app.fastLane,
  }));
  const live = new LiveCatalog({
    log: new ChangeLog(sql),
    engine: () => search.catalog,
    onApplied: (changes) => {
      if (!made) return;
      const invalidated = invalidator.applied(changes);
      times.record(changes);
      sitemaps.catalogChanged(changes);
      return invalidated;
    },
    logger: pino({ level: 'silent' }),
  });
  const generatedAt = fixture.catalog.manifest.generatedAt;
  live.attach(generatedAt);
  let layoutAndSegments: () => string[] = () => [];
  const sitemaps = new SitemapService({
    engine: () => search.engine,
    times,
    categories: () => layoutAndSegments(),
    urlsPerFile: URLS_PER_FILE,
    now: () => now,
  });
  made = await testAppWithSegments({
    env: parseEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent', CATALOG_ADMIN_KEY: KEY, PUBLIC_BASE_URL: `${ORIGIN}/` }),
    search,
    catalog: live,
    sql,
    sitemaps,
  });
  const { layout, segments } = made.deps;
  layoutAndSegments = () => categoryPages(layout, segments);
  await times.attach(generatedAt, () => loggedChangeTimes(sql, generatedAt));
  app = made.app;
}, 60_000);

afterAll(async () => {
  await sql?.close();
  await fixture?.cleanup();
});

const listed = (e: EventDocument) =>
  e.event_status !== 'cancelled' &&
  e.event_timestamp !== null &&
  e.event_timestamp >= nowSeconds &&
  e.event_timestamp <= Math.floor(horizon.getTime() / 1000);
const get = (path: string) => request(app).get(path);

async function sitemapIndex(): Promise<string[]> {
  const res = await get('/sitemap.xml').expect(200);
  expect(res.headers['content-type']).toMatch(/^application\/xml/);
  const root = parseXml(res.text);
  expect(root.name).toBe('sitemapindex');
  expect(root.attributes.xmlns).toBe('http://www.sitemaps.org/schemas/sitemap/0.9');
  expect(root.children.every((c) => c.name === 'sitemap')).toBe(true);
  return root.children.map((c) => childTexts(c, 'loc')[0]!);
}

interface Entry {
  loc: string;
  lastmod: string;
}

async function sitemapFile(loc: string): Promise<Entry[]> {
  expect(loc.startsWith(`${ORIGIN}/sitemaps/`)).toBe(true);
  const res = await get(loc.slice(ORIGIN.length)).expect(200);
  expect(res.headers['content-type']).toMatch(/^application\/xml/);
  expect(Buffer.byteLength(res.text)).toBeLessThanOrEqual(MAX_SITEMAP_BYTES);
  const root = parseXml(res.text);
  expect(root.name).toBe('urlset');
  expect(root.attributes.xmlns).toBe('http://www.sitemaps.org/schemas/sitemap/0.9');
  return root.children.map((url) => {
    expect(url.name).toBe('url');
    const [loc, lastmod] = [childTexts(url, 'loc'), childTexts(url, 'lastmod')];
    expect(loc).toHaveLength(1);
    expect(lastmod).toHaveLength(1);
    return { loc: loc[0]!, lastmod: lastmod[0]! };
  });
}

/** Every file of a kind, in order, as the index lists them. */
async function filesOf(kind: string): Promise<Entry[][]> {
  const locs = (await sitemapIndex()).filter((loc) => loc.startsWith(`${ORIGIN}/sitemaps/${kind}-`));
  expect(locs).toEqual(locs.map((_, i) => `${ORIGIN}/sitemaps/${kind}-${i + 1}.xml`));
  return Promise.all(locs.map(sitemapFile));
}

const split = (count: number) =>
  Array.from({ length: Math.ceil(count / URLS_PER_FILE) }, (_, i) =>
    Math.min(URLS_PER_FILE, count - i * URLS_PER_FILE),
  );

describe('robots.txt', () => {
  it(
    'is plain text that allows the storefront and the API its pages are drawn ' +
      'from, disallows purchase pages and their API, and names the sitemap ' +
      'index',
    async () => {
      const res = await get('/robots.txt').expect(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain/);
      const lines = res.text.split('\n');
      expect(lines[0]).toBe('User-agent: *');
      expect(lines).toContain('Allow: /');
      for (const path of [
        '/checkout/',
        '/orders/',
        '/tickets/',
        '/studio',
        '/api/cart',
        '/api/orders',
        '/api/studio',
        '/api/admin',
      ])
        expect(lines).toContain(`Disallow: ${path}`);
      // A crawler that renders pages must be able to ask what they are drawn from.
      for (const path of ['/api/', '/api/layout', '/api/performers', '/api/events', '/api/venues', '/api/menu'])
        expect(lines).not.toContain(`Disallow: ${path}`);
      expect(lines.filter((l) => l.startsWith('Disallow: '))).toHaveLength(DISALLOWED_PATHS.length);
      expect(lines).toContain(`Sitemap: ${ORIGIN}/sitemap.xml`);
    },
  );

  it('never names a host the request made up: a configured origin, else the loopback one in development', async () => {
    // Nothing configured (development, tests): a loopback host is named as asked, any other host is not.
    const plain = testApp().app;
    const local = await request(plain).get('/robots.txt').set('Host', '127.0.0.1:5173').expect(200);
    expect(local.text).toContain('Sitemap: http://127.0.0.1:5173/sitemap.xml');
    for (const host of ['evil.example', 'shop.example.org:8080', 'localhost.evil.example', '127.0.0.1.evil.example']) {
      const elsewhere = await request(plain).get('/robots.txt').set('Host', host).expect(200);
      expect(elsewhere.text, host).toContain('Sitemap: http://localhost:3000/sitemap.xml');
    }
    // PUBLIC_ORIGINS: each listed host named on its own origin (its configured scheme), another host on the first.
    const listed = testApp({
      env: parseEnv({
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        PUBLIC_ORIGINS: 'https://shop.example.org,https://tickets.example.net',
        TRUST_PROXY: 'loopback',
      }),
    }).app;
    const brand = await request(listed).get('/robots.txt').set('Host', 'tickets.example.net').expect(200);
    expect(brand.text).toContain('Sitemap: https://tickets.example.net/sitemap.xml');
    // A trusted proxy's forwarded host counts as the request's host; its scheme does not choose the origin's.
    const forwarded = await request(listed)
      .get('/robots.txt')
      .set('X-Forwarded-Proto', 'http')
      .set('X-Forwarded-Host', 'shop.example.org')
      .expect(200);
    expect(forwarded.text).toContain('Sitemap: https://shop.example.org/sitemap.xml');
    const evil = await request(listed).get('/robots.txt').set('X-Forwarded-Host', 'evil.example').expect(200);
    expect(evil.text).toContain('Sitemap: https://shop.example.org/sitemap.xml');
    expect(evil.text).not.toContain('evil.example');
  });

  it('wins over the app shell and the built client’s files', async () => {
    const clientDir = await mkdtemp(path.join(os.tmpdir(), 'storefront-client-'));
    try {
      await writeFile(path.join(clientDir, 'index.html'), '<!doctype html><title>shell</title>');
      const withClient = testApp({ clientDir }).app;
      const robots = await request(withClient).get('/robots.txt').expect(200);
      expect(robots.headers['content-type']).toMatch(/^text\/plain/);
      expect(robots.text).not.toContain('<title>');
      // Without a sitemap service the sitemaps are a 404, not the shell.
      await request(withClient).get('/sitemap.xml').expect(404);
      await request(withClient).get('/sitemaps/events-1.xml').expect(404);
    } finally {
      await rm(clientDir, { recursive: true, force: true });
    }
  });
});

describe('the sitemaps (sitemaps.org)', () => {
  it('index one file per URLS_PER_FILE events, performers, venues and categories', async () => {
    const events = fixture.catalog.collections.Event.filter(listed).length;
    const locs = await sitemapIndex();
    const count = (kind: string) => locs.filter((l) => l.startsWith(`${ORIGIN}/sitemaps/${kind}-`)).length;
    expect(events).toBeGreaterThan(URLS_PER_FILE * 2);
    expect(count('events')).toBe(Math.ceil(events / URLS_PER_FILE));
    expect(count('performers')).toBe(Math.ceil(fixture.catalog.collections.Performer.length / URLS_PER_FILE));
    expect(count('venues')).toBe(Math.ceil(fixture.catalog.collections.Venue.length / URLS_PER_FILE));
    expect(count('categories')).toBe(1);
    expect(locs).toHaveLength(count('events') + count('performers') + count('venues') + count('categories'));
  });

  it(
    'list every listed event once, URLS_PER_FILE a file, at the address its ' +
      'card links to, and nothing past, cancelled or beyond 10 years',
    async () => {
      const files = await filesOf('events');
      const expected = fixture.catalog.collections.Event.filter(listed);
      expect(files.map((f) => f.length)).toEqual(split(expected.length));
      const locs = files.flat().map((e) => e.loc);
      expect(new Set(locs).size).toBe(locs.length);
      expect(locs.sort()).toEqual(expected.map((e) => `${ORIGIN}${eventCard(e).url}`).sort());
      // The fixture's own schedule has events that are not listed, so the filter is tested, not assumed.
      expect(fixture.catalog.collections.Event.length).toBeGreaterThan(expected.length);
    },
  );

  it(
    'list performers and venues at their cards’ addresses, and the category ' + 'pages the storefront answers',
    async () => {
      const performers = (await filesOf('performers')).flat().map((e) => e.loc);
      expect(performers.sort()).toEqual(
        fixture.catalog.collections.Performer.map((p: PerformerDocument) => `${ORIGIN}${performerCard(p).url}`).sort(),
      );
      const venues = (await filesOf('venues')).flat().map((e) => e.loc);
      expect(venues.sort()).toEqual(
        fixture.catalog.collections.Venue.map((v: VenueDocument) => `${ORIGIN}${venueCard(v).url}`).sort(),
      );
      const categories = (await filesOf('categories')).flat().map((e) => e.loc);
      expect(categories).toEqual(
        [...GROUP_PAGES, ...CATEGORIES.map((c) => c.slug)].map((slug) => `${ORIGIN}/category/${slug}`),
      );
      for (const loc of categories) {
        await request(app)
          .get(`/api/layout${loc.slice(ORIGIN.length)}`)
          .expect(200);
      }
    },
  );

  it('give every address a W3C datetime lastmod: the catalog’s generation time while nothing changed', async () => {
    const generated = w3cDatetime(Date.parse(fixture.catalog.manifest.generatedAt));
    for (const kind of ['events', 'performers', 'venues', 'categories']) {
      for (const entry of (await filesOf(kind)).flat()) {
        expect(entry.lastmod).toMatch(W3C_DATETIME);
        expect(entry.lastmod).toBe(generated);
      }
    }
  });

  it('answer a file again from what was built, with its ETag, and a revisit with that tag is a 304', async () => {
    const first = await get('/sitemaps/venues-1.xml').expect(200);
    const again = await get('/sitemaps/venues-1.xml').expect(200);
    expect(again.headers.etag).toBe(first.headers.etag);
    await get('/sitemaps/venues-1.xml').set('If-None-Match', first.headers.etag!).expect(304);
  });

  it('are a 404 for a file that does not exist', async () => {
    const events = (await sitemapIndex()).filter((l) => l.includes('/events-')).length;
    for (const file of [
      `events-${events + 1}`,
      'events-99',
      'events-0',
      'events-01',
      'nope',
      'categories-2',
      'events-1.xml.gz',
      'events-1',
    ]) {
      const res = await get(`/sitemaps/${file}${file.includes('.') || file === 'events-1' ? '' : '.xml'}`);
      expect(res.status, file).toBe(404);
    }
  });
});

describe('the sitemaps as the catalog changes', () => {
  const admin = (method: 'post' | 'patch', path: string, body: object) =>
    request(app)[method](`/api/admin/collections/Event/documents${path}`).set('X-TYPESENSE-API-KEY', KEY).send(body);

  it(
    'show a renamed event at its new address, a new event, and never an event ' +
      'moved into the past or past 10 years',
    async () => {
      const before = (await filesOf('events')).flat();
      const events = fixture.catalog.collections.Event.filter(listed);
      const [renamed, toPast, toFarFuture] = [events[10]!, events[20]!, events[30]!];
      const template = events[40]!;
      const changedFrom = Date.now();
      await admin('patch', `/${renamed.id}`, { event_name: 'Zanzibar Quartet Farewell Night' }).expect(200);
      await admin('patch', `/${toPast.id}`, { event_timestamp: nowSeconds - 3_600 }).expect(200);
      await admin('patch', `/${toFarFuture.id}`, {
        event_timestamp: Math.floor(horizon.getTime() / 1000) + 86_400,
      }).expect(200);
      const added: EventDocument = {
        ...template,
        id: '987654321',
        event_id: 987_654_321,
        event_name: 'Brand New Matinee',
      };
      await admin('post', '', added).expect(201);

      const files = await filesOf('events');
      const after = files.flat();
      const locs = new Set(after.map((e) => e.loc));
      const newName = { ...renamed, event_name: 'Zanzibar Quartet Farewell Night' };
      expect(locs.has(`${ORIGIN}${eventCard(newName).url}`)).toBe(true);
      expect(locs.has(`${ORIGIN}${eventCard(renamed).url}`)).toBe(false);
      expect(locs.has(`${ORIGIN}${eventCard(added).url}`)).toBe(true);
      expect(locs.has(`${ORIGIN}${eventCard(toPast).url}`)).toBe(false);
      expect(locs.has(`${ORIGIN}${eventCard(toFarFuture).url}`)).toBe(false);
      expect(after).toHaveLength(before.length - 1);
      expect(files.map((f) => f.length)).toEqual(split(before.length - 1));

      // lastmod: the changed documents' change time, the others still the catalog's.
      const lastmod = (loc: string) => after.find((e) => e.loc === loc)!.lastmod;
      for (const doc of [newName, added]) {
        const changed = Date.parse(lastmod(`${ORIGIN}${eventCard(doc).url}`));
        expect(changed).toBeGreaterThanOrEqual(Math.floor(changedFrom / 1000) * 1000);
        expect(changed).toBeLessThanOrEqual(Date.now());
      }
      const untouched = events.find((e) => ![renamed, toPast, toFarFuture].includes(e))!;
      expect(lastmod(`${ORIGIN}${eventCard(untouched).url}`)).toBe(
        w3cDatetime(Date.parse(fixture.catalog.manifest.generatedAt)),
      );
      // A category page gathers events: it changed when they did.
      const [category] = (await filesOf('categories')).flat();
      expect(Date.parse(category!.lastmod)).toBeGreaterThanOrEqual(Math.floor(changedFrom / 1000) * 1000);
    },
  );

  it(
    'show a renamed performer at its new address, its change time read from ' + 'the change log after a restart',
    async () => {
      const performer = fixture.catalog.collections.Performer[3]!;
      await request(app)
        .patch(`/api/admin/collections/Performer/documents/${performer.id}`)
        .set('X-TYPESENSE-API-KEY', KEY)
        .send({ performer_name: 'The Renamed Ensemble' })
        .expect(200);
      const renamed = { ...performer, performer_name: 'The Renamed Ensemble' };
      const entries = (await filesOf('performers')).flat();
      const entry = entries.find((e) => e.loc === `${ORIGIN}${performerCard(renamed).url}`);
      expect(entry).toBeDefined();
      expect(entries.some((e) => e.loc === `${ORIGIN}${performerCard(performer).url}`)).toBe(false);

      // A node starting now times the change from the log, as this one did when it applied it (within a second).
      const restarted = new CatalogTimes();
      await restarted.attach(fixture.catalog.manifest.generatedAt, () =>
        loggedChangeTimes(sql, fixture.catalog.manifest.generatedAt),
      );
      expect(Math.abs(restarted.of('Performer', performer.id) - times.of('Performer', performer.id))).toBeLessThan(
        2_000,
      );
      expect(restarted.of('Performer', fixture.catalog.collections.Performer[4]!.id)).toBe(
        Date.parse(fixture.catalog.manifest.generatedAt),
      );
    },
  );
});
