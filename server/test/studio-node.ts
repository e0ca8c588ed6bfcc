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
import { StudioService } from '../studio/studio-service.js';
import { testApp } from './test-app.js';

const logger = pino({ level: 'silent' });

/** A folder and a small catalog the studio's tests draw their previews from. */
export async function studioCatalog(): Promise<{ tmp: string; search: SearchService }> {
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

let nodes = 0;

/**
 * A node with its own live folder and drafts, and the studio on it; its versions and records in folders of its
 * own unless given (nodes given the same stores share what is published, scheduled and who may do what).
 */
export async function studioNode(
  catalog: { tmp: string; search: SearchService },
  env: Record<string, string> = {},
  shared: { versions?: SegmentVersionStore; records?: RecordStores; draftsDir?: string } = {},
) {
  const root = path.join(catalog.tmp, `node-${++nodes}`);
  const liveDir = path.join(root, 'segments');
  await cp(path.resolve('segments'), liveDir, { recursive: true });
  const segments = new SegmentRepository(liveDir, logger);
  await segments.load();
  const flags = new FlagService(
    new StaticFlagSource(JSON.parse(readFileSync(path.resolve('segments/flags.json'), 'utf8'))),
  );
  const publisher = new SegmentPublisher({
    versions: shared.versions ?? new FileVersionStore(path.join(root, 'versions')),
    live: segments,
    liveDir,
  });
  await publisher.sync();
  const records = shared.records ?? fileRecordStores(path.join(root, 'studio'));
  const studio = new StudioService({
    draftsDir: shared.draftsDir ?? path.join(root, 'segment-drafts'),
    records,
    publisher,
    live: segments,
    engine: () => catalog.search.engine,
    flags,
    logger,
    rowDeadlineMs: 5_000,
  });
  const { app } = testApp({
    search: catalog.search,
    segments,
    flags,
    studio,
    env: parseEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent', ...env }),
  });
  return { app, root, liveDir, publisher, studio, segments };
}
