import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SuggestResponseSchema } from '../../shared/schemas/suggest.js';
import { catalogFixture, type CatalogFixture } from '../test/catalog-fixture.js';
import { parseEnv } from '../config/env.js';
import { testApp, testAppWithSegments } from '../test/test-app.js';
import { SearchService } from './search-service.js';

let fixture: CatalogFixture;
let app: ReturnType<typeof testApp>['app'];

beforeAll(async () => {
  fixture = await catalogFixture(4000, 9);
  app = testApp({ search: fixture.search }).app;
});
afterAll(() => fixture.cleanup());

/**
 * The best-known performers whose name has a word starting with `prefix`. The catalog starts today and league
 * schedules follow the calendar, so which team has the most orders depends on the day: the test asks the catalog.
 */
const bestKnown = (prefix: RegExp, count: number) =>
  fixture.catalog.collections.Explore.filter((x) => x.entity_type === 'performer' && prefix.test(x.text))
    .sort((a, b) => b.rank - a.rank || a._oid - b._oid)
    .slice(0, count)
    .map((x) => x.text);

describe('GET /api/suggest', () => {
  it('suggests performers and venues for a typed prefix, with edge caching', async () => {
    const res = await request(app).get('/api/suggest?q=New%20Y');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=60, s-maxage=3600');
    const body = SuggestResponseSchema.parse(res.body);
    expect(body.query).toBe('new y');
    // Six, the RULES 7.11 figure without extra sources, best-known first.
    expect(body.performers.map((p) => p.text)).toEqual(bestKnown(/\bnew y/i, 6));
    expect(body.performers.map((p) => p.text)).toContain('New York Yankees');
    expect(body.performers[0]!.url).toMatch(/^\/performers\/new-york-[a-z-]+-\d+$/);
    expect(body.cities).toBeUndefined();
  });

  it('reads "ny" and "la" as their cities: the city, its teams and its venues, in either case', async () => {
    for (const [typed, city, state] of [
      ['ny', 'New York', 'NY'],
      ['LA', 'Los Angeles', 'CA'],
    ] as const) {
      const body = SuggestResponseSchema.parse((await request(app).get(`/api/suggest?q=${typed}`)).body);
      expect(body.cities?.[0]?.text, typed).toBe(`${city}, ${state}`);
      // The city's own first; what the letters match as a prefix ("LA Clippers", "Las Vegas") after them.
      expect(body.performers[0]?.text.startsWith(city), typed).toBe(true);
      expect(body.venues[0]?.subtitle, typed).toBe(`${city}, ${state}`);
    }
    // Other short queries are read as they are.
    expect(SuggestResponseSchema.parse((await request(app).get('/api/suggest?q=ca')).body).cities).toBeUndefined();
  });

  it('adds cities and events with extra sources, and trims the other groups', async () => {
    const body = SuggestResponseSchema.parse((await request(app).get('/api/suggest?q=new&extra=true')).body);
    // RULES 7.11: 5 performers with extra sources, and 3 of each other kind.
    expect(body.performers.map((p) => p.text)).toEqual(bestKnown(/\bnew/i, 5));
    expect(body.cities!.map((c) => c.text)).toEqual(['New York, NY', 'New Orleans, LA', 'New Haven, CT']);
    // Venues and events with upcoming events: which ones depends on the hour the catalog is generated at.
    expect(body.venues).toHaveLength(3);
    // Venues come with their artwork, as performers do.
    for (const v of body.venues) expect(v.pathPicture).toBe(`/media/venues/${v.id}.svg`);
    expect(body.events).toHaveLength(3);
    for (const item of [...body.venues, ...body.events!]) expect(item.text).toMatch(/\bnew/i);
  });

  it('answers an empty query with empty groups', async () => {
    const res = await request(app).get('/api/suggest?q=%20%20');
    expect(res.body).toEqual({ query: '', performers: [], venues: [] });
  });

  it('keeps filter syntax and odd text as plain words', async () => {
    for (const q of ['x && price:>0', '`) || (', 'ÄÖÜ 🎫', '*']) {
      const res = await request(app).get(`/api/suggest?q=${encodeURIComponent(q)}`);
      expect(res.status, q).toBe(200);
    }
  });

  it('refuses an overlong query with a 400 naming q', async () => {
    const res = await request(app).get(`/api/suggest?q=${'a'.repeat(201)}`);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/^q: /);
  });
});

describe('a query that grows when lower-cased', () => {
  it('is searched whole when the shopper typed at most 200 characters ("İ" lower-cases to two)', async () => {
    const q = encodeURIComponent('İ'.repeat(150));
    for (const url of [`/api/suggest?q=${q}`, `/api/Searches/get?q=${q}`]) {
      const res = await request(app).get(url);
      expect(res.status, url).toBe(200);
    }
    const long = await request(app).get(`/api/Searches/get?q=${encodeURIComponent('İ'.repeat(201))}`);
    expect(long.status).toBe(400);
    expect(long.body.error.message).toBe('q: q must be at most 200 characters');
  });
});

describe('GET /api/trending', () => {
  it('lists 9 performer cards', async () => {
    const res = await request(app).get('/api/trending');
    expect(res.status).toBe(200);
    expect(res.body.performers).toHaveLength(9);
    expect(res.body.performers[0]).toMatchObject({
      eventCount: expect.stringMatching(/^\d+ Events?$/),
      url: expect.stringMatching(/^\/performers\//),
    });
  });
});

describe('before search is ready', () => {
  it('answers 503 with a clear message', async () => {
    const res = await request(testApp().app).get('/api/trending');
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe('search_unavailable');
  });
});

describe('repeated suggestions (the fast lane)', () => {
  it('keeps no suggestion made while a catalog change was applied (RULES 13.11)', async () => {
    const engine = fixture.search.engine;
    let during: (() => void) | undefined;
    // The engine as it is, but for a change that lands while a search is under way.
    const changing = new Proxy(engine, {
      get(target, name) {
        const value = Reflect.get(target, name, target) as unknown;
        if (name !== 'search' || typeof value !== 'function') return value;
        return async (...args: unknown[]) => {
          const found = (await value.apply(target, args)) as unknown;
          during?.();
          during = undefined;
          return found;
        };
      },
    });
    const service = new SearchService();
    service.set(changing);
    const { app: changed } = testApp({ search: service });
    during = () => changed.fastLane.forget('collection:Event');
    const url = '/api/suggest?q=yank';
    expect((await request(changed).get(url)).status).toBe(200);
    const before = changed.fastLane.served;
    expect((await request(changed).get(url)).status).toBe(200);
    expect(changed.fastLane.served).toBe(before);
    // With nothing changing, the next is kept and replayed.
    await request(changed).get(url);
    expect(changed.fastLane.served).toBe(before + 1);
  });

  it('sends a repeat from the lane, byte for byte, and still counts it against the suggest limit', async () => {
    const { app: limited } = testApp({
      search: fixture.search,
      env: parseEnv({ NODE_ENV: 'test', RATE_LIMIT_SUGGEST_PER_MINUTE: '3' }),
    });
    const url = '/api/suggest?q=yan';
    const first = await request(limited).get(url);
    expect(first.status).toBe(200);
    const before = limited.fastLane.served;
    const second = await request(limited).get(url);
    expect(limited.fastLane.served - before).toBe(1);
    expect(second.status).toBe(200);
    expect(second.text).toBe(first.text);
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(second.headers['cache-control']).toBe('public, max-age=60, s-maxage=3600');
    expect(second.headers.ratelimit).toMatch(/r=1/);
    expect((await request(limited).get(url)).status).toBe(200);
    const over = await request(limited).get(url);
    expect(over.status).toBe(429);
    expect(over.body.error.code).toBe('rate_limited');
    expect(over.headers.ratelimit).toMatch(/r=0/);
    expect(over.headers['x-request-id']).toBeTruthy();
    expect(over.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
    // One limit, wherever the answer comes from: a prefix not kept yet is refused by the app as well.
    const elsewhere = await request(limited).get('/api/suggest?q=bos');
    expect(elsewhere.status).toBe(429);
    expect(elsewhere.body.error.code).toBe('rate_limited');
  });

  it('counts a repeat as the app limiter does: the same rate limit headers on answers and on refusals', async () => {
    const { app: limited } = testApp({
      search: fixture.search,
      env: parseEnv({ NODE_ENV: 'test', RATE_LIMIT_SUGGEST_PER_MINUTE: '4' }),
    });
    const limitHeaders = (res: request.Response) => ({
      ratelimit: res.headers.ratelimit,
      policy: res.headers['ratelimit-policy'],
      retryAfter: res.headers['retry-after'],
    });
    const url = '/api/suggest?q=taylo';
    const byApp = await request(limited).get(url);
    let served = limited.fastLane.served;
    const byLane = await request(limited).get(url);
    expect(limited.fastLane.served - served).toBe(1);
    expect(limitHeaders(byApp)).toEqual({
      ratelimit: expect.stringMatching(/^"suggest"; r=3; t=(59|60)$/),
      policy: expect.stringMatching(/^"suggest"; q=4; w=60; pk=:[A-Za-z0-9+/=]+:$/),
      retryAfter: undefined,
    });
    expect(limitHeaders(byLane)).toEqual({
      ...limitHeaders(byApp),
      ratelimit: expect.stringMatching(/^"suggest"; r=2; t=(59|60)$/),
    });
    await request(limited).get(url).expect(200);
    await request(limited).get(url).expect(200);
    served = limited.fastLane.served;
    const refusedByLane = await request(limited).get(url);
    expect(limited.fastLane.served - served).toBe(1);
    const refusedByApp = await request(limited).get('/api/suggest?q=bosto');
    for (const refused of [refusedByLane, refusedByApp]) {
      expect(refused.status).toBe(429);
      expect(limitHeaders(refused)).toEqual({
        ratelimit: expect.stringMatching(/^"suggest"; r=0; t=(59|60)$/),
        policy: byApp.headers['ratelimit-policy'],
        retryAfter: expect.stringMatching(/^(59|60)$/),
      });
    }
    expect(refusedByLane.body).toEqual(refusedByApp.body);
  });

  it('leaves a kept answer to the app when the client headers are wrong', async () => {
    const { app } = await testAppWithSegments({ search: fixture.search });
    const url = '/api/suggest?q=bost';
    await request(app).get(url).expect(200);
    const before = app.fastLane.served;
    const badSite = await request(app).get(url).set('X-Site-Id', '999');
    expect(badSite.status).toBe(400);
    expect(badSite.body.error.code).toBe('unknown_site_id');
    const badClient = await request(app).get(url).set('X-Client-Id', 'two words');
    expect(badClient.status).toBe(400);
    expect(app.fastLane.served - before).toBe(0);
    expect((await request(app).get(url).set('X-Site-Id', '22791')).status).toBe(200);
    expect(app.fastLane.served - before).toBe(1);
  });
});
