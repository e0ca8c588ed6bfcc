import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCatalog } from '../catalog/generate/generate-catalog.js';
import { parseEnv } from '../config/env.js';
import { freePort } from '../test/processes.js';
import { loadCatalog } from '../catalog/load-catalog.js';
import { openCatalog, SearchStartError, SNAPSHOT_FILE } from './create-engine.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'open-catalog-'));
  await generateCatalog({ events: 300, seed: 5, start: '2026-11-21', outDir: dir });
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('openCatalog', () => {
  it('streams every collection into the embedded engine and keeps only performers and venues as objects', async () => {
    const { catalog, engine } = await openCatalog(parseEnv({}), dir);
    expect(catalog.collections.Event).toEqual([]);
    expect(catalog.collections.Venue.length).toBe(catalog.manifest.counts.Venue);
    expect(catalog.collections.Performer.length).toBe(catalog.manifest.counts.Performer);
    const events = await engine.search({ collection: 'Event', perPage: 0 });
    expect(events.found).toBe(catalog.manifest.counts.Event);
  });

  it('opens its snapshot on the next start, and builds from the files again when they or the snapshot change', async () => {
    const env = parseEnv({});
    await rm(path.join(dir, SNAPSHOT_FILE), { force: true });
    const built = await openCatalog(env, dir);
    expect(built.embedded).toMatchObject({ from: 'files', note: expect.stringContaining('saved') });

    const opened = await openCatalog(env, dir);
    expect(opened.embedded?.from).toBe('snapshot');
    // The catalog store gets the same performers and venues as from the files.
    const files = await loadCatalog(dir, { read: ['Performer', 'Venue'] });
    expect(opened.catalog.collections.Performer).toEqual(files.collections.Performer);
    expect(opened.catalog.collections.Venue).toEqual(files.collections.Venue);
    expect(opened.catalog.manifest).toEqual(files.manifest);
    const request = { collection: 'Event' as const, q: '*', perPage: 50, sort: [{ by: 'event_timestamp', order: 'asc' as const }] };
    expect(await opened.engine.search(request)).toMatchObject({ found: (await built.engine.search(request)).found, hits: (await built.engine.search(request)).hits });

    // A damaged snapshot is rebuilt from the files and saved anew.
    const snapshot = path.join(dir, SNAPSHOT_FILE);
    const bytes = await readFile(snapshot);
    bytes[bytes.length - 1]! ^= 1;
    await writeFile(snapshot, bytes);
    const repaired = await openCatalog(env, dir);
    expect(repaired.embedded).toMatchObject({ from: 'files', note: expect.stringMatching(/checksum.*saved/) });
    expect((await openCatalog(env, dir)).embedded?.from).toBe('snapshot');

    // A changed collection file makes the snapshot stale: the files are read (and validated) again.
    await appendFile(path.join(dir, 'Banner.jsonl'), '\n');
    const reread = await openCatalog(env, dir);
    expect(reread.embedded).toMatchObject({ from: 'files', note: expect.stringMatching(/another catalog or engine.*saved/) });
    expect((await openCatalog(env, dir)).embedded?.from).toBe('snapshot');
  });

  it('blames search, not the catalog, when Typesense cannot be reached', async () => {
    const port = await freePort();
    const env = parseEnv({ TYPESENSE_URL: `http://127.0.0.1:${port}`, TYPESENSE_API_KEY: 'test-key' });
    await expect(openCatalog(env, dir)).rejects.toBeInstanceOf(SearchStartError);
  });
});
