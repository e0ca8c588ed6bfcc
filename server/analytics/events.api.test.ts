import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import pino from 'pino';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_EVENTS_PER_BATCH, type BrowserEvent } from '../../shared/schemas/analytics-events.js';
import { ExperimentResultsSchema } from '../../shared/schemas/experiment-results.js';
import { parseEnv } from '../config/env.js';
import type { Sql } from '../store/sql.js';
import { StoreUnavailableError } from '../store/store-errors.js';
import { catalogFixture, type CatalogFixture } from '../test/catalog-fixture.js';
import { buyOne, listingSupply, newGuest } from '../test/shopper.js';
import { sharedAddressCommerce, testAppWithSegments } from '../test/test-app.js';
import { EventCollector, unnamedPageView } from './event-collector.js';
import { EventLog } from './event-log.js';
import { openMigratedPglite } from '../store/test-stores.js';

const STUDIO_KEY = 'studio-key-for-events-tests';
let fixture: CatalogFixture;
let sql: Sql;
let log: EventLog;
let app: Awaited<ReturnType<typeof testAppWithSegments>>['app'];
let nextListing: () => number;

beforeAll(async () => {
  fixture = await catalogFixture(600, 31);
  sql = await openMigratedPglite();
  log = new EventLog(sql, { flushEveryMs: 10 });
  const env = parseEnv({
    NODE_ENV: 'test',
    STUDIO_KEY,
    RATE_LIMIT_SESSIONS_PER_MINUTE: '10000',
    RATE_LIMIT_CARTS_PER_MINUTE: '10000',
    RATE_LIMIT_CHECKOUT_PER_MINUTE: '10000',
    RATE_LIMIT_EVENTS_PER_MINUTE: '10000',
  });
  const commerce = sharedAddressCommerce(sql, fixture.search);
  ({ app } = await testAppWithSegments({
    search: fixture.search,
    sql,
    env,
    commerce,
    events: new EventCollector(log),
  }));
  nextListing = listingSupply(fixture.catalog);
}, 60_000);
afterAll(async () => {
  await log.close();
  await sql.close();
  await fixture.cleanup();
});

const cookieOf = (token: string) => `guestToken=${token}`;
const id = () => randomUUID().replaceAll('-', '');

function event(overrides: Partial<BrowserEvent> & Pick<BrowserEvent, 'name'>): BrowserEvent {
  return { id: id(), pageView: 'pv-test-0001', page: '/', at: Date.now(), ...overrides } as BrowserEvent;
}

async function eventsOf(guest: string) {
  await log.flush();
  return sql.query<Record<string, unknown>>('SELECT * FROM analytics_events WHERE anonymous_id = $1 ORDER BY id', [
    guest,
  ]);
}

describe('POST /api/events', () => {
  it('keeps a browser batch with the guest of the session cookie, once however often it is sent', async () => {
    const { token, guestId } = await newGuest(app);
    const batch = {
      events: [
        event({ name: 'page_view', variation: 'base' }),
        event({
          name: 'row_impression',
          rowId: 'popular-local',
          position: 2,
          source: { file: 'base/explore.json', version: 3 },
        }),
        event({ name: 'row_click', rowId: 'popular-local', position: 2, itemPosition: 4, item: 'performer:7' }),
      ],
    };
    for (let i = 0; i < 2; i++) {
      const res = await request(app).post('/api/events').set('Cookie', cookieOf(token)).send(batch);
      expect(res.status).toBe(202);
      expect(res.body).toEqual({ accepted: 3 });
    }
    const rows = await eventsOf(guestId);
    expect(rows.map((r) => r.name)).toEqual(['page_view', 'row_impression', 'row_click']);
    expect(rows[1]).toMatchObject({
      row_id: 'popular-local',
      position: 2,
      segment_file: 'base/explore.json',
      segment_version: 3,
    });
    expect(rows[2]).toMatchObject({ item: 'performer:7', item_position: 4, brand: 'base', device: 'desktop' });
  });

  it('takes a beacon sent as text/plain, with the site id in the body', async () => {
    const { token, guestId } = await newGuest(app);
    const res = await request(app)
      .post('/api/events')
      .set('Cookie', cookieOf(token))
      .set('Content-Type', 'text/plain;charset=UTF-8')
      .send(JSON.stringify({ site: 22791, events: [event({ name: 'page_view' })] }));
    expect(res.status).toBe(202);
    expect((await eventsOf(guestId)).length).toBe(1);
    // A site id that names nothing is refused where it was sent: the body's, or the header's.
    const inBody = await request(app)
      .post('/api/events')
      .set('Cookie', cookieOf(token))
      .set('Content-Type', 'text/plain;charset=UTF-8')
      .send(JSON.stringify({ site: 999, events: [event({ name: 'page_view' })] }));
    expect([inBody.status, inBody.body.error.message]).toEqual([400, 'Unknown site id in the batch’s site: "999"']);
    const inHeader = await request(app)
      .post('/api/events')
      .set('Cookie', cookieOf(token))
      .set('X-Site-Id', '999')
      .send({ events: [event({ name: 'page_view' })] });
    expect([inHeader.status, inHeader.body.error.message]).toEqual([400, 'Unknown site id in x-site-id: "999"']);
  });

  it('counts a row impression once per page view, a second one in another page view', async () => {
    const { token, guestId } = await newGuest(app);
    const seen = (pageView: string) => event({ name: 'row_impression', rowId: 'venues', position: 1, pageView });
    await request(app)
      .post('/api/events')
      .set('Cookie', cookieOf(token))
      .send({ events: [seen('pv-aaaa-1'), seen('pv-aaaa-1')] });
    await request(app)
      .post('/api/events')
      .set('Cookie', cookieOf(token))
      .send({ events: [seen('pv-aaaa-1'), seen('pv-bbbb-2')] });
    expect((await eventsOf(guestId)).map((r) => r.page_view)).toEqual(['pv-aaaa-1', 'pv-bbbb-2']);
  });

  it('collects nothing for a browser sending Sec-GPC or DNT, a known bot, or a visitor without a session', async () => {
    const { token, guestId } = await newGuest(app);
    const batch = { events: [event({ name: 'page_view' })] };
    for (const [name, value] of [
      ['Sec-GPC', '1'],
      ['DNT', '1'],
      ['User-Agent', 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'],
    ] as const) {
      const res = await request(app).post('/api/events').set('Cookie', cookieOf(token)).set(name, value).send(batch);
      expect(res.status).toBe(202);
      expect(res.body.accepted).toBe(0);
    }
    expect((await request(app).post('/api/events').send(batch)).body.accepted).toBe(0);
    expect(await eventsOf(guestId)).toEqual([]);
  });

  it.each([
    ['no body', undefined, /Send the batch as JSON/],
    ['an empty batch', { events: [] }, /at least one event/],
    ['an unknown event', { events: [{ ...event({ name: 'page_view' }), name: 'purchase' }] }, /events\.0\.name|name/],
    [
      'a row click without its row',
      { events: [event({ name: 'row_click', item: 'event:1' })] },
      /row_click needs rowId/,
    ],
    [
      'an exposure without its variation',
      { events: [event({ name: 'experiment_viewed', experimentId: 'x' })] },
      /needs variationId/,
    ],
    ['a bad event id', { events: [{ ...event({ name: 'page_view' }), id: 'x' }] }, /8 to 64/],
    [
      'a path holding a NUL (RULES 14.15)',
      { events: [{ ...event({ name: 'page_view' }), page: '/\u0000' }] },
      /page.*must not hold a NUL character/,
    ],
    [
      'a reason holding half of a surrogate pair',
      { events: [event({ name: 'checkout_failed', reason: 'card \ud800' })] },
      /reason.*half of a surrogate pair/,
    ],
    [
      'too many events',
      { events: Array.from({ length: MAX_EVENTS_PER_BATCH + 1 }, () => event({ name: 'page_view' })) },
      /events/,
    ],
  ])('refuses %s with a 400 naming the problem', async (_what, body, message) => {
    const { token } = await newGuest(app);
    const req = request(app).post('/api/events').set('Cookie', cookieOf(token));
    const res = body === undefined ? await req : await req.send(body);
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body.error)).toMatch(message);
  });

  it('refuses a body over the limit with a 413 and broken JSON with a 400', async () => {
    const big = JSON.stringify({
      events: [event({ name: 'checkout_failed', reason: 'x'.repeat(200) })],
      pad: 'x'.repeat(70_000),
    });
    expect((await request(app).post('/api/events').set('Content-Type', 'application/json').send(big)).status).toBe(413);
    expect(
      (await request(app).post('/api/events').set('Content-Type', 'application/json').send('{"events": [')).status,
    ).toBe(400);
  });

  it('refuses a compressed batch with a 415 saying to send it as it is, not that it is no JSON', async () => {
    const batch = JSON.stringify({ events: [event({ name: 'page_view' })] });
    const compressed = await request(app)
      .post('/api/events')
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'gzip')
      .send(gzipSync(batch));
    expect([compressed.status, compressed.body.error.code]).toEqual([415, 'unsupported_content_encoding']);
    expect(compressed.body.error.message).toMatch(/uncompressed/);
    expect(compressed.headers['accept-encoding']).toBe('identity');
    const plain = await request(app)
      .post('/api/events')
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'identity')
      .send(batch);
    expect(plain.status).toBe(202);
  });
});

describe('a batch whose client goes away mid-body', () => {
  it('is a refusal logged below error, not a failure of ours', async () => {
    let lines: { level: number; msg?: string; res?: { statusCode?: number } }[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    const made = await testAppWithSegments({ search: fixture.search, sql, logger, events: new EventCollector(log) });
    const { token } = await newGuest(made.app);
    const server = createServer(made.app).listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      lines = [];
      const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
      await once(socket, 'connect');
      socket.write(
        'POST /api/events HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
          `Cookie: ${cookieOf(token)}\r\nContent-Length: 100\r\n\r\n{"events":[`,
      );
      await new Promise((r) => setTimeout(r, 100));
      socket.destroy();
      await expect.poll(() => lines.some((l) => l.res?.statusCode !== undefined)).toBe(true);
      expect(lines.filter((l) => l.level >= 50)).toEqual([]);
      expect(lines.find((l) => l.res?.statusCode !== undefined)?.res?.statusCode).toBe(400);
    } finally {
      server.close();
    }
  });
});

describe('the server’s own events', () => {
  it('records an exposure when it answers a guest’s layout, once per page view with the browser’s own', async () => {
    const { auth, token, guestId } = await newGuest(app);
    const layout = await request(app)
      .get('/api/layout/home')
      .set('Authorization', auth)
      .set('X-Page-View', 'pv-home-0001');
    expect(layout.status).toBe(200);
    const [exposure] = layout.body.experiments as { key: string; variationId: string }[];
    expect(exposure?.key).toBe('home-layout');
    // The same page view asks again and the browser reports the same exposure: still one.
    await request(app).get('/api/layout/home').set('Authorization', auth).set('X-Page-View', 'pv-home-0001');
    await request(app)
      .post('/api/events')
      .set('Cookie', cookieOf(token))
      .send({
        events: [
          event({
            name: 'experiment_viewed',
            pageView: 'pv-home-0001',
            experimentId: 'home-layout',
            variationId: exposure!.variationId,
          }),
        ],
      });
    // Another page view is another exposure.
    await request(app).get('/api/layout/home').set('Authorization', auth).set('X-Page-View', 'pv-home-0002');
    const rows = (await eventsOf(guestId)).filter((r) => r.name === 'experiment_viewed');
    expect(rows.map((r) => [r.page_view, r.experiment_id, r.variation_id, r.page])).toEqual([
      ['pv-home-0001', 'home-layout', exposure!.variationId, '/'],
      ['pv-home-0002', 'home-layout', exposure!.variationId, '/'],
    ]);
    // The GrowthBook view shows the exposures with their columns.
    const viewed = await sql.query('SELECT * FROM experiment_viewed WHERE anonymous_id = $1', [guestId]);
    expect(Object.keys(viewed[0]!).sort()).toEqual([
      'anonymous_id',
      'brand',
      'device',
      'experiment_id',
      'timestamp',
      'variation_id',
    ]);
  });

  it('records the exposure of a layout answer replayed from the fast lane', async () => {
    const { auth, guestId } = await newGuest(app);
    await request(app).get('/api/layout/home').set('Authorization', auth).set('X-Page-View', 'pv-lane-0001');
    const before = app.fastLane.served;
    await request(app).get('/api/layout/home').set('Authorization', auth).set('X-Page-View', 'pv-lane-0002');
    expect(app.fastLane.served).toBe(before + 1);
    const rows = (await eventsOf(guestId)).filter((r) => r.name === 'experiment_viewed');
    expect(rows.map((r) => r.page_view)).toEqual(['pv-lane-0001', 'pv-lane-0002']);
  });

  it('counts the answers a guest asks for without naming a page view as one page view for the period', async () => {
    const { auth, guestId } = await newGuest(app);
    const periods = new Set([unnamedPageView(new Date())]);
    for (let i = 0; i < 3; i++)
      expect((await request(app).get('/api/layout/home').set('Authorization', auth)).status).toBe(200);
    periods.add(unnamedPageView(new Date()));
    const rows = (await eventsOf(guestId)).filter((r) => r.name === 'experiment_viewed');
    // One row (two only when the requests straddled the end of a period).
    expect(rows.map((r) => r.page_view)).toEqual([...periods]);
    expect(rows[0]!.page_view).toMatch(/^srv-[0-9a-z]+$/);
    // RULES 16.3: the period is 30 minutes, the same on every node.
    const start = Date.UTC(2026, 10, 27, 10, 0);
    expect(unnamedPageView(new Date(start + 29 * 60_000 + 59_999))).toBe(unnamedPageView(new Date(start)));
    expect(unnamedPageView(new Date(start + 30 * 60_000))).not.toBe(unnamedPageView(new Date(start)));
    expect(unnamedPageView(new Date(start - 1))).not.toBe(unnamedPageView(new Date(start)));
  });

  it('records no exposure for a forced variation, nor for a guest who asks not to be tracked', async () => {
    const { auth, guestId } = await newGuest(app);
    await request(app).get('/api/layout/home?home-layout=1').set('Authorization', auth);
    await request(app).get('/api/layout/home').set('Authorization', auth).set('Sec-GPC', '1');
    expect(await eventsOf(guestId)).toEqual([]);
  });

  it('records the exposure of a page drawn for no one when it was drawn by the guest’s own assignment', async () => {
    const { auth, guestId } = await newGuest(app);
    const report = (body: object, pageView = 'pv-page-0001') =>
      request(app).post('/api/layout/exposures').set('Authorization', auth).set('X-Page-View', pageView).send(body);
    // A first visit, drawn by no assignment: nothing recorded, whatever it showed, and the assignment named for
    // the cookie the next page is drawn by.
    const first = await report({ address: '/api/layout/home', assignment: null, shown: 'base' }, 'pv-first-0001');
    expect(first.status).toBe(200);
    expect(first.headers['cache-control']).toBe('private, no-store');
    expect(first.body.experiments).toEqual([]);
    expect(first.body.assignment).toMatch(/^home-layout:[01]$/);
    const { assignment, variation } = first.body as { assignment: string; variation: string };
    // Drawn by another assignment (a stale cookie), or showing another variation: nothing either.
    const other = assignment === 'home-layout:1' ? 'home-layout:0' : 'home-layout:1';
    expect(
      (await report({ address: '/api/layout/home', assignment: other, shown: variation })).body.experiments,
    ).toEqual([]);
    expect((await report({ address: '/api/layout/home', assignment, shown: 'nope' })).body.experiments).toEqual([]);
    expect(await eventsOf(guestId)).toEqual([]);
    // Drawn by the guest's own assignment, showing their variation: recorded once, as the layout API records it.
    const own = await report({ address: '/api/layout/home?zip=60601', assignment, shown: variation });
    expect(own.body).toEqual({
      variation,
      experiments: [{ key: 'home-layout', variationId: expect.any(String) }],
      assignment,
    });
    const api = await request(app).get('/api/layout/home').set('Authorization', auth).set('X-Page-View', 'pv-x-0001');
    expect(own.body.experiments).toEqual(api.body.experiments);
    expect(api.body.assignment).toBe(assignment);
    // A forced address is no exposure and leaves the cookie as it is.
    const forced = await report({ address: '/api/layout/home?home-layout=1', assignment, shown: variation }, 'pv-2');
    expect(forced.body.experiments).toEqual([]);
    expect(forced.body).not.toHaveProperty('assignment');
    const rows = (await eventsOf(guestId)).filter((r) => r.name === 'experiment_viewed');
    expect(rows.map((r) => [r.page_view, r.page])).toEqual([
      ['pv-page-0001', '/'],
      ['pv-x-0001', '/'],
    ]);
    // Refused: no bearer token, another page's address, nothing shown, an assignment left out.
    const bare = await request(app)
      .post('/api/layout/exposures')
      .send({ address: '/api/layout/home', assignment: null, shown: 'base' });
    expect(bare.status).toBe(401);
    expect((await report({ address: '/api/layout/category/nfl', assignment, shown: 'base' })).status).toBe(400);
    expect((await report({ address: '/api/layout/home', assignment, shown: '' })).status).toBe(400);
    expect((await report({ address: '/api/layout/home', shown: 'base' })).status).toBe(400);
    expect((await report({ address: '/api/layout/home?home-layout=99', assignment, shown: 'base' })).status).toBe(400);
  });

  it('writes one purchase per order with the all-in total, however often its checkout is retried', async () => {
    const { auth, guestId } = await newGuest(app);
    const key = `retry-${id()}`;
    const bought = await buyOne(app, auth, nextListing(), { idempotencyKey: key });
    const replay = await bought.checkout();
    expect(replay.status).toBe(bought.status);
    expect(replay.body.id).toBe(bought.order.id);
    const rows = (await eventsOf(guestId)).filter((r) => r.name === 'purchase');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ order_id: bought.order.id, page: '/checkout' });
    expect(Number(rows[0]!.revenue)).toBe(bought.order.totalPrice.value);
    const view = await sql.query('SELECT * FROM purchases WHERE anonymous_id = $1', [guestId]);
    expect(Object.keys(view[0]!).sort()).toEqual(['anonymous_id', 'order_id', 'revenue', 'timestamp']);
  });
});

describe('GET /api/studio/experiments/:key/results', () => {
  it('reads exposures and the purchases after them, per variation', async () => {
    await log.flush();
    const before = ExperimentResultsSchema.parse(
      (await request(app).get('/api/studio/experiments/home-layout/results').set('X-Studio-Key', STUDIO_KEY)).body,
    );
    // A guest exposed, then buying, counts as a purchaser in their variation; one who bought before being exposed
    // does not.
    const buyer = await newGuest(app);
    const layout = await request(app).get('/api/layout/home').set('Authorization', buyer.auth);
    const variation = (layout.body.experiments as { variationId: string }[])[0]!.variationId;
    await log.flush();
    const { order } = await buyOne(app, buyer.auth, nextListing());
    const early = await newGuest(app);
    await buyOne(app, early.auth, nextListing());
    await log.flush();
    await new Promise((r) => setTimeout(r, 5));
    const earlyLayout = await request(app).get('/api/layout/home').set('Authorization', early.auth);
    const earlyVariation = (earlyLayout.body.experiments as { variationId: string }[])[0]!.variationId;
    await log.flush();

    const res = await request(app).get('/api/studio/experiments/home-layout/results').set('X-Studio-Key', STUDIO_KEY);
    expect(res.status).toBe(200);
    const after = ExperimentResultsSchema.parse(res.body);
    const arm = (r: typeof after, v: string) => r.variations.find((x) => x.id === v)!;
    expect(after.variations.map((v) => v.name)).toEqual(['base', 'promos']);
    expect(after.variations[0]!.lift).toBeNull();
    expect(arm(after, variation).purchasers).toBe(arm(before, variation).purchasers + 1);
    expect(arm(after, variation).revenue).toBeCloseTo(arm(before, variation).revenue + order.totalPrice.value, 2);
    const usersAdded =
      after.variations.reduce((n, v) => n + v.users, 0) - before.variations.reduce((n, v) => n + v.users, 0);
    expect(usersAdded).toBe(2);
    if (earlyVariation !== variation)
      expect(arm(after, earlyVariation).purchasers).toBe(arm(before, earlyVariation).purchasers);
  });

  it('answers an unknown experiment with a 404 naming the known ones, and a bad since with a 400', async () => {
    const unknown = await request(app).get('/api/studio/experiments/nope/results').set('X-Studio-Key', STUDIO_KEY);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toMatch(/home-layout/);
    const bad = await request(app)
      .get('/api/studio/experiments/home-layout/results?since=yesterday')
      .set('X-Studio-Key', STUDIO_KEY);
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/since/);
    expect((await request(app).get('/api/studio/experiments/home-layout/results')).status).toBe(401);
  });
});

describe('GET /api/studio/events', () => {
  it('reads back what is kept of one guest, newest first, behind the studio key', async () => {
    const { token, guestId } = await newGuest(app);
    await request(app)
      .post('/api/events')
      .set('Cookie', cookieOf(token))
      .send({
        events: [
          event({ name: 'add_to_cart', item: 'listing:12', at: Date.now() - 1_000 }),
          event({ name: 'page_view' }),
        ],
      });
    await log.flush();
    const res = await request(app).get(`/api/studio/events?guest=${guestId}`).set('X-Studio-Key', STUDIO_KEY);
    expect(res.status).toBe(200);
    expect(res.body.events.map((e: { name: string; item: string | null }) => [e.name, e.item])).toEqual([
      ['page_view', null],
      ['add_to_cart', 'listing:12'],
    ]);
    expect(JSON.stringify(res.body)).not.toMatch(/127\.0\.0\.1|::ffff|buyer@example/);
    expect((await request(app).get(`/api/studio/events?guest=${guestId}`)).status).toBe(401);
    const bad = await request(app).get('/api/studio/events?guest=a%20b').set('X-Studio-Key', STUDIO_KEY);
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/guest/);
  });
});

describe('a store that cannot keep up', () => {
  it('refuses a batch with a 503 and Retry-After rather than take events it would drop', async () => {
    const away: Sql = {
      kind: 'pglite',
      query: () => Promise.reject(new StoreUnavailableError(new Error('connection refused'))),
      transaction: () => Promise.reject(new StoreUnavailableError(new Error('connection refused'))),
      close: () => Promise.resolve(),
    };
    const slowLog = new EventLog(away, { flushEveryMs: 60_000, maxQueued: 5 });
    const env = parseEnv({ NODE_ENV: 'test', RATE_LIMIT_EVENTS_PER_MINUTE: '10000' });
    const { app: busy } = await testAppWithSegments({
      search: fixture.search,
      sql,
      env,
      events: new EventCollector(slowLog),
    });
    const { token } = await newGuest(busy);
    const three = () => ({ events: [1, 2, 3].map(() => event({ name: 'page_view', pageView: `pv-${id()}` })) });
    const first = await request(busy).post('/api/events').set('Cookie', cookieOf(token)).send(three());
    expect(first.status).toBe(202);
    expect(first.body.accepted).toBe(3);
    const second = await request(busy).post('/api/events').set('Cookie', cookieOf(token)).send(three());
    expect(second.status).toBe(503);
    expect(second.headers['retry-after']).toBe('5');
    expect(second.body.error.code).toBe('events_busy');
    expect(slowLog.stats()).toMatchObject({ queued: 3, dropped: 0 });
  });
});
