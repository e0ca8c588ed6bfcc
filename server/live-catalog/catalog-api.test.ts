import { createServer, type Server } from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import request from 'supertest';
import { Client, Errors } from 'typesense';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventDocument, PerformerDocument } from '../../shared/schemas/documents.js';
import { LayoutResponseSchema } from '../../shared/schemas/layout.js';
import { parseEnv } from '../config/env.js';
import type { LayoutService } from '../layout/layout-service.js';
import { CachedEngine } from '../search/cached-engine.js';
import { openCatalog } from '../search/create-engine.js';
import { EmbeddedCatalog } from '../search/embedded/embedded-catalog.js';
import { EmbeddedEngine } from '../search/embedded/embedded-engine.js';
import { SearchService } from '../search/search-service.js';
import type { Sql } from '../store/sql.js';
import { StoreUnavailableError } from '../store/store-errors.js';
import { catalogFixture, type CatalogFixture } from '../test/catalog-fixture.js';
import { liveCatalogOver } from '../test/live-catalog.js';
import { testAppWithSegments } from '../test/test-app.js';
import { ChangeLog } from './change-log.js';
import { LiveCatalog } from './live-catalog.js';
import { openMigratedPglite } from '../store/test-stores.js';

const KEY = 'operator-key-0123456789';

let fixture: CatalogFixture;
let sql: Sql;
let server: Server;
let app: Awaited<ReturnType<typeof testAppWithSegments>>['app'];
let live: LiveCatalog;
let client: Client;
let layout: LayoutService;

/** The official Typesense client, pointed at the storefront's catalog API. */
function typesenseClient(port: number, apiKey: string) {
  return new Client({
    nodes: [{ host: '127.0.0.1', port, protocol: 'http', path: '/api/admin' }],
    apiKey,
    connectionTimeoutSeconds: 10,
    numRetries: 0,
    logLevel: 'silent',
  });
}

async function openLive() {
  return liveCatalogOver(fixture, sql);
}

beforeAll(async () => {
  fixture = await catalogFixture(800, 16);
  sql = await openMigratedPglite();
  const opened = await liveCatalogOver(fixture, sql);
  live = opened.live;
  const search = opened.search;
  const made = await testAppWithSegments({
    env: parseEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent', CATALOG_ADMIN_KEY: KEY }),
    search,
    catalog: live,
    sql,
  });
  app = made.app;
  layout = made.deps.layout;
  opened.connect({ engine: search.engine, layout, fastLane: app.fastLane });
  server = createServer(app).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  client = typesenseClient((server.address() as AddressInfo).port, KEY);
}, 60_000);

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await sql?.close();
  await fixture?.cleanup();
});

const events = () => fixture.catalog.collections.Event;
const jsonl = (docs: unknown[]) => docs.map((d) => (typeof d === 'string' ? d : JSON.stringify(d))).join('\n');
const results = (answer: string) => answer.split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);

describe('the catalog documents API, through the official Typesense client', () => {
  it(
    'imports with upsert: one result line per input line, in order, bad lines ' +
      'refused and named, good ones applied',
    async () => {
      const [a, b] = events();
      const renamed = { ...a!, event_name: 'Zanzibar Quartet Farewell Night' };
      const answer = await client
        .collections('Event')
        .documents()
        .import(jsonl([renamed, '{"id": "oops"', { ...b!, event_status: 'maybe' }, { ...b!, surprise: 1 }]), {
          action: 'upsert',
        });
      const lines = results(answer as unknown as string);
      expect(lines).toHaveLength(4);
      expect(lines[0]).toEqual({ success: true });
      expect(lines[1]).toMatchObject({ success: false, document: '{"id": "oops"' });
      expect(String(lines[1]!.error)).toMatch(/Bad JSON/);
      expect(String(lines[2]!.error)).toMatch(/event_status.*"maybe"/);
      expect(String(lines[3]!.error)).toMatch(/`surprise` is not a field of Event/);
      expect(await client.collections('Event').documents(renamed.id).retrieve()).toMatchObject({
        event_name: 'Zanzibar Quartet Farewell Night',
      });
      // The storefront finds it by its new name at once.
      const found = await request(app).get('/api/Searches/get?q=zanzibar+quartet');
      expect(found.status).toBe(200);
      expect(JSON.stringify(found.body)).toContain('Zanzibar Quartet Farewell Night');
    },
  );

  it('follows each action on a missing and an existing id, returns ids and documents when asked', async () => {
    const existing = events()[2]!;
    const fresh: EventDocument = { ...existing, id: '9900001', event_id: 9_900_001, event_name: 'Brand New Show' };
    const answer = await client
      .collections('Event')
      .documents()
      .import(jsonl([existing, fresh, { id: '9900002', event_name: 'x' }, { id: existing.id, event_orders_t12: 77 }]), {
        action: 'create',
        return_id: true,
      });
    const lines = results(answer as unknown as string);
    expect(lines[0]).toMatchObject({ success: false, error: `A document with id ${existing.id} already exists.` });
    expect(lines[1]).toEqual({ success: true, id: '9900001' });
    expect(lines[2]!.success).toBe(false);
    expect(lines[3]!.success).toBe(false);

    const updated = results(
      (await client
        .collections('Event')
        .documents()
        .import(
          jsonl([
            { id: existing.id, event_orders_t12: 77 },
            { id: '9900009', event_name: 'Nowhere' },
          ]),
          { action: 'update', return_doc: true },
        )) as unknown as string,
    );
    expect(updated[0]).toMatchObject({ success: true, document: { ...existing, event_orders_t12: 77 } });
    expect(updated[1]).toMatchObject({ success: false, error: 'Could not find a document with id: 9900009' });

    const emplaced = results(
      (await client
        .collections('Event')
        .documents()
        .import(
          jsonl([
            { id: existing.id, event_orders_d1: 5 },
            { ...fresh, id: '9900003', event_id: 9_900_003 },
          ]),
          { action: 'emplace' },
        )) as unknown as string,
    );
    expect(emplaced).toEqual([{ success: true }, { success: true }]);
    expect(await client.collections('Event').documents(existing.id).retrieve()).toMatchObject({
      event_orders_t12: 77,
      event_orders_d1: 5,
    });
    expect(await client.collections('Event').documents('9900003').retrieve()).toMatchObject({
      event_name: 'Brand New Show',
    });
  });

  it('two lines with one id in a batch act as two requests in a row', async () => {
    const doc: EventDocument = { ...events()[3]!, id: '9900010', event_id: 9_900_010 };
    const lines = results(
      (await client
        .collections('Event')
        .documents()
        .import(jsonl([doc, doc]), { action: 'create' })) as unknown as string,
    );
    expect(lines[0]).toEqual({ success: true });
    expect(lines[1]).toMatchObject({ success: false, error: 'A document with id 9900010 already exists.' });
  });

  it('coerces, drops or refuses values of the wrong type as dirty_values says', async () => {
    const base = events()[4]!;
    const asText = { ...base, event_orders_t12: '15' };
    const coerced = results(
      (await client
        .collections('Event')
        .documents()
        .import(jsonl([asText]), { action: 'upsert', dirty_values: 'coerce_or_reject' })) as unknown as string,
    );
    expect(coerced).toEqual([{ success: true }]);
    expect(await client.collections('Event').documents(base.id).retrieve()).toMatchObject({ event_orders_t12: 15 });
    const refused = results(
      (await client
        .collections('Event')
        .documents()
        .import(jsonl([asText]), { action: 'upsert', dirty_values: 'reject' })) as unknown as string,
    );
    expect(refused[0]!.success).toBe(false);
    expect(String(refused[0]!.error)).toMatch(/event_orders_t12.*"15"/);
    // Dropping a field a whole document needs leaves it failing the schema; on an update the old value stays.
    const dropped = results(
      (await client
        .collections('Event')
        .documents()
        .import(jsonl([{ id: base.id, event_orders_t12: 'many' }]), {
          action: 'update',
          dirty_values: 'coerce_or_drop',
        })) as unknown as string,
    );
    expect(dropped).toEqual([{ success: true }]);
    expect(await client.collections('Event').documents(base.id).retrieve()).toMatchObject({ event_orders_t12: 15 });
  });

  it('creates, updates, retrieves and deletes single documents', async () => {
    const doc: EventDocument = { ...events()[5]!, id: '9900020', event_id: 9_900_020, event_name: 'Single Doc Gala' };
    expect(await client.collections('Event').documents().create(doc)).toMatchObject({ id: '9900020' });
    await expect(client.collections('Event').documents().create(doc)).rejects.toBeInstanceOf(
      Errors.ObjectAlreadyExists,
    );
    expect(
      await client
        .collections<EventDocument>('Event')
        .documents('9900020')
        .update({ event_name: 'Single Doc Gala II' }),
    ).toMatchObject({ event_name: 'Single Doc Gala II' });
    expect(
      await client
        .collections('Event')
        .documents()
        .upsert({ ...doc, event_name: 'Upserted Gala' }),
    ).toMatchObject({ event_name: 'Upserted Gala' });
    expect(await client.collections('Event').documents('9900020').delete()).toMatchObject({ id: '9900020' });
    await expect(client.collections('Event').documents('9900020').retrieve()).rejects.toBeInstanceOf(
      Errors.ObjectNotFound,
    );
    await expect(client.collections('Event').documents('9900020').delete()).rejects.toBeInstanceOf(
      Errors.ObjectNotFound,
    );
  });

  it('takes the other collections by their catalog names, and refuses unknown ones', async () => {
    const performer = fixture.catalog.collections.Performer[0]!;
    await client
      .collections<PerformerDocument>('Performer')
      .documents(performer.id)
      .update({ performer_name: 'The Renamed Ones' });
    const found = await request(app).get('/api/Searches/get?q=renamed+ones');
    expect(JSON.stringify(found.body)).toContain('The Renamed Ones');
    await expect(client.collections('Concerts').documents('1').retrieve()).rejects.toBeInstanceOf(
      Errors.ObjectNotFound,
    );
  });
});

describe('the catalog documents API: who may call it, and bad requests', () => {
  it(
    'answers 401 to a wrong or missing key, and the same key in the query as ' + 'Typesense clients may send it',
    async () => {
      await expect(
        typesenseClient((server.address() as AddressInfo).port, 'not-the-key-at-all')
          .collections('Event')
          .documents('1')
          .retrieve(),
      ).rejects.toBeInstanceOf(Errors.RequestUnauthorized);
      const missing = await request(app).get(`/api/admin/collections/Event/documents/${events()[0]!.id}`);
      expect(missing.status).toBe(401);
      expect(missing.body.message).toMatch(/x-typesense-api-key/);
      const inQuery = await request(app).get(
        `/api/admin/collections/Event/documents/${events()[0]!.id}?x-typesense-api-key=${KEY}`,
      );
      expect(inQuery.status).toBe(200);
    },
  );

  it('names the methods an address of it takes when asked with another (405), and no others (404)', async () => {
    const put = await request(app).put('/api/admin/collections/Event/documents/1').set('X-TYPESENSE-API-KEY', KEY);
    expect(put.status).toBe(405);
    expect(put.headers.allow?.split(', ').sort()).toEqual(['DELETE', 'GET', 'HEAD', 'PATCH']);
    expect(put.body.message).toBe(
      'PUT is not answered at /api/admin/collections/Event/documents/1: it is asked with GET, HEAD, PATCH, DELETE',
    );
    const options = await request(app)
      .options('/api/admin/collections/Event/documents/1')
      .set('X-TYPESENSE-API-KEY', KEY);
    expect(options.status).toBe(200);
    expect(options.headers.allow).toBe('GET, HEAD, PATCH, DELETE');
    const nowhere = await request(app).put('/api/admin/nowhere').set('X-TYPESENSE-API-KEY', KEY);
    expect(nowhere.status).toBe(404);
    expect(nowhere.body.message).toBe('No catalog API route for PUT /api/admin/nowhere');
  });

  it('does not exist without CATALOG_ADMIN_KEY', async () => {
    const { app: keyless } = await testAppWithSegments();
    const res = await request(keyless).get('/api/admin/collections/Event/documents/1').set('X-TYPESENSE-API-KEY', KEY);
    expect(res.status).toBe(404);
  });

  it(
    'refuses bodies that are too large, empty or not documents, and bad ' + 'parameters, each with a 4xx naming it',
    async () => {
      const post = (path: string, body: string) =>
        request(app)
          .post(`/api/admin${path}`)
          .set('X-TYPESENSE-API-KEY', KEY)
          .set('Content-Type', 'text/plain')
          .send(body);
      const huge = await post('/collections/Event/documents/import?action=upsert', 'x'.repeat(50 * 1024 * 1024));
      expect(huge.status).toBe(413);
      expect(huge.body.message).toMatch(/too large/i);
      expect((await post('/collections/Event/documents/import', '')).status).toBe(400);
      const badAction = await post('/collections/Event/documents/import?action=replace', '{}');
      expect(badAction.status).toBe(400);
      expect(badAction.body.message).toMatch(/action must be one of create, upsert, update, emplace/);
      expect((await post('/collections/Event/documents/import?dirty_values=maybe', '{}')).status).toBe(400);
      const array = await request(app)
        .post('/api/admin/collections/Event/documents')
        .set('X-TYPESENSE-API-KEY', KEY)
        .set('Content-Type', 'application/json')
        .send('[1,2]');
      expect(array.status).toBe(400);
      const wrongId = await request(app)
        .post('/api/admin/collections/Event/documents?action=upsert')
        .set('X-TYPESENSE-API-KEY', KEY)
        .send({ ...events()[6]!, id: '12' });
      expect(wrongId.status).toBe(400);
      expect(wrongId.body.message).toMatch(/`id` must be the event_id as a string/);
      // RULES 14.15: text no store keeps, or a body deeper than any document, named, on each way in.
      const venue = {
        ...fixture.catalog.collections.Venue[0]!,
        id: String(fixture.catalog.collections.Venue[0]!.venue_id),
      };
      const nul = await request(app)
        .post('/api/admin/collections/Venue/documents?action=upsert')
        .set('X-TYPESENSE-API-KEY', KEY)
        .send({ ...venue, venue_name: 'Hall\u0000' });
      expect([nul.status, nul.body.message]).toEqual([
        400,
        'Bad JSON: venue_name holds a NUL character (\\u0000), which no text kept here may hold.',
      ]);
      const deepId = await request(app)
        .patch(`/api/admin/collections/Venue/documents/${venue.id}`)
        .set('X-TYPESENSE-API-KEY', KEY)
        .set('Content-Type', 'application/json')
        .send(`{"id":${'['.repeat(8000)}${']'.repeat(8000)}}`);
      expect(deepId.status).toBe(400);
      expect(deepId.body.message).toMatch(/^Bad JSON: id(\[0\])+ nests deeper than 32 levels\.$/);
      // In an import, the line alone: the others are written.
      const lines = [
        JSON.stringify({ ...venue, venue_name: `${venue.venue_name} (renamed)` }),
        JSON.stringify({ ...venue, venue_name: 'Lone \ud800' }),
      ].join('\n');
      const imported = await post('/collections/Venue/documents/import?action=upsert', lines);
      expect(imported.status).toBe(200);
      const results = imported.text.split('\n').map((line) => JSON.parse(line) as { success: boolean; error?: string });
      expect(results[0]).toMatchObject({ success: true });
      expect(results[1]).toMatchObject({ success: false });
      expect(results[1]!.error).toMatch(/^Bad JSON: venue_name holds half of a surrogate pair, alone/);
    },
  );
});

describe('concurrent imports and the rate limit', () => {
  it('creates a document once when two imports of it race: one success, one "already exists"', async () => {
    const doc: EventDocument = { ...events()[7]!, id: '9900030', event_id: 9_900_030 };
    const send = () =>
      client
        .collections('Event')
        .documents()
        .import(jsonl([doc]), { action: 'create' });
    const answers = (await Promise.all([send(), send(), send()])).map((a) => results(a as unknown as string)[0]!);
    expect(answers.filter((a) => a.success)).toHaveLength(1);
    expect(answers.filter((a) => !a.success).map((a) => a.error)).toEqual([
      'A document with id 9900030 already exists.',
      'A document with id 9900030 already exists.',
    ]);
  });

  it("answers 429 in Typesense's shape past RATE_LIMIT_ADMIN_PER_MINUTE", async () => {
    const { app: limited } = await testAppWithSegments({
      env: parseEnv({
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        CATALOG_ADMIN_KEY: KEY,
        RATE_LIMIT_ADMIN_PER_MINUTE: '2',
      }),
      catalog: live,
      sql,
    });
    const get = () =>
      request(limited).get(`/api/admin/collections/Event/documents/${events()[0]!.id}`).set('X-TYPESENSE-API-KEY', KEY);
    expect((await get()).status).toBe(200);
    expect((await get()).status).toBe(200);
    const third = await get();
    expect(third.status).toBe(429);
    expect(third.body.message).toMatch(/Too many catalog requests/);
  });
});

describe('the store failing under an import', () => {
  it('answers 503 and applies none of it; the next import goes through whole', async () => {
    let failing = true;
    // The same store, but an insert into the log fails as a store that went away does.
    const flaky: Sql = {
      ...sql,
      kind: sql.kind,
      query: (text, params) => sql.query(text, params),
      close: () => sql.close(),
      transaction: (fn) =>
        sql.transaction((tx) =>
          fn({
            query: (text, params) =>
              failing && text.includes('INSERT INTO catalog_changes')
                ? Promise.reject(new StoreUnavailableError(new Error('connection lost')))
                : tx.query(text, params),
          }),
        ),
    };
    const embedded = await EmbeddedEngine.build(fixture.catalog.collections);
    const search = new SearchService();
    search.set(new CachedEngine(embedded), new EmbeddedCatalog(embedded));
    const catalog = new LiveCatalog({
      log: new ChangeLog(flaky),
      engine: () => search.catalog,
      onApplied: () => {},
      logger: pino({ level: 'silent' }),
    });
    catalog.attach(fixture.catalog.manifest.generatedAt);
    await catalog.sync();
    const { app: flakyApp } = await testAppWithSegments({
      env: parseEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent', CATALOG_ADMIN_KEY: KEY }),
      search,
      catalog,
      sql: flaky,
    });
    const [a, b] = [events()[10]!, events()[11]!];
    const body = jsonl([
      { ...a, event_name: 'Half Applied A' },
      { ...b, event_name: 'Half Applied B' },
    ]);
    const send = () =>
      request(flakyApp)
        .post('/api/admin/collections/Event/documents/import?action=upsert')
        .set('X-TYPESENSE-API-KEY', KEY)
        .set('Content-Type', 'text/plain')
        .send(body);
    const refused = await send();
    expect(refused.status).toBe(503);
    expect(refused.body.message).toMatch(/unavailable/);
    expect(embedded.document('Event', a.id)!.event_name).toBe((await live.document('Event', a.id))!.event_name);
    expect(embedded.document('Event', b.id)!.event_name).not.toBe('Half Applied B');
    failing = false;
    const accepted = await send();
    expect(accepted.text).toBe('{"success":true}\n{"success":true}');
    expect([embedded.document('Event', a.id)!.event_name, embedded.document('Event', b.id)!.event_name]).toEqual([
      'Half Applied A',
      'Half Applied B',
    ]);
  });
});

describe('a catalog change on the storefront', () => {
  it('takes a deleted event and a cancelled one off the layouts that showed them', async () => {
    const shownIds = async () => {
      const home = LayoutResponseSchema.parse((await request(app).get('/api/layout/home?lat=40.75&lng=-73.99')).body);
      return home.rows
        .flatMap((r) => (r.type === 'events' ? [...r.items, ...(r.tabs ?? []).flatMap((t) => t.items)] : []))
        .map((e) => String(e.id));
    };
    const [deleted, cancelled] = [...new Set(await shownIds())];
    expect(cancelled).toBeDefined();
    await client.collections('Event').documents(deleted!).delete();
    await client.collections<EventDocument>('Event').documents(cancelled!).update({ event_status: 'cancelled' });
    const after = await shownIds();
    expect(after).not.toContain(deleted);
    expect(after).not.toContain(cancelled);
    expect((await request(app).get(`/api/events/${deleted}`)).status).toBe(404);
  });

  it(
    'drops only the rows a change could touch: a renamed event in Los Angeles ' + "leaves New York's local rows cached",
    async () => {
      const ny = '/api/layout/home?lat=40.75&lng=-73.99';
      const la = '/api/layout/home?lat=34.05&lng=-118.24';
      await request(app).get(ny);
      const before = LayoutResponseSchema.parse((await request(app).get(la)).body);
      const shown = before.rows.flatMap((r) => (r.type === 'events' ? r.items : []))[0]!;
      const stale: string[] = [];
      layout.onStaleRows((keys) => stale.push(...keys));
      await client
        .collections<EventDocument>('Event')
        .documents(String(shown.id))
        .update({ event_name: 'Pacific Lights Encore' });
      const at = (lat: string, lng: string) => stale.filter((key) => key.includes(`|${lat}|${lng}|`));
      expect(at('34.1', '-118.2').length).toBeGreaterThan(0);
      const nyRows = before.rows.length;
      expect(at('40.8', '-74').length).toBeLessThan(nyRows);
      const after = await request(app).get(la);
      expect(JSON.stringify(after.body)).toContain('Pacific Lights Encore');
    },
  );

  it('drops replayed suggestions when a collection they read changes', async () => {
    const ask = () => request(app).get('/api/suggest?q=velvet+thunder');
    expect(JSON.stringify((await ask()).body)).not.toContain('Velvet Thunder');
    const performer = fixture.catalog.collections.Performer[1]!;
    await client
      .collections<PerformerDocument>('Performer')
      .documents(performer.id)
      .update({ performer_name: 'Velvet Thunder' });
    expect(JSON.stringify((await ask()).body)).toContain('Velvet Thunder');
  });

  it('survives a restart: the log applied again over the catalog files gives the same documents', async () => {
    const restarted = await openLive();
    expect(await restarted.live.sync()).toBeGreaterThan(0);
    for (const id of ['9900001', '9900003', events()[2]!.id, events()[0]!.id]) {
      expect(restarted.embedded.document('Event', id), id).toEqual(await live.document('Event', id));
    }
    expect(restarted.embedded.document('Event', '9900020')).toBeUndefined();
    // Applying it again changes nothing.
    expect(await restarted.live.sync()).toBe(0);
  });

  it(
    'folds the applied changes into the engine snapshot: the next start opens ' +
      'them with it and applies only what came after',
    async () => {
      const dir = path.join(fixture.dir, 'catalog');
      const logName = await new ChangeLog(sql).identity();
      const env = parseEnv({ NODE_ENV: 'test' });
      const first = await openCatalog(env, dir, { changeLog: logName });
      const search = new SearchService();
      search.set(first.engine, first.writable);
      const starting = new LiveCatalog({
        log: new ChangeLog(sql),
        engine: () => search.catalog,
        onApplied: () => {},
        logger: pino({ level: 'silent' }),
      });
      starting.attach(first.manifest.generatedAt, first.folded?.through ?? 0);
      expect(await starting.sync()).toBeGreaterThan(0);
      await first.fold!({ log: logName, through: starting.appliedThrough });

      const second = await openCatalog(env, dir, { changeLog: logName });
      expect(second.embedded?.from).toBe('snapshot');
      expect(second.folded).toEqual({ log: logName, through: starting.appliedThrough });
      expect((await second.writable!.documents('Event', ['9900001'])).get('9900001')).toEqual(
        await live.document('Event', '9900001'),
      );
      const again = new LiveCatalog({
        log: new ChangeLog(sql),
        engine: () => second.writable!,
        onApplied: () => {},
        logger: pino({ level: 'silent' }),
      });
      again.attach(second.manifest.generatedAt, second.folded!.through);
      expect(await again.sync()).toBe(0);

      // A store with another log (reset, replaced) cannot use those folded changes: the files are read again.
      const other = await openCatalog(env, dir, { changeLog: 'another-log' });
      expect(other.embedded?.from).toBe('files');
      expect((await other.writable!.documents('Event', ['9900001'])).size).toBe(0);
    },
    60_000,
  );

  it(
    'leaves the changes made over other catalog files out: a catalog ' +
      'generated or imported anew starts from its files',
    async () => {
      const other = await openLive();
      other.live.attach('2030-01-01T00:00:00.000Z');
      expect(await other.live.sync()).toBe(0);
      expect(other.embedded.document('Event', '9900001')).toBeUndefined();
    },
  );
});
