import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EnvError, parseEnv } from './env.js';

describe('parseEnv', () => {
  it('gives every variable its default on an empty environment', () => {
    const env = parseEnv({});
    expect(env).toMatchObject({ HOST: '127.0.0.1', PORT: 3000, NODE_ENV: 'development', LOG_LEVEL: 'info', CATALOG_EVENTS: 20000 });
    expect(env.dataDir).toBe(path.resolve('data'));
    expect(env.catalogDir).toBe(path.resolve('data', 'catalog'));
  });

  it('coerces numbers from strings', () => {
    expect(parseEnv({ PORT: '8080', SHUTDOWN_TIMEOUT_MS: '500' })).toMatchObject({ PORT: 8080, SHUTDOWN_TIMEOUT_MS: 500 });
  });

  it('lists every problem at once, naming each variable', () => {
    let error: unknown;
    try {
      parseEnv({ PORT: 'eighty', LOG_LEVEL: 'loud', NODE_ENV: 'staging' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(EnvError);
    const problems = (error as EnvError).problems.join('\n');
    expect((error as EnvError).problems).toHaveLength(3);
    expect(problems).toMatch(/^PORT:/m);
    expect(problems).toMatch(/^LOG_LEVEL:/m);
    expect(problems).toMatch(/^NODE_ENV:/m);
  });

  it('refuses a port out of range', () => {
    expect(() => parseEnv({ PORT: '70000' })).toThrow(/PORT/);
  });
});

describe('parseEnv with Typesense settings', () => {
  it('searches in process when no Typesense node is set', () => {
    expect(parseEnv({}).typesense).toBeNull();
  });

  it('reads a Typesense node and lists its problems with the others', () => {
    expect(parseEnv({ TYPESENSE_URL: 'http://127.0.0.1:8108', TYPESENSE_API_KEY: 'k' }).typesense?.nodes).toHaveLength(1);
    expect(() => parseEnv({ PORT: 'x', TYPESENSE_URL: 'http://127.0.0.1:8108' })).toThrow(/PORT[\s\S]*TYPESENSE_API_KEY/);
  });
});
