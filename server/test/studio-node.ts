import { readFileSync } from 'node:fs';
import { cp } from 'node:fs/promises';
import path from 'node:path';
import { pino } from 'pino';
import { parseEnv } from '../config/env.js';
import { FlagService } from '../flags/flag-service.js';
import { StaticFlagSource } from '../flags/flags-file.js';
import type { SearchService } from '../search/search-service.js';
import { SegmentPublisher } from '../segments/segment-publisher.js';
import { SegmentRepository } from '../segments/segment-repository.js';
import { FileVersionStore } from '../segments/segment-versions.js';
import { fileRecordStores } from '../store/record-collections.js';
import { previewLinkKey } from '../studio/preview-links.js';
import { StudioService } from '../studio/studio-service.js';
import { testApp } from './test-app.js';

const logger = pino({ level: 'silent' });
/** The key every test node signs preview links with unless told otherwise: as nodes sharing one secret do. */
export const TEST_LINK_KEY = previewLinkKey('t'.repeat(32));

export interface StudioNodeOptions {
  env?: Record<string, string>;
  /** The folder of the studio's records (users, audit log, schedules, preview links); another node's to share them. */
  records?: string;
  linkKey?: Uint8Array;
  /** The clock preview links are made and checked by. */
  now?: () => number;
  /** The built client to serve (its `index.html`, `studio.html`, `preview.html`). */
  clientDir?: string;
}

let nodes = 0;
/** A node under `root` with its own live folder, drafts and version folder, and the studio on it. */
export async function studioNode(root: string, search: SearchService, options: StudioNodeOptions = {}) {
  const dir = path.join(root, `node-${++nodes}`);
  const liveDir = path.join(dir, 'segments');
  await cp(path.resolve('segments'), liveDir, { recursive: true });
  const segments = new SegmentRepository(liveDir, logger);
  await segments.load();
  const flags = new FlagService(
    new StaticFlagSource(JSON.parse(readFileSync(path.resolve('segments/flags.json'), 'utf8'))),
  );
  const publisher = new SegmentPublisher({
    versions: new FileVersionStore(path.join(dir, 'versions')),
    live: segments,
    liveDir,
  });
  await publisher.sync();
  const records = options.records ?? path.join(dir, 'studio');
  const studio = new StudioService({
    draftsDir: path.join(dir, 'segment-drafts'),
    records: fileRecordStores(records),
    publisher,
    live: segments,
    engine: () => search.engine,
    flags,
    logger,
    rowDeadlineMs: 5_000,
    linkKey: options.linkKey ?? TEST_LINK_KEY,
    ...(options.now ? { now: options.now } : {}),
  });
  const { app } = testApp({
    search,
    segments,
    flags,
    studio,
    env: parseEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent', ...options.env }),
    ...(options.clientDir ? { clientDir: options.clientDir } : {}),
  });
  return { app, root: dir, liveDir, publisher, studio, records };
}
