import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { CollectionCreateSchema, DocumentImportParameters } from 'typesense';
import { COLLECTION_NAMES, type CollectionName } from '../../../shared/schemas/documents.js';
import { collectionFile, readManifest } from '../../catalog/manifest.js';
import { COLLECTION_PREFIX_PATTERN } from '../../config/typesense.js';
import { aliasName, collectionSchema, versionOf, versionedName } from './collections.js';
import type { DocumentChange } from '../search-engine.js';
import { writeChanges } from './typesense-catalog.js';

/** The part of the `typesense` Client the reindexer uses; tests pass a fake of this shape. */
export interface ReindexClient {
  collections(): {
    create(schema: CollectionCreateSchema): Promise<unknown>;
    retrieve(): Promise<readonly { name: string }[]>;
  };
  collections(name: string): {
    documents(): {
      import(jsonl: string, options: DocumentImportParameters): Promise<unknown>;
      delete(options: { filter_by: string }): Promise<unknown>;
    };
    delete(): Promise<unknown>;
  };
  aliases(): { upsert(name: string, mapping: { collection_name: string }): Promise<unknown> };
  aliases(name: string): { retrieve(): Promise<{ collection_name: string }>; delete(): Promise<unknown> };
}

export interface ReindexOptions {
  client: ReindexClient;
  catalogDir: string;
  prefix?: string;
  /** Documents per import request. */
  batchSize?: number;
  log?: (line: string) => void;
  /** The version suffix of the new collections; the current time in milliseconds by default. */
  version?: number;
  /**
   * The change log of the catalog being indexed (the documents API's writes since its files): replayed into the
   * new collections before the aliases move, the last of it while no write can commit, so none is lost.
   */
  changes?: ReindexChanges;
}

/** A logged change with its place in the log. */
export type LoggedChange = DocumentChange & { seq: number };

export interface ReindexChanges {
  /** The changes to the catalog whose manifest says `generatedAt` = `catalog`, after `seq`, at most `limit`. */
  after(catalog: string, seq: number, limit: number): Promise<LoggedChange[]>;
  /** Runs `fn` while no catalog write can commit (holding the writers' lock), reading the log through `after`. */
  exclusive<T>(
    catalog: string,
    fn: (after: (seq: number, limit: number) => Promise<LoggedChange[]>) => Promise<T>,
  ): Promise<T>;
}

/** Changes replayed per request. */
const REPLAY_CHUNK = 1_000;

export interface ReindexedCollection {
  collection: CollectionName;
  alias: string;
  target: string;
  /** Where the alias pointed before, kept for rollback; null on a first index. */
  previous: string | null;
  documents: number;
  deleted: string[];
}

export interface ImportFailure {
  line: number;
  error: string;
}

export class ReindexError extends Error {
  constructor(
    message: string,
    readonly failures: ImportFailure[] = [],
  ) {
    super(message);
    this.name = 'ReindexError';
  }
}

/** Failures named in an error message; the rest are counted. */
const FAILURES_SHOWN = 5;

/**
 * Loads the catalog in `catalogDir` into new versioned collections and points each alias at them.
 *
 * Every collection is imported before any alias moves, because the collections refer to each other (events
 * to performers and venues): a failed import leaves every alias on the previous catalog and deletes what it
 * created. After the swap, versions older than the one just replaced are deleted; that one stays for rollback.
 */
export async function reindexCatalog(options: ReindexOptions): Promise<ReindexedCollection[]> {
  const { client, catalogDir, prefix = '', batchSize = 5000, log = () => {}, version = Date.now() } = options;
  if (!COLLECTION_PREFIX_PATTERN.test(prefix)) throw new ReindexError(`invalid collection prefix \`${prefix}\``);
  if (!Number.isInteger(batchSize) || batchSize < 1)
    throw new ReindexError(`batch size must be a positive integer, got ${batchSize}`);
  if (!Number.isSafeInteger(version) || version < 0) throw new ReindexError(`invalid version ${version}`);
  const manifest = await readManifest(catalogDir);
  if (!manifest) throw new ReindexError(`no catalog in ${catalogDir}: run \`npm run catalog\` first`);

  const imported: { collection: CollectionName; alias: string; target: string; documents: number }[] = [];
  const created: string[] = [];
  try {
    for (const collection of COLLECTION_NAMES) {
      const target = versionedName(prefix, collection, version);
      await client.collections().create(collectionSchema(collection, target));
      created.push(target);
      log(`${collection}: created ${target}`);
      const file = collectionFile(catalogDir, collection);
      const documents = await importFile(client, target, file, batchSize, (n) =>
        log(`${collection}: ${n} documents imported`),
      );
      const expected = manifest.counts[collection];
      if (documents !== expected) {
        throw new ReindexError(
          `${collection}: imported ${documents} documents from ${file}, the manifest says ${expected}`,
        );
      }
      imported.push({ collection, alias: aliasName(prefix, collection), target, documents });
    }
  } catch (err) {
    await dropAll(client, created, log);
    throw err;
  }

  const swapped: { alias: string; previous: string | null }[] = [];
  const targets = new Map(imported.map((item) => [item.collection, item.target]));
  const swap = async () => {
    for (const item of imported) {
      const previous = await aliasTarget(client, item.alias);
      await client.aliases().upsert(item.alias, { collection_name: item.target });
      swapped.push({ alias: item.alias, previous });
      log(`${item.collection}: alias ${item.alias} → ${item.target}${previous ? ` (was ${previous})` : ''}`);
    }
  };
  try {
    if (options.changes) {
      const { changes } = options;
      // Most of the log while writes go on, then the rest with writes held, and the aliases moved at once.
      const through = await replay(client, targets, (seq, limit) => changes.after(manifest.generatedAt, seq, limit), 0);
      const last = await changes.exclusive(manifest.generatedAt, async (after) => {
        const all = await replay(client, targets, after, through);
        await swap();
        return all;
      });
      log(`replayed the change log through change ${last}`);
    } else await swap();
  } catch (err) {
    await restoreAliases(client, swapped, log);
    await dropAll(client, created, log);
    throw err;
  }

  // The new catalog is live from here on: failing to delete an old version is reported, not fatal.
  let existing: string[] = [];
  try {
    existing = (await client.collections().retrieve()).map((c) => c.name);
  } catch (err) {
    log(`could not list collections to delete old versions: ${message(err)}`);
  }
  const report: ReindexedCollection[] = [];
  for (const [i, item] of imported.entries()) {
    const previous = swapped[i]!.previous;
    const stale = existing.filter(
      (name) => name !== item.target && name !== previous && versionOf(prefix, item.collection, name) !== null,
    );
    const deleted: string[] = [];
    for (const name of stale) {
      try {
        await client.collections(name).delete();
        deleted.push(name);
        log(`${item.collection}: deleted old version ${name}`);
      } catch (err) {
        log(`${item.collection}: could not delete old version ${name}: ${message(err)}`);
      }
    }
    report.push({ ...item, previous, deleted });
  }
  return report;
}

/** Writes the logged changes after `from` into the new collections; the last change replayed. */
async function replay(
  client: ReindexClient,
  targets: ReadonlyMap<CollectionName, string>,
  after: (seq: number, limit: number) => Promise<LoggedChange[]>,
  from: number,
): Promise<number> {
  let through = from;
  for (;;) {
    const changes = await after(through, REPLAY_CHUNK);
    if (changes.length === 0) return through;
    await writeChanges(client, async (collection) => targets.get(collection)!, changes);
    through = changes[changes.length - 1]!.seq;
  }
}

/** Streams a JSON Lines file into a collection `batchSize` documents per request; returns how many went in. */
async function importFile(
  client: ReindexClient,
  target: string,
  file: string,
  batchSize: number,
  progress: (documents: number) => void,
): Promise<number> {
  const documents = client.collections(target).documents();
  const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  let batch: string[] = [];
  let lineNumbers: number[] = [];
  let lineNo = 0;
  let total = 0;

  const flush = async () => {
    if (batch.length === 0) return;
    const answer = await documents.import(batch.join('\n'), { action: 'create' });
    const failures = importFailures(answer, lineNumbers);
    if (failures.length > 0) {
      const shown = failures
        .slice(0, FAILURES_SHOWN)
        .map((f) => `line ${f.line}: ${f.error}`)
        .join('; ');
      const more = failures.length > FAILURES_SHOWN ? `; and ${failures.length - FAILURES_SHOWN} more` : '';
      throw new ReindexError(
        `${failures.length} of ${batch.length} documents of ${file} failed to import into ${target}: ${shown}${more}`,
        failures,
      );
    }
    total += batch.length;
    progress(total);
    batch = [];
    lineNumbers = [];
  };

  for await (const line of lines) {
    lineNo++;
    if (line.trim() === '') continue;
    batch.push(line);
    lineNumbers.push(lineNo);
    if (batch.length >= batchSize) await flush();
  }
  await flush();
  return total;
}

/**
 * The failed documents of one import answer, by file line. Typesense answers one JSON line per document sent;
 * a short answer counts the missing documents as failed.
 */
export function importFailures(answer: unknown, lineNumbers: readonly number[]): ImportFailure[] {
  let results: unknown[];
  if (typeof answer === 'string') {
    results = answer
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => {
        try {
          return JSON.parse(l) as unknown;
        } catch {
          return { success: false, error: `unreadable answer: ${l.slice(0, 200)}` };
        }
      });
  } else if (Array.isArray(answer)) {
    results = answer;
  } else {
    results = [answer];
  }
  const failures: ImportFailure[] = [];
  lineNumbers.forEach((line, i) => {
    const result = results[i] as { success?: unknown; error?: unknown } | undefined;
    if (result === undefined) failures.push({ line, error: 'no answer from Typesense' });
    else if (result?.success !== true)
      failures.push({ line, error: typeof result?.error === 'string' ? result.error : 'import failed' });
  });
  return failures;
}

async function aliasTarget(client: ReindexClient, alias: string): Promise<string | null> {
  try {
    return (await client.aliases(alias).retrieve()).collection_name;
  } catch (err) {
    if ((err as { httpStatus?: unknown } | null)?.httpStatus === 404) return null;
    throw err;
  }
}

async function restoreAliases(
  client: ReindexClient,
  swapped: { alias: string; previous: string | null }[],
  log: (line: string) => void,
) {
  for (const { alias, previous } of [...swapped].reverse()) {
    try {
      if (previous) await client.aliases().upsert(alias, { collection_name: previous });
      else await client.aliases(alias).delete();
      log(`alias ${alias} restored${previous ? ` to ${previous}` : ' (removed)'}`);
    } catch (err) {
      log(`could not restore alias ${alias}: ${message(err)}`);
    }
  }
}

async function dropAll(client: ReindexClient, names: readonly string[], log: (line: string) => void) {
  for (const name of names) {
    try {
      await client.collections(name).delete();
      log(`deleted unfinished ${name}`);
    } catch (err) {
      log(`could not delete unfinished ${name}: ${message(err)}`);
    }
  }
}

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));
