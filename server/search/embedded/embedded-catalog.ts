import type { CollectionName } from '../../../shared/schemas/documents.js';
import type { CatalogDocument, CatalogEngine, DocumentChange } from '../search-engine.js';
import type { EmbeddedEngine } from './embedded-engine.js';

/** The embedded engine as the catalog's write port: each node's own, written by each node. */
export class EmbeddedCatalog implements CatalogEngine {
  readonly shared = false;

  constructor(readonly engine: EmbeddedEngine) {}

  async documents(collection: CollectionName, ids: readonly string[]): Promise<Map<string, CatalogDocument>> {
    const found = new Map<string, CatalogDocument>();
    for (const id of ids) {
      const doc = this.engine.document(collection, id) as CatalogDocument | undefined;
      if (doc) found.set(id, doc);
    }
    return found;
  }

  async apply(changes: readonly DocumentChange[]): Promise<void> {
    for (const change of changes) {
      if (change.document) this.engine.upsert(change.collection, change.document as never);
      else this.engine.delete(change.collection, change.id);
    }
  }
}
