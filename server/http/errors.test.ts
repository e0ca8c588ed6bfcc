import express from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { errorMiddleware, methodsAt, noRouteIn } from './errors.js';

/** A router with routes of its own, one mounted without a path and one mounted under `/v2`, as the API builds them. */
function api() {
  const root = express.Router();
  root.post('/cart', (_req, res) => res.json({}));
  const items = express.Router();
  items.get('/items/:id', (_req, res) => res.json({}));
  items.delete('/items/:id', (_req, res) => res.json({}));
  root.use(items);
  const v2 = express.Router();
  v2.put(['/things', '/stuff'], (_req, res) => res.json({}));
  root.use('/v2', v2);
  const any = express.Router();
  any.all('/anything', (_req, res) => res.json({}));
  root.use(any);
  return root;
}

describe('the methods an address takes (RULES 14.14)', () => {
  it('reads them from the routes, those of mounted routers included, under their mount point', () => {
    const root = api();
    const at = (path: string) => [...(methodsAt(root, path) ?? ['any'])].sort();
    expect(at('/cart')).toEqual(['POST']);
    expect(at('/items/7')).toEqual(['DELETE', 'GET', 'HEAD']);
    expect(at('/v2/things')).toEqual(['PUT']);
    expect(at('/v2/stuff')).toEqual(['PUT']);
    expect(at('/things')).toEqual([]);
    expect(at('/anything')).toEqual(['any']);
    expect(at('/nowhere')).toEqual([]);
  });

  it('answers another method with a 405 naming them, OPTIONS with them, an unknown address with a 404', async () => {
    const root = api();
    root.use(noRouteIn(root));
    const app = express().use('/api', root).use(errorMiddleware);
    const refused = await request(app).patch('/api/v2/things');
    expect(refused.status).toBe(405);
    expect(refused.headers.allow).toBe('PUT');
    expect(refused.body.error).toEqual({
      code: 'method_not_allowed',
      message: 'PATCH is not answered at /api/v2/things: it is asked with PUT',
    });
    const options = await request(app).options('/api/cart');
    expect([options.status, options.headers.allow, options.text]).toEqual([200, 'POST', 'POST']);
    expect((await request(app).get('/api/items/7')).status).toBe(200);
    expect((await request(app).post('/api/nowhere')).status).toBe(404);
    expect((await request(app).post('/api/anything')).status).toBe(200);
  });

  it('names the address of a 404 as sent, mount point and all, under the name it is given', async () => {
    const root = api();
    root.use(noRouteIn(root, 'test API'));
    const app = express().use('/api', root).use(errorMiddleware);
    const missing = await request(app).get('/api/v2/nowhere?q=1');
    expect([missing.status, missing.body.error]).toEqual([
      404,
      { code: 'not_found', message: 'No test API route for GET /api/v2/nowhere' },
    ]);
  });
});
