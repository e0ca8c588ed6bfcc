import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EnvError, parseEnv } from './env.js';

describe('parseEnv', () => {
  it('gives every variable its default on an empty environment', () => {
    const env = parseEnv({});
    expect(env).toMatchObject({
      HOST: '127.0.0.1',
      PORT: 3000,
      NODE_ENV: 'development',
      LOG_LEVEL: 'info',
      CATALOG_EVENTS: 20000,
    });
    expect(env.dataDir).toBe(path.resolve('data'));
    expect(env.catalogDir).toBe(path.resolve('data', 'catalog'));
  });

  it('coerces numbers from strings', () => {
    expect(parseEnv({ PORT: '8080', SHUTDOWN_TIMEOUT_MS: '500' })).toMatchObject({
      PORT: 8080,
      SHUTDOWN_TIMEOUT_MS: 500,
    });
  });

  it('reads the shared caches to purge as a list of origins, and refuses what is not an http(s) address', () => {
    expect(parseEnv({}).SHARED_CACHE_PURGE_URLS).toEqual([]);
    expect(
      parseEnv({ SHARED_CACHE_PURGE_URLS: ' http://127.0.0.1:6081/ , https://cache.example.com' })
        .SHARED_CACHE_PURGE_URLS,
    ).toEqual(['http://127.0.0.1:6081', 'https://cache.example.com']);
    expect(() => parseEnv({ SHARED_CACHE_PURGE_URLS: 'http://127.0.0.1:6081,varnish:6081' })).toThrow(
      /SHARED_CACHE_PURGE_URLS.*must be http\(s\) addresses/,
    );
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

  it('bounds the heap and the search results by default (RULES 13.12), and names a bad setting', () => {
    expect(parseEnv({})).toMatchObject({ HEAP_GROWTH_PERCENT: 20, SEARCH_CACHE_MB: 24 });
    expect(parseEnv({ HEAP_GROWTH_PERCENT: '0' }).HEAP_GROWTH_PERCENT).toBe(0);
    expect(() => parseEnv({ HEAP_GROWTH_PERCENT: '-5' })).toThrow(/HEAP_GROWTH_PERCENT/);
  });
});

describe('parseEnv with Typesense settings', () => {
  it('searches in process when no Typesense node is set', () => {
    expect(parseEnv({}).typesense).toBeNull();
  });

  it('reads a Typesense node and lists its problems with the others', () => {
    expect(parseEnv({ TYPESENSE_URL: 'http://127.0.0.1:8108', TYPESENSE_API_KEY: 'k' }).typesense?.nodes).toHaveLength(
      1,
    );
    expect(() => parseEnv({ PORT: 'x', TYPESENSE_URL: 'http://127.0.0.1:8108' })).toThrow(
      /PORT[\s\S]*TYPESENSE_API_KEY/,
    );
  });
});

describe('parseEnv with TRUST_PROXY', () => {
  it('believes no forwarded header by default', () => {
    expect(parseEnv({}).TRUST_PROXY).toBe(false);
    expect(parseEnv({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
    expect(parseEnv({ TRUST_PROXY: '0' }).TRUST_PROXY).toBe(false);
  });

  it('reads a hop count or a list of addresses, ranges and names', () => {
    expect(parseEnv({ TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1);
    expect(parseEnv({ TRUST_PROXY: 'loopback, 10.0.0.0/8,fd00::/8 , 192.0.2.7' }).TRUST_PROXY).toEqual([
      'loopback',
      '10.0.0.0/8',
      'fd00::/8',
      '192.0.2.7',
    ]);
  });

  it('refuses true, which would let any client choose its address, and says what to give instead', () => {
    expect(() => parseEnv({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY.*hop count|TRUST_PROXY.*number of proxies/);
  });

  it('refuses an entry that is not an address, range or name, naming it with the other problems', () => {
    let message = '';
    try {
      parseEnv({ TRUST_PROXY: '10.0.0.5, proxy.internal, 10.0.0.0/99', PORT: 'x' });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/PORT/);
    expect(message).toMatch(/TRUST_PROXY/);
    expect(message).toContain('"proxy.internal"');
    expect(message).toContain('"10.0.0.0/99"');
    expect(message).not.toContain('"10.0.0.5"');
  });
});

describe('parseEnv for the other hardening settings', () => {
  it('refuses the one scanner key for every gate that is gone, saying how keys are made now (RULES 19.6)', () => {
    expect(() => parseEnv({ TICKET_SCANNER_KEY: 'gate-scanner-key-0001' })).toThrow(
      /TICKET_SCANNER_KEY is no longer read: .*npm run scanners -- add/,
    );
    expect(parseEnv({ DATA_DIR: '/srv/shop' }).scannerRecordsDir).toBe(path.join('/srv/shop', 'scanners'));
  });

  it('serves source maps only when SERVE_SOURCE_MAPS is true', () => {
    expect(parseEnv({}).SERVE_SOURCE_MAPS).toBe(false);
    expect(
      parseEnv({ NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(32), PUBLIC_BASE_URL: 'https://t.example' })
        .SERVE_SOURCE_MAPS,
    ).toBe(false);
    expect(parseEnv({ SERVE_SOURCE_MAPS: 'true' }).SERVE_SOURCE_MAPS).toBe(true);
    expect(() => parseEnv({ SERVE_SOURCE_MAPS: 'yes' })).toThrow(/SERVE_SOURCE_MAPS/);
  });

  it('limits carts, listings, checkout and flag requests by default', () => {
    expect(parseEnv({})).toMatchObject({
      RATE_LIMIT_CARTS_PER_MINUTE: 20,
      RATE_LIMIT_LISTINGS_PER_MINUTE: 120,
      RATE_LIMIT_CHECKOUT_PER_MINUTE: 20,
      RATE_LIMIT_FLAGS_PER_MINUTE: 600,
    });
    expect(() => parseEnv({ RATE_LIMIT_CHECKOUT_PER_MINUTE: '0' })).toThrow(/RATE_LIMIT_CHECKOUT_PER_MINUTE/);
    expect(() => parseEnv({ RATE_LIMIT_FLAGS_PER_MINUTE: '0' })).toThrow(/RATE_LIMIT_FLAGS_PER_MINUTE/);
  });
});

describe('parseEnv with PUBLIC_BASE_URL', () => {
  it('is unset by default, and reads an http(s) origin with or without its final slash', () => {
    expect(parseEnv({}).PUBLIC_BASE_URL).toBeUndefined();
    expect(parseEnv({ PUBLIC_BASE_URL: 'https://Tickets.Example.com/' }).PUBLIC_BASE_URL).toBe(
      'https://tickets.example.com',
    );
    expect(parseEnv({ PUBLIC_BASE_URL: 'http://localhost:3000' }).PUBLIC_BASE_URL).toBe('http://localhost:3000');
  });

  it('refuses another scheme, a path, a query or something that is not a URL, naming the variable', () => {
    for (const value of [
      'ftp://tickets.example.com',
      'https://tickets.example.com/shop',
      'https://tickets.example.com/?a=1',
      'tickets.example.com',
    ]) {
      expect(() => parseEnv({ PUBLIC_BASE_URL: value }), value).toThrow(/PUBLIC_BASE_URL/);
    }
  });

  it('is required in production, with the other problems of the environment', () => {
    const production = { NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(32) };
    expect(() => parseEnv(production)).toThrow(/PUBLIC_BASE_URL: required in production/);
    // Every problem at once, as for any other variable.
    expect(() => parseEnv({ ...production, PORT: 'x' })).toThrow(/PORT: [\s\S]*PUBLIC_BASE_URL: required/);
    expect(parseEnv({ ...production, PUBLIC_BASE_URL: 'https://tickets.example.com' }).PUBLIC_BASE_URL).toBe(
      'https://tickets.example.com',
    );
    // Outside production it stays optional: the loopback origin stands in (`server/seo/public-origins.ts`).
    expect(parseEnv({ NODE_ENV: 'development' }).PUBLIC_BASE_URL).toBeUndefined();
  });
});

describe('parseEnv with PUBLIC_ORIGINS', () => {
  it('lists origins, comma-separated, none by default', () => {
    expect(parseEnv({}).PUBLIC_ORIGINS).toEqual([]);
    expect(parseEnv({ PUBLIC_ORIGINS: ' https://Shop.Example.com/ , http://localhost:5173' }).PUBLIC_ORIGINS).toEqual([
      'https://shop.example.com',
      'http://localhost:5173',
    ]);
  });

  it('refuses a host without a scheme, a path or another scheme, naming the variable', () => {
    for (const value of [
      'shop.example.com',
      'https://shop.example.com/x',
      'ftp://shop.example.com',
      'https://a.example,x',
    ])
      expect(() => parseEnv({ PUBLIC_ORIGINS: value }), value).toThrow(/PUBLIC_ORIGINS/);
  });
});

describe('parseEnv with mail settings', () => {
  it('writes .eml files, from orders@localhost, retrying at most every 10 minutes by default', () => {
    const env = parseEnv({});
    expect(env.SMTP_URL).toBeUndefined();
    expect(env.MAIL_FROM).toEqual({ name: 'Ticket Storefront', address: 'orders@localhost' });
    expect(env.MAIL_RETRY_MAX_SECONDS).toBe(600);
    expect(env.MAIL_LEASE_SECONDS).toBe(300);
  });

  it('takes a mail lease from 10 s to an hour, naming the variable otherwise', () => {
    expect(parseEnv({ MAIL_LEASE_SECONDS: '30' }).MAIL_LEASE_SECONDS).toBe(30);
    for (const bad of ['9', '3601', '2.5', 'soon'])
      expect(() => parseEnv({ MAIL_LEASE_SECONDS: bad }), bad).toThrow(/MAIL_LEASE_SECONDS must be a whole number/);
  });

  it('takes an smtp:// or smtps:// URL with credentials and query options', () => {
    const url = 'smtps://user:p%40ss@mail.example.com:465?tls.rejectUnauthorized=false';
    expect(parseEnv({ SMTP_URL: url }).SMTP_URL).toBe(url);
    expect(parseEnv({ SMTP_URL: 'smtp://127.0.0.1:2525' }).SMTP_URL).toBe('smtp://127.0.0.1:2525');
  });

  it('refuses an SMTP_URL that is not an smtp(s) URL with a host, naming the variable and the form', () => {
    for (const bad of ['mail.example.com', 'http://mail.example.com', 'smtp://', 'smtp:mail'])
      expect(() => parseEnv({ SMTP_URL: bad }), bad).toThrow(/SMTP_URL must be an smtp:\/\/ or smtps:\/\/ URL/);
  });

  it('refuses an SMTP_URL whose credentials have a % that starts no escape, saying how to write one', () => {
    for (const bad of ['smtp://user:50%off@mail.example.com', 'smtps://us%zzer:secret@mail.example.com:465'])
      expect(() => parseEnv({ SMTP_URL: bad }), bad).toThrow(/SMTP_URL has a % in its user name or password/);
    expect(parseEnv({ SMTP_URL: 'smtp://user:50%25off@mail.example.com' }).SMTP_URL).toBeDefined();
  });

  it('reads MAIL_FROM as an address alone or with a name, and refuses anything else', () => {
    expect(parseEnv({ MAIL_FROM: 'orders@tickets.example' }).MAIL_FROM).toEqual({
      name: null,
      address: 'orders@tickets.example',
    });
    expect(parseEnv({ MAIL_FROM: '"Box Office" <box@tickets.example>' }).MAIL_FROM).toEqual({
      name: 'Box Office',
      address: 'box@tickets.example',
    });
    expect(() => parseEnv({ MAIL_FROM: 'Box Office' })).toThrow(/MAIL_FROM must be an email address/);
    expect(() => parseEnv({ MAIL_RETRY_MAX_SECONDS: '0' })).toThrow(/MAIL_RETRY_MAX_SECONDS/);
  });
});
