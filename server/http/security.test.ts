import request from 'supertest';
import { describe, expect, it } from 'vitest';
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

  it('refuses a malformed origin list at start', () => {
    expect(() => parseEnv({ CORS_ORIGINS: 'not a url' })).toThrow(/CORS_ORIGINS/);
  });
});

describe('rate limits', () => {
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
