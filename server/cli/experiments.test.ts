import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExperimentResultsSchema } from '../../shared/schemas/experiment-results.js';
import { EventLog, type EventRecord } from '../analytics/event-log.js';
import { parseEnv } from '../config/env.js';
import { openStore } from '../store/open-store.js';
import { testAppWithSegments } from '../test/test-app.js';
import { runExperimentsCli } from './experiments.js';

let dir: string;
const at = new Date(Date.now() - 3_600_000);

/** 10 guests in each variation of home-layout; 2 of control's and 3 of promos' buy after it, one of promos' before. */
function history(): EventRecord[] {
  const rows: EventRecord[] = [];
  const base = { brand: 'base', device: 'desktop' as const };
  for (let i = 0; i < 20; i++) {
    const guest = `g-${i}`;
    const variation = i < 10 ? '0' : '1';
    rows.push({ ...base, name: 'experiment_viewed', at, guest, experimentId: 'home-layout', variationId: variation });
  }
  const buy = (guest: string, id: string, revenue: number, when = new Date(at.getTime() + 60_000)) =>
    rows.push({ ...base, name: 'purchase', at: when, guest, orderId: id, revenue, once: `o:${id}` });
  buy('g-0', 'A1', 100);
  buy('g-1', 'A2', 50);
  buy('g-10', 'B1', 80);
  buy('g-11', 'B2', 80);
  buy('g-12', 'B3', 40);
  buy('g-13', 'B0', 999, new Date(at.getTime() - 60_000));
  return rows;
}

async function run(argv: string[], env: NodeJS.ProcessEnv = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runExperimentsCli(
    argv,
    { DATA_DIR: dir, ...env },
    {
      out: (l) => out.push(l),
      err: (l) => err.push(l),
    },
  );
  return { code, out: out.join('\n'), err: err.join('\n') };
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'experiments-cli-'));
  const sql = await openStore({ dataDir: dir });
  const log = new EventLog(sql);
  log.record(...history());
  await log.close();
  await sql.close();
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('npm run experiments -- results', () => {
  it('prints each variation’s users, purchasers after exposure, revenue and the sample-ratio check', async () => {
    const { code, out } = await run(['results', 'home-layout']);
    expect(code).toBe(0);
    expect(out).toMatch(/Experiment home-layout \(feature home_layout\)/);
    expect(out).toMatch(/^0 base\s+50\.00%\s+10\s+2\s+20\.00%/m);
    expect(out).toMatch(/^1 promos\s+50\.00%\s+10\s+3\s+30\.00%.*\$20\.00/m);
    expect(out).toMatch(/Sample ratio: chi-square 0, p = 1 \(ok\)/);
  });

  it('gives the same numbers as JSON as the API answers them', async () => {
    const cli = ExperimentResultsSchema.parse(JSON.parse((await run(['results', 'home-layout', '--json'])).out));
    const sql = await openStore({ dataDir: dir });
    const env = parseEnv({ NODE_ENV: 'test', STUDIO_KEY: 'studio-key-for-the-cli-tests' });
    const { app } = await testAppWithSegments({ sql, env });
    const server: Server = createServer(app).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    try {
      const { port } = server.address() as { port: number };
      const viaUrl = await run(['results', 'home-layout', '--json', '--url', `http://127.0.0.1:${port}`], {
        STUDIO_KEY: 'studio-key-for-the-cli-tests',
      });
      expect(viaUrl.code).toBe(0);
      expect(JSON.parse(viaUrl.out)).toEqual(cli);
      const refused = await run(['results', 'home-layout', '--url', `http://127.0.0.1:${port}`]);
      expect(refused.code).toBe(1);
      expect(refused.err).toMatch(/answered 401/);
    } finally {
      await new Promise((r) => server.close(r));
      await sql.close();
    }
    expect(cli.variations.map((v) => [v.users, v.purchasers, v.revenue])).toEqual([
      [10, 2, 150],
      [10, 3, 200],
    ]);
  });

  it('counts only exposures since --since, and explains a bad date or an unknown experiment', async () => {
    const later = await run(['results', 'home-layout', '--json', '--since', new Date().toISOString()]);
    expect(JSON.parse(later.out).variations.map((v: { users: number }) => v.users)).toEqual([0, 0]);
    const bad = await run(['results', 'home-layout', '--since', 'last week']);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/since must be an ISO date/);
    const unknown = await run(['results', 'nope']);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toMatch(/No experiment "nope" \(experiments: ab-search, home-layout\)/);
    expect((await run(['bogus'])).code).toBe(2);
  });
});
