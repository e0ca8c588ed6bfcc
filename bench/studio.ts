/**
 * `npm run bench -- --studio`: what the studio's records cost the nodes that serve shoppers. Every node looks for
 * due scheduled versions each second, reading every schedule; every studio request reads the users to find whose
 * key it carries. Measured on the file records (one node) and the embedded store (PGlite), with 500 settled
 * schedules and 3 pending ones, each pending one holding two whole segment sets: settled schedules as they are kept
 * (their files let go) against settled schedules that kept their files, in the same run; and 200 users. Written
 * between the bench:studio markers of bench/RESULTS.md.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gitState, machineLine, replaceSection, sectionMarkers } from './results-file.js';
import { percentile } from './stats.js';
import { migrate } from '../server/store/migrations.js';
import { openPglite } from '../server/store/pglite-sql.js';
import { fileRecordStores, sqlRecordStores, type RecordStores } from '../server/store/record-collections.js';
import { SegmentAudit } from '../server/segments/segment-audit.js';
import { SegmentPublisher } from '../server/segments/segment-publisher.js';
import { SegmentRepository } from '../server/segments/segment-repository.js';
import { SegmentSchedule, type ScheduledVersion } from '../server/segments/segment-schedule.js';
import { FileVersionStore } from '../server/segments/segment-versions.js';
import { StudioUsers } from '../server/studio/studio-users.js';

const SETTLED = 500;
const PENDING = 3;
const USERS = 200;
const POLLS = 60;

const median = (xs: number[]) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    50,
  );
const ms = (x: number) => `${x.toFixed(2)} ms`;

async function timed(times: number, fn: () => Promise<unknown>): Promise<number> {
  await fn();
  const samples: number[] = [];
  for (let i = 0; i < times; i++) {
    const began = performance.now();
    await fn();
    samples.push(performance.now() - began);
  }
  return median(samples);
}

interface Backend {
  name: string;
  open: (dir: string) => Promise<{ stores: RecordStores; close: () => Promise<void> }>;
}

const BACKENDS: Backend[] = [
  { name: 'files', open: async (dir) => ({ stores: fileRecordStores(dir), close: async () => {} }) },
  {
    name: 'PGlite',
    open: async () => {
      const sql = await openPglite(null);
      await migrate(sql);
      return { stores: sqlRecordStores(sql), close: () => sql.close() };
    },
  },
];

interface Row {
  backend: string;
  pollKept: number;
  pollLetGo: number;
  bytesKept: number;
  bytesLetGo: number;
  identify: number;
}

async function measure(backend: Backend, tmp: string): Promise<Row> {
  const liveDir = path.join(tmp, `${backend.name}-live`);
  await cp(path.resolve('segments'), liveDir, { recursive: true });
  const live = new SegmentRepository(liveDir);
  await live.load();
  const files = Object.fromEntries(live.current.files);
  const far = Date.now() + 30 * 86_400_000;
  const schedules = (keepFiles: boolean): ScheduledVersion[] => [
    ...Array.from({ length: SETTLED }, (_, i) => ({
      id: String(i + 1),
      at: new Date(Date.now() - (i + 1) * 3_600_000).toISOString(),
      note: `settled ${i + 1}`,
      author: { id: 'bench', name: 'bench' },
      brands: ['base'],
      createdAt: new Date().toISOString(),
      status: 'published' as const,
      version: i + 1,
      settledAt: new Date().toISOString(),
      files: keepFiles ? files : {},
      base: keepFiles ? files : {},
      changes: { added: [], changed: ['base/explore.json'], removed: [] },
    })),
    ...Array.from({ length: PENDING }, (_, i) => ({
      id: String(SETTLED + i + 1),
      at: new Date(far + i * 3_600_000).toISOString(),
      note: `pending ${i + 1}`,
      author: { id: 'bench', name: 'bench' },
      brands: ['base'],
      createdAt: new Date().toISOString(),
      status: 'scheduled' as const,
      files,
      base: files,
    })),
  ];
  const poll = async (keepFiles: boolean) => {
    const { stores, close } = await backend.open(path.join(tmp, `${backend.name}-${keepFiles ? 'kept' : 'let-go'}`));
    try {
      const all = schedules(keepFiles);
      await stores.collection<ScheduledVersion>('segment-schedules').update(() => ({ put: all, result: null }));
      const publisher = new SegmentPublisher({
        versions: new FileVersionStore(path.join(tmp, `${backend.name}-versions`)),
        live,
        liveDir,
      });
      const schedule = new SegmentSchedule({ records: stores, publisher, audit: new SegmentAudit(stores) });
      return {
        poll: await timed(POLLS, () => schedule.runDue()),
        bytes: Buffer.byteLength(JSON.stringify(all)),
      };
    } finally {
      await close();
    }
  };
  const kept = await poll(true);
  const letGo = await poll(false);
  const { stores, close } = await backend.open(path.join(tmp, `${backend.name}-users`));
  let identify: number;
  try {
    const users = new StudioUsers(stores);
    let key = '';
    for (let i = 0; i < USERS; i++) key = (await users.add(`user ${i}`, { brand: 'base', role: 'editor' })).key;
    identify = await timed(POLLS, () => users.identify(key));
  } finally {
    await close();
  }
  return {
    backend: backend.name,
    pollKept: kept.poll,
    pollLetGo: letGo.poll,
    bytesKept: kept.bytes,
    bytesLetGo: letGo.bytes,
    identify,
  };
}

export async function runStudioBench(options: { command: string; write: boolean; log: (line: string) => void }) {
  const loadStart = os.loadavg()[0]!;
  const startedAt = new Date();
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'bench-studio-'));
  const rows: Row[] = [];
  try {
    for (const backend of BACKENDS) {
      options.log(`studio records on ${backend.name}…`);
      rows.push(await measure(backend, tmp));
    }
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
  const kib = (b: number) => `${(b / 1024).toFixed(0)} KiB`;
  const section = [
    '## Studio records: the schedule poll and the key lookup',
    '',
    `Date: ${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC. Command: \`${options.command}\`. ` +
      `Machine: ${machineLine(loadStart)} (shared). Code: ${gitState(['server', 'shared'])}. ` +
      `Medians of ${POLLS} calls after one discarded, in one process.`,
    '',
    `Every node reads every schedule each second (RULES 18.2). With ${SETTLED} settled schedules and ${PENDING} ` +
      'pending ones (each pending one holds two whole segment sets), settled schedules kept as they are now (their ' +
      'files let go) against settled schedules that kept their files; and the lookup of one key among ' +
      `${USERS} studio users, which every studio request makes (RULES 18.4).`,
    '',
    '| records | poll, files kept | poll, files let go | kept ÷ let go | schedules kept | schedules let go ' +
      '| key lookup |',
    '|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.backend} | ${ms(r.pollKept)} | ${ms(r.pollLetGo)} | ${(r.pollKept / r.pollLetGo).toFixed(1)}× | ` +
        `${kib(r.bytesKept)} | ${kib(r.bytesLetGo)} | ${ms(r.identify)} |`,
    ),
  ].join('\n');
  if (options.write) {
    const file = path.resolve('bench/RESULTS.md');
    writeFileSync(file, replaceSection(readFileSync(file, 'utf8'), section, sectionMarkers('studio')));
  }
  return section;
}
