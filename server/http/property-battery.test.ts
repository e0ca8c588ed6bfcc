import fc from 'fast-check';
import type { Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEnv } from '../config/env.js';
import { catalogFixture, type CatalogFixture } from '../test/catalog-fixture.js';
import { testAppWithSegments } from '../test/test-app.js';
import { GET_TEMPLATES, hostile } from '../test/hostile-input.js';
import { storefrontServer } from './protocol-errors.js';

/**
 * Random and hostile input against every public endpoint. The invariant: never a 5xx, always an answer, and
 * every refusal of an /api path is the JSON error model naming the problem.
 */
let fixture: CatalogFixture;
let app: Server;
let token: string;

beforeAll(async () => {
  fixture = await catalogFixture(1200, 5);
  const search = fixture.search;
  const unlimited = '1000000';
  const env = parseEnv({
    NODE_ENV: 'test',
    RATE_LIMIT_SESSIONS_PER_MINUTE: unlimited,
    RATE_LIMIT_SUGGEST_PER_MINUTE: unlimited,
    RATE_LIMIT_SEARCH_PER_MINUTE: unlimited,
    RATE_LIMIT_FLAGS_PER_MINUTE: unlimited,
  });
  // The battery talks to a real server so that Node's own refusals (oversized requests) are covered too.
  const made = await testAppWithSegments({ search, env });
  // The embedded store opens (and migrates) on first use: opened here, so that no property's first request waits
  // for it (seconds on a busy machine, over the per-request time limit).
  await made.deps.sql?.query('SELECT 1');
  app = storefrontServer(made.app, 5_000);
  token = (await request(app).post('/api/customers/session')).body.sessionToken;
});
afterAll(async () => {
  app.close();
  await fixture.cleanup();
});

function expectHandled(res: request.Response, url: string) {
  expect(res.status, url.slice(0, 200)).toBeLessThan(500);
  if (res.status >= 400 && url.startsWith('/api/')) {
    expect(typeof res.body?.error?.code, url.slice(0, 200)).toBe('string');
    expect(typeof res.body?.error?.message, url.slice(0, 200)).toBe('string');
  }
}

describe('property battery: random and hostile input', () => {
  it('never answers a GET with a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...GET_TEMPLATES), hostile, async (template, value) => {
        const url = template(encodeURIComponent(value));
        expectHandled(await request(app).get(url).set('Authorization', `Bearer ${token}`).timeout(10_000), url);
      }),
      { numRuns: 400 },
    );
  });

  it('never answers a POST body with a 5xx', async () => {
    const bodies = fc.oneof(
      fc.jsonValue(),
      fc.object(),
      fc.record({ listingId: fc.anything(), quantity: fc.anything() }),
      fc.record({
        cartId: hostile,
        email: hostile,
        billingAddress: fc.object(),
        payment: fc.object(),
        promoCode: hostile,
      }),
      fc.record({ doNotSellOrShare: fc.anything() }),
      fc.record({
        address: fc.oneof(
          hostile,
          hostile.map((v) => `/api/layout/home?${v}`),
        ),
        shown: hostile,
      }),
      fc.record({ type: fc.constantFrom('event', 'performer', 'venue'), slug: hostile }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(
          '/api/customers/session',
          '/api/cart',
          '/api/checkout',
          '/api/client-errors',
          '/api/orders/ORD-AB12CD34EF/refund',
          '/api/tickets/scan',
          '/api/customers/me/privacy',
          '/api/layout/exposures',
          '/api/CustomerActivity/recent-activities',
        ),
        bodies,
        async (url, body) => {
          expectHandled(
            await request(app)
              .post(url)
              .set('Authorization', `Bearer ${token}`)
              .set('Content-Type', 'application/json')
              .send(JSON.stringify(body))
              .timeout(10_000),
            url,
          );
        },
      ),
      { numRuns: 200 },
    );
  });

  it('never answers a remote evaluation body with a 5xx', async () => {
    const url = '/api/eval/sdk-storefront';
    const anyOr = <T>(arb: fc.Arbitrary<T>) => fc.oneof(arb, fc.jsonValue());
    const bodies = fc.oneof(
      fc.jsonValue(),
      fc.record(
        {
          attributes: anyOr(
            fc.oneof(fc.record({ id: anyOr(hostile), url: anyOr(hostile) }), fc.dictionary(hostile, fc.jsonValue())),
          ),
          forcedVariations: anyOr(fc.dictionary(fc.oneof(hostile, fc.constant('home-layout')), fc.nat())),
          forcedFeatures: anyOr(fc.array(fc.tuple(fc.oneof(hostile, fc.constant('home_layout')), fc.jsonValue()))),
          url: anyOr(hostile.map((v) => `https://tickets.example/?home-layout=${v}`)),
        },
        { requiredKeys: [] },
      ),
    );
    await fc.assert(
      fc.asyncProperty(bodies, async (body) => {
        expectHandled(
          await request(app)
            .post(url)
            .set('Content-Type', 'application/json')
            .send(JSON.stringify(body))
            .timeout(10_000),
          url,
        );
      }),
      { numRuns: 200 },
    );
  });

  it('never answers odd headers with a 5xx', async () => {
    const headerValue = fc.string({ maxLength: 200 }).map((s) => s.replace(/[^\t\x20-\x7e]/g, ''));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(
          'Authorization',
          'X-Site-Id',
          'X-Client-Id',
          'X-Request-Id',
          'Accept',
          'Content-Type',
          'Origin',
        ),
        headerValue,
        async (name, value) => {
          const url = '/api/CustomerActivity/recent-activities';
          expectHandled(await request(app).get(url).set(name, value).timeout(10_000), url);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('never answers a mangled encoding with a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 64 }), async (bytes) => {
        const raw = Array.from(bytes, (b) => `%${b.toString(16).padStart(2, '0')}`).join('');
        for (const url of [`/api/suggest?q=${raw}`, `/api/performers/${raw}`, `/api/layout/category/${raw}`]) {
          expectHandled(await request(app).get(url).timeout(10_000), url);
        }
      }),
      { numRuns: 100 },
    );
  });
});

/** What the server answers `raw`, written on a connection of its own, until it closes it. */
async function rawExchange(raw: string): Promise<string> {
  // Listening already when supertest has asked it something.
  if (!app.listening) await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  const { port } = app.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    let answer = '';
    const socket = connect({ host: '127.0.0.1', port }, () => socket.end(raw));
    socket.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk));
    socket.on('close', () => resolve(answer)).on('error', reject);
  });
}

/** An HTTP answer's status and its JSON error. */
function parsed(answer: string): { status: number; error: { code: string; message: string } } {
  const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(answer)?.[1]);
  return { status, error: JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)).error };
}

describe('requests Node refuses before the app', () => {
  it('answers an oversized request line with a JSON 431', async () => {
    const res = await request(app).get(`/api/suggest?q=${'a'.repeat(20_000)}`);
    expect(res.status).toBe(431);
    expect(res.body.error.code).toBe('request_too_large');
  });

  it('answers an HTTP/1.1 request without a Host with a JSON 400 saying so', async () => {
    const answer = parsed(await rawExchange('GET /faq HTTP/1.1\r\nConnection: close\r\n\r\n'));
    expect(answer).toEqual({ status: 400, error: expect.objectContaining({ code: 'missing_host' }) });
    expect(answer.error.message).toMatch(/Host header/);
    // HTTP/1.0 has no Host to require.
    expect(parsed(await rawExchange('GET /api/suggest?q=a HTTP/1.0\r\n\r\n')).status).toBe(200);
  });

  it('answers a request naming its Host twice with a JSON 400 saying so', async () => {
    for (const raw of [
      'GET /faq HTTP/1.1\r\nHost: a.example\r\nHost: b.example\r\nConnection: close\r\n\r\n',
      'GET /faq HTTP/1.1\r\nHost: a.example\r\nhost: a.example\r\nConnection: close\r\n\r\n',
    ]) {
      const answer = parsed(await rawExchange(raw));
      expect(answer).toEqual({ status: 400, error: expect.objectContaining({ code: 'duplicate_host' }) });
    }
  });

  it('gives a request 120 s to arrive, headers and body (RULES 14.14)', () => {
    const server = storefrontServer(() => {}, 5_000);
    expect([server.requestTimeout, server.headersTimeout]).toEqual([120_000, 120_000]);
  });

  it('answers a request that stalls before it has all arrived with a JSON 408, in the time it is given', async () => {
    // Answered once the whole body is read, as a route reading JSON would.
    const impatient = storefrontServer((req, res) => void req.resume().on('end', () => res.end('ok')), 5_000, {
      requestTimeoutMs: 500,
    });
    await new Promise<void>((resolve) => impatient.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = impatient.address() as AddressInfo;
      const exchange = (raw: string) =>
        new Promise<string>((resolve, reject) => {
          let answer = '';
          const socket = connect({ host: '127.0.0.1', port }, () => socket.write(raw));
          socket.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk));
          socket.on('close', () => resolve(answer)).on('error', reject);
        });
      const began = Date.now();
      for (const raw of [
        'GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ',
        'POST /api/cart HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a"',
      ]) {
        const answer = await exchange(raw);
        expect(parsed(answer), raw).toEqual({
          status: 408,
          error: expect.objectContaining({ code: 'request_timeout' }),
        });
      }
      // Within its time and the check after it, not Node's five minutes.
      expect(Date.now() - began).toBeLessThan(10_000);
    } finally {
      impatient.close();
    }
  });

  it('answers a method HTTP does not define with a JSON 501 saying so, not that the request is not HTTP', async () => {
    for (const method of ['FOO', 'BREW']) {
      for (const target of ['/', '/api/menu']) {
        const answer = parsed(
          await rawExchange(`${method} ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`),
        );
        expect(answer, `${method} ${target}`).toEqual({
          status: 501,
          error: expect.objectContaining({ code: 'unknown_method' }),
        });
        expect(answer.error.message).toMatch(/method this server does not know/);
      }
    }
    const answer = await rawExchange('FOO / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(answer).toMatch(/\r\nCache-Control: no-store\r\n/);
    // A line that is not HTTP at all is still that, alone or after a request it follows on the same connection.
    for (const raw of ['hello there\r\n\r\n', 'GET /api/menu HTTP/1.1\r\nHost: x\r\n\r\nhello there\r\n\r\n']) {
      const junk = await rawExchange(raw);
      const last = junk.slice(junk.lastIndexOf('HTTP/1.1 '));
      expect(parsed(last), raw).toEqual({ status: 400, error: expect.objectContaining({ code: 'malformed_request' }) });
    }
    // And a method no one knows after a request it follows is that.
    const second = await rawExchange('GET /api/menu HTTP/1.1\r\nHost: x\r\n\r\nFOO / HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(parsed(second.slice(second.lastIndexOf('HTTP/1.1 '))).status).toBe(501);
  });

  it('answers an Expect header other than 100-continue with a JSON 417 saying so', async () => {
    const answer = await rawExchange('GET /faq HTTP/1.1\r\nHost: x\r\nExpect: bogus\r\nConnection: close\r\n\r\n');
    expect(parsed(answer)).toEqual({ status: 417, error: expect.objectContaining({ code: 'expectation_failed' }) });
    expect(answer).toMatch(/\r\nCache-Control: no-store\r\n/i);
    // 100-continue is met as ever.
    const continued = await rawExchange(
      'GET /api/menu HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n',
    );
    expect(continued).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 /);
  });

  it('answers CONNECT with a JSON 405 naming the methods a page takes, not a closed connection', async () => {
    const answer = await rawExchange('CONNECT 127.0.0.1:443 HTTP/1.1\r\nHost: 127.0.0.1:443\r\n\r\n');
    expect(parsed(answer)).toEqual({ status: 405, error: expect.objectContaining({ code: 'method_not_allowed' }) });
    expect(answer).toMatch(/\r\nAllow: GET, HEAD\r\n/);
  });
});
