import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { GrowthBook, setPolyfills } from '@growthbook/growthbook';
import express, { type RequestHandler } from 'express';
import request from 'supertest';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { errorMiddleware } from '../http/errors.js';
import { parseStream, TestEventSource } from '../test/event-source.js';
import { FlagService } from './flag-service.js';
import { FlagStore, StaticFlagSource, type FlagPayload } from './flags-file.js';
import { flagRoutes, payloadEventId, RECONNECT_MS, type FlagRouteOptions } from './routes.js';

const KEY = 'sdk-test';
const SHIPPED = path.resolve('segments/flags.json');
const payload: FlagPayload = {
  features: { isABSearch: { defaultValue: false } },
  dateUpdated: '2026-01-01T00:00:00.000Z',
};
const withAbSearch = (on: boolean): FlagPayload => ({ ...payload, features: { isABSearch: { defaultValue: on } } });

const appFor = (service: FlagService, options?: FlagRouteOptions, before: RequestHandler[] = []) => {
  const app = express();
  app.use(...before, flagRoutes(service, KEY, options));
  app.use(errorMiddleware);
  return app;
};

/** An open SSE connection that collects what the server writes. */
function connect(port: number, headers: Record<string, string> = {}) {
  let text = '';
  const req = http.get({
    host: '127.0.0.1',
    port,
    path: `/sub/${KEY}`,
    headers: { Accept: 'text/event-stream', ...headers },
  });
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
    blocks: () => parseStream(text),
    /** The id of every `features-updated` event so far; each must come without data. */
    events(): (string | undefined)[] {
      const updates = parseStream(text).filter((b) => b.event === 'features-updated');
      for (const update of updates) expect(update.data).toBe('');
      return updates.map((b) => b.id);
    },
  };
}

describe('GET /api/features/:clientKey', () => {
  it('answers the payload, announcing SSE support and asking caches to revalidate', async () => {
    const res = await request(appFor(new FlagService(new StaticFlagSource(payload))))
      .get(`/api/features/${KEY}`)
      .expect(200);
    expect(res.headers['x-sse-support']).toBe('enabled');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual(payload);
  });

  it(
    'answers an unknown client key with 400 "Invalid API Key", as GrowthBook ' + 'does, in the JSON error model',
    async () => {
      const res = await request(appFor(new FlagService(new StaticFlagSource(payload)))).get('/api/features/sdk-other');
      expect(res.status).toBe(400);
      expect(res.headers['x-sse-support']).toBeUndefined();
      expect(res.body).toEqual({ error: { code: 'unknown_client_key', message: 'Invalid API Key' } });
    },
  );
});

describe('payloadEventId', () => {
  it('is the same for the same flags whatever their dateUpdated, and differs when the flags differ', () => {
    const id = payloadEventId(payload);
    expect(id).toMatch(/^[0-9a-f]{16}$/);
    expect(payloadEventId({ ...payload, dateUpdated: '2026-05-05T10:00:00.000Z' })).toBe(id);
    expect(payloadEventId(withAbSearch(true))).not.toBe(id);
    expect(payloadEventId({ ...payload, savedGroups: { staff: ['a'] } })).not.toBe(id);
  });
});

describe('GET /sub/:clientKey (server-sent events)', () => {
  let dir: string | undefined;
  const servers: http.Server[] = [];
  const services: FlagService[] = [];
  afterEach(async () => {
    for (const service of services.splice(0)) service.close();
    for (const server of servers.splice(0)) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    if (dir) await rm(dir, { recursive: true, force: true });
    dir = undefined;
  });

  const listen = async (svc: FlagService, options?: FlagRouteOptions, before?: RequestHandler[]) => {
    services.push(svc);
    const server = appFor(svc, options, before).listen(0, '127.0.0.1');
    servers.push(server);
    await new Promise((resolve) => server.once('listening', resolve));
    return (server.address() as AddressInfo).port;
  };

  it(
    'answers an unknown client key with 400 "No channel found", as ' +
      "GrowthBook's proxy does, in the JSON error model",
    async () => {
      const res = await request(appFor(new FlagService(new StaticFlagSource(payload)))).get('/sub/sdk-other');
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body).toEqual({ error: { code: 'unknown_client_key', message: 'No channel found' } });
    },
  );

  it(
    'opens with the reconnect delay, then a features-updated event ' + "with the current flags' id and no data",
    async () => {
      const port = await listen(new FlagService(new StaticFlagSource(payload)));
      const stream = connect(port);
      const res = await stream.opened;
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['x-accel-buffering']).toBe('no');
      await vi.waitFor(() => expect(stream.blocks()).toHaveLength(2));
      expect(stream.blocks()).toEqual([
        { retry: String(RECONNECT_MS) },
        { id: payloadEventId(payload), event: 'features-updated', data: '' },
      ]);
      stream.close();
    },
  );

  it(
    'streams a features-updated event when the flags file is edited, ' + 'and unsubscribes when the client leaves',
    async () => {
      dir = await mkdtemp(path.join(os.tmpdir(), 'flags-sse-'));
      const file = path.join(dir, 'flags.json');
      await copyFile(SHIPPED, file);
      const store = new FlagStore(file, undefined, { debounceMs: 20 });
      const before = await store.load();
      store.watch();
      const service = new FlagService(store);
      const port = await listen(service);

      const stream = connect(port);
      await stream.opened;
      await vi.waitFor(() => expect(stream.events()).toHaveLength(1));
      expect(stream.events()).toEqual([payloadEventId(before)]);
      expect(service.subscriberCount).toBe(1);

      const json = JSON.parse(await readFile(file, 'utf8'));
      json.features.isABSearch.defaultValue = true;
      await writeFile(file, JSON.stringify(json));

      await vi.waitFor(() => expect(stream.events()).toHaveLength(2), { timeout: 5_000 });
      expect(store.payload().features.isABSearch?.defaultValue).toBe(true);
      expect(Date.parse(store.payload().dateUpdated)).toBeGreaterThan(Date.parse(before.dateUpdated));
      expect(stream.events()).toEqual([payloadEventId(before), payloadEventId(store.payload())]);
      expect(payloadEventId(store.payload())).not.toBe(payloadEventId(before));
      // The stream says that the flags changed, never what they are: no rule reaches a browser through it.
      expect(stream.text).not.toContain('isABSearch');

      stream.close();
      await vi.waitFor(() => expect(service.subscriberCount).toBe(0));
    },
  );

  it(
    'brings a client that reconnects after an edit made while it was away up ' + 'to date, without a further edit',
    async () => {
      const source = new StaticFlagSource(payload);
      const service = new FlagService(source);
      const port = await listen(service);
      const first = connect(port);
      await vi.waitFor(() => expect(first.events()).toHaveLength(1));
      const seenId = first.events()[0]!;
      first.close();
      await vi.waitFor(() => expect(service.subscriberCount).toBe(0));

      const edited = source.set(withAbSearch(true));

      const again = connect(port, { 'Last-Event-ID': seenId });
      await vi.waitFor(() => expect(again.events()).toHaveLength(1));
      expect(again.events()).toEqual([payloadEventId(edited)]);
      again.close();
    },
  );

  it(
    'sends a reconnecting client whose Last-Event-ID is current no event, ' + 'only what changes afterwards',
    async () => {
      const source = new StaticFlagSource(payload);
      const service = new FlagService(source);
      const port = await listen(service, { keepaliveMs: 25 });
      const stream = connect(port, { 'Last-Event-ID': payloadEventId(payload) });
      await stream.opened;
      // Two keepalives later the opening is long written: the retry line and nothing else.
      await vi.waitFor(() => expect(stream.text.match(/: keepalive\n\n/g)?.length ?? 0).toBeGreaterThanOrEqual(2));
      expect(stream.blocks()).toEqual([{ retry: String(RECONNECT_MS) }]);

      const next = source.set(withAbSearch(true));
      await vi.waitFor(() => expect(stream.events()).toEqual([payloadEventId(next)]));
      stream.close();
    },
  );

  it('sends an event at once to a client whose Last-Event-ID is stale or unknown', async () => {
    const source = new StaticFlagSource(payload);
    const port = await listen(new FlagService(source));
    const current = source.set(withAbSearch(true));
    for (const lastId of [payloadEventId(payload), 'not-an-id']) {
      const stream = connect(port, { 'Last-Event-ID': lastId });
      await vi.waitFor(() => expect(stream.events()).toEqual([payloadEventId(current)]));
      stream.close();
    }
  });

  it(
    'sends nothing to a client that moves to another node serving the same ' +
      'flags, though that node stamped them itself',
    async () => {
      const onA = new StaticFlagSource(payload);
      const onB = new StaticFlagSource({ ...payload, dateUpdated: '2026-01-01T00:00:03.217Z' });
      const portA = await listen(new FlagService(onA));
      const portB = await listen(new FlagService(onB), { keepaliveMs: 25 });
      const a = connect(portA);
      await vi.waitFor(() => expect(a.events()).toHaveLength(1));
      a.close();
      const b = connect(portB, { 'Last-Event-ID': a.events()[0]! });
      await vi.waitFor(() => expect(b.text.match(/: keepalive\n\n/g)?.length ?? 0).toBeGreaterThanOrEqual(2));
      expect(b.events()).toEqual([]);
      b.close();
    },
  );

  it('writes a keepalive comment while the stream is idle', async () => {
    const port = await listen(new FlagService(new StaticFlagSource(payload)), { keepaliveMs: 25 });
    const stream = connect(port);
    await stream.opened;
    await vi.waitFor(() => expect(stream.text.match(/: keepalive\n\n/g)?.length ?? 0).toBeGreaterThanOrEqual(2));
    expect(stream.events()).toHaveLength(1);
    stream.close();
  });

  it('sends one event per change to every open stream', async () => {
    const source = new StaticFlagSource(payload);
    const service = new FlagService(source);
    const port = await listen(service);
    const a = connect(port);
    const b = connect(port);
    await Promise.all([a.opened, b.opened]);
    await vi.waitFor(() => expect(service.subscriberCount).toBe(2));
    const opening = payloadEventId(payload);
    const next = source.set(withAbSearch(true));
    const change = payloadEventId(next);
    await vi.waitFor(() =>
      expect([a.events(), b.events()]).toEqual([
        [opening, change],
        [opening, change],
      ]),
    );
    a.close();
    await vi.waitFor(() => expect(service.subscriberCount).toBe(1));
    b.close();
    await vi.waitFor(() => expect(service.subscriberCount).toBe(0));
  });

  it('ends open streams when the service closes, so a graceful shutdown is not held up', async () => {
    const service = new FlagService(new StaticFlagSource(payload));
    const port = await listen(service);
    const stream = connect(port);
    const res = await stream.opened;
    const ended = new Promise((resolve) => res.once('end', resolve));
    await vi.waitFor(() => expect(service.subscriberCount).toBe(1));
    service.close();
    await ended;
    expect(service.subscriberCount).toBe(0);
  });

  it("keeps GrowthBook's own SDK current, including through an edit made while its stream was down", async () => {
    const source = new StaticFlagSource(payload);
    const service = new FlagService(source);
    // A gate in front of the stream: it records what each connection says it has, and can hold reconnects.
    const arrivals: (string | undefined)[] = [];
    let held: (() => void)[] | null = null;
    const sockets = new Set<import('node:net').Socket>();
    const gate: RequestHandler = (req, _res, next) => {
      if (!req.path.startsWith('/sub/')) return next();
      arrivals.push(req.get('last-event-id'));
      sockets.add(req.socket);
      if (held) held.push(() => next());
      else next();
    };
    const retryMs = 30;
    const port = await listen(service, { retryMs }, [gate]);

    setPolyfills({ EventSource: TestEventSource });
    const gb = new GrowthBook({ apiHost: `http://127.0.0.1:${port}`, clientKey: KEY });
    try {
      await gb.init({ streaming: true, timeout: 2_000 });
      expect(gb.isOn('isABSearch')).toBe(false);
      await vi.waitFor(() => expect(service.subscriberCount).toBe(1));
      expect(arrivals).toEqual([undefined]);

      const live = source.set(withAbSearch(true));
      await vi.waitFor(() => expect(gb.isOn('isABSearch')).toBe(true));

      // The connection drops; the SDK's EventSource comes back with the id it saw, and is held at the gate
      // until the edit has been made, so nothing but the reconnect can bring the edit.
      held = [];
      for (const socket of sockets) socket.destroy();
      await vi.waitFor(() => expect(held).toHaveLength(1));
      expect(service.subscriberCount).toBe(0);
      expect(arrivals.at(-1)).toBe(payloadEventId(live));
      source.set({
        ...payload,
        features: { isABSearch: { defaultValue: false }, home_layout: { defaultValue: 'promos' } },
      });
      const release = held;
      held = null;
      for (const go of release) go();

      await vi.waitFor(() => expect(gb.getFeatureValue('home_layout', 'base')).toBe('promos'));
      expect(gb.isOn('isABSearch')).toBe(false);
    } finally {
      gb.destroy({ destroyAllStreams: true });
    }
  });
});
