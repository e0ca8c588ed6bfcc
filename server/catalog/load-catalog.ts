import {
  COLLECTION_NAMES,
  COLLECTION_SCHEMAS,
  type CollectionDocuments,
  type CollectionName,
} from '../../shared/schemas/documents.js';
import { readJsonl } from './jsonl.js';
import { collectionFile, readManifest, type CatalogManifest } from './manifest.js';

export type CatalogCollections = { [C in CollectionName]: CollectionDocuments[C][] };

export interface Catalog {
  manifest: CatalogManifest;
  collections: CatalogCollections;
}

export interface LoadOptions {
  /** Hands each validated document over as it is read (to an index), instead of keeping it. */
  visit?: <C extends CollectionName>(name: C, doc: CollectionDocuments[C]) => void;
}

/**
 * Reads and re-validates the collections of the catalog in `dir`; fails naming the file and line. With
 * `visit`, documents stream through it, so a million events never sit in memory as objects.
 */
export async function loadCatalog(dir: string, options: LoadOptions = {}): Promise<Catalog> {
  const manifest = await readManifest(dir);
  if (!manifest) throw new Error(`no catalog in ${dir}: run \`npm run catalog\` first`);
  const collections = {} as Record<CollectionName, unknown[]>;
  for (const name of COLLECTION_NAMES) {
    const docs: unknown[] = [];
    collections[name] = docs;
    let count = 0;
    for await (const doc of readJsonl(collectionFile(dir, name), COLLECTION_SCHEMAS[name])) {
      count++;
      options.visit?.(name, doc as CollectionDocuments[typeof name]);
      if (!options.visit) docs.push(doc);
    }
    if (count !== manifest.counts[name]) {
      throw new Error(
        `${collectionFile(dir, name)} holds ${count} documents, the manifest says ${manifest.counts[name]}`,
      );
    }
  }
  return { manifest, collections: collections as CatalogCollections };
}
