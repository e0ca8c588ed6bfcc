import type { DocumentImportParameters, SearchParams, SearchResponse } from 'typesense';
import type { CollectionName } from '../../../shared/schemas/documents.js';
import type { CatalogDocument, CatalogEngine, DocumentChange } from '../search-engine.js';
import { aliasName } from './collections.js';
import { quoteString } from './compile.js';

/** What writing documents into collections needs of the `typesense` Client. */
export interface DocumentWriter {
  collections(name: string): {
    documents(): {
      import(jsonl: string, options: DocumentImportParameters): Promise<unknown>;
      delete(options: { filter_by: string }): Promise<unknown>;
    };
  };
}

/** The part of the `typesense` Client the catalog reads and writes with; tests pass a fake of this shape. */
export interface TypesenseWriteClient {
  collections(name: string): {
    documents(): {
      search(params: SearchParams<CatalogDocument>): Promise<SearchResponse<CatalogDocument>>;
      import(jsonl: string, options: DocumentImportParameters): Promise<unknown>;
      delete(options: { filter_by: string }): Promise<unknown>;
    };
  };
  aliases(name: string): { retrieve(): Promise<{ collection_name: string }> };
}

/** Ids per lookup or delete: a filter of a hundred quoted ids stays well inside Typesense's limits. */
const IDS_PER_REQUEST = 100;

/** A change Typesense refused: the whole write fails, so the change log does not keep it. */
export class TypesenseWriteError extends Error {}

/**
 * Typesense as the catalog's write port. Documents are read through each collection's alias and written into
 * the collection the alias points at when the write happens (whole documents, `action=upsert`, since the live
 * catalog has already merged updates; deletes by id). Every node reads the same Typesense: it is `shared`, so
 * only the node taking a write applies it. A reindex moves the aliases; it replays the change log into the new
 * collections under the writers' lock before it does (`reindex.ts`), so no write is lost between the two.
 */
export class TypesenseCatalog implements CatalogEngine {
  readonly shared = true;

  constructor(
    private readonly client: TypesenseWriteClient,
    private readonly prefix: string,
  ) {}

  async documents(collection: CollectionName, ids: readonly string[]): Promise<Map<string, CatalogDocument>> {
    const found = new Map<string, CatalogDocument>();
    const alias = aliasName(this.prefix, collection);
    for (let at = 0; at < ids.length; at += IDS_PER_REQUEST) {
      const chunk = ids.slice(at, at + IDS_PER_REQUEST);
      const response = await this.client
        .collections(alias)
        .documents()
        .search({ q: '*', filter_by: idFilter(chunk), per_page: chunk.length });
      for (const hit of response.hits ?? []) found.set(hit.document.id, hit.document);
    }
    return found;
  }

  /** Into the collections the aliases point at now. */
  apply(changes: readonly DocumentChange[]): Promise<void> {
    return writeChanges(
      this.client,
      async (collection) => (await this.client.aliases(aliasName(this.prefix, collection)).retrieve()).collection_name,
      changes,
    );
  }
}

/**
 * Writes changes in order into the collection `targetOf` names for each: runs of upserts as one import each
 * (whole documents, `action=upsert`), runs of deletes as one delete by ids each. Fails on the first refusal.
 */
export async function writeChanges(
  client: DocumentWriter,
  targetOf: (collection: CollectionName) => Promise<string>,
  changes: readonly DocumentChange[],
): Promise<void> {
  let at = 0;
  const kind = (c: DocumentChange) => `${c.collection}|${c.document ? 'upsert' : 'delete'}`;
  while (at < changes.length) {
    const first = changes[at]!;
    let end = at + 1;
    while (
      end < changes.length &&
      kind(changes[end]!) === kind(first) &&
      (first.document || end - at < IDS_PER_REQUEST)
    )
      end++;
    const run = changes.slice(at, end);
    const target = await targetOf(first.collection);
    const documents = client.collections(target).documents();
    if (first.document) {
      const answer = await documents.import(run.map((c) => JSON.stringify(c.document)).join('\n'), {
        action: 'upsert',
      });
      const results = String(answer)
        .split('\n')
        .map((line) => JSON.parse(line) as { success: boolean; error?: string });
      const failed = results.findIndex((r) => !r.success);
      if (failed >= 0) {
        throw new TypesenseWriteError(
          `Typesense refused id ${run[failed]?.id} in ${target}: ${results[failed]!.error ?? 'no reason given'}`,
        );
      }
    } else await documents.delete({ filter_by: idFilter(run.map((c) => c.id)) });
    at = end;
  }
}

/** `id:[`a`,`b`]`: the documents with these ids. */
function idFilter(ids: readonly string[]): string {
  return `id:[${ids.map((id) => quoteString(id, 'id')).join(',')}]`;
}
