import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCatalog } from '../catalog/generate/generate-catalog.js';
import { loadCatalog } from '../catalog/load-catalog.js';
import { parseEnv } from '../config/env.js';
import { entitySlug } from '../../shared/rules/slug.js';
import { CachedEngine } from '../search/cached-engine.js';
import { EmbeddedEngine } from '../search/embedded/embedded-engine.js';
import type { SearchEngine } from '../search/search-engine.js';
import { SearchService } from '../search/search-service.js';
import { cancelOneEvent } from '../test/catalog-fixture.js';
import { testApp } from '../test/test-app.js';
import { pageStatus } from './page-status.js';

let tmp: string;
let search: SearchService;
let engine: SearchEngine;
const first = async (collection: 'Performer' | 'Venue' | 'Event') =>
  (
    await engine.search({
      collection,
      perPage: 1,
      filters:
        collection === 'Event'
          ? [
              { op: 'eq', field: 'event_status', value: 'scheduled' },
              {
                op: 'between',
                field: 'event_timestamp',
                min: Math.floor(Date.now() / 1000) + 86_400,
                max: 4_102_444_800,
              },
            ]
          : [],
    })
  ).hits[0]!.document as Record<string, unknown>;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'page-status-'));
  await generateCatalog({
    events: 1000,
    seed: 11,
    start: new Date().toISOString().slice(0, 10),
    outDir: path.join(tmp, 'catalog'),
  });
  search = new SearchService();
  const catalog = await loadCatalog(path.join(tmp, 'catalog'));
  cancelOneEvent(catalog);
  search.set(new CachedEngine(await EmbeddedEngine.build(catalog.collections)));
  engine = search.engine;
  await mkdir(path.join(tmp, 'client'));
  await writeFile(path.join(tmp, 'client', 'index.html'), '<!doctype html><title>shell</title>');
}, 120_000);
afterAll(() => rm(tmp, { recursive: true, force: true }));

describe('the status of a page address', () => {
  it('is 200 for the pages the storefront has, and for entities that exist at their current address', async () => {
    const performer = await first('Performer');
    const venue = await first('Venue');
    const event = await first('Event');
    const performerSlug = entitySlug(performer.performer_name as string, performer.performer_id as number);
    for (const address of [
      '/',
      '/faq',
      '/policies',
      '/contact-us',
      '/results-general',
      '/category/nfl',
      '/category/sports',
      '/checkout/any-cart',
      '/orders/any-order',
      `/performers/${performerSlug}`,
      `/${performerSlug}`,
      `/venues/${entitySlug(venue.venue_name as string, venue.venue_id as number)}`,
      `/events/${entitySlug(event.event_name as string, event.event_id as number)}`,
      `/tickets/${entitySlug(event.event_name as string, event.event_id as number)}`,
    ]) {
      expect(await pageStatus(address, engine), address).toEqual({ status: 200 });
    }
  });

  it('is 404 for an address with no page, an unknown category, and an id nothing has', async () => {
    for (const address of [
      '/no-such-page',
      '/category/no-such-category',
      '/performers/nobody-999999999',
      '/venues/nowhere',
      '/events/gone-999999999',
      '/nobody-999999999',
      '/a/b/c',
      '/robots.txt.bak',
    ]) {
      expect(await pageStatus(address, engine), address).toEqual({ status: 404 });
    }
  });

  it('moves a stale name to the current one: the id in the slug decides', async () => {
    const performer = await first('Performer');
    const event = await first('Event');
    const id = performer.performer_id as number;
    const current = entitySlug(performer.performer_name as string, id);
    const tags = [`Performer:${id}`];
    expect(await pageStatus(`/performers/old-name-${id}`, engine)).toEqual({
      status: 301,
      location: `/performers/${current}`,
      tags,
    });
    expect(await pageStatus(`/old-name-${id}`, engine)).toEqual({ status: 301, location: `/${current}`, tags });
    const eventSlug = entitySlug(event.event_name as string, event.event_id as number);
    expect(await pageStatus(`/events/new-york/old-event-name-${event.event_id}`, engine)).toEqual({
      status: 301,
      location: `/events/${eventSlug}`,
      tags: [`Event:${event.event_id}`],
    });
  });
});

describe('an event that cannot be attended', () => {
  it('is 410 Gone, kept out of indexes, once it has started or when it is cancelled', async () => {
    const event = await first('Event');
    const address = `/events/${entitySlug(event.event_name as string, event.event_id as number)}`;
    const started = new Date(((event.event_timestamp as number) + 60) * 1000);
    expect(await pageStatus(address, engine, started)).toEqual({ status: 410, noindex: true, reason: 'started' });
    expect(await pageStatus(address.replace('/events/', '/tickets/'), engine, started)).toEqual({
      status: 410,
      noindex: true,
      reason: 'started',
    });
    const cancelled = (
      await engine.search({
        collection: 'Event',
        perPage: 1,
        filters: [{ op: 'eq', field: 'event_status', value: 'cancelled' }],
      })
    ).hits[0]?.document as Record<string, unknown> | undefined;
    expect(cancelled, 'the catalog has a cancelled event').toBeDefined();
    expect(
      await pageStatus(`/events/${entitySlug(cancelled!.event_name as string, cancelled!.event_id as number)}`, engine),
    ).toEqual({ status: 410, noindex: true, reason: 'cancelled' });
  });
});

describe('the app shell', () => {
  it('is sent with the address status, and a 301 keeps the query', async () => {
    const { app } = testApp({
      env: parseEnv({
        LOG_LEVEL: 'silent',
        NODE_ENV: 'production',
        PUBLIC_BASE_URL: 'https://tickets.example.com',
        SESSION_SECRET: 's'.repeat(40),
      }),
      clientDir: path.join(tmp, 'client'),
      search,
    });
    const missing = await request(app).get('/no-such-page');
    expect(missing.status).toBe(404);
    expect(missing.text).toContain('<title>shell</title>');
    const performer = await first('Performer');
    const moved = await request(app).get(`/performers/old-${performer.performer_id}?utm_source=mail`);
    expect(moved.status).toBe(301);
    expect(moved.headers.location).toBe(
      `/performers/${entitySlug(performer.performer_name as string, performer.performer_id as number)}?utm_source=mail`,
    );
    expect((await request(app).get('/category/nfl')).status).toBe(200);
    const cancelled = (
      await engine.search({
        collection: 'Event',
        perPage: 1,
        filters: [{ op: 'eq', field: 'event_status', value: 'cancelled' }],
      })
    ).hits[0]!.document as Record<string, unknown>;
    const gone = await request(app).get(
      `/events/${entitySlug(cancelled.event_name as string, cancelled.event_id as number)}`,
    );
    expect(gone.status).toBe(410);
    expect(gone.headers['x-robots-tag']).toBe('noindex');
    expect(gone.text).toContain('<title>shell</title>');
  });

  it('answers 200 while the catalog is still loading, when no address can be judged', async () => {
    const { app } = testApp({
      env: parseEnv({ LOG_LEVEL: 'silent' }),
      clientDir: path.join(tmp, 'client'),
      search: new SearchService(),
    });
    expect((await request(app).get('/performers/anyone-1')).status).toBe(200);
  });
});
