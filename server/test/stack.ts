/**
 * A stack for tests and the fault benchmark: a data folder with a generated catalog, a private PostgreSQL
 * cluster with a fresh database, and server nodes on them. Nothing here imports the test runner, so the
 * benchmark uses it as well.
 */
import { randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ListingDocument } from '../../shared/schemas/commerce.js';
import type { EventDocument } from '../../shared/schemas/documents.js';
import { generateCatalog } from '../catalog/generate/generate-catalog.js';
import { importCatalog } from '../catalog/import-catalog.js';
import { loadCatalog, type Catalog } from '../catalog/load-catalog.js';
import { listingsForEvent, type GeneratedListing } from '../commerce/domain/listings.js';
import { createDatabase, startPostgres, type Database, type PostgresCluster } from './postgres.js';
import { sellableEvents } from './shopper.js';
import { startNodes, stopNodes, type ServerNode } from './server-nodes.js';

const SHIPPED_SEGMENTS = fileURLToPath(new URL('../../segments', import.meta.url));

/** Events in the catalog every node of a stack shares. */
export const STACK_CATALOG_EVENTS = 2_000;
const CATALOG_SEED = 22791;

/**
 * Generates the catalog into `<dataDir>/catalog` (every node then loads it from there) and loads it here too.
 * With `listings`, the catalog is then imported with those as the operator's own listings (every node sells
 * them, and only them, from the store).
 */
async function prepareCatalog(dataDir: string, listings?: (catalog: Catalog) => ListingDocument[]): Promise<Catalog> {
  const dir = path.join(dataDir, 'catalog');
  await generateCatalog({
    events: STACK_CATALOG_EVENTS,
    seed: CATALOG_SEED,
    start: new Date().toISOString().slice(0, 10),
    outDir: dir,
  });
  const catalog = await loadCatalog(dir);
  if (!listings) return catalog;
  const feed = path.join(dataDir, 'feed', 'Listing.jsonl');
  mkdirSync(path.dirname(feed), { recursive: true });
  writeFileSync(
    feed,
    listings(catalog)
      .map((l) => `${JSON.stringify(l)}\n`)
      .join(''),
  );
  const report = await importCatalog([feed], dir);
  if (!report.applied) throw new Error(`the stack's listings were refused: ${JSON.stringify(report.problems)}`);
  return loadCatalog(dir);
}

export interface PickedListing {
  event: EventDocument;
  listing: GeneratedListing;
}

/**
 * Listings that pass `test`, at most one per event, from events that pass `eventTest` and are not in
 * `skipEvents` (which it then adds to).
 */
export function pickListings(
  catalog: Catalog,
  count: number,
  test: (l: GeneratedListing) => boolean,
  skipEvents = new Set<number>(),
  eventTest: (e: EventDocument) => boolean = () => true,
): PickedListing[] {
  const picked: PickedListing[] = [];
  for (const event of sellableEvents(catalog)) {
    if (picked.length >= count) break;
    if (skipEvents.has(event.event_id) || !eventTest(event)) continue;
    const listing = listingsForEvent(event).find(test);
    if (!listing) continue;
    skipEvents.add(event.event_id);
    picked.push({ event, listing });
  }
  if (picked.length < count) throw new Error(`only ${picked.length} of ${count} listings in the catalog fit`);
  return picked;
}

export interface Stack {
  cluster: PostgresCluster;
  db: Database;
  catalog: Catalog;
  nodes: ServerNode[];
  /** Stops the nodes, drops the database, stops the cluster and removes the data folder. */
  stop(): Promise<void>;
}

/**
 * A temporary data folder holding the catalog every node shares, a private PostgreSQL cluster with a fresh
 * database, and `nodes` server nodes on them, all with one session secret (a guest token one node signs, the
 * others verify) and trusting X-Forwarded-For from loopback (each simulated client sends its own address).
 * `env` adds to or overrides the nodes' environment; `listings` gives the catalog operator's listings of its own
 * (see `prepareCatalog`). Should a step fail, what is already running is stopped before the error is thrown.
 */
export async function startStack(options: {
  nodes: number;
  env?: Readonly<Record<string, string>>;
  listings?: (catalog: Catalog) => ListingDocument[];
}): Promise<Stack> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'storefront-stack-'));
  // Also on the way out without `stop` (Ctrl-C in the benchmark), as the cluster's own folder is.
  const removeDataDir = () => rmSync(dataDir, { recursive: true, force: true });
  process.on('exit', removeDataDir);
  let cluster: PostgresCluster | undefined;
  let db: Database | undefined;
  let nodes: ServerNode[] = [];
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      await stopNodes(nodes);
      await db?.drop().catch(() => {});
      cluster?.stop();
      process.off('exit', removeDataDir);
      removeDataDir();
    })());
  try {
    cluster = await startPostgres();
    db = await createDatabase(cluster.url);
    const catalog = await prepareCatalog(dataDir, options.listings);
    // The nodes' live segment folder: a copy, since a publish writes to it.
    cpSync(SHIPPED_SEGMENTS, path.join(dataDir, 'segments'), { recursive: true });
    nodes = await startNodes(options.nodes, {
      SEGMENTS_DIR: path.join(dataDir, 'segments'),
      DATABASE_URL: db.url,
      DATA_DIR: dataDir,
      CATALOG_EVENTS: String(STACK_CATALOG_EVENTS),
      SESSION_SECRET: randomBytes(32).toString('hex'),
      TRUST_PROXY: 'loopback',
      ...options.env,
    });
    return { cluster, db, catalog, nodes, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
