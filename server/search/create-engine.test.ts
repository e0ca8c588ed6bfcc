import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCatalog } from '../catalog/generate/generate-catalog.js';
import { parseEnv } from '../config/env.js';
import { freePort } from '../test/postgres.js';
import { COLLECTION_NAMES } from '../../shared/schemas/documents.js';
import { loadCatalog } from '../catalog/load-catalog.js';
import { openCatalog, SearchStartError, SNAPSHOT_FILE } from './create-engine.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'open-catalog-'));
  await generateCatalog({ events: 300, seed: 5, start: '2026-11-21', outDir: dir });
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('openCatalog', () => {
  it(
    'streams every collection into the embedded engine; then opens its ' +
      'snapshot, until the files or the snapshot change',
    async () => {
      const env = parseEnv({});
      await rm(path.join(dir, SNAPSHOT_FILE), { force: true });
      const built = await openCatalog(env, dir);
      expect(built.embedded).toMatchObject({ from: 'files', note: expect.stringContaining('saved') });
      const opened = await openCatalog(env, dir);
      expect(opened.embedded?.from).toBe('snapshot');
      expect(opened.manifest).toEqual(built.manifest);

      // Both hold every document of every collection as the files do, in file order.
      const files = await loadCatalog(dir);
      for (const name of COLLECTION_NAMES) {
        const want = files.collections[name];
        expect(want.length).toBe(files.manifest.counts[name]);
        for (const { engine } of [built, opened]) {
          const got = await engine.search({ collection: name, perPage: 250 });
          expect(got.found, name).toBe(want.length);
          expect(
            got.hits.map((h) => h.document),
            name,
          ).toEqual(want.slice(0, 250));
        }
      }

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
      expect(reread.embedded).toMatchObject({
        from: 'files',
        note: expect.stringMatching(/another catalog or engine.*saved/),
      });
      expect((await openCatalog(env, dir)).embedded?.from).toBe('snapshot');
    },
  );

  it('blames search, not the catalog, when Typesense cannot be reached', async () => {
    const port = await freePort();
    const env = parseEnv({ TYPESENSE_URL: `http://127.0.0.1:${port}`, TYPESENSE_API_KEY: 'test-key' });
    await expect(openCatalog(env, dir)).rejects.toBeInstanceOf(SearchStartError);
  });
});
