import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkCatalogInvariants } from './check-catalog.js';
import { generateCatalog } from './generate-catalog.js';

// Generating and checking a million events takes about 35 s of CPU (up to two minutes on two busy cores); it runs
// in a worker of its own beside the rest of the suite. CATALOG_1M=0 leaves it out of a quick local run.
const EVENTS = 1_000_000;
const asked = process.env.CATALOG_1M !== '0';
let tmp: string | undefined;
afterAll(() => (tmp ? rm(tmp, { recursive: true, force: true }) : undefined));

describe.runIf(asked)('a catalog of a million events', () => {
  it('keeps every catalog invariant', { timeout: 600_000 }, async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'catalog-1m-'));
    const dir = path.join(tmp, 'catalog');
    await generateCatalog({ events: EVENTS, seed: 22791, start: '2027-06-14', outDir: dir });
    const result = await checkCatalogInvariants(dir);
    expect(result.violations).toEqual([]);
    expect(result.events).toBe(EVENTS);
    expect(result.leagueGames).toBeGreaterThan(5_000);
  });
});
