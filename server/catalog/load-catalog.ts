import {
  COLLECTION_NAMES,
  COLLECTION_SCHEMAS,
  type CollectionDocuments,
  type CollectionName,
} from '../../schemas/documents.js';
import { readJsonl } from './jsonl.js';
import { collectionFile, readManifest, type CatalogManifest } from './manifest.js';

export type CatalogCollections = { [C in CollectionName]: CollectionDocuments[C][] };

export interface Catalog {
  manifest: CatalogManifest;
  collections: CatalogCollections;
}

/** Reads and re-validates every collection of the catalog in `dir`; fails naming the file and line. */
export async function loadCatalog(dir: string): Promise<Catalog> {
  const manifest = await readManifest(dir);
  if (!manifest) throw new Error(`no catalog in ${dir}: run \`npm run catalog\` first`);
  const collections = {} as Record<CollectionName, unknown[]>;
  for (const name of COLLECTION_NAMES) {
    const docs: unknown[] = [];
    for await (const doc of readJsonl(collectionFile(dir, name), COLLECTION_SCHEMAS[name])) docs.push(doc);
    if (docs.length !== manifest.counts[name]) {
      throw new Error(`${collectionFile(dir, name)} holds ${docs.length} documents, the manifest says ${manifest.counts[name]}`);
    }
    collections[name] = docs;
  }
  return { manifest, collections: collections as CatalogCollections };
}
