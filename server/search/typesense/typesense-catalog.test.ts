import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { Client } from 'typesense';
import { afterAll, describe, expect, it } from 'vitest';
import { COLLECTION_NAMES, type EventDocument } from '../../../shared/schemas/documents.js';
import { ChangeLog } from '../../live-catalog/change-log.js';
import { LiveCatalog } from '../../live-catalog/live-catalog.js';
import { CATALOG_FORMAT_VERSION, collectionFile, MANIFEST_FILE } from '../../catalog/manifest.js';
import { parseEnv } from '../../config/env.js';
import { catalogFixture } from '../../test/catalog-fixture.js';
import { testAppWithSegments } from '../../test/test-app.js';
import { CachedEngine } from '../cached-engine.js';
import type { CatalogDocument } from '../search-engine.js';
import { SearchService } from '../search-service.js';
import { aliasName } from './collections.js';
import { clientOptions, parseTypesenseConfig } from '../../config/typesense.js';
import { reindexCatalog } from './reindex.js';
import { TypesenseCatalog, type TypesenseWriteClient } from './typesense-catalog.js';
import { TypesenseEngine } from './typesense-engine.js';
import { openMigratedPglite } from '../../store/test-stores.js';

/** A fake Typesense: documents per collection, aliases, and every call in order. */
function fakeTypesense(aliases: Record<string, string>, refuse?: string) {
  const stored = new Map<string, Map<string, CatalogDocument>>();
  const calls: string[] = [];
  const ids = (filter: string) => [...filter.matchAll(/`([^`]*)`/g)].map((m) => m[1]!);
  const client: TypesenseWriteClient = {
    collections: (name) => ({
      documents: () => ({
        search: async (params) => {
          calls.push(`search ${name} ${params.filter_by}`);
          const target = aliases[name] ?? name;
          const hits = ids(String(params.filter_by)).flatMap((id) => {
            const doc = stored.get(target)?.get(id);
            return doc ? [{ document: doc }] : [];
          });
          return { hits, found: hits.length } as never;
        },
        import: async (jsonl) => {
          const docs = jsonl.split('\n').map((l) => JSON.parse(l) as CatalogDocument);
          calls.push(`import ${name} ${docs.map((d) => d.id).join(',')}`);
          if (!stored.has(name)) stored.set(name, new Map());
          return docs
            .map((d) =>
              d.id === refuse
                ? '{"success":false,"error":"Field `x` has an incorrect type."}'
                : (stored.get(name)!.set(d.id, d), '{"success":true}'),
            )
            .join('\n');
        },
        delete: async ({ filter_by }) => {
          calls.push(`delete ${name} ${filter_by}`);
          for (const id of ids(filter_by)) stored.get(name)?.delete(id);
          return {};
        },
      }),
    }),
    aliases: (name) => ({
      retrieve: async () => {
        calls.push(`alias ${name}`);
        return { collection_name: aliases[name]! };
      },
    }),
  };
  return { client, calls, stored };
}

const doc = (id: string, name: string) => ({ id, event_id: Number(id), event_name: name });

describe('TypesenseCatalog', () => {
  it(
    'writes into the collection each alias points at, runs of upserts as one ' +
      'import and runs of deletes as one delete, in order',
    async () => {
      const ts = fakeTypesense({ p_Event: 'p_Event_v2', p_Venue: 'p_Venue_v2' });
      const catalog = new TypesenseCatalog(ts.client, 'p_');
      await catalog.apply([
        { collection: 'Event', id: '1', document: doc('1', 'A') },
        { collection: 'Event', id: '2', document: doc('2', 'B') },
        { collection: 'Event', id: '1', document: null },
        { collection: 'Venue', id: '7', document: { id: '7', venue_name: 'Hall' } },
      ]);
      expect(ts.calls).toEqual([
        'alias p_Event',
        'import p_Event_v2 1,2',
        'alias p_Event',
        'delete p_Event_v2 id:[`1`]',
        'alias p_Venue',
        'import p_Venue_v2 7',
      ]);
      expect(await catalog.documents('Event', ['1', '2', '3'])).toEqual(new Map([['2', doc('2', 'B')]]));
    },
  );

  it('fails the whole write when Typesense refuses a document, naming it', async () => {
    const ts = fakeTypesense({ Event: 'Event_v1' }, '2');
    await expect(
      new TypesenseCatalog(ts.client, '').apply([
        { collection: 'Event', id: '1', document: doc('1', 'A') },
        { collection: 'Event', id: '2', document: doc('2', 'B') },
      ]),
    ).rejects.toThrow(/refused id 2 in Event_v1: Field `x` has an incorrect type/);
  });

  it(
    'under the live catalog: a refused write answers 503 and is not logged; ' +
      'an accepted one is written by this node only',
    async () => {
      const sql = await openMigratedPglite();
      try {
        const ts = fakeTypesense({ Event: 'Event_v1' }, '13');
        const engine = new TypesenseCatalog(ts.client, '');
        const live = new LiveCatalog({
          log: new ChangeLog(sql),
          engine: () => engine,
          onApplied: () => {},
          logger: pino({ level: 'silent' }),
        });
        live.attach('catalog-a');
        const event = (id: string) => ({ ...fixtureEvent, id, event_id: Number(id) });
        await expect(live.write('Event', 'upsert', [{ text: '', value: event('13') }])).rejects.toMatchObject({
          status: 503,
          code: 'search_write_failed',
        });
        expect(await sql.query('SELECT doc_id FROM catalog_changes')).toEqual([]);
        const [ok] = await live.write('Event', 'upsert', [{ text: '', value: event('12') }]);
        expect(ok).toMatchObject({ ok: true, id: '12' });
        expect(ts.stored.get('Event_v1')?.get('12')).toMatchObject({ event_name: fixtureEvent.event_name });
        // Another node reads the log and only clears its caches: a shared engine is written once.
        const before = ts.calls.length;
        const seen: string[] = [];
        const other = new LiveCatalog({
          log: new ChangeLog(sql),
          engine: () => engine,
          onApplied: (changes) => void seen.push(...changes.map((c) => c.id)),
          logger: pino({ level: 'silent' }),
        });
        other.attach('catalog-a');
        expect(await other.sync()).toBe(1);
        // A node starting on a shared engine attaches at the log's end: the engine already holds every change.
        expect(await new ChangeLog(sql).lastSeq('catalog-a')).toBe(other.appliedThrough);
        expect(await new ChangeLog(sql).lastSeq('catalog-b')).toBe(0);
        expect(seen).toEqual(['12']);
        expect(ts.calls.slice(before)).toEqual([]);
      } finally {
        await sql.close();
      }
    },
  );
});

const fixtureEvent: EventDocument = {
  id: '12',
  event_id: 12,
  event_name: 'Written Through',
  event_status: 'scheduled',
  venue_id: 1,
  venue_name: 'Hall',
  venue_city: 'Town',
  venue_state: 'State',
  venue_state_province_short: 'ST',
  venue_country_short: 'US',
  venue_zip: '00001',
  venue_location: [40, -74],
  event_local_timestamp: '2030-01-01T20:00:00',
  venue_time_zone_offset: -5,
  event_timestamp: 1_893_546_000,
  event_orders_d1: 0,
  event_cart_d1: 0,
  event_mpv_d1: 0,
  event_orders_d7: 0,
  event_orders_t12: 0,
  tickets_available: 10,
  ticket_groups_available: 1,
  min_ticket_price: 50,
  major_category: 'CONCERTS',
  parent_category: 'Concerts',
  child_category: 'Rock',
  category: 'rock',
  performer_ids: [1],
  performer_names: ['Band'],
};

/**
 * Against a real Typesense when TYPESENSE_URL (and TYPESENSE_API_KEY) name one: the official client writes
 * through the storefront's documents API into Typesense, and a reindex keeps those writes.
 */
const config = parseTypesenseConfig({
  TYPESENSE_URL: process.env.TYPESENSE_URL,
  TYPESENSE_API_KEY: process.env.TYPESENSE_API_KEY,
});

describe.skipIf(!config)(
  'the documents API writing through to a real Typesense (set TYPESENSE_URL and TYPESENSE_API_KEY)',
  () => {
    const prefix = `writes_${process.pid}_${Date.now()}_`;
    const KEY = 'operator-key-0123456789';
    let cleanup: (() => Promise<void>) | undefined;

    afterAll(async () => {
      await cleanup?.();
    });

    it('imports through the official client into the aliased collections, and a reindex keeps the writes', async () => {
      const client = new Client(clientOptions(config!));
      const fixture = await catalogFixture(300, 9);
      const dir = await mkdtemp(path.join(tmpdir(), 'typesense-writes-'));
      const sql = await openMigratedPglite();
      cleanup = async () => {
        for (const name of COLLECTION_NAMES)
          await client
            .aliases(aliasName(prefix, name))
            .delete()
            .catch(() => undefined);
        for (const { name } of await client.collections().retrieve())
          if (name.startsWith(prefix)) await client.collections(name).delete();
        await sql.close();
        await rm(dir, { recursive: true, force: true });
        await fixture.cleanup();
      };
      for (const name of COLLECTION_NAMES)
        await writeFile(
          collectionFile(dir, name),
          fixture.catalog.collections[name].map((d) => `${JSON.stringify(d)}\n`).join(''),
        );
      const generatedAt = new Date().toISOString();
      await writeFile(
        path.join(dir, MANIFEST_FILE),
        JSON.stringify({
          version: CATALOG_FORMAT_VERSION,
          seed: 0,
          events: fixture.catalog.collections.Event.length,
          start: '2026-01-01',
          generatedAt,
          counts: Object.fromEntries(COLLECTION_NAMES.map((n) => [n, fixture.catalog.collections[n].length])),
        }),
      );
      await reindexCatalog({ client, catalogDir: dir, prefix, version: 1 });

      const engine = new TypesenseCatalog(client, prefix);
      const search = new SearchService();
      search.set(new CachedEngine(new TypesenseEngine({ ...config!, collectionPrefix: prefix }, client)), engine);
      const live = new LiveCatalog({
        log: new ChangeLog(sql),
        engine: () => search.catalog,
        onApplied: () => {},
        logger: pino({ level: 'silent' }),
      });
      live.attach(generatedAt);
      const { app } = await testAppWithSegments({
        env: parseEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent', CATALOG_ADMIN_KEY: KEY }),
        search,
        catalog: live,
        sql,
      });
      const server = createServer(app).listen(0, '127.0.0.1');
      await new Promise((resolve) => server.once('listening', resolve));
      try {
        const storefront = new Client({
          nodes: [
            { host: '127.0.0.1', port: (server.address() as AddressInfo).port, protocol: 'http', path: '/api/admin' },
          ],
          apiKey: KEY,
          numRetries: 0,
          logLevel: 'silent',
        });
        const [a, b] = fixture.catalog.collections.Event;
        const written = JSON.stringify({ ...a!, event_name: 'Typesense Written' });
        const updated = JSON.stringify({ id: b!.id, event_name: 'Typesense Updated' });
        const answer = await storefront
          .collections('Event')
          .documents()
          .import(`${written}\n${updated}`, { action: 'emplace' });
        expect(String(answer)).toBe('{"success":true}\n{"success":true}');
        expect(await client.collections(aliasName(prefix, 'Event')).documents(a!.id).retrieve()).toMatchObject({
          event_name: 'Typesense Written',
        });
        expect(await client.collections(aliasName(prefix, 'Event')).documents(b!.id).retrieve()).toMatchObject({
          event_name: 'Typesense Updated',
          venue_id: b!.venue_id,
        });
        await storefront.collections('Event').documents(b!.id).delete();

        // A reindex from the files replays the change log: the writes stay.
        await reindexCatalog({
          client,
          catalogDir: dir,
          prefix,
          version: 2,
          changes: new ChangeLog(sql).reindexChanges(),
        });
        expect((await client.aliases(aliasName(prefix, 'Event')).retrieve()).collection_name).toBe(`${prefix}Event_v2`);
        expect(await client.collections(aliasName(prefix, 'Event')).documents(a!.id).retrieve()).toMatchObject({
          event_name: 'Typesense Written',
        });
        await expect(client.collections(aliasName(prefix, 'Event')).documents(b!.id).retrieve()).rejects.toThrow();
      } finally {
        await new Promise((resolve) => server.close(resolve));
      }
    }, 120_000);
  },
);
