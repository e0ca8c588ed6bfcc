import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { CollectionCreateSchema } from 'typesense';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { COLLECTION_NAMES, type CollectionName } from '../../../shared/schemas/documents.js';
import { CATALOG_FORMAT_VERSION, collectionFile, MANIFEST_FILE } from '../../catalog/manifest.js';
import {
  importFailures,
  reindexCatalog,
  ReindexError,
  type LoggedChange,
  type ReindexChanges,
  type ReindexClient,
} from './reindex.js';

const VERSION = 1_800_000_000_000;
const notFound = () => Object.assign(new Error('Not Found'), { httpStatus: 404 });

interface FakeOptions {
  /** Existing collections and aliases before the run. */
  collections?: string[];
  aliases?: Record<string, string>;
  /** Answer for an import: by default one success line per document. */
  importAnswer?: (collection: string, lines: string[]) => unknown;
  failUpsertOf?: string;
  failDeleteOf?: string;
}

/** A fake Typesense recording every call in order, with just enough state for collections and aliases. */
function fakeTypesense(options: FakeOptions = {}) {
  const collections = new Set(options.collections ?? []);
  const aliases = new Map(Object.entries(options.aliases ?? {}));
  const calls: string[] = [];
  const batches: { collection: string; lines: string[]; action: unknown }[] = [];
  const schemas: CollectionCreateSchema[] = [];

  function collectionsApi(name?: string) {
    return {
      create: async (schema: CollectionCreateSchema) => {
        calls.push(`create ${schema.name}`);
        schemas.push(schema);
        collections.add(schema.name);
        return schema;
      },
      retrieve: async () => [...collections].map((n) => ({ name: n })),
      delete: async () => {
        calls.push(`delete ${name}`);
        if (name === options.failDeleteOf) throw new Error('delete refused');
        collections.delete(name!);
        return {};
      },
      documents: () => ({
        import: async (jsonl: string, params: { action?: unknown }) => {
          const lines = jsonl.split('\n');
          calls.push(`import ${name} ${lines.length}`);
          batches.push({ collection: name!, lines, action: params.action });
          return options.importAnswer
            ? options.importAnswer(name!, lines)
            : lines.map(() => JSON.stringify({ success: true })).join('\n');
        },
        delete: async ({ filter_by }: { filter_by: string }) => {
          calls.push(`delete in ${name} ${filter_by}`);
          return { num_deleted: 1 };
        },
      }),
    };
  }
  function aliasesApi(name?: string) {
    return {
      upsert: async (alias: string, mapping: { collection_name: string }) => {
        calls.push(`alias ${alias} -> ${mapping.collection_name}`);
        if (alias === options.failUpsertOf && mapping.collection_name.includes(String(VERSION)))
          throw new Error('upsert refused');
        aliases.set(alias, mapping.collection_name);
        return { name: alias, ...mapping };
      },
      retrieve: async () => {
        const target = aliases.get(name!);
        if (!target) throw notFound();
        return { name: name!, collection_name: target };
      },
      delete: async () => {
        calls.push(`unalias ${name}`);
        aliases.delete(name!);
        return {};
      },
    };
  }
  const client = { collections: collectionsApi, aliases: aliasesApi } as ReindexClient;
  return { client, calls, batches, schemas, collections, aliases };
}

let dir: string;

async function writeCatalog(
  docs: Partial<Record<CollectionName, string[]>>,
  counts: Partial<Record<CollectionName, number>> = {},
) {
  for (const name of COLLECTION_NAMES)
    await writeFile(collectionFile(dir, name), (docs[name] ?? []).map((l) => `${l}\n`).join(''));
  const manifest = {
    version: CATALOG_FORMAT_VERSION,
    seed: 1,
    events: 100,
    start: '2026-01-01',
    generatedAt: '2026-01-01T00:00:00.000Z',
    counts: Object.fromEntries(
      COLLECTION_NAMES.map((n) => [n, counts[n] ?? (docs[n] ?? []).filter((l) => l.trim() !== '').length]),
    ),
  };
  await writeFile(path.join(dir, MANIFEST_FILE), JSON.stringify(manifest));
}

const events = (n: number) =>
  Array.from({ length: n }, (_, i) => JSON.stringify({ id: String(i + 1), event_id: i + 1 }));

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'reindex-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('reindexCatalog', () => {
  it('imports each collection in batches with action create, then moves every alias', async () => {
    await writeCatalog({ Event: events(5), Venue: events(1) });
    const ts = fakeTypesense();
    const log: string[] = [];
    const report = await reindexCatalog({
      client: ts.client,
      catalogDir: dir,
      batchSize: 2,
      version: VERSION,
      log: (l) => log.push(l),
    });

    expect(ts.batches.filter((b) => b.collection === `Event_v${VERSION}`).map((b) => b.lines.length)).toEqual([
      2, 2, 1,
    ]);
    expect(ts.batches.every((b) => b.action === 'create')).toBe(true);
    expect(ts.batches.flatMap((b) => (b.collection === `Event_v${VERSION}` ? b.lines : []))).toEqual(events(5));
    expect(ts.schemas.map((s) => s.name)).toEqual(COLLECTION_NAMES.map((n) => `${n}_v${VERSION}`));
    expect(ts.schemas.find((s) => s.name === `Performer_v${VERSION}`)?.enable_nested_fields).toBe(true);

    const firstAlias = ts.calls.findIndex((c) => c.startsWith('alias '));
    const lastImport = ts.calls.findLastIndex((c) => c.startsWith('import ') || c.startsWith('create '));
    expect(firstAlias).toBeGreaterThan(lastImport);
    expect(ts.calls.filter((c) => c.startsWith('alias '))).toEqual(
      COLLECTION_NAMES.map((n) => `alias ${n} -> ${n}_v${VERSION}`),
    );

    expect(report.find((r) => r.collection === 'Event')).toEqual({
      collection: 'Event',
      alias: 'Event',
      target: `Event_v${VERSION}`,
      previous: null,
      documents: 5,
      deleted: [],
    });
    expect(log).toContain('Event: 4 documents imported');
    expect(log).toContain(`Event: alias Event → Event_v${VERSION}`);
  });

  it('skips blank lines and imports nothing for an empty collection', async () => {
    await writeCatalog({ Event: [events(1)[0]!, '', '  ', events(2)[1]!] });
    const ts = fakeTypesense();
    const report = await reindexCatalog({ client: ts.client, catalogDir: dir, version: VERSION });
    expect(ts.batches).toEqual([{ collection: `Event_v${VERSION}`, lines: events(2), action: 'create' }]);
    expect(report.find((r) => r.collection === 'TSImage')?.documents).toBe(0);
  });

  it('uses the prefix for collections and aliases, and deletes all but the new and the replaced version', async () => {
    await writeCatalog({ Event: events(1) });
    const ts = fakeTypesense({
      collections: [
        'shop_Event_v100',
        'shop_Event_v200',
        'shop_Event_v50',
        'shop_Event',
        'shop_ZipEvent_v100',
        'Event_v100',
        'shop_Event_v100_backup',
      ],
      aliases: { shop_Event: 'shop_Event_v200' },
    });
    const report = await reindexCatalog({ client: ts.client, catalogDir: dir, prefix: 'shop_', version: VERSION });
    const event = report.find((r) => r.collection === 'Event')!;
    expect(event).toMatchObject({ alias: 'shop_Event', target: `shop_Event_v${VERSION}`, previous: 'shop_Event_v200' });
    expect(event.deleted.sort()).toEqual(['shop_Event_v100', 'shop_Event_v50']);
    expect([...ts.collections]).toEqual(
      expect.arrayContaining([
        'shop_Event_v200',
        `shop_Event_v${VERSION}`,
        'shop_Event',
        'Event_v100',
        'shop_Event_v100_backup',
      ]),
    );
    expect(report.find((r) => r.collection === 'ZipEvent')?.deleted).toEqual(['shop_ZipEvent_v100']);
    expect(ts.aliases.get('shop_Event')).toBe(`shop_Event_v${VERSION}`);
    const swap = ts.calls.indexOf(`alias shop_Event -> shop_Event_v${VERSION}`);
    expect(ts.calls.indexOf('delete shop_Event_v100')).toBeGreaterThan(swap);
  });

  it('leaves every alias in place and deletes what it created when a document fails', async () => {
    await writeCatalog({ Venue: events(2), Event: events(3) });
    const ts = fakeTypesense({
      collections: ['Event_v1', 'Venue_v1'],
      aliases: { Event: 'Event_v1', Venue: 'Venue_v1' },
      importAnswer: (collection, lines) =>
        lines
          .map((_, i) =>
            JSON.stringify(
              collection.startsWith('Event') && i === 1
                ? {
                    success: false,
                    error: 'Field `event_name` has been declared in the schema, but is not found in the document.',
                    code: 400,
                  }
                : { success: true },
            ),
          )
          .join('\n'),
    });
    const error = await reindexCatalog({ client: ts.client, catalogDir: dir, version: VERSION }).catch(
      (err: unknown) => err,
    );
    expect(error).toBeInstanceOf(ReindexError);
    expect((error as ReindexError).message).toMatch(
      /1 of 3 documents of .*Event\.jsonl failed to import into Event_v1800000000000: line 2: Field `event_name`/,
    );
    expect((error as ReindexError).failures).toEqual([{ line: 2, error: expect.stringContaining('event_name') }]);
    expect(ts.calls.some((c) => c.startsWith('alias '))).toBe(false);
    expect(Object.fromEntries(ts.aliases)).toEqual({ Event: 'Event_v1', Venue: 'Venue_v1' });
    expect([...ts.collections].sort()).toEqual(['Event_v1', 'Venue_v1']);
    expect(ts.calls).toContain(`delete Venue_v${VERSION}`);
  });

  it('fails when Typesense answers for fewer documents than were sent', async () => {
    await writeCatalog({ Event: events(3) });
    const ts = fakeTypesense({
      importAnswer: () => `${JSON.stringify({ success: true })}\n${JSON.stringify({ success: true })}`,
    });
    await expect(reindexCatalog({ client: ts.client, catalogDir: dir, version: VERSION })).rejects.toThrow(
      /line 3: no answer from Typesense/,
    );
    expect(ts.calls.some((c) => c.startsWith('alias '))).toBe(false);
  });

  it('fails when the file holds a different number of documents than the manifest', async () => {
    await writeCatalog({ Event: events(3) }, { Event: 4 });
    const ts = fakeTypesense();
    await expect(reindexCatalog({ client: ts.client, catalogDir: dir, version: VERSION })).rejects.toThrow(
      /imported 3 documents .* the manifest says 4/,
    );
    expect(ts.calls.some((c) => c.startsWith('alias '))).toBe(false);
  });

  it('puts the aliases it already moved back when a later alias cannot move', async () => {
    await writeCatalog({ Event: events(1) });
    const ts = fakeTypesense({
      aliases: { Performer: 'Performer_v1', Venue: 'Venue_v1' },
      collections: ['Performer_v1', 'Venue_v1'],
      failUpsertOf: 'Event',
    });
    await expect(reindexCatalog({ client: ts.client, catalogDir: dir, version: VERSION })).rejects.toThrow(
      /upsert refused/,
    );
    expect(Object.fromEntries(ts.aliases)).toEqual({ Performer: 'Performer_v1', Venue: 'Venue_v1' });
    expect([...ts.collections].sort()).toEqual(['Performer_v1', 'Venue_v1']);
  });

  it('reports an old version it cannot delete without failing the run', async () => {
    await writeCatalog({});
    const ts = fakeTypesense({
      collections: ['Event_v1', 'Event_v2'],
      aliases: { Event: 'Event_v2' },
      failDeleteOf: 'Event_v1',
    });
    const log: string[] = [];
    const report = await reindexCatalog({
      client: ts.client,
      catalogDir: dir,
      version: VERSION,
      log: (l) => log.push(l),
    });
    expect(report.find((r) => r.collection === 'Event')?.deleted).toEqual([]);
    expect(log).toContain('Event: could not delete old version Event_v1: delete refused');
    expect(ts.aliases.get('Event')).toBe(`Event_v${VERSION}`);
  });

  it(
    'replays the change log into the new collections, the last of it with ' + 'writes held, before the aliases move',
    async () => {
      await writeCatalog({ Event: events(3) });
      const ts = fakeTypesense();
      const doc = (id: number, name: string) => ({ id: String(id), event_id: id, event_name: name });
      const log: LoggedChange[] = [
        { seq: 1, collection: 'Event', id: '1', document: doc(1, 'Renamed') },
        { seq: 2, collection: 'Event', id: '2', document: null },
      ];
      const asked: string[] = [];
      const read = (catalog: string, seq: number) => {
        asked.push(catalog);
        return Promise.resolve(log.filter((c) => c.seq > seq));
      };
      const changes: ReindexChanges = {
        after: async (catalog, seq) => {
          const found = await read(catalog, seq);
          // A write commits just as the first replay finds nothing more: the replay under the lock must pick it up.
          if (found.length === 0 && log.length === 2)
            log.push({ seq: 3, collection: 'Event', id: '3', document: doc(3, 'Written meanwhile') });
          return found;
        },
        exclusive: async (catalog, fn) => {
          ts.calls.push('writes held');
          const result = await fn((seq) => read(catalog, seq));
          ts.calls.push('writes let go');
          return result;
        },
      };
      await reindexCatalog({ client: ts.client, catalogDir: dir, version: VERSION, changes });
      const target = `Event_v${VERSION}`;
      const from = ts.calls.indexOf(`import ${target} 1`);
      expect(ts.calls.slice(from, from + 3)).toEqual([
        `import ${target} 1`,
        `delete in ${target} id:[\`2\`]`,
        'writes held',
      ]);
      const held = ts.calls.indexOf('writes held');
      expect(ts.calls[held + 1]).toBe(`import ${target} 1`);
      expect(ts.calls.slice(held + 2, held + 2 + COLLECTION_NAMES.length).every((c) => c.startsWith('alias '))).toBe(
        true,
      );
      expect(ts.calls[held + 2 + COLLECTION_NAMES.length]).toBe('writes let go');
      expect(
        ts.batches
          .filter((b) => b.collection === target && b.action === 'upsert')
          .map((b) => JSON.parse(b.lines[0]!).event_name),
      ).toEqual(['Renamed', 'Written meanwhile']);
      expect(new Set(asked)).toEqual(new Set(['2026-01-01T00:00:00.000Z']));
    },
  );

  it('refuses to run without a catalog, or with a bad prefix or batch size, before touching Typesense', async () => {
    const ts = fakeTypesense();
    await expect(reindexCatalog({ client: ts.client, catalogDir: dir })).rejects.toThrow(/no catalog in/);
    await writeCatalog({});
    await expect(reindexCatalog({ client: ts.client, catalogDir: dir, prefix: 'a/b' })).rejects.toThrow(/prefix/);
    await expect(reindexCatalog({ client: ts.client, catalogDir: dir, batchSize: 0 })).rejects.toThrow(/batch size/);
    expect(ts.calls).toEqual([]);
  });
});

describe('importFailures', () => {
  it('reads JSON Lines, arrays and a single parsed object', () => {
    expect(importFailures('{"success":true}\n{"success":false,"error":"bad"}', [3, 4])).toEqual([
      { line: 4, error: 'bad' },
    ]);
    expect(importFailures([{ success: true }, { success: false, error: 'x' }], [1, 2])).toEqual([
      { line: 2, error: 'x' },
    ]);
    expect(importFailures({ success: true }, [9])).toEqual([]);
    expect(importFailures('not json', [1])).toEqual([{ line: 1, error: 'unreadable answer: not json' }]);
  });
});
