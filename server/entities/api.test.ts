import { SignJWT } from 'jose';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EventPageSchema,
  MenuSchema,
  PerformerPageSchema,
  SearchResultsSchema,
  VenueDetailSchema,
  VenuePageSchema,
} from '../../shared/schemas/entities.js';
import { MENU_BAR } from '../../shared/catalog/menu-bar.js';
import { EVENT_DETAIL_FIELDS } from '../../shared/schemas/cards.js';
import type { PerformerDocument } from '../../shared/schemas/documents.js';
import type { Catalog } from '../catalog/load-catalog.js';
import { entitySlug } from '../../shared/rules/slug.js';
import { catalogFixture, type CatalogFixture } from '../test/catalog-fixture.js';
import { testAppWithSegments } from '../test/test-app.js';

let fixture: CatalogFixture;
let catalog: Catalog;
let app: Awaited<ReturnType<typeof testAppWithSegments>>['app'];

beforeAll(async () => {
  fixture = await catalogFixture(5000, 21);
  catalog = fixture.catalog;
  app = (await testAppWithSegments({ search: fixture.search })).app;
});
afterAll(() => fixture.cleanup());

const performer = (name: string) => catalog.collections.Performer.find((p) => p.performer_name === name)!;
const slugOf = (p: PerformerDocument) => entitySlug(p.performer_name, p.performer_id);
const session = async () => (await request(app).post('/api/customers/session')).body.sessionToken as string;

describe('guest sessions and recent activity (RULES 1.5, 1.8)', () => {
  it('issues a signed guest token', async () => {
    const res = await request(app).post('/api/customers/session');
    expect(res.status).toBe(201);
    expect(res.body.sessionToken.split('.')).toHaveLength(3);
    expect(Date.parse(res.body.expiresAt)).toBeGreaterThan(Date.now());
  });

  it('records performer and event pages opened with the token, newest first', async () => {
    const token = await session();
    const auth = { Authorization: `Bearer ${token}` };
    const empty = await request(app).get('/api/CustomerActivity/recent-activities').set(auth);
    expect(empty.body).toEqual({ data: [] });

    const knicks = performer('New York Knicks');
    await request(app)
      .get(`/api/performers/${slugOf(knicks)}`)
      .set(auth)
      .expect(200);
    const page = PerformerPageSchema.parse(
      (
        await request(app)
          .get(`/api/performers/${slugOf(performer('Boston Celtics'))}`)
          .set(auth)
      ).body,
    );
    const eventUrl = page.events[0]!.url;
    await request(app).get(`/api${eventUrl}`).set(auth).expect(200);
    await request(app)
      .get(`/api/performers/${slugOf(knicks)}`)
      .set(auth)
      .expect(200);

    let data: { type: string; name: string }[] = [];
    for (let i = 0; i < 20 && data.length < 3; i++) {
      data = (await request(app).get('/api/CustomerActivity/recent-activities').set(auth)).body.data;
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(data.map((d) => d.name)).toEqual(['New York Knicks', page.events[0]!.name, 'Boston Celtics']);
    expect(data[1]!.type).toBe('event');

    const other = await session();
    const theirs = await request(app)
      .get('/api/CustomerActivity/recent-activities')
      .set({ Authorization: `Bearer ${other}` });
    expect(theirs.body.data).toEqual([]);
  });

  it('refuses a missing, malformed, tampered, foreign or expired token with a 401', async () => {
    const token = await session();
    const [header, payload] = token.split('.');
    const forged = Buffer.from(
      JSON.stringify({
        ...JSON.parse(Buffer.from(payload!, 'base64url').toString()),
        sub: '00000000-0000-0000-0000-000000000000',
      }),
    ).toString('base64url');
    const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`;
    const foreign = await new SignJWT({ typ: 'guest' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('00000000-0000-0000-0000-000000000000')
      .setIssuer('storefront')
      .setAudience('storefront-guest')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('x'.repeat(40)));
    const cases: [Record<string, string>, string][] = [
      [{}, 'missing_session'],
      [{ Authorization: token }, 'missing_session'],
      [{ Authorization: 'Bearer not-a-jwt' }, 'invalid_session'],
      [{ Authorization: `Bearer ${header}.${forged}.${token.split('.')[2]}` }, 'invalid_session'],
      [{ Authorization: `Bearer ${unsigned}` }, 'invalid_session'],
      [{ Authorization: `Bearer ${foreign}` }, 'invalid_session'],
      [{ Authorization: `Bearer ${'a'.repeat(5000)}` }, 'missing_session'],
    ];
    for (const [headers, code] of cases) {
      const res = await request(app).get('/api/CustomerActivity/recent-activities').set(headers);
      expect(res.status, JSON.stringify(headers).slice(0, 60)).toBe(401);
      expect(res.body.error.code).toBe(code);
    }
  });
});

describe('performer, venue and event pages', () => {
  it('answers a performer with its upcoming events, soonest first', async () => {
    const res = await request(app).get(`/api/performers/${slugOf(performer('Green Bay Packers'))}`);
    // None of the performer's document: its sales counters stay on the server.
    expect(JSON.stringify(res.body)).not.toMatch(/performer_orders|inventory/);
    const body = PerformerPageSchema.parse(res.body);
    expect(body.performer.name).toBe('Green Bay Packers');
    expect(body.events.length).toBeGreaterThan(0);
    expect(body.events.every((e) => e.name.includes('Green Bay Packers'))).toBe(true);
  });

  it('answers an event with its detail, venue, performers and events around it', async () => {
    const perf = PerformerPageSchema.parse(
      (await request(app).get(`/api/performers/${slugOf(performer('Chicago Cubs'))}`)).body,
    );
    const res = await request(app).get(`/api${perf.events[0]!.url}`);
    const body = EventPageSchema.parse(res.body);
    expect(body.event.detail?.performer_names).toContain('Chicago Cubs');
    // The shopper's view of the document, as sent (not as parsed): the listed fields, and no sales counter.
    const sent = (res.body as { event: { detail: Record<string, unknown> } }).event.detail;
    expect(Object.keys(sent).sort()).toEqual([...EVENT_DETAIL_FIELDS].sort());
    expect(JSON.stringify(res.body)).not.toMatch(/_d1"|_d7"|_t12"|tickets_available|inventory/);
    expect(body.venue).not.toBeNull();
    expect(body.performers.map((p) => p.name)).toContain('Chicago Cubs');
    // Baseball is a league: its performers are teams (`shared/rules/performer-kind.ts`).
    expect(body.performers.every((p) => p.kind === 'team')).toBe(true);
    expect(body.morePerformerEvents.every((e) => e.id !== body.event.id)).toBe(true);
  });

  it('answers a venue with its upcoming events, its address and its artwork', async () => {
    const venue = catalog.collections.Venue.find((v) => v.venue_name === 'Madison Square Garden')!;
    const res = await request(app).get(`/api/venues/${entitySlug(venue.venue_name, venue.venue_id)}`);
    // The address and place of the venue's document, as sent: not its inventory value or counts.
    expect(Object.keys(res.body.venue.detail).sort()).toEqual(Object.keys(VenueDetailSchema.shape).sort());
    const body = VenuePageSchema.parse(res.body);
    expect(body.venue.address).toBe('New York, NY');
    expect(body.venue.detail).toMatchObject({ venue_zip: venue.venue_zip, venue_location: venue.venue_location });
    expect(body.venue.pathPicture).toBe(`/media/venues/${venue.venue_id}.svg`);
    expect((await request(app).get(body.venue.pathPicture)).headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(body.events.length).toBeGreaterThan(0);
  });

  it('pages through the whole schedule of a performer with more dates than a page holds, and of a venue', async () => {
    const busiest = [...catalog.collections.Performer].sort((a, b) => b.events_available - a.events_available)[0]!;
    const first = PerformerPageSchema.parse((await request(app).get(`/api/performers/${slugOf(busiest)}`)).body);
    expect(first.eventsFound).toBeGreaterThan(first.perPage);
    expect(first).toMatchObject({ page: 1, perPage: 50 });
    const seen: number[] = [];
    for (let page = 1; page <= Math.ceil(first.eventsFound / first.perPage); page++) {
      const body = PerformerPageSchema.parse(
        (await request(app).get(`/api/performers/${slugOf(busiest)}?page=${page}`)).body,
      );
      expect(body.page).toBe(page);
      seen.push(...body.events.map((e) => e.id));
    }
    // Every upcoming date once, in one order across the pages.
    expect(seen).toHaveLength(first.eventsFound);
    expect(new Set(seen).size).toBe(seen.length);
    const beyond = PerformerPageSchema.parse(
      (await request(app).get(`/api/performers/${slugOf(busiest)}?page=${Math.ceil(first.eventsFound / 50) + 1}`)).body,
    );
    expect(beyond.events).toEqual([]);
    for (const bad of ['0', '-1', '1.5', 'two', '201']) {
      const res = await request(app).get(`/api/performers/${slugOf(busiest)}?page=${bad}`);
      expect(res.status, bad).toBe(400);
      expect(res.body.error.message).toMatch(/^page: /);
    }
    const venue = catalog.collections.Venue.find((v) => v.venue_name === 'Madison Square Garden')!;
    const second = await request(app).get(`/api/venues/${entitySlug(venue.venue_name, venue.venue_id)}?page=2`);
    expect(VenuePageSchema.parse(second.body).page).toBe(2);
    expect((await request(app).get(`/api/venues/${entitySlug(venue.venue_name, venue.venue_id)}?page=x`)).status).toBe(
      400,
    );
  });

  it('is 404 for an unknown id and 400 for a slug that is not one', async () => {
    expect((await request(app).get('/api/performers/nobody-999999')).status).toBe(404);
    expect((await request(app).get('/api/events/no-id-here')).status).toBe(404);
    const bad = await request(app).get('/api/venues/%3Cscript%3E');
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^slug: /);
  });
});

describe('GET /api/Searches/get (the full results page)', () => {
  it('answers performers, venues and events for a query, paginated 10 a page', async () => {
    const body = SearchResultsSchema.parse((await request(app).get('/api/Searches/get?q=New+York')).body);
    expect(body.query).toBe('new york');
    expect(body.page).toBe(1);
    expect(body.performers.items.length).toBeLessThanOrEqual(10);
    expect(body.performers.found).toBeGreaterThan(4);
    expect(body.topPerformers.length).toBeLessThanOrEqual(3);
    const two = SearchResultsSchema.parse((await request(app).get('/api/Searches/get?q=new%20york&page=2')).body);
    expect(two.page).toBe(2);
    expect(two.topPerformers).toEqual([]);
  });

  it('refuses bad pages with a 400 naming page', async () => {
    for (const page of ['0', '-1', '1.5', 'abc', '101', '99999999999999999999']) {
      const res = await request(app).get(`/api/Searches/get?q=a&page=${page}`);
      expect(res.status, page).toBe(400);
      expect(res.body.error.message).toMatch(/^page: /);
    }
  });
});

describe('GET /api/menu (RULES 12.4 navigation)', () => {
  it('has Sports by league with All and every team, then flat Concerts, Theater and Other', async () => {
    const body = MenuSchema.parse((await request(app).get('/api/menu')).body);
    expect(body.categories.map((c) => c.name)).toEqual(['Sports', 'Concerts', 'Theater', 'Other']);
    // The header's bar is drawn from MENU_BAR before the menu loads: the answer's categories are the same.
    expect(body.categories.map(({ name, url }) => (url ? { name, url } : { name }))).toEqual(MENU_BAR);
    const sections = body.categories[0]!.sections!;
    expect(sections.map((s) => s.name)).toEqual(['NFL', 'MLB', 'NHL', 'NBA']);
    expect(sections.map((s) => s.links.length)).toEqual([33, 31, 33, 31]);
    expect(sections[0]!.links[0]).toEqual({ name: 'All', url: '/category/nfl' });
    expect(body.categories[1]!.links!.map((l) => l.url)).toEqual(
      [
        'alternative',
        'classical',
        'comedy',
        'country-folk',
        'family-friendly-concerts',
        'festivals',
        'hard-rock-metal',
        'latin',
        'oldies',
        'pop',
        'rap-hip-hop',
        'religious',
      ].map((s) => `/category/${s}`),
    );
    expect(body.categories[3]!.links!.map((l) => l.url.replace('/category/', ''))).toEqual([
      'wwe',
      'boxing',
      'soccer',
      'mma',
      'racing',
      'golf',
      'rodeo',
      'tennis',
    ]);
  });
});

describe('the alternate JSONP suggester (RULES 7.20, isABSearch)', () => {
  it('answers a verified token with a callback call', async () => {
    const token = await session();
    const res = await request(app).get(`/api/suggest/jsonp?token=${token}&q=yank&callback=jsonp_1700000000000`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/javascript/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    const match = /^\/\*\*\/jsonp_1700000000000\((.*)\);$/s.exec(res.text);
    expect(JSON.parse(match![1]!).performers[0].text).toBe('New York Yankees');
    // The other names a script-injected call generates: a counter after the number, and jQuery's.
    for (const callback of ['jsonp_1700000000000_3', 'jQuery37101234567890123_1700000000000']) {
      const other = await request(app).get(`/api/suggest/jsonp?token=${token}&q=yank&callback=${callback}`);
      expect(other.status, callback).toBe(200);
      expect(other.text.startsWith(`/**/${callback}(`), callback).toBe(true);
    }
  });

  it('refuses any callback name the suggester does not generate, even a plain identifier', async () => {
    const token = await session();
    // Each a function another site could make a page of ours call with the answer (same-origin method execution).
    for (const callback of ['cb', 'alert', 'close', 'print', 'jsonp', 'jsonp_', 'jsonp_x', 'Jquery1_2', 'jQuery1']) {
      const res = await request(app).get(`/api/suggest/jsonp?token=${token}&q=a&callback=${callback}`);
      expect(res.status, callback).toBe(400);
      expect(res.body.error.message).toMatch(/callback must be a name the suggester generates/);
      expect(res.text).not.toContain(`${callback}(`);
    }
  });

  it('refuses hostile callbacks and bad tokens before writing anything', async () => {
    const token = await session();
    for (const callback of [
      'alert(1)//',
      'a.b',
      'x;y',
      '</script>',
      '1abc',
      'a'.repeat(65),
      '',
      'jsonp_1.x',
      `jsonp_${'1'.repeat(21)}`,
    ]) {
      const res = await request(app).get(
        `/api/suggest/jsonp?token=${token}&q=a&callback=${encodeURIComponent(callback)}`,
      );
      expect(res.status, callback).toBe(400);
      expect(res.headers['content-type']).toMatch(/json/);
    }
    const bad = await request(app).get('/api/suggest/jsonp?token=abc&q=a&callback=jsonp_1');
    expect(bad.status).toBe(401);
  });

  it('escapes the data so it cannot close the script', async () => {
    const token = await session();
    const res = await request(app).get(
      `/api/suggest/jsonp?token=${token}&q=${encodeURIComponent('</script><script>alert(1)')}&callback=jsonp_1`,
    );
    expect(res.text).not.toContain('</script>');
  });
});

describe('client headers (RULES 1.4)', () => {
  it('accepts the known site ids and refuses any other with a 400', async () => {
    expect((await request(app).get('/api/menu').set('X-Site-Id', '22791')).status).toBe(200);
    expect((await request(app).get('/api/menu').set('X-Site-Id', '22792')).status).toBe(200);
    for (const site of ['1', 'abc', '22791; drop', '-1']) {
      const res = await request(app).get('/api/menu').set('X-Site-Id', site);
      expect(res.status, site).toBe(400);
      expect(res.body.error.code).toBe('unknown_site_id');
    }
    expect((await request(app).get('/api/menu').set('X-Client-Id', 'storefront-web')).status).toBe(200);
    expect((await request(app).get('/api/menu').set('X-Client-Id', 'x'.repeat(200))).status).toBe(400);
  });
});

describe('artwork', () => {
  it('draws a performer or venue image labelled with its name from the engine, and 404s an unknown id', async () => {
    const knicks = performer('New York Knicks');
    const image = await request(app).get(`/media/performers/${knicks.performer_id}.svg`);
    expect(image.status).toBe(200);
    expect(image.headers['content-type']).toMatch(/image\/svg\+xml/);
    expect(image.body.toString()).toContain('New York Knicks');
    const venue = catalog.collections.Venue.find((v) => v.venue_name === 'Madison Square Garden')!;
    expect((await request(app).get(`/media/venues/${venue.venue_id}.svg`)).body.toString()).toContain(
      'Madison Square Garden',
    );
    const missing = await request(app).get('/media/performers/987654321.svg');
    expect(missing.status).toBe(404);
  });
});
