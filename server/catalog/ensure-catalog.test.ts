import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureCatalog } from './ensure-catalog.js';
import { readManifest } from './manifest.js';

const logger = pino({ level: 'silent' });
let tmp: string | undefined;
afterAll(() => (tmp ? rm(tmp, { recursive: true, force: true }) : undefined));

describe('ensureCatalog', () => {
  it('generates when absent, keeps a current catalog, regenerates a stale one', async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'ensure-catalog-'));
    const dir = path.join(tmp, 'catalog');
    const day1 = new Date('2026-11-21T10:00:00Z');
    expect(await ensureCatalog({ dir, events: 600, seed: 1, logger, now: day1 })).toBe('generated');
    expect((await readManifest(dir))?.start).toBe('2026-11-21');

    const day20 = new Date('2026-12-11T10:00:00Z');
    expect(await ensureCatalog({ dir, events: 600, seed: 1, logger, now: day20 })).toBe('kept');

    const day45 = new Date('2027-01-05T10:00:00Z');
    expect(await ensureCatalog({ dir, events: 600, seed: 1, logger, now: day45 })).toBe('generated');
    expect((await readManifest(dir))?.start).toBe('2027-01-05');
  });
});
