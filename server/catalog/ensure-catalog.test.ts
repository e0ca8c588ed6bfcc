import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureCatalog } from './ensure-catalog.js';
import { CATALOG_GENERATOR_VERSION, MANIFEST_FILE, readManifest } from './manifest.js';

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

  it('regenerates a current catalog written by an older generator, and keeps an import whatever wrote it', async () => {
    tmp ??= await mkdtemp(path.join(os.tmpdir(), 'ensure-catalog-'));
    const dir = path.join(tmp, 'older');
    const now = new Date('2026-11-21T10:00:00Z');
    expect(await ensureCatalog({ dir, events: 600, seed: 1, logger, now })).toBe('generated');
    expect((await readManifest(dir))?.generator).toBe(CATALOG_GENERATOR_VERSION);
    const rewrite = async (change: (m: Record<string, unknown>) => Record<string, unknown>) => {
      const file = path.join(dir, MANIFEST_FILE);
      await writeFile(file, JSON.stringify(change(JSON.parse(await readFile(file, 'utf8')))));
    };
    await rewrite(({ generator: _older, ...rest }) => rest);
    expect(await ensureCatalog({ dir, events: 600, seed: 1, logger, now })).toBe('generated');
    expect((await readManifest(dir))?.generator).toBe(CATALOG_GENERATOR_VERSION);
    await rewrite(({ generator: _older, ...rest }) => ({ ...rest, source: 'import' }));
    expect(await ensureCatalog({ dir, events: 600, seed: 1, logger, now })).toBe('kept');
  });
});
