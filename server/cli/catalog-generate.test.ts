import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** `npm run catalog -- …`, as the command line runs it. */
const catalogCli = (...args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', 'server/cli/catalog.ts', ...args], { encoding: 'utf8' });

describe('npm run catalog -- --start', () => {
  let tmp: string;
  beforeAll(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'catalog-cli-'));
  });
  afterAll(() => rm(tmp, { recursive: true, force: true }));

  it.each(['2026-13-45', '2026-02-29', '2026-04-31', '2026-1-01'])(
    'refuses %s, which is not a calendar day, with exit 2 and the usage',
    (start) => {
      const out = path.join(tmp, start);
      const result = catalogCli('--events', '100', '--start', start, '--out', out);
      expect(result.status).toBe(2);
      expect(result.stderr.split('\n')).toEqual([
        '--start: start must be a real date, YYYY-MM-DD',
        'usage: npm run catalog -- [--events N] [--seed S] [--start YYYY-MM-DD] ' +
          '[--out DIR]   (or: npm run catalog -- import DIR|FILE…)',
        '',
      ]);
      expect(existsSync(out)).toBe(false);
    },
  );

  it('generates from a leap day', () => {
    const out = path.join(tmp, 'leap');
    const result = catalogCli('--events', '100', '--start', '2028-02-29', '--out', out);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('generating 100 events (seed 22791, from 2028-02-29)');
    expect(existsSync(path.join(out, 'manifest.json'))).toBe(true);
  });
});
