import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EnvError } from './env-error.js';
import { createFlagSource } from '../flags/flag-source.js';
import { DEFAULT_CLIENT_KEY, parseFlagsConfig } from './flags.js';
import { FlagStore } from '../flags/flags-file.js';
import { RemoteFlagSource } from '../flags/remote.js';

const problems = (env: Record<string, string>) => {
  try {
    parseFlagsConfig(env);
  } catch (err) {
    if (err instanceof EnvError) return err.problems;
    throw err;
  }
  throw new Error('expected an EnvError');
};

describe('parseFlagsConfig', () => {
  it('defaults to the watched segments/flags.json and a local client key', () => {
    expect(parseFlagsConfig({})).toEqual({
      file: path.resolve('segments/flags.json'),
      watch: true,
      clientKey: DEFAULT_CLIENT_KEY,
      remote: null,
    });
    expect(parseFlagsConfig({ SEGMENTS_DIR: '/srv/segments', SEGMENTS_WATCH: 'false' })).toMatchObject({
      file: '/srv/segments/flags.json',
      watch: false,
    });
    expect(
      parseFlagsConfig({ FLAGS_FILE: '/etc/flags.json', FLAGS_CLIENT_KEY: 'sdk-mine', GROWTHBOOK_API_HOST: '' }),
    ).toMatchObject({
      file: '/etc/flags.json',
      clientKey: 'sdk-mine',
      remote: null,
    });
  });

  it('reads a remote GrowthBook, reusing its public client key unless FLAGS_CLIENT_KEY is set', () => {
    const config = parseFlagsConfig({
      GROWTHBOOK_API_HOST: 'https://cdn.growthbook.io/',
      GROWTHBOOK_CLIENT_KEY: 'sdk-abc123',
    });
    expect(config.remote).toEqual({ host: 'https://cdn.growthbook.io', clientKey: 'sdk-abc123', timeoutMs: 5_000 });
    expect(config.clientKey).toBe('sdk-abc123');
    expect(
      parseFlagsConfig({
        GROWTHBOOK_API_HOST: 'http://proxy:3300/gb',
        GROWTHBOOK_CLIENT_KEY: 'sdk-a',
        GROWTHBOOK_TIMEOUT_MS: '800',
        FLAGS_CLIENT_KEY: 'sdk-b',
      }),
    ).toMatchObject({
      clientKey: 'sdk-b',
      remote: { host: 'http://proxy:3300/gb', timeoutMs: 800 },
    });
  });

  it('lists every problem at once', () => {
    expect(problems({ GROWTHBOOK_API_HOST: 'https://gb.example' })).toEqual([
      'GROWTHBOOK_CLIENT_KEY: required when GROWTHBOOK_API_HOST is set',
    ]);
    expect(problems({ GROWTHBOOK_CLIENT_KEY: 'sdk-a' })).toEqual([
      'GROWTHBOOK_API_HOST: required when GROWTHBOOK_CLIENT_KEY is set',
    ]);
    expect(
      problems({ GROWTHBOOK_API_HOST: 'ftp://gb.example', GROWTHBOOK_CLIENT_KEY: 'sdk a', GROWTHBOOK_TIMEOUT_MS: '0' }),
    ).toEqual([
      'GROWTHBOOK_API_HOST: `ftp://gb.example` must be http or https',
      expect.stringMatching(/^GROWTHBOOK_CLIENT_KEY: /),
      expect.stringMatching(/^GROWTHBOOK_TIMEOUT_MS: /),
    ]);
    expect(problems({ GROWTHBOOK_API_HOST: 'https://user:pw@gb.example?x=1', GROWTHBOOK_CLIENT_KEY: 'sdk-a' })).toEqual(
      [expect.stringMatching(/^GROWTHBOOK_API_HOST: .*without query, fragment or credentials$/)],
    );
  });
});

describe('createFlagSource', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('serves the file when no remote is set', async () => {
    const source = await createFlagSource({ ...parseFlagsConfig({}), watch: false });
    expect(source).toBeInstanceOf(FlagStore);
    expect(source.payload().features.recent_trending_search?.defaultValue).toBe(true);
    source.close();
  });

  it("serves the file's flags from a remote source while GrowthBook cannot be reached", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('fetch failed'))),
    );
    const logger = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
    const source = await createFlagSource(
      parseFlagsConfig({ GROWTHBOOK_API_HOST: 'https://gb.example', GROWTHBOOK_CLIENT_KEY: 'sdk-a' }),
      logger,
    );
    expect(source).toBeInstanceOf(RemoteFlagSource);
    expect(source.payload().features.home_layout?.defaultValue).toBe('base');
    expect(source.status()).toMatchObject({ source: 'remote', ok: false });
    source.close();
  });
});
