import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEnv } from '../config/env.js';
import { catalogFixture, type CatalogFixture } from '../test/catalog-fixture.js';
import { testAppWithSegments } from '../test/test-app.js';

/** What a hostile or careless client sends; no endpoint may answer any of it with a 5xx. */
const HOSTILE = [
  '',
  ' ',
  'a'.repeat(201),
  'a'.repeat(5000),
  'x && price:>0',
  '`) || (category:=*',
  "'; DROP TABLE recent_activity; --",
  '<script>alert(1)</script>',
  '%00',
  '\u0000\u0001\u001f',
  '🎫🎭🏟️',
  'Ünïcödé Ŝtráße',
  '\u202e\u2028\u2029',
  '../../etc/passwd',
  '-1',
  '0',
  '1e309',
  'NaN',
  '99999999999999999999999',
  '[object Object]',
  '*',
];

let fixture: CatalogFixture;
let app: Awaited<ReturnType<typeof testAppWithSegments>>['app'];
let token: string;

beforeAll(async () => {
  fixture = await catalogFixture(1500, 4);
  const search = fixture.search;
  const env = parseEnv({
    NODE_ENV: 'test',
    RATE_LIMIT_SUGGEST_PER_MINUTE: '100000',
    RATE_LIMIT_SEARCH_PER_MINUTE: '100000',
    RATE_LIMIT_SESSIONS_PER_MINUTE: '100000',
  });
  app = (await testAppWithSegments({ search, env })).app;
  token = (await request(app).post('/api/customers/session')).body.sessionToken;
});
afterAll(() => fixture.cleanup());

const endpoints = (v: string) => {
  const e = encodeURIComponent(v);
  return [
    `/api/suggest?q=${e}`,
    `/api/suggest?q=a&extra=${e}`,
    `/api/Searches/get?q=${e}`,
    `/api/Searches/get?q=a&page=${e}`,
    `/api/performers/${e}`,
    `/api/venues/${e}`,
    `/api/events/${e}`,
    `/api/layout/home?lat=${e}&lng=${e}`,
    `/api/layout/home?zip=${e}`,
    `/api/layout/home?brand=${e}`,
    `/api/layout/category/${e}`,
    `/api/suggest/jsonp?token=${token}&q=a&callback=${e}`,
    `/api/suggest/jsonp?token=${e}&q=a&callback=jsonp_1`,
    `/media/performers/${e}`,
    `/media/categories/${e}`,
  ];
};

describe('hostile input never gets a 5xx', () => {
  it.each(HOSTILE.map((v) => [JSON.stringify(v).slice(0, 40), v]))('%s', async (_label, value) => {
    for (const url of endpoints(value)) {
      const res = await request(app).get(url);
      expect(res.status, url.slice(0, 120)).toBeLessThan(500);
      if (res.status >= 400 && url.startsWith('/api/')) {
        expect(res.body.error?.code, url.slice(0, 120)).toEqual(expect.any(String));
        expect(res.body.error.message, url.slice(0, 120)).toEqual(expect.any(String));
        // Never kept by a browser or a shared cache, whatever the route keeps of its answers.
        expect(res.headers['cache-control'], url.slice(0, 120)).toBe('no-store');
      }
    }
  });

  it('survives hostile headers', async () => {
    for (const [header, value] of [
      ['Authorization', 'Bearer ' + 'x'.repeat(3000)],
      ['Authorization', 'Basic Zm9vOmJhcg=='],
      ['X-Site-Id', '22791 OR 1=1'],
      ['X-Client-Id', '<script>'],
      ['Content-Type', 'application/json; charset=utf-7'],
    ] as const) {
      const res = await request(app).get('/api/CustomerActivity/recent-activities').set(header, value);
      expect(res.status, `${header}: ${value.slice(0, 30)}`).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    }
  });

  it('refuses odd bodies on POST with a 400 naming the problem', async () => {
    const takesNoInput = 'a guest session takes no input: send no body, or {}';
    const cases: [body: string, code: string, message: RegExp | string][] = [
      ['{', 'entity_parse_failed', /JSON/],
      // JSON, but not an object or array: the JSON parser's strict mode refuses it.
      ['null', 'entity_parse_failed', /JSON/],
      ['"x"', 'entity_parse_failed', /JSON/],
      ['{"a":' + '['.repeat(5000), 'entity_parse_failed', /JSON/],
      ['[]', 'invalid_request', takesNoInput],
      ['{"guestId":"someone-else"}', 'invalid_request', takesNoInput],
    ];
    for (const [body, code, message] of cases) {
      const res = await request(app).post('/api/customers/session').set('Content-Type', 'application/json').send(body);
      expect(res.status, body.slice(0, 20)).toBe(400);
      expect(res.body.error.code, body.slice(0, 20)).toBe(code);
      if (typeof message === 'string') expect(res.body.error.message).toBe(message);
      else expect(res.body.error.message, body.slice(0, 20)).toMatch(message);
    }
  });

  it('refuses a body nesting too deep, or holding a NUL or a lone surrogate, naming where (RULES 14.15)', async () => {
    const deep = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
    const auth = `Bearer ${token}`;
    const cases: [path: string, body: string, where: RegExp][] = [
      [
        '/api/eval/sdk-storefront',
        `{"attributes":{"id":${deep(5000)}}}`,
        /^Bad JSON: attributes\.id(\[0\])+ nests deeper than 32 levels\.$/,
      ],
      ['/api/eval/sdk-storefront', `{"forcedFeatures":[["home_layout",${deep(5000)}]]}`, /forcedFeatures\[0\]\[1\]/],
      ['/api/cart', `{"listingId":1,"quantity":1,"x":${deep(5000)}}`, /^Bad JSON: x(\[0\])+ nests deeper/],
      ['/api/checkout', `{"cartId":"c","x":${deep(40)}}`, /^Bad JSON: x(\[0\])+ nests deeper/],
      ['/api/cart', '{"listingId":1,"quantity":1,"note":"a\\u0000b"}', /^Bad JSON: note holds a NUL character/],
      [
        '/api/eval/sdk-storefront',
        '{"attributes":{"id":"\\ud800"}}',
        /^Bad JSON: attributes\.id holds half of a surrogate pair/,
      ],
    ];
    for (const [path, body, where] of cases) {
      const res = await request(app)
        .post(path)
        .set('Authorization', auth)
        .set('Content-Type', 'application/json')
        .send(body);
      expect(res.status, `${path} ${body.slice(0, 40)}`).toBe(400);
      expect(res.body.error.code, path).toBe('bad_json_value');
      expect(res.body.error.message, path).toMatch(where);
    }
    // As deep as the limit is read as usual.
    const fine = await request(app)
      .post('/api/eval/sdk-storefront')
      .set('Content-Type', 'application/json')
      .send(`{"attributes":{"id":"g-1","deep":${deep(30)}}}`);
    expect(fine.status).toBe(200);
  });

  it('names a body that is not JSON by its type (415), and one its Content-Encoding does not decode', async () => {
    const auth = `Bearer ${token}`;
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/vnd.api+json']) {
      const res = await request(app).post('/api/cart').set('Authorization', auth).set('Content-Type', type).send('{}');
      expect(res.status, type).toBe(415);
      expect(res.body.error, type).toEqual({
        code: 'unsupported_media_type',
        message: `Send the body as JSON, with Content-Type: application/json; this one is "${type}"`,
      });
    }
    const body = `{"listingId":1,"quantity":1,"pad":"${'x'.repeat(200)}"}`;
    const brotli = brotliCompressSync(body);
    for (const [encoding, corrupt] of [
      ['gzip', gzipSync(body).subarray(0, 10)],
      ['br', brotli.subarray(0, 5)],
      ['br', Buffer.concat([brotli.subarray(0, 3), Buffer.from([0xff, 0xff, 0xff, 0xff]), brotli.subarray(7)])],
    ] as const) {
      const res = await request(app)
        .post('/api/cart')
        .set('Authorization', auth)
        .set('Content-Type', 'application/json')
        .set('Content-Encoding', encoding)
        .send(corrupt);
      expect(res.status, encoding).toBe(400);
      expect(res.body.error.code, encoding).toBe('bad_content_encoding');
    }
  });

  it('reads numbers in an address as decimal text only, and names the check a number fails', async () => {
    const cases: [url: string, message: string][] = [
      ['/api/layout/home?lat=&lng=', 'lat: lat must be a number; lng: lng must be a number'],
      ['/api/layout/home?lat=%20&lng=1', 'lat: lat must be a number'],
      ['/api/layout/home?lat=0x10&lng=0x10', 'lat: lat must be a number; lng: lng must be a number'],
      ['/api/layout/home?lat=1e1&lng=2', 'lat: lat must be a number'],
      ['/api/Searches/get?q=a&page=0x10', 'page: page must be a number'],
      ['/api/Searches/get?q=a&page=0', 'page: page starts at 1'],
      ['/api/location?zip=10007&zip=10008', 'zip: zip is one 5-digit US ZIP code'],
      ['/api/listings/0', 'id: id must be 1 or more'],
      ['/api/listings/1.5', 'id: id must be a whole number'],
      ['/api/listings/0x10', 'id: id must be a number'],
      ['/api/listings/99999999999999999999', 'id: id is too large to be an id'],
    ];
    for (const [url, message] of cases) {
      const res = await request(app).get(url);
      expect(res.status, url).toBe(400);
      expect(res.body.error.message, url).toBe(message);
    }
    // Decimal text is read as ever.
    expect((await request(app).get('/api/layout/home?lat=40.71&lng=-74.01')).status).toBe(200);
    expect((await request(app).get('/api/Searches/get?q=a&page=2')).status).toBe(200);
    const auth = `Bearer ${token}`;
    for (const [body, message] of [
      [{ listingId: 1, quantity: 0 }, 'quantity: quantity starts at 1'],
      [{ listingId: 1, quantity: 1e9 }, 'quantity: quantity must be at most 20'],
      [{ listingId: -5, quantity: 1 }, 'listingId: listingId must be a listing id, 1 or more'],
      [{ listingId: 1, quantity: 1.5 }, 'quantity: quantity must be a whole number'],
    ] as const) {
      const res = await request(app).post('/api/cart').set('Authorization', auth).send(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message, JSON.stringify(body)).toBe(message);
    }
  });

  it('opens a guest session for a POST with no body or an empty object', async () => {
    expect((await request(app).post('/api/customers/session')).status).toBe(201);
    // Nor is an empty body sent in chunks, with no type, a body of a type it cannot read.
    const chunked = await new Promise<number>((resolve, reject) => {
      const server = createServer(app).listen(0, '127.0.0.1', () => {
        const { port } = server.address() as AddressInfo;
        const req = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/api/customers/session' }, (res) => {
          res.resume();
          server.close();
          resolve(res.statusCode!);
        });
        req.on('error', reject);
        req.write('');
        req.end();
      });
    });
    expect(chunked).toBe(201);
    expect(
      (await request(app).post('/api/customers/session').set('Content-Type', 'application/json').send('{}')).status,
    ).toBe(201);
  });
});
