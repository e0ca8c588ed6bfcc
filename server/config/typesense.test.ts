import { describe, expect, it } from 'vitest';
import { Client } from 'typesense';
import { EnvError } from './env.js';
import { clientOptions, describeTypesenseConfig, parseNodeUrl, parseTypesenseConfig } from './typesense.js';

const problems = (env: Record<string, string>) => {
  try {
    parseTypesenseConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(EnvError);
    return (err as EnvError).problems;
  }
  throw new Error('expected an EnvError');
};

describe('parseTypesenseConfig', () => {
  it('is null when no node is configured, blank values counting as unset', () => {
    expect(parseTypesenseConfig({})).toBeNull();
    expect(parseTypesenseConfig({ TYPESENSE_URL: '', TYPESENSE_NODES: ' ', TYPESENSE_API_KEY: 'k' })).toBeNull();
  });

  it('reads one node with every default', () => {
    expect(parseTypesenseConfig({ TYPESENSE_URL: 'http://127.0.0.1:8108', TYPESENSE_API_KEY: 'secret' })).toEqual({
      nodes: [{ protocol: 'http', host: '127.0.0.1', port: 8108, path: '' }],
      apiKey: 'secret',
      timeoutSeconds: 2,
      retries: 3,
      retryIntervalSeconds: 0.1,
      collectionPrefix: '',
    });
  });

  it('reads a cluster, a nearest node and every setting', () => {
    const config = parseTypesenseConfig({
      TYPESENSE_NODES: 'https://ts-1.internal, https://ts-2.internal:8443/search/,http://[::1]:8108',
      TYPESENSE_NEAREST_NODE: 'https://ts.example.net',
      TYPESENSE_API_KEY: 'secret',
      TYPESENSE_TIMEOUT_SECONDS: '5',
      TYPESENSE_RETRIES: '0',
      TYPESENSE_RETRY_INTERVAL_SECONDS: '0.5',
      TYPESENSE_COLLECTION_PREFIX: 'brand-a_',
    });
    expect(config).toEqual({
      nodes: [
        { protocol: 'https', host: 'ts-1.internal', port: 443, path: '' },
        { protocol: 'https', host: 'ts-2.internal', port: 8443, path: '/search' },
        { protocol: 'http', host: '[::1]', port: 8108, path: '' },
      ],
      nearestNode: { protocol: 'https', host: 'ts.example.net', port: 443, path: '' },
      apiKey: 'secret',
      timeoutSeconds: 5,
      retries: 0,
      retryIntervalSeconds: 0.5,
      collectionPrefix: 'brand-a_',
    });
  });

  it('lists every problem at once', () => {
    const list = problems({
      TYPESENSE_URL: 'ftp://x',
      TYPESENSE_NODES: 'http://a:8108',
      TYPESENSE_TIMEOUT_SECONDS: 'soon',
      TYPESENSE_RETRIES: '-1',
      TYPESENSE_COLLECTION_PREFIX: 'a/b',
    });
    expect(list.join('\n')).toMatch(/^TYPESENSE_URL: .*http or https/m);
    expect(list.join('\n')).toMatch(/^TYPESENSE_TIMEOUT_SECONDS:/m);
    expect(list.join('\n')).toMatch(/^TYPESENSE_RETRIES:/m);
    expect(list.join('\n')).toMatch(/^TYPESENSE_COLLECTION_PREFIX:/m);
  });

  it('needs the key with a node, one way to name nodes, and a node for a nearest node', () => {
    expect(problems({ TYPESENSE_URL: 'http://a:8108' })).toEqual([
      'TYPESENSE_API_KEY: required when a Typesense node is set',
    ]);
    expect(
      problems({ TYPESENSE_URL: 'http://a:8108', TYPESENSE_NODES: 'http://b:8108', TYPESENSE_API_KEY: 'k' }),
    ).toEqual(['TYPESENSE_NODES: set TYPESENSE_URL or TYPESENSE_NODES, not both']);
    expect(problems({ TYPESENSE_NEAREST_NODE: 'http://a:8108' })).toEqual([
      'TYPESENSE_NEAREST_NODE: needs TYPESENSE_URL or TYPESENSE_NODES as well',
    ]);
  });

  it('refuses URLs with credentials, queries or bad nodes in a list', () => {
    expect(() => parseNodeUrl('http://user:pw@a:8108')).toThrow(/credentials/);
    expect(() => parseNodeUrl('http://a:8108/?x=1')).toThrow(/query/);
    expect(() => parseNodeUrl('not a url')).toThrow(/not a URL/);
    expect(problems({ TYPESENSE_NODES: 'http://a:8108,nope', TYPESENSE_API_KEY: 'k' })).toEqual([
      'TYPESENSE_NODES: `nope` is not a URL',
    ]);
  });
});

describe('clientOptions', () => {
  const config = parseTypesenseConfig({
    TYPESENSE_NODES: 'http://a:8108,https://b',
    TYPESENSE_NEAREST_NODE: 'https://near',
    TYPESENSE_API_KEY: 'secret',
  })!;

  it('maps the configuration onto the client’s options, keeping the key in a header', () => {
    expect(clientOptions(config)).toEqual({
      nodes: [
        { protocol: 'http', host: 'a', port: 8108, path: '' },
        { protocol: 'https', host: 'b', port: 443, path: '' },
      ],
      nearestNode: { protocol: 'https', host: 'near', port: 443, path: '' },
      apiKey: 'secret',
      connectionTimeoutSeconds: 2,
      numRetries: 3,
      retryIntervalSeconds: 0.1,
      sendApiKeyAsQueryParam: false,
      logLevel: 'warn',
    });
  });

  it('is accepted by the typesense client', () => {
    expect(() => new Client(clientOptions(config))).not.toThrow();
  });

  it('describes the configuration without the key', () => {
    const text = describeTypesenseConfig({ ...config, collectionPrefix: 'x_' });
    expect(text).toBe('Typesense at http://a:8108, https://b:443, nearest https://near:443, collection prefix `x_`');
    expect(text).not.toContain('secret');
  });
});
