import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileRecordStores } from '../store/record-collections.js';
import { AUDIT_LIMIT, brandOfFile, brandsOfChange, SegmentAudit } from './segment-audit.js';

let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'segment-audit-'));
});
afterAll(() => rm(tmp, { recursive: true, force: true }));

describe('the studio audit log (RULES 18.5)', () => {
  it('reads back at most 500 entries, newest first, those of the brands asked for and the registry', async () => {
    const audit = new SegmentAudit(fileRecordStores(tmp));
    const ana = { id: 'u1', name: 'Ana' };
    for (let i = 0; i < AUDIT_LIMIT + 10; i++)
      await audit.record(ana, { action: 'save', brands: [i % 2 ? 'encore' : 'base'], summary: `save ${i}` });
    await audit.record(ana, { action: 'save', brands: ['*'], summary: 'the registry' });
    expect(AUDIT_LIMIT).toBe(500);
    const all = await audit.recent();
    expect(all).toHaveLength(500);
    expect(all[0]).toMatchObject({ summary: 'the registry', actor: ana });
    expect(all[1]!.summary).toBe(`save ${AUDIT_LIMIT + 9}`);
    // A larger limit asked for is still 500.
    expect(await audit.recent({ limit: 10_000 })).toHaveLength(500);
    const encore = await audit.recent({ brands: new Set(['encore', '*']), limit: 3 });
    expect(encore.map((e) => e.summary)).toEqual(['the registry', 'save 509', 'save 507']);
  });

  it('names the brand a file belongs to: its folder, or every brand for the registry', () => {
    expect(brandOfFile('encore/explore.json')).toBe('encore');
    expect(brandOfFile('brands.json')).toBe('*');
    expect(
      brandsOfChange(
        { 'brands.json': 'a', 'base/x.json': 'b' },
        { 'brands.json': 'a', 'base/x.json': 'c', 'encore/y.json': 'd' },
      ),
    ).toEqual(['base', 'encore']);
  });
});
