import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCatalog } from '../catalog/generate/generate-catalog.js';
import { parseEnv } from '../config/env.js';
import { freePort } from '../test/processes.js';
import { openCatalog, SearchStartError } from './create-engine.js';

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

  it('blames search, not the catalog, when Typesense cannot be reached', async () => {
    const port = await freePort();
    const env = parseEnv({ TYPESENSE_URL: `http://127.0.0.1:${port}`, TYPESENSE_API_KEY: 'test-key' });
    await expect(openCatalog(env, dir)).rejects.toBeInstanceOf(SearchStartError);
  });
});
