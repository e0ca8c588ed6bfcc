import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'typesense';
import { afterAll, describe, expect, it } from 'vitest';
import { COLLECTION_NAMES } from '../../../shared/schemas/documents.js';
import { CATALOG_FORMAT_VERSION, collectionFile, MANIFEST_FILE } from '../../catalog/manifest.js';
import { loadCatalog, type CatalogCollections } from '../../catalog/load-catalog.js';
import { contractCatalog } from '../contract/fixtures.js';
import { describeSearchContract } from '../contract/search-contract.js';
import { aliasName } from './collections.js';
import { clientOptions, parseTypesenseConfig } from '../../config/typesense.js';
import { reindexCatalog } from './reindex.js';
import { TypesenseEngine } from './typesense-engine.js';

/**
 * The search contract against a real Typesense server, when TYPESENSE_URL (and TYPESENSE_API_KEY) name one;
 * listed as skipped otherwise. It works in collections of a throwaway prefix and drops them afterwards, so it never
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

describe('the catalog the Typesense contract indexes', () => {
  it('is written as catalog files that load back as the contract catalog', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'typesense-contract-files-'));
    try {
      const catalog = contractCatalog();
      await writeCatalog(dir, catalog);
      expect((await loadCatalog(dir)).collections).toEqual(catalog);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

// Without a server every contract test is listed as skipped, so a run says what it did not check.
describe.skipIf(!config)('against a Typesense server (set TYPESENSE_URL and TYPESENSE_API_KEY)', () => {
  const prefix = `contract_${process.pid}_${Date.now()}_`;
  const client = config && new Client(clientOptions(config));
  let dir: string | undefined;

  describeSearchContract('typesense', async (catalog) => {
    dir = await mkdtemp(path.join(tmpdir(), 'typesense-contract-'));
    await writeCatalog(dir, catalog);
    await reindexCatalog({ client: client!, catalogDir: dir, prefix });
    return new TypesenseEngine({ ...config!, collectionPrefix: prefix }, client!);
  });

  afterAll(async () => {
    for (const name of COLLECTION_NAMES)
      await client!
        .aliases(aliasName(prefix, name))
        .delete()
        .catch(() => undefined);
    for (const { name } of await client!.collections().retrieve()) {
      if (name.startsWith(prefix)) await client!.collections(name).delete();
    }
    if (dir) await rm(dir, { recursive: true, force: true });
  });
});
