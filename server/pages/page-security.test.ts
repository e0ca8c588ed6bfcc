import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as clientRenderer from '../../client/src/entry-server.js';
import { parsePageData } from '../../client/src/app/page-data.js';
import { entitySlug } from '../../shared/rules/slug.js';
import { EVENT_DETAIL_FIELDS } from '../../shared/schemas/cards.js';
import { MAX_RESULTS_PAGE, MAX_SCHEDULE_PAGE } from '../../shared/schemas/entities.js';
import { MAX_QUERY_LENGTH } from '../../shared/rules/constants.js';
import { parseEnv } from '../config/env.js';
import { createLogger } from '../http/logger.js';
import { catalogFixture, type CatalogFixture } from '../test/catalog-fixture.js';
import { testAppWithSegments } from '../test/test-app.js';
import { writeBuiltClient } from '../test/built-client.js';
import type { PageRenderer } from './page-renderer.js';

// The findings of a security review of the rendered pages, each answered: rate limits shared with the API,
// canonical links never from the Host header, bad targets and oversized searches a quiet 400 page, an event's
// detail without its sales counters.

const renderer: PageRenderer = clientRenderer;
/** Low limits, so a test reaches them in a few requests. */
const LIMIT = 5;

let tmp: string;
let fixture: CatalogFixture;
let app: Awaited<ReturnType<typeof testAppWithSegments>>['app'];
const lines: string[] = [];

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'page-security-'));
  const clientDir = path.join(tmp, 'client');
  await writeBuiltClient(clientDir);
  fixture = await catalogFixture(300, 41);
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  // Development settings: no public origin configured. Clients are told apart by X-Forwarded-For (from loopback).
  ({ app } = await testAppWithSegments({
    env: parseEnv({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      TRUST_PROXY: 'loopback',
      RATE_LIMIT_SEARCH_PER_MINUTE: String(LIMIT),
      RATE_LIMIT_LISTINGS_PER_MINUTE: String(LIMIT),
    }),
    logger: createLogger('info', sink),
    clientDir,
    search: fixture.search,
    renderer,
  }));
}, 120_000);

/** pino's number for info. */
const INFO = 30;
/** The highest level of the lines logged since `before` lines (none logged: -Infinity). */
const highestLevel = (before: number) =>
  Math.max(...lines.slice(before).map((line) => (JSON.parse(line) as { level: number }).level));

afterAll(async () => {
  await fixture?.cleanup();
  await rm(tmp, { recursive: true, force: true });
});

/**
 * A request from one client address (a proxy on loopback forwarding for it), to one host (supertest's own names a
 * new port each time, and a loopback host is a page's origin in development: each would be a page of its own).
 */
const from = (client: string, url: string) =>
  request(app).get(url).set('X-Forwarded-For', client).set('Host', 'localhost:3000');

const upcomingEvent = (skip = 0) =>
  fixture.catalog.collections.Event.filter(
    (e) =>
      e.event_status === 'scheduled' && e.event_timestamp !== null && e.event_timestamp > Date.now() / 1000 + 86_400,
  )[skip]!;
const eventPath = (skip = 0) => {
  const e = upcomingEvent(skip);
  return `/events/${entitySlug(e.event_name, e.event_id)}`;
};

/** The 429 page: HTML naming the limit, with Retry-After, kept by no cache. */
function expectTooMany(res: request.Response, what: string) {
  expect(res.status).toBe(429);
  expect(res.headers['content-type']).toMatch(/^text\/html/);
  expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  expect(res.headers['cache-control']).toBe('no-store');
  expect(res.text).toContain('<h1 id="problem-title">Too many requests</h1>');
  expect(res.text).toContain(`Too many ${what} requests`);
  // The app's script is left out: the client would only ask again for what was just refused.
  expect(res.text).not.toMatch(/<script/);
}

describe('rendered pages under the API’s rate limits', () => {
  it('count a rendered results page as a search: past the limit a 429 page, the API sharing the count', async () => {
    const client = '203.0.113.1';
    for (let n = 1; n <= LIMIT; n++) expect((await from(client, `/results-general?kwds=x${n}`)).status).toBe(200);
    const before = lines.length;
    expectTooMany(await from(client, `/results-general?kwds=x${LIMIT + 1}`), 'search');
    expect(highestLevel(before), lines.slice(before).join('')).toBe(INFO);
    // One budget: the API's search is refused too, with its JSON 429.
    const api = await from(client, '/api/Searches/get?q=x');
    expect(api.status).toBe(429);
    expect(api.body.error.code).toBe('rate_limited');
    // Another client is counted apart.
    expect((await from('203.0.113.2', `/results-general?kwds=x${LIMIT + 1}`)).status).toBe(200);
  });

  it('count the results page at its address with a trailing slash too: the same page, the same budget', async () => {
    const client = '203.0.113.6';
    for (let n = 1; n <= LIMIT; n++) {
      const address = n % 2 ? `/results-general/?kwds=s${n}` : `/results-general?kwds=s${n}`;
      expect((await from(client, address)).status, address).toBe(200);
    }
    expectTooMany(await from(client, `/results-general/?kwds=s${LIMIT + 1}`), 'search');
    expectTooMany(await from(client, `/results-general//?kwds=s${LIMIT + 2}`), 'search');
  });

  it('share the count the other way: searches through the API leave a page none', async () => {
    const client = '203.0.113.3';
    for (let n = 1; n <= LIMIT; n++) expect((await from(client, `/api/Searches/get?q=y${n}`)).status).toBe(200);
    expectTooMany(await from(client, '/results-general?kwds=y'), 'search');
  });

  it('count an event page as a listings read, with the API’s listings', async () => {
    const client = '203.0.113.4';
    for (let n = 0; n < LIMIT - 1; n++) expect((await from(client, eventPath(n))).status).toBe(200);
    const slug = eventPath(0).slice('/events/'.length);
    expect((await from(client, `/api/events/${slug}/listings`)).status).toBe(200);
    expectTooMany(await from(client, eventPath(LIMIT - 1)), 'listing');
    expect((await from(client, `/api/events/${slug}/listings`)).status).toBe(429);
    // Pages that read neither are not counted against them.
    expect((await from(client, '/faq')).status).toBe(200);
  });

  it('count nothing for a kept page replayed from the page lane: it reads no search', async () => {
    const client = '203.0.113.5';
    expect((await from(client, '/results-general?kwds=kept')).status).toBe(200);
    const served = app.pageLane!.served;
    for (let n = 0; n < LIMIT + 2; n++) expect((await from(client, '/results-general?kwds=kept')).status).toBe(200);
    expect(app.pageLane!.served - served).toBe(LIMIT + 2);
    // Only the first read a search: the client has the rest of its budget.
    for (let n = 1; n < LIMIT; n++) expect((await from(client, `/results-general?kwds=z${n}`)).status).toBe(200);
    expect((await from(client, '/results-general?kwds=z-last')).status).toBe(429);
  });
});

describe('absolute addresses in a page', () => {
  const canonical = (html: string) => /<link rel="canonical" href="([^"]*)"/.exec(html)?.[1];
  const ogUrl = (html: string) => /<meta property="og:url" content="([^"]*)"/.exec(html)?.[1];

  it('never name a Host the request made up', async () => {
    for (const host of ['evil.example', 'evil.example:3000', 'localhost.evil.example']) {
      const page = await request(app).get('/faq').set('Host', host);
      expect(page.status, host).toBe(200);
      expect(canonical(page.text), host).toBe('http://localhost:3000/faq');
      expect(ogUrl(page.text), host).toBe('http://localhost:3000/faq');
      expect(page.text, host).not.toContain('evil.example');
    }
    // Nor a forwarded host: the proxy is believed about the client's address, not about the site's name.
    const forwarded = await request(app).get(eventPath(6)).set('X-Forwarded-Host', 'evil.example');
    expect(forwarded.status).toBe(200);
    expect(canonical(forwarded.text)).toBe(`http://localhost:3000${eventPath(6)}`);
    // The structured data too.
    const ld = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(forwarded.text)![1]!;
    expect(ld).toContain('http://localhost:3000/');
    expect(forwarded.text).not.toContain('evil.example');
  });

  it('name a loopback host as asked, in development with no origin configured', async () => {
    const page = await request(app).get('/faq').set('Host', '127.0.0.1:5173');
    expect(canonical(page.text)).toBe('http://127.0.0.1:5173/faq');
  });
});

describe('a page request the server cannot read', () => {
  it('is a 400 page for a search longer than any search, logged at info without the search', async () => {
    const longest = 'q'.repeat(MAX_QUERY_LENGTH);
    expect((await request(app).get(`/results-general?kwds=${longest}`)).status).toBe(200);
    const marker = 'toolong';
    const kwds = `${marker}${'w'.repeat(MAX_QUERY_LENGTH + 1 - marker.length)}`;
    const before = lines.length;
    const page = await request(app).get(`/results-general?kwds=${kwds}`);
    expect(page.status).toBe(400);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text).toContain('<h1 id="problem-title">Search too long</h1>');
    expect(page.text).toContain(`at most ${MAX_QUERY_LENGTH} characters long; this one has ${MAX_QUERY_LENGTH + 1}`);
    // RULES 8.3's figure itself: a search is at most 200 characters.
    expect(page.text).toContain('at most 200 characters long; this one has 201');
    expect(page.text).toContain('<meta name="robots" content="noindex" />');
    expect(page.text).not.toContain(marker);
    // Spaces written as plus signs count as the page reads them: one character each.
    const spaced = await request(app).get(`/results-general?kwds=${'a+'.repeat(MAX_QUERY_LENGTH / 2)}`);
    expect(spaced.status).toBe(200);
    // The same page at its address with a trailing slash.
    const slashed = await from('203.0.113.7', `/results-general/?kwds=${kwds}`);
    expect(slashed.status).toBe(400);
    expect(slashed.text).toContain('<h1 id="problem-title">Search too long</h1>');
    expect(slashed.text).not.toContain(marker);
    const written = lines.slice(before).join('');
    expect(written).toContain('"code":"query_too_long"');
    expect(written).not.toContain(marker);
    expect(highestLevel(before), written).toBe(INFO);
    // Characters as the API counts them in `q`: an emoji (two UTF-16 units) is one.
    const emoji = (n: number) => encodeURIComponent('\u{1F3B8}'.repeat(n));
    expect((await from('203.0.113.7', `/results-general?kwds=${emoji(MAX_QUERY_LENGTH)}`)).status).toBe(200);
    expect((await from('203.0.113.7', `/api/Searches/get?q=${emoji(MAX_QUERY_LENGTH)}`)).status).toBe(200);
    const overEmoji = await from('203.0.113.7', `/results-general?kwds=${emoji(MAX_QUERY_LENGTH + 1)}`);
    expect(overEmoji.status).toBe(400);
    expect(overEmoji.text).toContain(`this one has ${MAX_QUERY_LENGTH + 1}`);
    expect((await from('203.0.113.7', `/api/Searches/get?q=${emoji(MAX_QUERY_LENGTH + 1)}`)).status).toBe(400);
  });

  it('answers a page number past the last with the API’s 400, never kept, logged at info', async () => {
    const performer = fixture.catalog.collections.Performer[0]!;
    const slug = entitySlug(performer.performer_name, performer.performer_id);
    for (const address of [
      `/performers/${slug}?page=${MAX_SCHEDULE_PAGE + 1}`,
      `/results-general?kwds=mets&page=${MAX_RESULTS_PAGE + 1}`,
    ]) {
      const before = lines.length;
      const page = await request(app).get(address).set('X-Forwarded-For', '203.0.113.77');
      expect(page.status, address).toBe(400);
      // A refusal of the client's address (RULES 2.11), not a page answer that failed.
      const written = lines.slice(before).join('');
      expect(written).not.toContain('a page answer failed');
      expect(highestLevel(before), written).toBe(INFO);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      // An error answer: no cache keeps it (RULES 14.14).
      expect(page.headers['cache-control']).toBe('no-store');
      expect(page.headers.xkey).toBeUndefined();
      // The page says why, in the API's words, with no app to ask again for what was refused.
      const api = address.startsWith('/performers/')
        ? `/api/performers/${slug}?page=${MAX_SCHEDULE_PAGE + 1}`
        : `/api/Searches/get?q=mets&page=${MAX_RESULTS_PAGE + 1}`;
      const refused = await request(app).get(api).set('X-Forwarded-For', '203.0.113.78');
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toMatch(/page must be at most/);
      expect(page.text).toContain('<h1 id="problem-title">This page cannot be shown</h1>');
      expect(page.text).toContain(`${refused.body.error.message}. Check the address`);
      expect(page.text).not.toMatch(/<script/);
    }
  });

  it('is a 400 page for a path whose escapes spell no text, logged at info', async () => {
    for (const address of ['/%zz', '/category/%zz', '/performers/%E0%A4%A', '/events/%ED%A0%80-102282', '/venues/x%']) {
      const before = lines.length;
      const page = await request(app).get(address);
      expect(page.status, address).toBe(400);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.headers['cache-control']).toBe('no-store');
      expect(page.text).toContain('<h1 id="problem-title">Bad address</h1>');
      expect(page.text).toContain('does not start an escape');
      expect(highestLevel(before), lines.slice(before).join('')).toBe(INFO);
    }
    expect((await request(app).get('/category/nfl%20')).status).toBe(404);
  });

  it('is a 400 in the error shape for a file or API address it cannot read, logged at info', async () => {
    for (const [address, code] of [
      ['/api/events/%zz', 'bad_path_escape'],
      ['/api/%2e%2e/menu', 'dot_segment'],
      ['/logo%E0%A4%A.svg', 'bad_path_escape'],
      ['/assets/../index.html', 'dot_segment'],
      ['/category/%2F..', 'dot_segment'],
    ] as const) {
      const before = lines.length;
      const refused = await request(app).get(address);
      expect([refused.status, refused.body.error?.code], address).toEqual([400, code]);
      expect(highestLevel(before), lines.slice(before).join('')).toBe(INFO);
    }
  });

  it('refuses another method on a page address with a 405 naming the methods, in the error shape', async () => {
    for (const [method, address] of [
      ['post', '/faq'],
      ['put', '/category/nfl'],
      ['delete', '/'],
      ['patch', '/events/x/y-1'],
    ] as const) {
      const refused = await request(app)[method](address);
      expect(refused.status, `${method} ${address}`).toBe(405);
      expect(refused.headers.allow).toBe('GET, HEAD');
      expect(refused.headers['cache-control']).toBe('no-store');
      expect(refused.body.error).toMatchObject({ code: 'method_not_allowed' });
      expect(refused.text).not.toContain('Cannot');
    }
  });

  it('is a 400 page for an absolute-form target, logged at info', async () => {
    const server: Server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const before = lines.length;
      const raw = await new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () =>
          socket.write(
            'GET http://other.example/?kwds=secret-target HTTP/1.1\r\nHost: other.example\r\nConnection: close\r\n\r\n',
          ),
        );
        let text = '';
        socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        socket.on('end', () => resolve(text));
        socket.on('error', reject);
      });
      expect(raw).toMatch(/^HTTP\/1\.1 400 /);
      expect(raw).toMatch(/content-type: text\/html/i);
      expect(raw).toContain('<h1 id="problem-title">Bad request</h1>');
      expect(raw).toContain('path alone');
      // The log line is written as the answer goes out.
      await new Promise((resolve) => setTimeout(resolve, 20));
      const written = lines.slice(before).join('');
      expect(written).toContain('"code":"bad_request_target"');
      expect(written).not.toContain('server render failed');
      expect(highestLevel(before), written).toBe(INFO);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('an event page', () => {
  it('carries the shopper’s view of the event’s document: no sales counter in the page or its data', async () => {
    const page = await request(app).get(eventPath(7));
    expect(page.status).toBe(200);
    const event = upcomingEvent(7);
    // The counters, by name and by value's place.
    for (const field of ['event_orders_d1', 'event_cart_d1', 'event_mpv_d1', 'event_orders_d7', 'event_orders_t12'])
      expect(page.text, field).not.toContain(field);
    expect(page.text).not.toMatch(/_d1"|_d7"|_t12"|"tickets_available"|"performer_ids"/);
    const data = /<script type="application\/json" id="page-data">([\s\S]*?)<\/script>/.exec(page.text)![1]!;
    const detail = (
      parsePageData(data) as unknown as { answers: { key: unknown[]; data: { event?: { detail?: object } } }[] }
    ).answers.find((a) => a.key[0] === 'events')!.data.event!.detail!;
    expect(Object.keys(detail).sort()).toEqual([...EVENT_DETAIL_FIELDS].sort());
    expect(detail).toMatchObject({ venue_name: event.venue_name, performer_names: event.performer_names });
  });
});
