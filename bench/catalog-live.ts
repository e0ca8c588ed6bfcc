/**
 * The live catalog (`npm run bench -- --catalog`, by default at 1,000,000 events):
 *   - `npm run catalog -- import` of the catalog's Event.jsonl (every line checked, written to a new folder):
 *     documents per second;
 *   - the documents API importing 10,000 events at a time (`action=upsert`) into the production server over that
 *     catalog: documents per second, acknowledged (logged in the store and applied to the engine);
 *   - cached home layouts under 10 connections, first alone, then while a 10,000-document import runs: p50 / p99;
 *   - two server nodes on one PostgreSQL (the multi-node tests' stack, its small catalog): the time from an
 *     acknowledged update on one node until the other answers with it, median / p99 over 100 updates.
 * Written into bench/RESULTS.md between the bench:catalog markers.
 */
import { createReadStream, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { importCatalog } from '../server/catalog/import-catalog.js';
import { startStack } from '../server/test/stack.js';
import { sleep, startStorefront, stop } from './children.js';
import { n } from './format.js';
import { loadInChild } from './load.js';
import { gitState, machineLine, replaceSection, sectionMarkers } from './results-file.js';

const KEY = 'bench-catalog-admin-key-0123456789';
const BATCH = 10_000;
const IMPORT_ROUNDS = 3;
const LOAD_SECONDS = 8;
const CONNECTIONS = 10;
const VISIBILITY_UPDATES = 100;
const HOME_CACHED = '/api/layout/home?lat=40.758&lng=-73.9855';

/** The first `count` lines of a JSON Lines file. */
async function firstLines(file: string, count: number): Promise<string[]> {
  const lines: string[] = [];
  const reader = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  for await (const line of reader) {
    if (line.trim()) lines.push(line);
    if (lines.length >= count) break;
  }
  reader.close();
  return lines;
}

async function importBatch(base: string, lines: string[], round: number): Promise<{ ms: number; failed: number }> {
  // Each round changes every document, so each write is a real change (and a cache invalidation).
  const body = lines
    .map((line) => JSON.stringify({ ...JSON.parse(line), event_orders_t12: 1_000_000 + round }))
    .join('\n');
  const began = performance.now();
  const res = await fetch(`${base}/api/admin/collections/Event/documents/import?action=upsert`, {
    method: 'POST',
    headers: { 'X-TYPESENSE-API-KEY': KEY, 'Content-Type': 'text/plain' },
    body,
  });
  const text = await res.text();
  const ms = performance.now() - began;
  if (res.status !== 200) throw new Error(`import answered ${res.status}: ${text.slice(0, 300)}`);
  return { ms, failed: text.split('\n').filter((l) => !l.includes('"success":true')).length };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))]!;

export async function runCatalogBench(options: {
  events: number;
  command: string;
  write: boolean;
  log: (m: string) => void;
}): Promise<string> {
  const { events, log } = options;
  const startedAt = new Date();
  const loadAtStart = os.loadavg()[0]!;
  const catalogDir = path.resolve('bench/out', `data-${events}`, 'catalog');
  const eventsFile = path.join(catalogDir, 'Event.jsonl');

  // 1. The import command over the whole Event file.
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'bench-import-'));
  log(`importing ${eventsFile} with the import command`);
  const cliBegan = performance.now();
  const report = await importCatalog([eventsFile], path.join(scratch, 'catalog'));
  const cliSeconds = (performance.now() - cliBegan) / 1000;
  await rm(scratch, { recursive: true, force: true });
  if (!report.applied) throw new Error(`the catalog's own Event file did not import: ${report.problems[0]?.message}`);
  const cliDocs = report.counts.Event ?? 0;
  log(`import command: ${cliDocs} events in ${cliSeconds.toFixed(1)} s`);

  // 2. and 3. The documents API on the production server over that catalog.
  const lines = await firstLines(eventsFile, BATCH);
  const { server, ready } = startStorefront(events, {
    env: { CATALOG_ADMIN_KEY: KEY, RATE_LIMIT_ADMIN_PER_MINUTE: '100000' },
  });
  const apiRounds: { ms: number; failed: number }[] = [];
  let alone: Awaited<ReturnType<typeof loadInChild>>;
  let during: Awaited<ReturnType<typeof loadInChild>>;
  let duringImport: { ms: number; failed: number };
  try {
    const { base } = await ready;
    log('documents API: warm-up import');
    await importBatch(base, lines, 0);
    for (let round = 1; round <= IMPORT_ROUNDS; round++) apiRounds.push(await importBatch(base, lines, round));
    log(`documents API: ${apiRounds.map((r) => `${Math.round(r.ms)} ms`).join(', ')} per ${BATCH} documents`);
    const loadOptions = {
      url: base + HOME_CACHED,
      connections: CONNECTIONS,
      seconds: LOAD_SECONDS,
      warmupSeconds: 2,
      settlePid: server.proc.pid,
    };
    alone = await loadInChild(loadOptions);
    const loading = loadInChild(loadOptions);
    // The import starts once the measured part of the load is under way (after its warm-up).
    await sleep(3_000);
    duringImport = await importBatch(base, lines, IMPORT_ROUNDS + 1);
    during = await loading;
    log(
      `cached home p99 ${alone.p99Ms} ms alone, ${during.p99Ms} ms during an ` +
        `import of ${BATCH} (${Math.round(duringImport.ms)} ms)`,
    );
  } finally {
    await stop(server, 10_000);
  }

  // 4. Two nodes on one PostgreSQL: from an acknowledged update on A until B answers with it.
  log('two nodes on one PostgreSQL: visibility of updates');
  const stack = await startStack({ nodes: 2, env: { CATALOG_ADMIN_KEY: KEY, RATE_LIMIT_ADMIN_PER_MINUTE: '100000' } });
  const visible: number[] = [];
  try {
    const [a, b] = stack.nodes;
    const targets = stack.catalog.collections.Event.slice(0, VISIBILITY_UPDATES);
    for (const [i, event] of targets.entries()) {
      const name = `Visibility Check ${i}`;
      const sent = await fetch(`${a!.url}/api/admin/collections/Event/documents/import?action=update`, {
        method: 'POST',
        headers: { 'X-TYPESENSE-API-KEY': KEY, 'Content-Type': 'text/plain' },
        body: JSON.stringify({ id: event.id, event_name: name }),
      });
      if ((await sent.text()) !== '{"success":true}') throw new Error('an update was refused');
      const acknowledged = performance.now();
      for (;;) {
        const seen = await fetch(`${b!.url}/api/admin/collections/Event/documents/${event.id}`, {
          headers: { 'X-TYPESENSE-API-KEY': KEY },
        });
        if (((await seen.json()) as { event_name?: string }).event_name === name) break;
        if (performance.now() - acknowledged > 30_000) throw new Error('an update never showed on the other node');
        await sleep(5);
      }
      visible.push(performance.now() - acknowledged);
    }
  } finally {
    await stack.stop();
  }

  const perSecond = (docs: number, ms: number) => n((docs * 1000) / ms);
  const apiMedianMs = median(apiRounds.map((r) => r.ms));
  const section = [
    '## The live catalog',
    '',
    `Date: ${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC. ` +
      `Command: \`${options.command}\`. Machine: ${machineLine(loadAtStart)} ` +
      `(shared). ` +
      `Server: \`node dist/server/main.js\` ` +
      `(${gitState(['server', 'shared', 'segments'])}), production mode, ` +
      `embedded engine; PGlite for one node, a throwaway PostgreSQL for two.`,
    '',
    '| what | figure |',
    '|---|---:|',
    `| \`npm run catalog -- import\` of the ${n(cliDocs)} events of the ` +
      `${n(events)}-event catalog (every line checked, written to a new folder) ` +
      `| ${perSecond(cliDocs, cliSeconds * 1000)} documents/s (${cliSeconds.toFixed(1)} ` +
      `s) |`,
    `| documents API import of ${n(BATCH)} events (\`action=upsert\`, logged ` +
      `in the store and applied) into the server at ${n(events)} events, median ` +
      `of ${IMPORT_ROUNDS} | ${perSecond(BATCH, apiMedianMs)} documents/s (${n(apiMedianMs)} ` +
      `ms; rounds ${apiRounds.map((r) => n(r.ms)).join(', ')} ms; ${apiRounds.reduce((s, r) => s + r.failed, 0)} ` +
      `lines refused) |`,
    `| cached home layout, ${CONNECTIONS} connections, ${LOAD_SECONDS} s: ` +
      `alone | p50 ${alone.p50Ms} ms, p99 ${alone.p99Ms} ms, ${n(alone.rps)} ` +
      `req/s |`,
    `| the same while an import of ${n(BATCH)} events runs (${n(duringImport.ms)} ` +
      `ms of the ${LOAD_SECONDS} s) | p50 ${during.p50Ms} ms, p99 ${during.p99Ms} ` +
      `ms, ${n(during.rps)} req/s |`,
    `| an update acknowledged by node A until node B answers with it (2 ` +
      `nodes, one PostgreSQL, ${VISIBILITY_UPDATES} updates, B asked every 5 ` +
      `ms) | median ${n(median(visible))} ms, p99 ${n(percentile(visible, 99))} ` +
      `ms, max ${n(Math.max(...visible))} ms |`,
    '',
    'Each node reads the change log every 500 ms, so the visibility figures ' +
      'are mostly that wait. The import rounds upsert the same 10,000 events ' +
      'with a changed field each time, so every line is a real change that ' +
      'drops the caches it touches (the cached home layout among them, which is ' +
      'why its p99 moves during the import).',
  ].join('\n');
  if (options.write)
    writeFileSync(
      'bench/RESULTS.md',
      replaceSection(readFileSync('bench/RESULTS.md', 'utf8'), section, sectionMarkers('catalog')),
    );
  return section;
}
