import { once } from 'node:events';
import { createServer, get } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import type { App } from '../app.js';
import { parseEnv } from '../config/env.js';
import { testApp } from '../test/test-app.js';

describe('security headers (OWASP ASVS V14.4)', () => {
  it('sends pages and their files a strict CSP, HSTS for a year, nosniff and a referrer policy', async () => {
    // Pages, and the images and files they load (an SVG opened on its own is a document too).
    const res = await request(testApp().app).get('/media/categories/nonsense.svg');
    const csp = res.headers['content-security-policy'];
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  it(
    'refuses framing of pages the same way in both headers: frame-ancestors ' + "'none' and X-Frame-Options DENY",
    async () => {
      const res = await request(testApp().app).get('/media/categories/nonsense.svg');
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(res.headers['x-frame-options']).toBe('DENY');
    },
  );

  it('sends data answers the OWASP REST set: nothing to load, no framing, HSTS, nosniff, no referrer', async () => {
    const { app } = testApp();
    for (const path of ['/healthz', '/api/nothing', '/api/features/unknown']) {
      const res = await request(app).get(path);
      expect(res.headers['content-security-policy'], path).toBe("default-src 'none';frame-ancestors 'none'");
      expect(res.headers['x-frame-options'], path).toBe('DENY');
      expect(res.headers['strict-transport-security'], path).toBe('max-age=31536000; includeSubDomains');
      expect(res.headers['x-content-type-options'], path).toBe('nosniff');
      expect(res.headers['referrer-policy'], path).toBe('no-referrer');
      expect(res.headers['cross-origin-resource-policy'], path).toBe('same-origin');
      expect(res.headers['x-dns-prefetch-control'], path).toBeUndefined();
      expect(res.headers['x-powered-by'], path).toBeUndefined();
    }
  });
});

describe('CORS', () => {
  const env = parseEnv({ NODE_ENV: 'test', CORS_ORIGINS: 'https://partner.example.com' });
  const { app } = testApp({ env });

  it('allows only the configured origins', async () => {
    const allowed = await request(app).get('/api/nothing').set('Origin', 'https://partner.example.com');
    expect(allowed.headers['access-control-allow-origin']).toBe('https://partner.example.com');
    const other = await request(app).get('/api/nothing').set('Origin', 'https://evil.example.net');
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('lets an allowed page read the refusal of a body, as any other answer', async () => {
    const refusals = [
      await request(app)
        .post('/api/customers/session')
        .set('Origin', 'https://partner.example.com')
        .set('Content-Type', 'text/plain')
        .send('{}'),
      await request(app)
        .post(`/api/eval/${env.flags.clientKey}`)
        .set('Origin', 'https://partner.example.com')
        .send({ attributes: { id: 'a\u0000' } }),
      await request(app)
        .post('/api/customers/session')
        .set('Origin', 'https://partner.example.com')
        .set('Content-Type', 'application/json')
        .send('{'),
    ];
    expect(refusals.map((r) => r.status)).toEqual([415, 400, 400]);
    for (const res of refusals) expect(res.headers['access-control-allow-origin']).toBe('https://partner.example.com');
  });

  it('applies the same allow-list to the flag routes, preflights included', async () => {
    const key = env.flags.clientKey;
    const features = await request(app).get(`/api/features/${key}`).set('Origin', 'https://partner.example.com');
    expect(features.status).toBe(200);
    expect(features.headers['access-control-allow-origin']).toBe('https://partner.example.com');
    const other = await request(app).get(`/api/features/${key}`).set('Origin', 'https://evil.example.net');
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    for (const path of [`/api/features/${key}`, `/sub/${key}`]) {
      const preflight = await request(app)
        .options(path)
        .set('Origin', 'https://partner.example.com')
        .set('Access-Control-Request-Method', 'GET')
        .set('Access-Control-Request-Headers', 'X-Client-Id');
      expect(preflight.status, path).toBe(204);
      expect(preflight.headers['access-control-allow-origin'], path).toBe('https://partner.example.com');
      expect(preflight.headers['access-control-allow-methods'], path).toContain('GET');
      expect(preflight.headers['access-control-allow-headers'], path).toContain('X-Client-Id');
    }
  });

  it('lets the flag stream itself be read from an allowed origin', async () => {
    const server = createServer(app).listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    try {
      const headers = await new Promise<Record<string, unknown>>((resolve, reject) => {
        const req = get(
          {
            host: '127.0.0.1',
            port,
            path: `/sub/${env.flags.clientKey}`,
            headers: { Origin: 'https://partner.example.com' },
          },
          (res) => {
            resolve(res.headers);
            res.destroy();
          },
        );
        req.on('error', reject);
      });
      expect(headers['access-control-allow-origin']).toBe('https://partner.example.com');
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('refuses a malformed origin list at start', () => {
    expect(() => parseEnv({ CORS_ORIGINS: 'not a url' })).toThrow(/CORS_ORIGINS/);
  });
});

describe('rate limits', () => {
  const sessions = (app: App, from?: string) => {
    const req = request(app).post('/api/customers/session');
    return from ? req.set('X-Forwarded-For', from) : req;
  };

  it('does not let a client pick its own key with X-Forwarded-For by default', async () => {
    const { app } = testApp({ env: parseEnv({ NODE_ENV: 'test', RATE_LIMIT_SESSIONS_PER_MINUTE: '30' }) });
    const statuses: number[] = [];
    for (let i = 0; i < 35; i++) statuses.push((await sessions(app, `198.51.100.${i + 1}`)).status);
    expect(statuses).toEqual([...Array<number>(30).fill(201), ...Array<number>(5).fill(429)]);
  });

  it('tells clients apart by X-Forwarded-For when the proxy in front is trusted', async () => {
    const { app } = testApp({
      env: parseEnv({ NODE_ENV: 'test', RATE_LIMIT_SESSIONS_PER_MINUTE: '2', TRUST_PROXY: 'loopback' }),
    });
    for (let i = 0; i < 5; i++) expect((await sessions(app, `198.51.100.${i + 1}`)).status).toBe(201);
    await sessions(app, '203.0.113.9').expect(201);
    await sessions(app, '203.0.113.9').expect(201);
    await sessions(app, '203.0.113.9').expect(429);
  });

  it('counts the addresses of one IPv6 /56 as one client', async () => {
    const { app } = testApp({
      env: parseEnv({ NODE_ENV: 'test', RATE_LIMIT_SESSIONS_PER_MINUTE: '2', TRUST_PROXY: 'loopback' }),
    });
    await sessions(app, '2001:db8:1:100::1').expect(201);
    await sessions(app, '2001:db8:1:1ff::2').expect(201);
    await sessions(app, '2001:db8:1:1ab:cd::3').expect(429);
    await sessions(app, '2001:db8:1:200::1').expect(201);
  });

  it('believes only as many hops as TRUST_PROXY counts', async () => {
    // One proxy in front: its own entry is the client; anything the client wrote before it is ignored.
    const { app } = testApp({
      env: parseEnv({ NODE_ENV: 'test', RATE_LIMIT_SESSIONS_PER_MINUTE: '1', TRUST_PROXY: '1' }),
    });
    await sessions(app, '10.9.9.9, 198.51.100.1').expect(201);
    await sessions(app, '10.9.9.8, 198.51.100.1').expect(429);
    await sessions(app, '198.51.100.2').expect(201);
  });

  it('limits carts, listings and checkout per client, each with a 429 naming what was limited', async () => {
    const { app } = testApp({
      env: parseEnv({
        NODE_ENV: 'test',
        RATE_LIMIT_CARTS_PER_MINUTE: '1',
        RATE_LIMIT_LISTINGS_PER_MINUTE: '2',
        RATE_LIMIT_CHECKOUT_PER_MINUTE: '1',
      }),
    });
    await request(app).post('/api/cart').send({});
    const cart = await request(app).post('/api/cart').send({});
    expect(cart.status).toBe(429);
    expect(cart.body.error).toMatchObject({ code: 'rate_limited', message: expect.stringContaining('cart') });
    expect(cart.headers.ratelimit).toMatch(/^"carts"; r=0/);
    // One limit for an event's listings and a single listing.
    await request(app).get('/api/events/some-event/listings');
    await request(app).get('/api/listings/1');
    const listing = await request(app).get('/api/listings/1');
    expect(listing.status).toBe(429);
    expect(listing.body.error.message).toContain('listing');
    await request(app).post('/api/checkout').send({});
    const checkout = await request(app).post('/api/checkout').send({});
    expect(checkout.status).toBe(429);
    expect(checkout.body.error.message).toContain('checkout');
  });

  it('answers 429 with RateLimit headers once a client is over its limit', async () => {
    const { app } = testApp({ env: parseEnv({ NODE_ENV: 'test', RATE_LIMIT_SESSIONS_PER_MINUTE: '2' }) });
    const first = await request(app).post('/api/customers/session');
    expect(first.status).toBe(201);
    expect(first.headers['ratelimit-policy']).toMatch(/q=2/);
    await request(app).post('/api/customers/session').expect(201);
    const over = await request(app).post('/api/customers/session');
    expect(over.status).toBe(429);
    expect(over.body.error.code).toBe('rate_limited');
    expect(over.headers['ratelimit']).toMatch(/r=0/);
  });
});
