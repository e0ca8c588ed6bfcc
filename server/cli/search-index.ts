import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from 'typesense';
import {
  clientOptions,
  describeTypesenseConfig,
  parseTypesenseConfig,
  type TypesenseConfig,
} from '../config/typesense.js';
import { reindexCatalog, type ReindexChanges, type ReindexClient } from '../search/typesense/reindex.js';
import { ChangeLog } from '../live-catalog/change-log.js';
import { openStore } from '../store/open-store.js';
import type { Sql } from '../store/sql.js';

export interface IndexCliIo {
  out: (line: string) => void;
  err: (line: string) => void;
  createClient?: (config: TypesenseConfig) => ReindexClient;
  /** The change log to replay (by default the store of `DATABASE_URL`, when set). */
  changes?: ReindexChanges;
}

/**
 * `npm run search:index`: loads the catalog of `<DATA_DIR>/catalog` into Typesense and moves the aliases to
 * it. Returns the exit code.
 */
export async function runIndexCli(env: NodeJS.ProcessEnv, io: IndexCliIo): Promise<number> {
  let config: TypesenseConfig | null;
  try {
    config = parseTypesenseConfig(env);
  } catch (err) {
    io.err((err as Error).message);
    return 1;
  }
  if (!config) {
    io.err('No Typesense node configured: set TYPESENSE_URL (or TYPESENSE_NODES) and TYPESENSE_API_KEY.');
    return 1;
  }
  const catalogDir = path.resolve(env.DATA_DIR?.trim() || 'data', 'catalog');
  io.out(`Indexing ${catalogDir} into ${describeTypesenseConfig(config)}`);
  const client = io.createClient ? io.createClient(config) : new Client(clientOptions(config));
  // The documents API's writes live in the store's change log: with a shared PostgreSQL it is replayed into
  // the new collections. PGlite belongs to the running server alone and cannot be opened beside it.
  let store: Sql | undefined;
  let changes = io.changes;
  try {
    if (!changes && env.DATABASE_URL) {
      store = await openStore({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR?.trim() || 'data' });
      changes = new ChangeLog(store).reindexChanges();
    }
    if (!changes)
      io.out(
        'DATABASE_URL is not set: changes made through the documents API are not replayed into the new collections.',
      );
    const started = Date.now();
    const report = await reindexCatalog({ client, catalogDir, prefix: config.collectionPrefix, log: io.out, changes });
    for (const item of report) {
      const kept = item.previous ? `, kept ${item.previous} for rollback` : '';
      const deleted = item.deleted.length > 0 ? `, deleted ${item.deleted.join(', ')}` : '';
      io.out(`${item.alias} → ${item.target}: ${item.documents} documents${kept}${deleted}`);
    }
    io.out(`Done in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
    return 0;
  } catch (err) {
    io.err(`Indexing failed: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  } finally {
    await store?.close();
  }
}

const isMain = process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  process.exitCode = await runIndexCli(process.env, {
    out: (line) => console.log(line),
    err: (line) => console.error(line),
  });
}
