import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runIndexCli } from './search-index.js';
import type { ReindexClient } from '../search/typesense/reindex.js';

function io() {
  const out: string[] = [];
  const err: string[] = [];
  const clients: unknown[] = [];
  return {
    out,
    err,
    clients,
    io: {
      out: (l: string) => out.push(l),
      err: (l: string) => err.push(l),
      createClient: (config: unknown) => {
        clients.push(config);
        return {} as ReindexClient;
      },
    },
  };
}

describe('runIndexCli', () => {
  it('exits 1 with a clear message when no Typesense node is configured', async () => {
    const run = io();
    expect(await runIndexCli({}, run.io)).toBe(1);
    expect(run.err).toEqual([
      'No Typesense node configured: set TYPESENSE_URL (or TYPESENSE_NODES) and TYPESENSE_API_KEY.',
    ]);
    expect(run.clients).toEqual([]);
  });

  it('exits 1 listing the problems of a bad configuration', async () => {
    const run = io();
    expect(await runIndexCli({ TYPESENSE_URL: 'http://a:8108' }, run.io)).toBe(1);
    expect(run.err.join('\n')).toMatch(/TYPESENSE_API_KEY: required/);
  });

  it('exits 1 naming the catalog when there is none, without printing the key', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'index-cli-'));
    try {
      const run = io();
      const code = await runIndexCli(
        { TYPESENSE_URL: 'http://a:8108', TYPESENSE_API_KEY: 'secret-key', DATA_DIR: dataDir },
        run.io,
      );
      expect(code).toBe(1);
      expect(run.out[0]).toBe(`Indexing ${path.join(dataDir, 'catalog')} into Typesense at http://a:8108`);
      expect(run.err).toEqual([
        `Indexing failed: no catalog in ${path.join(dataDir, 'catalog')}: run \`npm run catalog\` first`,
      ]);
      expect([...run.out, ...run.err].join('\n')).not.toContain('secret-key');
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
