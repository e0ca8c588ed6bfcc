import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parsePageData } from '../../client/src/app/page-data.js';
import * as clientRenderer from '../../client/src/entry-server.js';
import type { EventDocument } from '../../shared/schemas/documents.js';
import { parseEnv } from '../config/env.js';
import type { LiveCatalog } from '../live-catalog/live-catalog.js';
import { entitySlug } from '../../shared/rules/slug.js';
import type { SearchService } from '../search/search-service.js';
import type { Sql } from '../store/sql.js';
import { cancelOneEvent, catalogFixture, type CatalogFixture } from '../test/catalog-fixture.js';
import { liveCatalogOver } from '../test/live-catalog.js';
import { testAppWithSegments } from '../test/test-app.js';
import { writeBuiltClient } from '../test/built-client.js';
import { escapeHtml, imagePreloadLinks } from './page-document.js';
import { sharedCacheControl } from './page-service.js';
import type { PageRenderer } from './page-renderer.js';
import { callPath, type ApiCall } from '../../shared/schemas/api-calls.js';
import { toErrorResponse } from '../http/errors.js';
import { LayoutAnswers } from '../layout/layout-answers.js';
import { SITE_TAG } from '../http/fast-lane.js';
import { listingsForEvent } from '../commerce/domain/listings.js';
import { PageAnswers } from './page-answers.js';
import { openMigratedPglite } from '../store/test-stores.js';
import { namesAFile } from '../app.js';
import { parsePlace } from '../../shared/rules/location.js';
import type { FragmentStore, KeptFragment } from '../../shared/schemas/page-render.js';

// The client's renderer, from its sources, as the server uses the built one: it must fit the server's contract.
const renderer: PageRenderer = clientRenderer;

let tmp: string;
let fixture: CatalogFixture;
/** The event an operator cancelled: its page is 410 Gone. */
let cancelled: EventDocument;
let sql: Sql;
let search: SearchService;
let live: LiveCatalog;
let app: Awaited<ReturnType<typeof testAppWithSegments>>['app'];
let deps: Awaited<ReturnType<typeof testAppWithSegments>>['deps'];

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'rendered-pages-'));
  await writeBuiltClient(path.join(tmp, 'client'));
  fixture = await catalogFixture(600, 23);
  cancelled = cancelOneEvent(fixture.catalog);
  sql = await openMigratedPglite();
  const opened = await liveCatalogOver(fixture, sql);
  search = opened.search;
  live = opened.live;
  const made = await testAppWithSegments({
    env: parseEnv({
      LOG_LEVEL: 'silent',
      NODE_ENV: 'production',
      SESSION_SECRET: 's'.repeat(40),
      PUBLIC_BASE_URL: 'https://tickets.example.com',
    }),
    clientDir: path.join(tmp, 'client'),
    search,
    sql,
    renderer,
  });
  app = made.app;
  deps = made.deps;
  opened.connect({ engine: search.engine, layout: made.deps.layout, fastLane: app.fastLane });
}, 120_000);

afterAll(async () => {
  await sql?.close();
  await fixture?.cleanup();
  await rm(tmp, { recursive: true, force: true });
});

/** The page data a rendered page carries for the client. */
function pageData(html: string): {
  answers: { key: unknown[]; data: unknown }[];
  page: { origin: string; status: number };
} {
  const match = /<script type="application\/json" id="page-data">([\s\S]*?)<\/script>/.exec(html);
  expect(match, 'the page carries its data').not.toBeNull();
  // Read as the client reads it: the rows it packs come back as the API gave them.
  return parsePageData(match![1]!) as unknown as ReturnType<typeof pageData>;
}
const answerFor = (html: string, key: unknown[]) =>
  pageData(html).answers.find((a) => JSON.stringify(a.key) === JSON.stringify(key))?.data;
const meta = (html: string, attr: 'name' | 'property', name: string) =>
  new RegExp(`<meta ${attr}="${name.replace(/[.:]/g, '\\$&')}" content="([^"]*)"`).exec(html)?.[1];
const upcoming = () =>
  fixture.catalog.collections.Event.filter(
    (e) =>
      e.event_status === 'scheduled' &&
      e.event_timestamp !== null &&
      e.event_timestamp > Date.now() / 1000 + 7 * 86_400,
  );
const eventPath = (e: EventDocument) => `/events/${entitySlug(e.event_name, e.event_id)}`;

describe('a rendered landing page', () => {
  it('is the home page drawn by the client components from the very answer the layout API gives', async () => {
    const page = await request(app).get('/');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    // The same for everyone with its address and page cookies: public for shared caches, with its tags, and
    // never varied by Cookie (RULES 13.7).
    expect(page.headers.vary ?? '').not.toMatch(/Cookie/i);
    expect(page.headers['cache-control']).toMatch(/^public, max-age=0, s-maxage=\d+, stale-while-revalidate=\d+$/);
    // RULES 13.7: stale for as long as its lifetime, at most 60 s.
    const [, maxAge, stale] = /s-maxage=(\d+), stale-while-revalidate=(\d+)/.exec(
      String(page.headers['cache-control']),
    )!;
    expect(Number(stale)).toBe(Math.min(Number(maxAge), 60));
    expect(sharedCacheControl(3_600_000)).toBe('public, max-age=0, s-maxage=3600, stale-while-revalidate=60');
    expect(sharedCacheControl(15_000)).toBe('public, max-age=0, s-maxage=15, stale-while-revalidate=15');
    expect((page.headers.xkey as string).split(' ')).toEqual(expect.arrayContaining(['site', 'flags']));
    expect(page.headers['surrogate-key']).toBe(page.headers.xkey);
    const html = page.text;
    // Rows with their cards, in the server's HTML.
    expect(html).toMatch(/<section class="row row--[a-z-]+"[^>]*data-row-id="[^"]+"/);
    expect(html).toMatch(/<a class="card"[^>]* href="\/(performers|events|category)\//);
    // Each card's price is one text node: React writes no `<!-- -->` between its words (nor anywhere on home).
    expect(html).toMatch(/__price">From \$[\d,]+\.\d\d <small>incl\. fees<\/small>/);
    expect(html).not.toContain('<!-- -->');
    // The pictures React preloads are in the Link header, not at the start of the markup (RULES 13.15).
    expect(html).toContain('<div id="root"><a class="skip-link"');
    const links = String(page.headers.link ?? '').split(', ');
    expect(links.length).toBeGreaterThan(1);
    for (const link of links) {
      const href = /^<(\/[^>]+)>; rel=preload; as=image(; fetchpriority=high)?$/.exec(link)?.[1];
      expect(href, link).toBeDefined();
      expect(html).toContain(` src="${href!}"`);
    }
    const api = await request(app).get('/api/layout/home');
    expect(answerFor(html, ['layout', '/api/layout/home', '', ''])).toEqual(api.body);
    expect(answerFor(html, ['brand'])).toEqual((await request(app).get('/api/brand')).body);
    expect(pageData(html).page).toEqual({ origin: 'https://tickets.example.com', status: 200 });
    // The head says what the page shows.
    const city = (api.body as { location: { city: string } }).location.city;
    expect(html).toContain(`<title>Tickets near ${city}</title>`);
    expect(html).toContain('<link rel="canonical" href="https://tickets.example.com/" />');
    expect(meta(html, 'property', 'og:title')).toBe(`Tickets near ${city}`);
    expect(meta(html, 'property', 'og:url')).toBe('https://tickets.example.com/');
    expect(meta(html, 'name', 'twitter:card')).toBeDefined();
    expect(meta(html, 'name', 'description')).toContain(city);
    expect(html).not.toContain('Shell title');
  });

  it('inlines the styles its markup uses and the brand colours, allowed by their hash; links the rest', async () => {
    const page = await request(app).get('/');
    const styles = [...page.text.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]!);
    expect(styles).toHaveLength(1);
    const style = styles[0]!;
    // RULES 13.9: the rules the home page's markup can use, of the entry's and the app's own components' styles
    // alike (those the entry starts after the first paint), and not the others; then the brand's colours, over
    // the defaults of the stylesheets linked after them.
    expect(page.text).toMatch(/<a class="card"/);
    expect(style).toBe(
      'body{margin:0}.row{display:block}.nav-footer{display:block}\n.card{display:block}\n' +
        /html:root\{[^{}]*\}$/.exec(style)![0],
    );
    expect(style).toMatch(/html:root\{--brand:#[0-9a-f]{6};[^{}]*\}$/);
    expect(style).not.toContain('.boot-t');
    // Its rows are fewer than fill a first screen (RULES 13.9): its footer may be in the first paint, and its rules
    // are inline (the footer of a longer page is left to the linked stylesheet: page-document.test.ts).
    expect(page.text).toContain('<footer class="nav-footer"');
    // Nothing a first paint never shows: the hover rule waits for the whole stylesheet.
    expect(style).not.toContain(':hover');
    // The whole stylesheets are linked once each, in their order, at the end of the body: after the page data,
    // so the first paint waits for neither.
    const links = [...page.text.matchAll(/<link rel="stylesheet"[^>]*>/g)].map((m) => m[0]);
    expect(links).toEqual([
      '<link rel="stylesheet" crossorigin href="/assets/index-t.css" />',
      '<link rel="stylesheet" crossorigin href="/assets/boot-t.css" />',
    ]);
    expect(page.text.indexOf(links[0]!)).toBeGreaterThan(page.text.indexOf('id="page-data"'));
    expect(page.text.slice(page.text.indexOf(links[1]!) + links[1]!.length)).toMatch(/^\s*<\/body>\s*<\/html>\s*$/);
    const csp = page.headers['content-security-policy'] as string;
    expect(csp).toContain(`'sha256-${createHash('sha256').update(style).digest('base64')}'`);
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toMatch(/script-src 'self'[;]/);
    // No inline script of any kind: the data is JSON the browser does not run.
    expect(
      page.text.match(/<script(?![^>]*type="(module|application\/json|application\/ld\+json)")[^>]*>/g),
    ).toBeNull();
  });

  it('draws the place in the shopper cookie, and a guest the variation the API gives that guest', async () => {
    const chicago = await request(app).get('/').set('Cookie', 'shopperLocation=60601');
    expect(chicago.text).toContain('<title>Tickets near Chicago</title>');
    const layout = answerFor(chicago.text, ['layout', '/api/layout/home', 'zip=60601', '']) as {
      location: { city: string };
    };
    expect(layout.location.city).toBe('Chicago');
    // Drawn for that place, rows and all, as the browser will draw it from the same cookie.
    expect(chicago.text).toContain('Near <strong>Chicago, IL</strong>');
    expect(chicago.text).not.toContain('row--skeleton');

    const { sessionToken } = (await request(app).post('/api/customers/session').set('X-Client-Id', 'storefront-web'))
      .body as { sessionToken: string };
    const ua = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148';
    const api = await request(app)
      .get('/api/layout/home')
      .set('Authorization', `Bearer ${sessionToken}`)
      .set('User-Agent', ua);
    const { assignment } = api.body as { assignment: string };
    expect(assignment).toMatch(/^home-layout:\d+$/);
    // The guest's page is drawn from the assignment the API named, kept in the homeLayout cookie; the guest's
    // token, in a cookie or not, changes nothing (RULES 13.7).
    const mine = await request(app)
      .get('/')
      .set('Cookie', `homeLayout=${encodeURIComponent(assignment)}`);
    const theirs = await request(app)
      .get('/')
      .set('Cookie', `guestToken=${sessionToken}; homeLayout=${encodeURIComponent(assignment)}; _ga=GA1.1.5`)
      .set('User-Agent', ua);
    expect(theirs.text).toBe(mine.text);
    const drawn = answerFor(mine.text, ['layout', '/api/layout/home', '', '']) as {
      variation: string;
      experiments: unknown[];
      rows: { id: string }[];
    };
    expect(drawn.variation).toBe((api.body as typeof drawn).variation);
    // Drawn for no one: no exposure is listed (the browser reports what it showed, RULES 16.1).
    expect(drawn.experiments).toEqual([]);
    expect(drawn.rows.map((r) => r.id)).toEqual((api.body as typeof drawn).rows.map((r) => r.id));
    // A forced variation is drawn as the API draws it, for anyone.
    const forced = await request(app).get('/?home-layout=1');
    const forcedApi = await request(app).get('/api/layout/home?home-layout=1');
    expect(
      (answerFor(forced.text, ['layout', '/api/layout/home', '', 'home-layout=1']) as typeof drawn).rows.map(
        (r) => r.id,
      ),
    ).toEqual((forcedApi.body as typeof drawn).rows.map((r) => r.id));
  });

  it('is an event page with its title, price and structured data, the price the same in all three', async () => {
    const event = upcoming()[0]!;
    const page = await request(app).get(eventPath(event));
    expect(page.status).toBe(200);
    const html = page.text;
    expect(html).toContain(`<h1>${event.event_name.replace(/&/g, '&amp;')}</h1>`);
    const ld = JSON.parse(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)![1]!) as {
      '@type': string;
      name: string;
      offers?: { lowPrice: number; highPrice: number };
      location: { address: { postalCode?: string } };
    };
    expect(ld['@type']).toBe('Event');
    expect(ld.name).toBe(event.event_name);
    expect(ld.location.address.postalCode).toBeTruthy();
    const shown = /See tickets from \$([\d,]+(?:\.\d\d)?)/.exec(html);
    if (ld.offers) {
      expect(shown, 'the page shows the lowest price').not.toBeNull();
      expect(Number(shown![1]!.replace(/,/g, ''))).toBe(ld.offers.lowPrice);
      expect(meta(html, 'name', 'description')).toContain(`$${shown![1]}`);
    }
    expect(html).toContain(`<link rel="canonical" href="https://tickets.example.com${eventPath(event)}" />`);
    // The page's own module and its stylesheet are preloaded, so hydration does not wait for them.
    expect(html).toContain('<link rel="modulepreload" crossorigin href="/assets/event-page-t.js" />');
    expect(html).toContain('<link rel="modulepreload" crossorigin href="/assets/listings-t.js" />');
    // Not the app's own script: it starts after the first paint, and a preload would put it ahead of it.
    expect(html).not.toContain('boot-t.js');
    expect(html).not.toContain('react-t.js');
    // Its stylesheet's rules the page uses are inlined with the app's (one <style>, one hash), so no stylesheet
    // request holds the paint; the whole of it is linked at the end, after the app's.
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)![1]!;
    expect(style).toContain('.event-hero h1{margin:0}');
    expect(style).not.toContain('.buying-t');
    expect(html.match(/<link rel="stylesheet"[^>]*>/g)!.at(-1)).toBe(
      '<link rel="stylesheet" crossorigin href="/assets/buying-t.css" />',
    );
    expect(html.indexOf('buying-t.css')).toBeGreaterThan(html.indexOf('id="page-data"'));
    // The listings the client would ask for are embedded, under its keys.
    const slug = entitySlug(event.event_name, event.event_id);
    expect(answerFor(html, ['listings', slug, {}])).toEqual(
      (await request(app).get(`/api/events/${slug}/listings`)).body,
    );
    expect(answerFor(html, ['events', slug])).toEqual((await request(app).get(`/api/events/${slug}`)).body);
  });

  it(
    'keeps the filters of the address: the filtered listings are drawn and ' +
      'embedded under the filter the client reads',
    async () => {
      const event = upcoming()[1]!;
      const slug = entitySlug(event.event_name, event.event_id);
      const page = await request(app).get(`${eventPath(event)}?quantity=4&sort=price_desc`);
      expect(answerFor(page.text, ['listings', slug, { quantity: 4, sort: 'price_desc' }])).toEqual(
        (await request(app).get(`/api/events/${slug}/listings?quantity=4&sort=price_desc`)).body,
      );
    },
  );

  it('draws and embeds accessible seating only when the address asks for it (RULES 10.15)', async () => {
    const event = upcoming().find((e) => listingsForEvent(e).some((l) => l.accessible && l.splits.includes(1)))!;
    const slug = entitySlug(event.event_name, event.event_id);
    const page = await request(app).get(`${eventPath(event)}?quantity=1&accessible=1`);
    expect(page.status).toBe(200);
    const api = await request(app).get(`/api/events/${slug}/listings?quantity=1&accessible=1`);
    expect(api.status).toBe(200);
    expect(api.body.listings.length).toBeGreaterThan(0);
    expect(api.body.listings.every((l: { accessible: boolean }) => l.accessible)).toBe(true);
    expect(answerFor(page.text, ['listings', slug, { quantity: 1, sort: 'price_asc', accessible: true }])).toEqual(
      api.body,
    );
    expect(page.text).toContain('Accessible seating only');
  });

  it(
    'answers with the status the address has: 404 with a search, 301 for a ' +
      'renamed entity, 410 for a cancelled event',
    async () => {
      for (const address of [
        '/no-such-page',
        '/events/x/nope-999999999',
        '/performers/nobody-999999999',
        '/category/no-such-category',
        // The app shell's own file is no page.
        '/index.html',
      ]) {
        const missing = await request(app).get(address);
        expect(missing.status, address).toBe(404);
        expect(missing.text).toContain('<h1 id="nf-title">Page not found</h1>');
        expect(missing.text).toMatch(/<form role="search"[^>]* action="\/results-general" method="get">/);
        expect(missing.text).toContain('<meta name="robots" content="noindex" />');
        expect(missing.text).not.toContain('rel="canonical"');
        expect(pageData(missing.text).page.status).toBe(404);
        // A shared cache keeps it a minute at most, and the next change to the catalog, which may add what the
        // address names, purges it (RULES 13.4).
        expect(missing.headers['cache-control']).toBe(sharedCacheControl(60_000));
        expect((missing.headers.xkey as string).split(' ')).toEqual(
          expect.arrayContaining(['site', 'collection:Event', 'collection:Performer', 'collection:Venue']),
        );
      }
      const event = upcoming()[2]!;
      const moved = await request(app).get(`/events/old-name-${event.event_id}?quantity=2`);
      expect(moved.status).toBe(301);
      expect(moved.headers.location).toBe(`${eventPath(event)}?quantity=2`);
      // A shared cache keeps the move as long as the event's page, until the event changes again; a browser asks
      // again each time, so a later rename (back to the old name) never meets a move it kept (RULES 13.7).
      expect(moved.headers['cache-control']).toBe('public, max-age=0, s-maxage=60');
      expect(moved.headers.xkey).toBe(`Event:${event.event_id}`);
      expect(moved.headers['surrogate-key']).toBe(`Event:${event.event_id}`);
      const gone = await request(app).get(eventPath(cancelled));
      expect(gone.status).toBe(410);
      expect(gone.headers['x-robots-tag']).toBe('noindex');
      expect(gone.text).toContain('This event is cancelled.');
      expect(gone.text).toContain('<meta name="robots" content="noindex" />');
    },
  );

  it(
    'answers an address the layout refuses (a variation that does not exist) ' +
      'with its 4xx, and a page saying why in the API’s words',
    async () => {
      const api = await request(app).get('/api/layout/home?home-layout=99');
      expect(api.status).toBe(400);
      const page = await request(app).get('/?home-layout=99');
      expect(page.status).toBe(400);
      // An error answer: no cache keeps it (RULES 14.14).
      expect(page.headers['cache-control']).toBe('no-store');
      expect(page.text).toContain('<meta name="robots" content="noindex" />');
      expect(page.text).toContain('<h1 id="problem-title">This page cannot be shown</h1>');
      expect(page.text).toContain(escapeHtml(api.body.error.message.replace(/\.$/, '')));
      // No app to ask again for what was just refused.
      expect(page.text).not.toMatch(/<script/);
    },
  );

  it(
    'draws performer, venue, results and information pages, and leaves ' + 'tickets, checkout and orders to the client',
    async () => {
      const performer = fixture.catalog.collections.Performer[0]!;
      const slug = entitySlug(performer.performer_name, performer.performer_id);
      for (const address of [`/performers/${slug}`, `/${slug}`]) {
        const page = await request(app).get(address);
        expect(page.status, address).toBe(200);
        expect(page.text).toContain(`<title>${performer.performer_name.replace(/&/g, '&amp;')} tickets</title>`);
        expect(meta(page.text, 'property', 'og:image')).toMatch(/^https:\/\/tickets\.example\.com\//);
      }
      const venue = fixture.catalog.collections.Venue[0]!;
      const venuePage = await request(app).get(`/venues/${entitySlug(venue.venue_name, venue.venue_id)}?page=2`);
      expect(venuePage.text).toContain(
        `<link rel="canonical" ` +
          `href="https://tickets.example.com/venues/${entitySlug(venue.venue_name, venue.venue_id)}?page=2" ` +
          `/>`,
      );
      // The page drawn names itself: `?page=2.0` draws page 2, and the first page has no `?page`.
      const venueAddress = `/venues/${entitySlug(venue.venue_name, venue.venue_id)}`;
      for (const [query, canonical] of [
        ['?page=2.0', `${venueAddress}?page=2`],
        ['?page=01', venueAddress],
        ['?page=0', venueAddress],
      ]) {
        const drawn = await request(app).get(`${venueAddress}${query}`);
        expect(drawn.text, query).toContain(`<link rel="canonical" href="https://tickets.example.com${canonical}" />`);
      }
      // The router ignores a trailing slash, and so do the status and the canonical address.
      const performerSlug = entitySlug(performer.performer_name, performer.performer_id);
      for (const [address, canonical] of [
        ['/faq/', '/faq'],
        ['/category/nfl/', '/category/nfl'],
        // A performer at the site root (RULES 2.4) names its page under /performers.
        [`/${performerSlug}/`, `/performers/${performerSlug}`],
      ] as const) {
        const drawn = await request(app).get(address);
        expect(drawn.status, address).toBe(200);
        expect(drawn.text, address).toContain(
          `<link rel="canonical" href="https://tickets.example.com${canonical}" />`,
        );
        // The same page drawn, under the same title, as without the slash.
        const plain = await request(app).get(address.replace(/\/$/, ''));
        const titleAndHeading = (html: string) => [
          /<title>[^<]*<\/title>/.exec(html)?.[0],
          /<h1[^>]*>[^<]*/.exec(html)?.[0],
        ];
        expect(titleAndHeading(drawn.text), address).toEqual(titleAndHeading(plain.text));
        expect(drawn.text, address).not.toContain('Page not found');
      }
      const faq = await request(app).get('/faq');
      expect(faq.text).toContain('<title>Frequently asked questions</title>');
      const results = await request(app).get('/results-general?kwds=new');
      expect(results.text).toContain('<meta name="robots" content="noindex" />');
      expect(answerFor(results.text, ['results', 'new', 1])).toEqual(
        (await request(app).get('/api/Searches/get?q=new&page=1')).body,
      );
      const event = upcoming()[3]!;
      const tickets = await request(app).get(`/tickets/${entitySlug(event.event_name, event.event_id)}`);
      expect(tickets.status).toBe(200);
      expect(tickets.text).toContain('<div id="root"></div>');
      expect(tickets.text).not.toContain('id="page-data"');
    },
  );

  it('leaves an address with a dot in its last part to the client files, and every other to the pages', async () => {
    await writeFile(path.join(tmp, 'client', 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    const file = await request(app).get('/favicon.svg');
    expect(file.status).toBe(200);
    expect(file.headers['cache-control']).toBe('public, max-age=86400');
    expect((await request(app).get('/no-such-file.svg')).status).toBe(404);
    expect(namesAFile('/brands/base/logo.svg')).toBe(true);
    expect(namesAFile('/category/nfl')).toBe(false);
    expect(namesAFile('/v1.2/category')).toBe(false);
  });

  it('cannot be broken out of by what the address carries', async () => {
    const elsewhere = await request(app).get('//evil.example/x');
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.text).not.toContain('evil.example"');
    expect(meta(elsewhere.text, 'property', 'og:url')).toBe('https://tickets.example.com/evil.example/x');
    const page = await request(app).get(
      `/results-general?kwds=${encodeURIComponent('</script><script>alert(1)</script>')}`,
    );
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('<script>alert(1)');
    expect(answerFor(page.text, ['results', '</script><script>alert(1)</script>', 1])).toBeDefined();
    expect(page.text).toContain(
      '<title>Results for “&#60;/script&#62;&#60;script&#62;alert(1)&#60;/script&#62;”</title>',
    );
  });
});

/** The image preloads React writes first in a page, each as its set of attributes (their order is React's). */
const preloadLinks = (markup: string) =>
  [...markup.matchAll(/<link rel="preload"[^>]*\/>/g)].map((m) =>
    [...m[0].matchAll(/ [a-zA-Z]+="[^"]*"/g)].sort().join(''),
  );
const withoutPreloads = (markup: string) => markup.replace(/<link rel="preload"[^>]*\/>/g, '');

describe('a part of a page drawn before (RULES 13.13)', () => {
  const addresses = () => {
    const performer = fixture.catalog.collections.Performer[0]!;
    const venue = fixture.catalog.collections.Venue[0]!;
    return [
      '/',
      '/category/concerts',
      '/results-general?kwds=new',
      `/performers/${entitySlug(performer.performer_name, performer.performer_id)}`,
      `/venues/${entitySlug(venue.venue_name, venue.venue_id)}`,
      eventPath(upcoming()[0]!),
      '/faq',
      '/no-such-page',
    ];
  };

  it('is written again as text: the same markup as drawn anew, the same pictures preloaded, any order', async () => {
    const cookie = 'shopperLocation=40.71,-74.00';
    const place = parsePlace('40.71,-74.00');
    let sets = 0;
    const storeOf = (kept: Map<string, KeptFragment>): FragmentStore => ({
      get: (key) => kept.get(key),
      set: (key, value) => {
        sets++;
        kept.set(key, value);
      },
    });
    // Kept across the pages, as on a server: a page's header and footer were drawn by the one before.
    const shared = new Map<string, KeptFragment>();
    for (const address of addresses()) {
      const page = await request(app).get(address).set('Cookie', cookie);
      const data = pageData(page.text);
      const input = {
        url: address,
        plan: renderer.pagePlan(new URL(`http://page.invalid${address}`), place)!,
        answers: data.answers.map((a) => ({ queryKey: a.key, data: a.data })),
        page: data.page,
        place,
      };
      const drawn = async (kept?: Map<string, KeptFragment>) =>
        (await renderer.renderPage({ ...input, fragments: kept && storeOf(kept) })).markup();
      const anew = await drawn();
      expect(anew, address).not.toContain('data-kept');
      // Drawn for the first time, each part is marked, kept, and its mark taken out: not a byte differs.
      const own = new Map<string, KeptFragment>();
      expect(await drawn(own), address).toBe(anew);
      if (address === '/') expect(own.size, 'the header, the footer and each row').toBeGreaterThan(3);
      for (const kept of [own, shared]) {
        const setsBefore = sets;
        const again = await drawn(kept);
        // Every part of the page was kept the first time: drawn again, it is all written as text.
        if (kept === own) expect(sets - setsBefore, address).toBe(0);
        expect(withoutPreloads(again), address).toBe(withoutPreloads(anew));
        expect(preloadLinks(again).sort(), address).toEqual(preloadLinks(anew).sort());
        // RULES 13.15: either way, the server sends every one of them in the Link header, and the same markup.
        const [header, headerAnew] = [imagePreloadLinks(again), imagePreloadLinks(anew)];
        expect(header.markup, address).toBe(withoutPreloads(anew));
        expect(headerAnew.markup, address).toBe(withoutPreloads(anew));
        expect(header.links.sort(), address).toEqual(headerAnew.links.sort());
        expect(header.links.length, address).toBe(preloadLinks(anew).length);
      }
    }
    const kept = [...shared.values()];
    expect([...kept.values()].every((part) => !part.html.includes('data-kept'))).toBe(true);
  });
});

describe('a server render', () => {
  const inputFor = async (address: string, place = parsePlace('40.71,-74.00')) => {
    const data = pageData((await request(app).get(address).set('Cookie', 'shopperLocation=40.71,-74.00')).text);
    return {
      url: address,
      plan: renderer.pagePlan(new URL(`http://page.invalid${address}`), place)!,
      answers: data.answers.map((a) => ({ queryKey: a.key, data: a.data })),
      page: data.page,
      place,
    };
  };
  const countingStore = () => {
    const kept = new Map<string, KeptFragment>();
    return {
      kept,
      store: { get: (key: string) => kept.get(key), set: (key: string, v: KeptFragment) => kept.set(key, v) },
    };
  };

  it('draws a page whose module has not loaded yet whole, as it draws it once loaded', async () => {
    const performer = fixture.catalog.collections.Performer[1]!;
    const input = await inputFor(`/performers/${entitySlug(performer.performer_name, performer.performer_id)}`);
    // A renderer of its own, whose pages' modules no render has asked for yet.
    vi.resetModules();
    const fresh: PageRenderer = await import('../../client/src/entry-server.js');
    const first = countingStore();
    const markup = await (await fresh.renderPage({ ...input, fragments: first.store })).markup();
    expect(markup).not.toContain('<!--$!');
    expect(markup).toContain(performer.performer_name.replace(/&/g, '&amp;'));
    expect(first.kept.size, 'the header, the footer').toBeGreaterThanOrEqual(2);
    expect(await (await fresh.renderPage(input)).markup()).toBe(markup);
  });

  it('says what failed in a page a component threw in, leaves that part to the client and keeps nothing', async () => {
    const input = await inputFor('/');
    const broken = {
      ...input,
      answers: input.answers.map((a) =>
        a.queryKey[0] === 'layout' ? { ...a, data: { ...(a.data as object), rows: null } } : a,
      ),
    };
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const { kept, store } = countingStore();
      const markup = await (await renderer.renderPage({ ...broken, fragments: store })).markup();
      expect(markup).toContain('<!--$!');
      expect(markup).not.toContain('data-kept');
      expect(kept.size).toBe(0);
      expect(errors).toHaveBeenCalledWith('server render error', expect.any(TypeError));
    } finally {
      errors.mockRestore();
    }
  });
});

/** Whether a request for `address` goes out from the pages' lane: a page kept, and replayed. */
async function kept(address: string): Promise<boolean> {
  const before = app.pageLane!.served;
  await request(app).get(address);
  return app.pageLane!.served > before;
}

describe('a rendered page kept and replayed', () => {
  it('goes again byte for byte with its ETag, and a revalidation is a 304', async () => {
    const first = await request(app).get('/category/mlb');
    // The first goes out whole with the ETag the kept copy has; the repeat is that copy, sent from the pages' lane
    // without Express.
    expect(first.headers.etag).toMatch(/^W\/"/);
    const replayed = app.pageLane!.served;
    const again = await request(app).get('/category/mlb');
    expect(app.pageLane!.served).toBe(replayed + 1);
    expect(again.text).toBe(first.text);
    expect(again.headers.etag).toBe(first.headers.etag);
    const revalidated = await request(app)
      .get('/category/mlb')
      .set('If-None-Match', again.headers.etag as string);
    expect(revalidated.status).toBe(304);
    // The replay carries the same CSP as the render (the stylesheet's hash).
    expect(again.headers['content-security-policy']).toBe(first.headers['content-security-policy']);
    expect(again.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(again.headers['x-frame-options']).toBe(first.headers['x-frame-options']);
    // The home page is kept per assignment: each cookie's page is replayed to that cookie alone, and other
    // cookies and the tracking parameters (RULES 2.10) do not split it.
    const base = await request(app).get('/?utm_source=mail&utm_content=r1');
    const one = await request(app).get('/').set('Cookie', 'homeLayout=home-layout%3A1');
    const variation = (html: string) =>
      (answerFor(html, ['layout', '/api/layout/home', '', '']) as { variation: string }).variation;
    expect(variation(one.text)).not.toBe(variation(base.text));
    const laneBefore = app.pageLane!.served;
    const baseAgain = await request(app).get('/?utm_content=r2&utm_source=mail').set('Cookie', 'guestToken=x; _ga=1');
    const oneAgain = await request(app)
      .get('/?fbclid=abc&gclid=def')
      .set('Cookie', 'homeLayout=home-layout%3A1; privacyOptOut=1');
    expect(app.pageLane!.served).toBe(laneBefore + 2);
    expect(baseAgain.text).toBe(base.text);
    expect(oneAgain.text).toBe(one.text);
    // A parameter that is not a tracking one is another page.
    const forcedPage = await request(app).get('/?home-layout=1');
    expect(answerFor(forcedPage.text, ['layout', '/api/layout/home', '', 'home-layout=1'])).toBeDefined();
  });

  it(
    'is dropped when the catalog changes what it shows: an event renamed ' + 'shows its new name on the next request',
    async () => {
      const event = upcoming()[4]!;
      const address = eventPath(event);
      const before = await request(app).get(address);
      // Kept: the repeat is the kept copy (an ETag), before the change.
      expect((await request(app).get(address)).headers.etag).toMatch(/^W\//);
      const renamed = { ...event, event_name: `${event.event_name} Encore` };
      const outcome = await live.write('Event', 'upsert', [{ text: JSON.stringify(renamed), value: renamed }]);
      expect(outcome[0]).toMatchObject({ ok: true });
      // The name is in the slug, so the old address now moves; the page at the new one shows the new name.
      expect((await request(app).get(address)).status).toBe(301);
      const after = await request(app).get(eventPath(renamed));
      expect(after.text).toContain(`<h1>${renamed.event_name.replace(/&/g, '&amp;')}</h1>`);
      expect(after.text).not.toBe(before.text);
      // A home page drawn from rows that showed an event is drawn again once the event changes.
      const home = await request(app).get('/');
      const shownId = Number(/href="\/events\/[^"]*-(\d+)"/.exec(home.text)![1]);
      expect((await request(app).get('/')).text).toBe(home.text);
      const shown = fixture.catalog.collections.Event.find((e) => e.event_id === shownId)!;
      const retitled = { ...shown, event_name: 'Zanzibar Matinee Special' };
      expect(
        (await live.write('Event', 'upsert', [{ text: JSON.stringify(retitled), value: retitled }]))[0],
      ).toMatchObject({ ok: true });
      expect((await request(app).get('/')).text).toContain('Zanzibar Matinee Special');
    },
  );

  it('is replayed once for every place when the page does not draw the place (RULES 13.7)', async () => {
    const places = ['10001', '41.88,-87.63', '90210'];
    const first = await request(app).get('/policies').set('Cookie', `shopperLocation=${places[0]}`);
    const lane = app.pageLane!.served;
    for (const place of places) {
      const again = await request(app).get('/policies').set('Cookie', `shopperLocation=${place}`);
      expect(again.text).toBe(first.text);
    }
    expect(app.pageLane!.served).toBe(lane + places.length);
    // A category page is one per place.
    await request(app).get('/category/nba').set('Cookie', `shopperLocation=${places[0]}`);
    const categoryLane = app.pageLane!.served;
    await request(app).get('/category/nba').set('Cookie', `shopperLocation=${places[1]}`);
    expect(app.pageLane!.served).toBe(categoryLane);
  });

  /**
   * `address` asked for while `method` of `owner` forgets `tag` once it has read (a change that lands meanwhile, its
   * purge out before the page).
   */
  async function askedDuringChange<T extends object>(owner: T, method: keyof T & string, tag: string, address: string) {
    const read = owner[method] as (...args: unknown[]) => Promise<unknown>;
    const during = vi.spyOn(owner, method as never).mockImplementationOnce(async function (
      this: T,
      ...args: unknown[]
    ) {
      const found = await read.apply(this, args);
      app.fastLane.forget(tag);
      return found;
    } as never);
    try {
      return await request(app).get(address);
    } finally {
      during.mockRestore();
    }
  }

  it('goes out for no cache to keep when a change landed while it was drawn (RULES 13.7)', async () => {
    // A change while the page's answers are read.
    const drawn = await askedDuringChange(PageAnswers.prototype, 'answer', SITE_TAG, '/guarantee');
    expect(drawn.status).toBe(200);
    expect(drawn.headers['cache-control']).toBe('no-cache');
    expect(drawn.headers.xkey).toBeUndefined();
    expect(drawn.headers['surrogate-key']).toBeUndefined();
    // Not kept by the server either: the next is drawn again, with nothing changing, and kept.
    const lane = app.pageLane!.served;
    const next = await request(app).get('/guarantee');
    expect(next.headers['cache-control']).toMatch(/^public, max-age=0, s-maxage=\d+/);
    expect(next.headers.xkey).toContain(SITE_TAG);
    expect(app.pageLane!.served).toBe(lane);
    await request(app).get('/guarantee');
    expect(app.pageLane!.served).toBe(lane + 1);

    // A change while the address's status is looked up (an event added as its address is asked for): the
    // not-found page goes out for no cache to keep either.
    const missing = await askedDuringChange(search.engine, 'search', 'collection:Event', '/events/x/added-888888888');
    expect(missing.status).toBe(404);
    expect(missing.headers['cache-control']).toBe('no-cache');
    expect(missing.headers.xkey).toBeUndefined();

    // Nor a move to a renamed entity's address judged while a change came; the next one is kept.
    const old = `/events/old-name-${upcoming()[3]!.event_id}`;
    const moved = await askedDuringChange(search.engine, 'search', 'collection:Event', old);
    expect([moved.status, moved.headers['cache-control'], moved.headers.xkey]).toEqual([301, 'no-cache', undefined]);
    expect((await request(app).get(old)).headers['cache-control']).toBe('public, max-age=0, s-maxage=60');
  });

  it('is dropped by a change to what it was drawn from, and by nothing else (RULES 13.7)', async () => {
    const events = upcoming();
    const changed = events[7]!;
    const other = events.find(
      (e) => e.venue_id !== changed.venue_id && !e.performer_ids.some((id) => changed.performer_ids.includes(id)),
    )!;
    const performer = fixture.catalog.collections.Performer.find((p) => p.performer_id === changed.performer_ids[0])!;
    const performerAddress = `/performers/${entitySlug(performer.performer_name, performer.performer_id)}`;
    const addresses = [eventPath(changed), eventPath(other), performerAddress];
    for (const address of addresses) await request(app).get(address);
    // Kept: the repeat goes out from the pages' lane.
    for (const address of addresses) expect(await kept(address), address).toBe(true);
    // The event page says what purges it: the event, its venue and its performers.
    expect(((await request(app).get(eventPath(other))).headers.xkey as string).split(' ')).toEqual(
      expect.arrayContaining([
        `Event:${other.event_id}`,
        `Venue:${other.venue_id}`,
        ...other.performer_ids.map((id) => `Performer:${id}`),
      ]),
    );
    const sold = { ...changed, tickets_available: Math.max(0, changed.tickets_available - 1) };
    expect((await live.write('Event', 'upsert', [{ text: JSON.stringify(sold), value: sold }]))[0]).toMatchObject({
      ok: true,
    });
    // The changed event's page and its performer's (which lists it) are drawn again; another event's is not.
    expect(await kept(eventPath(changed))).toBe(false);
    expect(await kept(performerAddress)).toBe(false);
    expect(await kept(eventPath(other))).toBe(true);
  });

  it('names at most 50 performers in an event’s tags, and past that any event change drops it (13.4)', async () => {
    const performers = fixture.catalog.collections.Performer.slice(0, 51).map((p) => p.performer_id);
    expect(performers.length).toBe(51);
    const withPerformers = async (event: EventDocument, count: number) => {
      const crowded = { ...event, performer_ids: performers.slice(0, count) };
      expect(
        (await live.write('Event', 'upsert', [{ text: JSON.stringify(crowded), value: crowded }]))[0],
      ).toMatchObject({ ok: true });
      const address = eventPath(crowded);
      const page = await request(app).get(address);
      expect(page.status).toBe(200);
      return { address, keys: (page.headers.xkey as string).split(' ') };
    };
    // Fifty are named one by one.
    const named = await withPerformers(upcoming()[10]!, 50);
    expect(named.keys.filter((key) => key.startsWith('Performer:'))).toHaveLength(50);
    // One more, and the page names the collections instead.
    const crowded = await withPerformers(upcoming()[9]!, 51);
    expect(crowded.keys).toEqual(expect.arrayContaining(['collection:Performer', 'collection:Event']));
    expect(crowded.keys.filter((key) => key.startsWith('Performer:'))).toEqual([]);
    expect(await kept(crowded.address)).toBe(true);
    // Another event changes (one of its performers' events, for all the page can tell): the page is drawn again.
    const other = upcoming().find((e) => ![upcoming()[9]!, upcoming()[10]!].includes(e))!;
    const sold = { ...other, tickets_available: Math.max(0, other.tickets_available - 1) };
    expect((await live.write('Event', 'upsert', [{ text: JSON.stringify(sold), value: sold }]))[0]).toMatchObject({
      ok: true,
    });
    expect(await kept(crowded.address)).toBe(false);
  });

  it('records a guest’s view of an event when the browser says so with its token, never from a cookie', async () => {
    const { sessionToken } = (await request(app).post('/api/customers/session').set('X-Client-Id', 'storefront-web'))
      .body as { sessionToken: string };
    const event = upcoming()[5]!;
    const recent = async () =>
      JSON.stringify(
        (
          await request(app)
            .get('/api/CustomerActivity/recent-activities')
            .set('X-Client-Id', 'storefront-web')
            .set('Authorization', `Bearer ${sessionToken}`)
        ).body,
      );
    // A page request carrying the token in a cookie (another site's link, say) writes nothing.
    await request(app).get(eventPath(event)).set('Cookie', `guestToken=${sessionToken}`);
    await request(app).get(eventPath(event)).set('Cookie', `guestToken=${sessionToken}`);
    expect(await recent()).not.toContain(JSON.stringify(event.event_name).slice(1, -1));
    // The browser's report, with the bearer token, does.
    const slug = entitySlug(event.event_name, event.event_id);
    const viewed = (body: object, token: string | null = sessionToken) => {
      const req = request(app).post('/api/CustomerActivity/recent-activities').set('X-Client-Id', 'storefront-web');
      return (token ? req.set('Authorization', `Bearer ${token}`) : req).send(body);
    };
    expect((await viewed({ type: 'event', slug })).status).toBe(204);
    expect(await recent()).toContain(JSON.stringify(event.event_name).slice(1, -1));
    // The item is the one the API's own event answer records for a guest: the same name, address and picture.
    const other = (await request(app).post('/api/customers/session').set('X-Client-Id', 'storefront-web')).body as {
      sessionToken: string;
    };
    await request(app)
      .get(`/api/events/${slug}`)
      .set('X-Client-Id', 'storefront-web')
      .set('Authorization', `Bearer ${other.sessionToken}`);
    const items = async (token: string) =>
      (
        (
          await request(app)
            .get('/api/CustomerActivity/recent-activities')
            .set('X-Client-Id', 'storefront-web')
            .set('Authorization', `Bearer ${token}`)
        ).body.data as { viewedAt: string }[]
      ).map(({ viewedAt: _when, ...item }) => item);
    expect(await items(sessionToken)).toEqual(await items(other.sessionToken));
    expect((await viewed({ type: 'event', slug }, null)).status).toBe(401);
    expect((await viewed({ type: 'venue', slug })).status).toBe(400);
    expect((await viewed({ type: 'event', slug: 'Not A Slug' })).status).toBe(400);
    expect((await viewed({ type: 'performer', slug: 'nobody-999999999' })).status).toBe(404);
  });
});

describe('a typed call', () => {
  /** The answer the server reads in-process for a call, or the status of the error it is refused with. */
  async function answered(call: ApiCall, assigned?: string) {
    const answers = new PageAnswers(
      deps.search,
      new LayoutAnswers(deps.layout, deps.segments, deps.search, deps.flags),
      deps.commerce.listings,
    );
    try {
      const found = await answers.answer(call, { brand: deps.segments.defaultBrand, assigned });
      return { status: 200, body: found.data };
    } catch (err) {
      const { status, body } = toErrorResponse(err);
      return { status, body: body as unknown };
    }
  }

  it('is answered by the services as the API answers the address the client fetches it at', async () => {
    const event = upcoming()[6]!;
    const slug = entitySlug(event.event_name, event.event_id);
    const performer = fixture.catalog.collections.Performer[1]!;
    const venue = fixture.catalog.collections.Venue[1]!;
    const calls: ApiCall[] = [
      { call: 'brand' },
      { call: 'menu' },
      { call: 'layout', page: 'home', place: null, pageParams: [] },
      { call: 'layout', page: 'home', place: { zip: '60601' }, pageParams: [['home-layout', '1']] },
      { call: 'layout', page: 'category', slug: 'nfl', place: { lat: 41.8781, lng: -87.6298 }, pageParams: [] },
      { call: 'layout', page: 'category', slug: 'no-such-category', place: null, pageParams: [] },
      { call: 'layout', page: 'home', place: null, pageParams: [['home-layout', '99']] },
      { call: 'event', slug },
      { call: 'event', slug: 'nope-999999999' },
      { call: 'listings', slug, filter: {} },
      { call: 'listings', slug, filter: { quantity: 2, sort: 'price_desc', minPrice: 10.5 } },
      { call: 'listings', slug, filter: { quantity: 99 } },
      { call: 'performer', slug: entitySlug(performer.performer_name, performer.performer_id), page: 1 },
      { call: 'performer', slug: 'Not A Slug', page: 1 },
      { call: 'venue', slug: entitySlug(venue.venue_name, venue.venue_id), page: 2 },
      { call: 'results', q: 'new york & co', page: 1 },
      { call: 'results', q: 'new', page: Infinity },
    ];
    for (const call of calls) {
      const api = await request(app).get(callPath(call));
      const read = await answered(call);
      // The same answer, or the same refusal (its status, code and message).
      expect(read, callPath(call)).toEqual({ status: api.status, body: api.body });
    }
  });

  it('is answered for an assignment as the API answers that variation forced, for no one', async () => {
    const call: ApiCall = { call: 'layout', page: 'home', place: null, pageParams: [] };
    const forced: ApiCall = { ...call, pageParams: [['gb_force', 'home-layout:1']] };
    const api = await request(app).get(callPath(forced));
    expect(api.body).toMatchObject({ experiments: [] });
    expect(api.body).not.toMatchObject({ variation: 'base' });
    expect(await answered(call, 'home-layout:1')).toEqual({ status: 200, body: api.body });
    // An assignment the flags do not have is none: the base layout, as without one.
    const base = await request(app).get(callPath(call));
    for (const stale of ['home-layout:9', 'no-such-experiment:1', 'garbage'])
      expect(await answered(call, stale), stale).toEqual({ status: 200, body: base.body });
  });

  it('is answered for each assignment in turn by the same services, never with the one asked before', async () => {
    const answers = new PageAnswers(
      deps.search,
      new LayoutAnswers(deps.layout, deps.segments, deps.search, deps.flags),
      deps.commerce.listings,
    );
    const call: ApiCall = { call: 'layout', page: 'home', place: null, pageParams: [] };
    const variationFor = async (assigned: string) =>
      ((await answers.answer(call, { brand: deps.segments.defaultBrand, assigned })).data as { variation?: string })
        .variation;
    const promos = await variationFor('home-layout:1');
    const base = await variationFor('home-layout:0');
    expect(promos).not.toBe(base);
    expect([await variationFor('home-layout:1'), await variationFor('home-layout:0')]).toEqual([promos, base]);
  });
});
