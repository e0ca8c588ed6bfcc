import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'typesense';
import { afterAll, describe, it } from 'vitest';
import { COLLECTION_NAMES } from '../../../shared/schemas/documents.js';
import { CATALOG_FORMAT_VERSION, collectionFile, MANIFEST_FILE } from '../../catalog/manifest.js';
import type { CatalogCollections } from '../../catalog/load-catalog.js';
import { describeSearchContract } from '../contract/search-contract.js';
import { aliasName } from './collections.js';
import { clientOptions, parseTypesenseConfig } from '../../config/typesense.js';
import { reindexCatalog } from './reindex.js';
import { TypesenseEngine } from './typesense-engine.js';

/**
 * The search contract against a real Typesense server, when TYPESENSE_URL (and TYPESENSE_API_KEY) name one;
 * skipped otherwise. It works in collections of a throwaway prefix and drops them afterwards, so it never
 * touches the storefront's own aliases.
 */
const config = parseTypesenseConfig({
  TYPESENSE_URL: process.env.TYPESENSE_URL,
  TYPESENSE_API_KEY: process.env.TYPESENSE_API_KEY,
});

async function writeCatalog(dir: string, catalog: CatalogCollections): Promise<void> {
  for (const name of COLLECTION_NAMES) {
    await writeFile(collectionFile(dir, name), catalog[name].map((doc) => `${JSON.stringify(doc)}\n`).join(''));
  }
  const manifest = {
    version: CATALOG_FORMAT_VERSION,
    seed: 0,
    events: Math.max(1, catalog.Event.length),
    start: '2026-01-01',
    generatedAt: new Date().toISOString(),
    counts: Object.fromEntries(COLLECTION_NAMES.map((name) => [name, catalog[name].length])),
  };
  await writeFile(path.join(dir, MANIFEST_FILE), JSON.stringify(manifest));
}

if (config) {
  const prefix = `contract_${process.pid}_${Date.now()}_`;
  const client = new Client(clientOptions(config));
  let dir: string | undefined;

  describeSearchContract('typesense', async (catalog) => {
    dir = await mkdtemp(path.join(tmpdir(), 'typesense-contract-'));
    await writeCatalog(dir, catalog);
    await reindexCatalog({ client, catalogDir: dir, prefix });
    return new TypesenseEngine({ ...config, collectionPrefix: prefix }, client);
  });

  afterAll(async () => {
    for (const name of COLLECTION_NAMES)
      await client
        .aliases(aliasName(prefix, name))
        .delete()
        .catch(() => undefined);
    for (const { name } of await client.collections().retrieve()) {
      if (name.startsWith(prefix)) await client.collections(name).delete();
    }
    if (dir) await rm(dir, { recursive: true, force: true });
  });
} else {
  describe.skip('search contract: typesense (set TYPESENSE_URL and TYPESENSE_API_KEY to run)', () => {
    it('runs against a Typesense server', () => {});
  });
}
