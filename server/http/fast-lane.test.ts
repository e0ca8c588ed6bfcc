import { createServer, get, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { brotliDecompressSync } from 'node:zlib';
import { pino } from 'pino';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { AppError } from './errors.js';
import { FastLane, headersSetBy } from './fast-lane.js';
import { compressHarder, encodedBody, preferredEncoding, replayableJson, type ReplayableAnswer } from './replayable.js';

const answer = (body: string): ReplayableAnswer =>
  replayableJson(body, { cacheControl: 'private, max-age=60', vary: ['X-Site-Id'] });

function laneWithApp(options: { maxBytes?: number; logLines?: string[] } = {}) {
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      options.logLines?.push(chunk.toString('utf8'));
      done();
    },
  });
  const lane = new FastLane({
    logger: pino({ level: options.logLines ? 'info' : 'silent' }, sink),
    headers: { 'x-frame-options': 'DENY' },
    maxBytes: options.maxBytes ?? 1_000_000,
  });
  lane.route('/kept/', (_req, url) => url.pathname + '?' + url.search);
  let appCalls = 0;
  const listener = lane.in((_req, res) => {
    appCalls++;
    res.writeHead(404).end('from the app');
  });
  return { lane, server: createServer(listener), appCalls: () => appCalls };
}

describe('preferredEncoding (Accept-Encoding)', () => {
  it.each([
    [undefined, undefined],
    ['', undefined],
    ['identity', undefined],
    ['gzip', 'gzip'],
    ['gzip, deflate, br', 'br'],
    ['br;q=0, gzip', 'gzip'],
    ['gzip;q=0.5, br;q=0.8', 'br'],
    ['gzip;q=1, br;q=0.2', 'gzip'],
    ['*', 'br'],
    ['*;q=0.1, gzip;q=0', 'br'],
    ['gzip;q=0, br;q=0', undefined],
    ['GZIP', 'gzip'],
    ['gzip;q=nonsense', undefined],
  ])('%j gives %j', (header, expected) => {
    expect(preferredEncoding(header)).toBe(expected);
  });
});

describe('FastLane', () => {
  it('answers only what it was given, under the routes it was given, and GETs alone', async () => {
    const { lane, server, appCalls } = laneWithApp();
    lane.remember('/kept/a?x=1', answer('{"a":1}'), 60_000, [], lane.forgets);
    const hit = await request(server).get('/kept/a?x=1');
    expect(hit.status).toBe(200);
    expect(hit.text).toBe('{"a":1}');
    expect(hit.headers['x-frame-options']).toBe('DENY');
    expect(hit.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(hit.headers.vary).toBe('X-Site-Id, Accept-Encoding');
    expect((await request(server).get('/kept/a?x=2')).text).toBe('from the app');
    expect((await request(server).head('/kept/a?x=1')).status).toBe(404);
    expect((await request(server).get('/kept/a?x=1').set('Origin', 'https://a.example')).text).toBe('from the app');
    expect(appCalls()).toBe(3);
    expect(lane.served).toBe(1);
  });

  it('replays in brotli quickly made at first, then compressed harder once, the same text either way', async () => {
    const { lane, server } = laneWithApp();
    const text = JSON.stringify({ rows: Array.from({ length: 400 }, (_, i) => ({ id: i, title: `Row ${i % 37}` })) });
    const kept = answer(text);
    const first = encodedBody(kept, 'br');
    lane.remember('/kept/big?', kept, 60_000, [], lane.forgets);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    // The raw bytes as sent, without a client that decodes them.
    const asBrotli = () =>
      new Promise<{ headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        get({ host: '127.0.0.1', port, path: '/kept/big?', headers: { 'accept-encoding': 'br' } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
        }).on('error', reject);
      });
    const replay = await asBrotli();
    expect(replay.headers['content-encoding']).toBe('br');
    expect(replay.body.equals(first)).toBe(true);
    await new Promise((resolve) => setImmediate(resolve));
    expect(kept.compressedHarder).toBe(true);
    const again = await asBrotli();
    const harder = again.body;
    expect(harder.length).toBeLessThan(first.length);
    expect(Number(again.headers['content-length'])).toBe(harder.length);
    expect(brotliDecompressSync(harder).toString('utf8')).toBe(text);
    expect(brotliDecompressSync(first).toString('utf8')).toBe(text);
    // Once per answer: another call leaves the body as it is (the same buffer, not made again).
    const made = encodedBody(kept, 'br');
    compressHarder(kept);
    await new Promise((resolve) => setImmediate(resolve));
    expect(encodedBody(kept, 'br')).toBe(made);
    server.close();
  });

  it('keeps no answer made while a tag was forgotten: a change may have overtaken it (RULES 13.11)', async () => {
    const { lane, server } = laneWithApp();
    const since = lane.forgets;
    // A change to anything lands while the answer is made.
    lane.forget('collection:Event');
    lane.remember('/kept/d?', answer('{"d":1}'), 60_000, ['collection:Performer'], since);
    expect((await request(server).get('/kept/d?')).text).toBe('from the app');
    lane.remember('/kept/d?', answer('{"d":2}'), 60_000, ['collection:Performer'], lane.forgets);
    expect((await request(server).get('/kept/d?')).text).toBe('{"d":2}');
  });

  it('forgets an answer when its time is up', async () => {
    const { lane, server } = laneWithApp();
    lane.remember('/kept/b?', answer('{"b":1}'), 30, [], lane.forgets);
    expect((await request(server).get('/kept/b')).status).toBe(200);
    await new Promise((r) => setTimeout(r, 60));
    expect((await request(server).get('/kept/b')).status).toBe(404);
  });

  it('keeps within its byte bound, dropping the least recently used, and never keeps an answer too big for it', () => {
    const { lane } = laneWithApp({ maxBytes: 100_000 });
    for (let i = 0; i < 100; i++) lane.remember(`/kept/${i}?`, answer('x'.repeat(2_000)), 60_000, [], lane.forgets);
    // Each is counted at twice its size plus room for headers: 4.5 KB, so about 22 fit.
    expect(lane.size).toBeGreaterThan(10);
    expect(lane.size).toBeLessThan(25);
    lane.remember('/kept/huge?', answer('x'.repeat(20_000)), 60_000, [], lane.forgets);
    expect(lane.size).toBeLessThan(25);
  });

  it('writes the same log line as the request logger when info is on', async () => {
    const logLines: string[] = [];
    const { lane, server } = laneWithApp({ logLines });
    lane.remember('/kept/c?', answer('{"c":1}'), 60_000, [], lane.forgets);
    const res = await request(server).get('/kept/c').set('X-Request-Id', 'proxy-given-id-1');
    expect(res.headers['x-request-id']).toBe('proxy-given-id-1');
    await new Promise((r) => setTimeout(r, 20));
    const line = JSON.parse(logLines.at(-1)!) as Record<string, unknown>;
    expect(line).toMatchObject({
      msg: 'request completed',
      req: { id: 'proxy-given-id-1', method: 'GET', url: '/kept/c' },
      res: { statusCode: 200 },
    });
  });
});

describe('FastLane gates and failures', () => {
  it("sends a kept answer only when its gate lets it, and the gate's refusal as the JSON error model", async () => {
    const { lane, server } = laneWithApp();
    let open = true;
    lane.route(
      '/gated',
      () => 'gated',
      async (_req, res) => {
        res.setHeader('RateLimit', open ? 'r=1' : 'r=0');
        return open ? undefined : new AppError(429, 'rate_limited', 'Too many requests');
      },
    );
    lane.remember('gated', answer('{"g":1}'), 60_000, [], lane.forgets);
    const letThrough = await request(server).get('/gated');
    expect([letThrough.status, letThrough.text, letThrough.headers.ratelimit]).toEqual([200, '{"g":1}', 'r=1']);
    open = false;
    const refused = await request(server).get('/gated');
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: { code: 'rate_limited', message: 'Too many requests' } });
    expect(refused.headers.ratelimit).toBe('r=0');
    expect(refused.headers['x-frame-options']).toBe('DENY');
    expect(refused.headers['x-request-id']).toBeTruthy();
  });

  it('hands the request to the app when working out its key throws', async () => {
    const { lane, server, appCalls } = laneWithApp();
    lane.route('/throws', () => {
      throw new Error('not loaded yet');
    });
    expect((await request(server).get('/throws')).text).toBe('from the app');
    expect(appCalls()).toBe(1);
  });
});

describe('headersSetBy', () => {
  it('collects what middleware sets on a bare GET, and refuses middleware that does not finish at once', () => {
    expect(
      headersSetBy([
        (_req, res, next) => (res.setHeader('X-One', '1'), next()),
        (_req, res, next) => (res.setHeader('X-Two', '2'), next()),
      ]),
    ).toEqual({ 'x-one': '1', 'x-two': '2' });
    expect(() => headersSetBy([(_req, _res, next) => void setTimeout(next, 1)])).toThrow(/at once/);
    expect(() => headersSetBy([(_req, _res, next) => next(new Error('refused'))])).toThrow(/refused/);
  });
});
