import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEnv } from '../config/env.js';
import type { AppDeps } from '../app.js';
import { testApp } from '../test/test-app.js';
import { toErrorResponse } from './errors.js';

let clientDir: string;
/** A stylesheet well over the size compression starts at. */
const BIG_CSS = Array.from(
  { length: 300 },
  (_, i) => `.c${i}{color:#${(i * 4099).toString(16).padStart(6, '0')}}`,
).join('\n');

beforeAll(async () => {
  clientDir = await mkdtemp(path.join(os.tmpdir(), 'storefront-client-'));
  await mkdir(path.join(clientDir, 'assets'));
  await writeFile(path.join(clientDir, 'index.html'), '<!doctype html><title>shell</title>');
  await writeFile(path.join(clientDir, 'assets', 'index-abc123.js'), 'console.log(1);');
  await writeFile(path.join(clientDir, 'assets', 'big-abc123.css'), BIG_CSS);
  await writeFile(
    path.join(clientDir, 'assets', 'index-abc123.js.map'),
    '{"version":3,"sources":["../src/main.tsx"],"mappings":""}',
  );
});
afterAll(() => rm(clientDir, { recursive: true, force: true }));

const appWith = (env: Record<string, string>) =>
  testApp({ env: parseEnv({ LOG_LEVEL: 'silent', ...env }), clientDir }).app;

describe('a missing file of the built client', () => {
  it('is a plain JSON 404 that names no path on the server', async () => {
    const res = await request(appWith({ NODE_ENV: 'production', PUBLIC_BASE_URL: 'https://tickets.example.com' })).get(
      '/assets/nope.js',
    );
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: { code: 'not_found', message: 'Not Found' } });
    expect(res.text).not.toContain(clientDir);
    expect(res.text).not.toMatch(/ENOENT|stat/);
  });

  it('refuses another method with a 405 in the error shape naming GET and HEAD, found or not', async () => {
    const app = appWith({ NODE_ENV: 'production', PUBLIC_BASE_URL: 'https://tickets.example.com' });
    for (const [method, address] of [
      ['post', '/assets/nope.js'],
      ['put', '/assets/index-abc123.js'],
      ['delete', '/assets/big-abc123.css'],
    ] as const) {
      const res = await request(app)[method](address);
      expect([res.status, res.headers.allow], `${method} ${address}`).toEqual([405, 'GET, HEAD']);
      expect(res.body.error, `${method} ${address}`).toMatchObject({ code: 'method_not_allowed' });
      expect(res.headers['cache-control']).toBe('no-store');
    }
    expect((await request(app).head('/assets/index-abc123.js')).status).toBe(200);
  });

  it('leaves the files that exist and the app shell as they were', async () => {
    const app = appWith({ NODE_ENV: 'production', PUBLIC_BASE_URL: 'https://tickets.example.com' });
    const asset = await request(app).get('/assets/index-abc123.js');
    expect(asset.status).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    const shell = await request(app).get('/concerts');
    expect(shell.status).toBe(200);
    expect(shell.text).toContain('<title>shell</title>');
  });
});

describe('an address that cannot be read (RULES 2.11)', () => {
  const app = () => appWith({ NODE_ENV: 'production', PUBLIC_BASE_URL: 'https://tickets.example.com' });

  it('is a 400 naming the escape that spells no text, from the file server and the routes alike', async () => {
    for (const address of [
      '/assets/%',
      '/assets/%zz.js',
      '/logo%E0%A4%A.svg',
      '/api/performers/%',
      '/api/events/%zz',
      // No route's parameter reads these: the API refuses them before its routes.
      '/api/%zz',
      '/api/menu%zz',
    ]) {
      const res = await request(app()).get(address);
      expect(res.status, address).toBe(400);
      expect(res.body.error.code, address).toBe('bad_path_escape');
      expect(res.body.error.message, address).toMatch(/a % that does not start an escape this site can read/);
    }
  });

  it('is a 400 naming a "." or ".." part, never the file server\'s 403 or its page redirecting', async () => {
    for (const address of [
      '/assets/..',
      '/assets/../index.html',
      '/faq/..',
      '/events/..',
      '/x/..%2f',
      '/assets/./x.js',
    ]) {
      const res = await request(app()).get(address).redirects(0);
      expect(res.status, address).toBe(400);
      expect(res.body.error.code, address).toBe('dot_segment');
      expect(res.text, address).not.toMatch(/Redirecting/);
    }
    // A folder is no file either: a 404, not a redirect to the folder with a slash.
    const folder = await request(app()).get('/assets').redirects(0);
    expect([folder.status, folder.headers.location]).toEqual([404, undefined]);
  });

  it('answers /index.html as the address it is, never as the app shell kept a day', async () => {
    // Judged as a page address (here without a catalog, so 200, RULES 2.6), sent as the app shell is; spelled
    // another way, it is no file either.
    for (const address of ['/index.html', '//index.html', '/%69ndex.html']) {
      const res = await request(app()).get(address);
      expect(res.headers['cache-control'], address).toBe('private, no-store');
    }
  });

  it('looks a file up only by the name the build gave it', async () => {
    expect((await request(app()).get('/assets/index-abc123.js')).status).toBe(200);
    for (const address of ['/assets//index-abc123.js', '/assets/%69ndex-abc123.js']) {
      const res = await request(app()).get(address);
      expect([res.status, res.body.error?.code], address).toEqual([404, 'not_found']);
    }
  });

  it('refuses a POST to a page for its method, whatever body it carries', async () => {
    for (const [type, body] of [
      ['application/json', '{bad'],
      ['application/json', `{"a":"${'x'.repeat(70_000)}"}`],
      ['text/plain', 'hello'],
    ] as const) {
      const res = await request(app()).post('/faq').set('Content-Type', type).send(body);
      expect([res.status, res.headers.allow, res.body.error.code], type).toEqual([
        405,
        'GET, HEAD',
        'method_not_allowed',
      ]);
    }
  });
});

describe('a range of a file of the built client', () => {
  it('is sent as the file’s own bytes, uncompressed, whatever encodings the browser takes', async () => {
    const app = appWith({ NODE_ENV: 'production', PUBLIC_BASE_URL: 'https://tickets.example.com' });
    const part = await request(app)
      .get('/assets/big-abc123.css')
      .set('Range', 'bytes=100-')
      .set('Accept-Encoding', 'br, gzip');
    expect(part.status).toBe(206);
    expect(part.headers['content-encoding']).toBeUndefined();
    expect(part.headers['content-range']).toBe(`bytes 100-${BIG_CSS.length - 1}/${BIG_CSS.length}`);
    expect(part.text).toBe(BIG_CSS.slice(100));
    // The whole file is still compressed.
    const whole = await request(app).get('/assets/big-abc123.css').set('Accept-Encoding', 'gzip');
    expect(whole.headers['content-encoding']).toBe('gzip');
    // A range past the end is refused, and the refusal is not kept.
    const past = await request(app).get('/assets/big-abc123.css').set('Range', 'bytes=999999-');
    expect(past.status).toBe(416);
    expect(past.headers['cache-control']).toBe('no-store');
  });
});

describe('source maps', () => {
  it('are a 404 in production unless SERVE_SOURCE_MAPS asks for them, under the assets and anywhere else', async () => {
    const app = appWith({ NODE_ENV: 'production', PUBLIC_BASE_URL: 'https://tickets.example.com' });
    for (const url of ['/assets/index-abc123.js.map', '/assets/missing.js.map', '/index.js.map']) {
      const res = await request(app).get(url);
      expect(res.status, url).toBe(404);
      expect(res.body, url).toEqual({ error: { code: 'not_found', message: 'Not Found' } });
    }
  });

  it('are not served by default outside production either', async () => {
    expect((await request(appWith({ NODE_ENV: 'development' })).get('/assets/index-abc123.js.map')).status).toBe(404);
  });

  it('are served with SERVE_SOURCE_MAPS=true', async () => {
    const res = await request(
      appWith({ NODE_ENV: 'production', PUBLIC_BASE_URL: 'https://tickets.example.com', SERVE_SOURCE_MAPS: 'true' }),
    ).get('/assets/index-abc123.js.map');
    expect(res.status).toBe(200);
    expect(res.text).toContain('../src/main.tsx');
  });
});

describe('toErrorResponse for errors the app did not make', () => {
  it("keeps a 4xx library error's status but not its message", () => {
    const fromStatic = Object.assign(
      new Error("ENOENT: no such file or directory, stat '/srv/app/dist/client/assets/x.js'"),
      { status: 404, code: 'ENOENT' },
    );
    expect(toErrorResponse(fromStatic)).toEqual({
      status: 404,
      body: { error: { code: 'not_found', message: 'Not Found' } },
    });
    const rangeError = Object.assign(new Error('Range Not Satisfiable: /srv/app/x'), { statusCode: 416 });
    expect(toErrorResponse(rangeError)).toEqual({
      status: 416,
      body: { error: { code: 'range_not_satisfiable', message: 'Range Not Satisfiable' } },
    });
    const oddStatus = Object.assign(new Error('driver says /var/lib/secret'), { status: 499 });
    expect(toErrorResponse(oddStatus)).toEqual({
      status: 400,
      body: { error: { code: 'bad_request', message: 'Bad Request' } },
    });
  });

  it("keeps body-parser's own code and message, which describe the request body", () => {
    const parseFailed = Object.assign(new Error('Unexpected end of JSON input'), {
      status: 400,
      type: 'entity.parse.failed',
    });
    expect(toErrorResponse(parseFailed)).toEqual({
      status: 400,
      body: { error: { code: 'entity_parse_failed', message: 'Unexpected end of JSON input' } },
    });
    // Valid JSON its strict mode refuses is named for what it is.
    const scalar = Object.assign(new Error(`Unexpected token 'n', "null" is not valid JSON`), {
      status: 400,
      type: 'entity.parse.failed',
      body: 'null',
    });
    expect(toErrorResponse(scalar).body.error.message).toBe(
      'The body must be a JSON object or array; this one is null',
    );
    // A body its Content-Encoding does not decode.
    const corrupt = Object.assign(new Error('unexpected end of file'), { status: 400, code: 'Z_BUF_ERROR' });
    expect(toErrorResponse(corrupt)).toEqual({
      status: 400,
      body: {
        error: {
          code: 'bad_content_encoding',
          message: 'The body is not what its Content-Encoding says: it does not decompress',
        },
      },
    });
  });
});

describe('the studio page', () => {
  const studioApp = (env: Record<string, string>) =>
    // Only whether a studio exists, and whether it has users (none), matters to the page's route.
    testApp({
      env: parseEnv({ LOG_LEVEL: 'silent', ...env }),
      clientDir,
      studio: {
        users: { any: async () => false, identify: async () => ({ anyUsers: false, user: null }) },
      } as unknown as NonNullable<AppDeps['studio']>,
    }).app;
  beforeAll(() =>
    writeFile(
      path.join(clientDir, 'studio.html'),
      '<!doctype html><meta name="csp-nonce" content="" /><title>studio</title>',
    ),
  );

  it(
    'is served at /studio outside production and in production with ' +
      'STUDIO_KEY, and is a 404 in production without it',
    async () => {
      const open: Record<string, string>[] = [
        { NODE_ENV: 'development' },
        {
          NODE_ENV: 'production',
          PUBLIC_BASE_URL: 'https://tickets.example.com',
          SESSION_SECRET: 's'.repeat(40),
          STUDIO_KEY: 'k'.repeat(20),
        },
      ];
      for (const env of open) {
        const page = await request(studioApp(env)).get('/studio');
        expect(page.status).toBe(200);
        expect(page.text).toContain('<title>studio</title>');
        expect(page.headers['cache-control']).toBe('private, no-store');
        // The editor's styles are allowed by a nonce of this answer only; scripts stay 'self'.
        const nonce = /<meta name="csp-nonce" content="([^"]+)" \/>/.exec(page.text)?.[1];
        expect(nonce).toMatch(/^[A-Za-z0-9+/=]{20,}$/);
        expect(page.headers['content-security-policy']).toContain(`style-src 'self' 'nonce-${nonce}'`);
        expect(page.headers['content-security-policy']).toContain("script-src 'self';");
        const again = await request(studioApp(env)).get('/studio');
        expect(again.text).not.toContain(nonce);
        expect((await request(studioApp(env)).get('/studio.html')).headers.location).toBe('/studio');
      }
      const closed = studioApp({
        NODE_ENV: 'production',
        PUBLIC_BASE_URL: 'https://tickets.example.com',
        SESSION_SECRET: 's'.repeat(40),
      });
      for (const url of ['/studio', '/studio/anything', '/studio.html', '/api/studio/state'])
        expect((await request(closed).get(url)).status, url).toBe(404);
      // Nor is its file reached by another spelling of its name, past the route that guards it.
      for (const url of ['//studio.html', '/%73tudio.html', '//preview.html']) {
        const page = await request(closed).get(url);
        expect(page.text, url).not.toContain('<title>studio</title>');
        expect(page.headers['cache-control'], url).toBe('private, no-store');
      }
      // The shoppers' shell never is the studio.
      expect((await request(studioApp({ NODE_ENV: 'development' })).get('/')).text).toContain('<title>shell</title>');
    },
  );
});
