import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SuggestResponseSchema } from '../../schemas/suggest.js';
import { catalogFixture, type CatalogFixture } from '../test/catalog-fixture.js';
import { testApp } from '../test/test-app.js';

let fixture: CatalogFixture;
let app: ReturnType<typeof testApp>['app'];

beforeAll(async () => {
  fixture = await catalogFixture(4000, 9);
  app = testApp({ search: fixture.search }).app;
});
afterAll(() => fixture.cleanup());

describe('GET /api/suggest', () => {
  it('suggests performers and venues for a typed prefix, with edge caching', async () => {
    const res = await request(app).get('/api/suggest?q=New%20Y');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=60, s-maxage=3600');
    const body = SuggestResponseSchema.parse(res.body);
    expect(body.query).toBe('new y');
    expect(body.performers.length).toBeGreaterThan(0);
    expect(body.performers.length).toBeLessThanOrEqual(6);
    expect(body.performers.every((p) => p.text.toLowerCase().startsWith('new y'))).toBe(true);
    expect(body.performers[0]!.url).toMatch(/^\/performers\/new-york-[a-z-]+-\d+$/);
    expect(body.cities).toBeUndefined();
  });

  it('adds cities and events with extra sources, and trims the other groups', async () => {
    const body = SuggestResponseSchema.parse((await request(app).get('/api/suggest?q=new&extra=true')).body);
    expect(body.performers.length).toBeLessThanOrEqual(5);
    expect(body.venues.length).toBeLessThanOrEqual(3);
    expect(body.cities!.length).toBeGreaterThan(0);
    expect(body.cities!.length).toBeLessThanOrEqual(3);
    expect(body.events!.length).toBeLessThanOrEqual(3);
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

describe('GET /api/trending', () => {
  it('lists 9 performer cards', async () => {
    const res = await request(app).get('/api/trending');
    expect(res.status).toBe(200);
    expect(res.body.performers).toHaveLength(9);
    expect(res.body.performers[0]).toMatchObject({ eventCount: expect.stringMatching(/^\d+ Events?$/), url: expect.stringMatching(/^\/performers\//) });
  });
});

describe('before search is ready', () => {
  it('answers 503 with a clear message', async () => {
    const res = await request(testApp().app).get('/api/trending');
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe('search_unavailable');
  });
});
