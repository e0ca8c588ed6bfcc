import { readFileSync } from 'node:fs';
import { cp, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { generateCatalog } from '../catalog/generate/generate-catalog.js';
import { loadCatalog } from '../catalog/load-catalog.js';
import { parseEnv } from '../config/env.js';
import { FlagService } from '../flags/flag-service.js';
import { StaticFlagSource } from '../flags/flags-file.js';
import { CachedEngine } from '../search/cached-engine.js';
import { EmbeddedEngine } from '../search/embedded/embedded-engine.js';
import { SearchService } from '../search/search-service.js';
import { SegmentPublisher } from '../segments/segment-publisher.js';
import { SegmentRepository } from '../segments/segment-repository.js';
import { FileVersionStore, type SegmentVersionStore } from '../segments/segment-versions.js';
import { fileRecordStores, type RecordStores } from '../store/record-collections.js';
import { previewLinkKey } from '../studio/preview-links.js';
import { StudioService } from '../studio/studio-service.js';
import { TEST_ROW_DEADLINE_MS, testApp, type TestLayoutOptions } from './test-app.js';

const logger = pino({ level: 'silent' });
/** The key every test node signs preview links with unless told otherwise: as nodes sharing one secret do. */
export const TEST_LINK_KEY = previewLinkKey('t'.repeat(32));

/** A folder and a small catalog the studio's tests draw their previews from. */
export interface StudioCatalog {
  tmp: string;
  search: SearchService;
}

export async function studioCatalog(): Promise<StudioCatalog> {
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'studio-'));
  await generateCatalog({
    events: 3000,
    seed: 7,
    start: new Date().toISOString().slice(0, 10),
    outDir: path.join(tmp, 'catalog'),
  });
  const search = new SearchService();
  search.set(new CachedEngine(await EmbeddedEngine.build((await loadCatalog(path.join(tmp, 'catalog'))).collections)));
  return { tmp, search };
}

export interface StudioNodeOptions {
  env?: Record<string, string>;
  /**
   * The studio's records (users, audit log, schedules, preview links): a folder, or stores; another node's to
   * share them. Its own folder otherwise.
   */
  records?: string | RecordStores;
  /** The published versions; another node's to share them. Its own folder otherwise. */
  versions?: SegmentVersionStore;
  linkKey?: Uint8Array;
  /** The clock preview links are made and checked by. */
  now?: () => number;
  /** The built client to serve (its `index.html`, `studio.html`, `preview.html`). */
  clientDir?: string;
  /** The clock the shoppers' layouts are asked at and how long a row may take; the test app's otherwise. */
  layout?: TestLayoutOptions;
}

let nodes = 0;

/** A node with its own live folder and drafts, and the studio on it. */
export async function studioNode(catalog: StudioCatalog, options: StudioNodeOptions = {}) {
  const dir = path.join(catalog.tmp, `node-${++nodes}`);
  const liveDir = path.join(dir, 'segments');
  await cp(path.resolve('segments'), liveDir, { recursive: true });
  const segments = new SegmentRepository(liveDir, logger);
  await segments.load();
  const flags = new FlagService(
    new StaticFlagSource(JSON.parse(readFileSync(path.resolve('segments/flags.json'), 'utf8'))),
  );
  const publisher = new SegmentPublisher({
    versions: options.versions ?? new FileVersionStore(path.join(dir, 'versions')),
    live: segments,
    liveDir,
  });
  await publisher.sync();
  const records = options.records ?? path.join(dir, 'studio');
  const studio = new StudioService({
    draftsDir: path.join(dir, 'segment-drafts'),
    records: typeof records === 'string' ? fileRecordStores(records) : records,
    publisher,
    live: segments,
    engine: () => catalog.search.engine,
    flags,
    logger,
    // As the test app's layouts: a loaded machine never times a row out.
    rowDeadlineMs: TEST_ROW_DEADLINE_MS,
    linkKey: options.linkKey ?? TEST_LINK_KEY,
    ...(options.now ? { now: options.now } : {}),
  });
  const { app } = testApp(
    {
      search: catalog.search,
      segments,
      flags,
      studio,
      env: parseEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent', ...options.env }),
      ...(options.clientDir ? { clientDir: options.clientDir } : {}),
    },
    options.layout,
  );
  return { app, root: dir, liveDir, publisher, studio, segments, records };
}
