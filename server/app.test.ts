import { createServer, get } from 'node:http';
import express from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError, errorMiddleware } from './http/errors.js';
import { testApp } from './test/test-app.js';

describe('health', () => {
  it('GET /healthz answers while the catalog is still loading', async () => {
    const { app } = testApp();
    const res = await request(app).get('/healthz');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('ok');
  });

  it('GET /readyz is 503 until every component is loaded, then 200', async () => {
    const { app, deps } = testApp();
    const before = await request(app).get('/readyz');
    expect(before.status).toBe(503);
    expect(before.body.components.catalog.ready).toBe(false);
    deps.readiness.set('catalog', true, 'loaded');
    const after = await request(app).get('/readyz');
    expect(after.status).toBe(200);
    expect(after.body.status).toBe('ready');
  });
});

describe('request ids', () => {
  it('returns a generated request id in a header', async () => {
    const res = await request(testApp().app).get('/healthz');
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('keeps a well-formed incoming id and replaces a hostile one', async () => {
    const { app } = testApp();
    const kept = await request(app).get('/healthz').set('X-Request-Id', 'edge-1234abcd');
    expect(kept.headers['x-request-id']).toBe('edge-1234abcd');
    const replaced = await request(app).get('/healthz').set('X-Request-Id', '{"level":60,"msg":"forged"}');
    expect(replaced.headers['x-request-id']).not.toContain('level');
  });
});

describe('error model', () => {
  it('answers an unknown /api path with a JSON 404', async () => {
    const res = await request(testApp().app).get('/api/nope');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: { code: 'not_found', message: 'No API route for GET /api/nope' } });
  });

  it('answers a method an API address does not take with a 405 naming those it does (RULES 14.14)', async () => {
    const { app } = testApp();
    // A route of a mounted router (the layout), one of the API's own (a limiter's) and one with a parameter.
    for (const [method, path, allow] of [
      ['delete', '/api/layout/home', 'GET, HEAD'],
      ['put', '/api/suggest', 'GET, HEAD'],
      ['get', '/api/cart', 'POST'],
      ['post', '/api/events/some-event-7/listings', 'GET, HEAD'],
    ] as const) {
      const res = await request(app)[method](path);
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.allow?.split(', ').sort(), `${method} ${path}`).toEqual(allow.split(', ').sort());
      expect(res.body.error.code).toBe('method_not_allowed');
      expect(res.body.error.message).toContain(`${method.toUpperCase()} is not answered at ${path}`);
      expect(res.headers['cache-control']).toBe('no-store');
    }
    // OPTIONS there is told the methods (by Express's router); an address nothing answers stays a 404 whatever the
    // method.
    const options = await request(app).options('/api/layout/home');
    expect(options.status).toBe(200);
    expect(options.headers.allow).toBe('GET, HEAD');
    expect((await request(app).delete('/api/nope')).status).toBe(404);
    expect((await request(app).options('/api/nope')).status).toBe(404);
  });

  it('answers malformed JSON with a 400, not a 500', async () => {
    const res = await request(testApp().app)
      .post('/api/anything')
      .set('Content-Type', 'application/json')
      .send('{"a":');
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('entity_parse_failed');
    expect(JSON.stringify(res.body)).not.toMatch(/at .*\.js/);
  });

  it('refuses an oversized JSON body with 413', async () => {
    const res = await request(testApp().app)
      .post('/api/anything')
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ blob: 'x'.repeat(100_000) }));
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('entity_too_large');
  });

  it(
    'turns a zod failure into a 400 naming the field, an AppError into its ' + 'status, anything else into a bare 500',
    async () => {
      const app = express();
      app.get('/zod', (req) => {
        z.object({ page: z.coerce.number().int().min(1) }).parse(req.query);
      });
      app.get('/app-error', () => {
        throw new AppError(409, 'sold_out', 'Those tickets are gone', { listingId: 7 });
      });
      app.get('/boom', async () => {
        throw new Error('secret database password in message');
      });
      app.use(errorMiddleware);

      const zod = await request(app).get('/zod?page=0');
      expect(zod.status).toBe(400);
      expect(zod.body.error.code).toBe('invalid_request');
      expect(zod.body.error.message).toMatch(/^page: /);
      expect(zod.body.error.details[0].path).toBe('page');

      const conflict = await request(app).get('/app-error');
      expect(conflict.status).toBe(409);
      expect(conflict.body).toEqual({
        error: { code: 'sold_out', message: 'Those tickets are gone', details: { listingId: 7 } },
      });

      const boom = await request(app).get('/boom');
      expect(boom.status).toBe(500);
      expect(boom.body).toEqual({ error: { code: 'internal', message: 'Internal server error' } });
    },
  );
});

describe('client error reports', () => {
  it('logs a report and answers 204; refuses an oversized one', async () => {
    const { app } = testApp();
    const ok = await request(app)
      .post('/api/client-errors')
      .send({ context: 'search', message: 'TypeError: x', url: '/' });
    expect(ok.status).toBe(204);
    const big = await request(app)
      .post('/api/client-errors')
      .send({ context: 'x', message: 'm'.repeat(3000), url: '/' });
    expect(big.status).toBe(400);
    expect(big.body.error.message).toMatch(/^message: /);
  });
});

describe('compression', () => {
  it('compresses large answers but never the server-sent event stream', async () => {
    const { app } = testApp();
    const big = await request(app)
      .get(`/api/${'x'.repeat(2000)}`)
      .set('Accept-Encoding', 'gzip');
    expect(big.headers['content-encoding']).toBe('gzip');
    const server = createServer(app).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const { port } = server.address() as import('node:net').AddressInfo;
    const headers = await new Promise<import('node:http').IncomingHttpHeaders>((resolve, reject) => {
      const req = get(
        {
          host: '127.0.0.1',
          port,
          path: '/sub/sdk-storefront',
          headers: { 'Accept-Encoding': 'gzip', Accept: 'text/event-stream' },
        },
        (res) => {
          resolve(res.headers);
          req.destroy();
        },
      );
      req.on('error', (err: NodeJS.ErrnoException) => (err.code === 'ECONNRESET' ? undefined : reject(err)));
    });
    server.closeAllConnections();
    server.close();
    expect(headers['content-type']).toMatch(/text\/event-stream/);
    expect(headers['content-encoding']).toBeUndefined();
  });
});
