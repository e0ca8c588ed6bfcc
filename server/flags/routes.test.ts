import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import request from 'supertest';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { errorMiddleware } from '../http/errors.js';
import { FlagService } from './flag-service.js';
import { FlagStore, StaticFlagSource, type FlagPayload } from './flags-file.js';
import { flagRoutes, type FlagRouteOptions } from './routes.js';

const KEY = 'sdk-test';
const SHIPPED = path.resolve('segments/flags.json');
const payload: FlagPayload = { features: { isABSearch: { defaultValue: false } }, dateUpdated: '2026-01-01T00:00:00.000Z' };

const appFor = (service: FlagService, options?: FlagRouteOptions) => {
  const app = express();
  app.use(flagRoutes(service, KEY, options));
  app.use(errorMiddleware);
  return app;
};

/** An open SSE connection that collects what the server writes. */
function connect(port: number, clientKey = KEY) {
  let text = '';
  const req = http.get({ host: '127.0.0.1', port, path: `/sub/${clientKey}`, headers: { Accept: 'text/event-stream' } });
  const opened = new Promise<http.IncomingMessage>((resolve, reject) => {
    req.on('response', (res) => {
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      resolve(res);
    });
    req.on('error', reject);
  });
  return {
    opened,
    get text() {
      return text;
    },
    close: () => req.destroy(),
    /** The data of every `features` event so far. */
    events(): FlagPayload[] {
      return text
        .split('\n\n')
        .filter((block) => block.startsWith('event: features\n'))
        .map((block) => JSON.parse(block.slice(block.indexOf('data: ') + 'data: '.length)) as FlagPayload);
    },
  };
}

describe('GET /api/features/:clientKey', () => {
  it('answers the payload, announcing SSE support and asking caches to revalidate', async () => {
    const res = await request(appFor(new FlagService(new StaticFlagSource(payload)))).get(`/api/features/${KEY}`).expect(200);
    expect(res.headers['x-sse-support']).toBe('enabled');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual(payload);
  });

  it('answers 404 in the JSON error model for an unknown client key', async () => {
    const res = await request(appFor(new FlagService(new StaticFlagSource(payload)))).get('/api/features/sdk-other').expect(404);
    expect(res.body).toEqual({ error: { code: 'not_found', message: 'client key not found' } });
  });
});

describe('GET /sub/:clientKey (server-sent events)', () => {
  let dir: string | undefined;
  let server: http.Server | undefined;
  let service: FlagService | undefined;
  afterEach(async () => {
    service?.close();
    server?.closeAllConnections();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    server = undefined;
    if (dir) await rm(dir, { recursive: true, force: true });
    dir = undefined;
  });

  const listen = async (svc: FlagService, options?: FlagRouteOptions) => {
    service = svc;
    server = appFor(svc, options).listen(0, '127.0.0.1');
    await new Promise((resolve) => server!.once('listening', resolve));
    return (server.address() as AddressInfo).port;
  };

  it('answers 404 in the JSON error model for an unknown client key', async () => {
    const res = await request(appFor(new FlagService(new StaticFlagSource(payload)))).get('/sub/sdk-other').expect(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body.error.code).toBe('not_found');
  });

  it('streams a features event when the flags file is edited, and unsubscribes when the client leaves', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'flags-sse-'));
    const file = path.join(dir, 'flags.json');
    await copyFile(SHIPPED, file);
    const store = new FlagStore(file, undefined, { debounceMs: 20 });
    const before = await store.load();
    store.watch();
    const port = await listen(new FlagService(store));

    const stream = connect(port);
    const res = await stream.opened;
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['x-accel-buffering']).toBe('no');
    await vi.waitFor(() => expect(stream.text).toContain(': connected\n\n'));
    expect(service!.subscriberCount).toBe(1);

    const json = JSON.parse(await readFile(file, 'utf8'));
    json.features.isABSearch.defaultValue = true;
    await writeFile(file, JSON.stringify(json));

    await vi.waitFor(() => expect(stream.events()).toHaveLength(1), { timeout: 5_000 });
    const event = stream.events()[0]!;
    expect(event.features.isABSearch?.defaultValue).toBe(true);
    expect(Date.parse(event.dateUpdated)).toBeGreaterThan(Date.parse(before.dateUpdated));
    expect(event).toEqual(store.payload());

    stream.close();
    await vi.waitFor(() => expect(service!.subscriberCount).toBe(0));
  });

  it('writes a keepalive comment while the stream is idle', async () => {
    const port = await listen(new FlagService(new StaticFlagSource(payload)), { keepaliveMs: 25 });
    const stream = connect(port);
    await stream.opened;
    await vi.waitFor(() => expect(stream.text.match(/: keepalive\n\n/g)?.length ?? 0).toBeGreaterThanOrEqual(2));
    expect(stream.events()).toEqual([]);
    stream.close();
  });

  it('sends one event per change to every open stream', async () => {
    const source = new StaticFlagSource(payload);
    const port = await listen(new FlagService(source));
    const a = connect(port);
    const b = connect(port);
    await Promise.all([a.opened, b.opened]);
    await vi.waitFor(() => expect(service!.subscriberCount).toBe(2));
    const next = source.set({ ...payload, features: { isABSearch: { defaultValue: true } } });
    await vi.waitFor(() => expect([a.events(), b.events()]).toEqual([[next], [next]]));
    a.close();
    await vi.waitFor(() => expect(service!.subscriberCount).toBe(1));
    b.close();
    await vi.waitFor(() => expect(service!.subscriberCount).toBe(0));
  });

  it('ends open streams when the service closes, so a graceful shutdown is not held up', async () => {
    const port = await listen(new FlagService(new StaticFlagSource(payload)));
    const stream = connect(port);
    const res = await stream.opened;
    const ended = new Promise((resolve) => res.once('end', resolve));
    await vi.waitFor(() => expect(service!.subscriberCount).toBe(1));
    service!.close();
    await ended;
    expect(service!.subscriberCount).toBe(0);
  });
});
