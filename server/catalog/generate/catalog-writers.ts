import { COLLECTION_SCHEMAS, type CollectionName } from '../../../shared/schemas/documents.js';
import { JsonlWriter } from '../jsonl.js';
import { collectionFile } from '../manifest.js';

/** One JSON Lines writer per collection of the catalog. */
export type CatalogWriters = { [C in CollectionName]: JsonlWriter<(typeof COLLECTION_SCHEMAS)[C]> };

/** Opens a writer for every collection in `dir`. */
export function openCatalogWriters(dir: string): CatalogWriters {
  return Object.fromEntries(
    (Object.keys(COLLECTION_SCHEMAS) as CollectionName[]).map((c) => [
      c,
      new JsonlWriter(collectionFile(dir, c), COLLECTION_SCHEMAS[c], c),
    ]),
  ) as CatalogWriters;
}
