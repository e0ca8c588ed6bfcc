/**
 * What writing one exposure costs the store: the server's CPU (all threads, PGlite's worker included) per row,
 * writing batches of exposures as a cached home layout records them under load (RULES 16.1, 16.5). Printed only.
 *
 *   node --import tsx bench/exposure-writes.ts [--batches 20] [--rows 1000] [--rounds 3] [--dir DIR] [--sql FILE]
 *
 * `--sql FILE` runs the statements in FILE (`;`-separated) after the migrations, to try a schema change.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { EventCollector } from '../server/analytics/event-collector.js';
import { EventLog } from '../server/analytics/event-log.js';
import { migrate } from '../server/store/migrations.js';
import { openPglite } from '../server/store/pglite-sql.js';

async function main() {
  const { values } = parseArgs({
    options: {
      batches: { type: 'string', default: '20' },
      rows: { type: 'string', default: '1000' },
      rounds: { type: 'string', default: '3' },
      dir: { type: 'string' },
      sql: { type: 'string' },
    },
  });
  const dir = values.dir ?? (await mkdtemp(path.join(os.tmpdir(), 'exposure-writes-')));
  const sql = await openPglite(path.join(dir, 'db'));
  try {
    await migrate(sql);
    if (values.sql)
      for (const statement of (await readFile(values.sql, 'utf8')).split(';').map((s) => s.trim()))
        if (statement) await sql.query(statement);
    const log = new EventLog(sql, { flushEveryMs: 60_000 });
    const events = new EventCollector(log);
    const rows = Number(values.rows);
    const batches = Number(values.batches);
    let guest = 0;
    const batch = () => {
      for (let i = 0; i < rows; i++)
        events.exposures(
          {
            guest: `g${(guest++ % 5_000).toString().padStart(8, '0')}-0000-4000-8000-000000000000`,
            brand: 'tix',
            device: 'desktop',
          },
          { page: '/', pageView: undefined, variation: 'rows-b', segmentVersion: 3 },
          [{ key: 'home-rows', variationId: '1' }],
        );
    };
    // A warm-up round first, not counted.
    for (let round = 0; round <= Number(values.rounds); round++) {
      const before = process.cpuUsage();
      const began = performance.now();
      for (let b = 0; b < batches; b++) {
        batch();
        await log.flush();
      }
      const cpu = process.cpuUsage(before);
      const wall = performance.now() - began;
      const perRow = (µs: number) => (µs / (rows * batches)).toFixed(1);
      console.log(
        `${round === 0 ? 'warm-up' : `round ${round}`}: ${perRow(cpu.user + cpu.system)} µs CPU per row ` +
          `(${perRow(wall * 1000)} µs wall), ${log.stats().written} written`,
      );
    }
  } finally {
    await sql.close();
    if (!values.dir) await rm(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
