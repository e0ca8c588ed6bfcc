import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { SharedCachePurge } from './shared-cache-purge.js';

interface Seen {
  method: string;
  url: string;
  keys: string;
}

/** A cache stand-in: records each request, answers with the next status of `statuses` (then 200). */
async function fakeCache(statuses: number[] = []) {
  const seen: Seen[] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', keys: String(req.headers['xkey-purge'] ?? '') });
    const status = statuses.shift() ?? 200;
    res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'Purged 1\n' : 'no\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

function logged() {
  const lines: { msg: string; url?: string; status?: number; attempt?: number }[] = [];
  const logger = pino({ level: 'warn' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { lines, logger };
}

describe('SharedCachePurge', () => {
  it('sends the keys added together as one PURGE / per cache, each key once, in the xkey-purge header', async () => {
    const a = await fakeCache();
    const b = await fakeCache();
    const { logger, lines } = logged();
    const purge = new SharedCachePurge({ urls: [a.url, `${b.url}/`], logger });
    purge.add('collection:Event');
    purge.add('event:7');
    purge.add('collection:Event');
    await purge.flush();
    for (const cache of [a, b])
      expect(cache.seen).toEqual([{ method: 'PURGE', url: '/', keys: 'collection:Event event:7' }]);
    expect(purge.sent).toBe(2);
    expect(lines).toEqual([]);
  });

  it('sends on its own after the batch wait, without a flush', async () => {
    const a = await fakeCache();
    const purge = new SharedCachePurge({ urls: [a.url], logger: logged().logger, batchMs: 5 });
    purge.add('k1');
    await expect.poll(() => a.seen.map((s) => s.keys)).toEqual(['k1']);
  });

  it('splits many keys into purges whose header stays within the bound, none lost', async () => {
    const a = await fakeCache();
    const purge = new SharedCachePurge({ urls: [a.url], logger: logged().logger, maxHeaderBytes: 100 });
    const keys = Array.from({ length: 60 }, (_, i) => `event:${1000 + i}`);
    for (const key of keys) purge.add(key);
    await purge.flush();
    expect(a.seen.length).toBeGreaterThan(5);
    for (const s of a.seen) expect(Buffer.byteLength(s.keys)).toBeLessThanOrEqual(100);
    expect(a.seen.flatMap((s) => s.keys.split(' '))).toEqual(keys);
  });

  it('tries a failed purge again with a growing wait, logging each failure as a warning', async () => {
    const a = await fakeCache([503, 502]);
    const { logger, lines } = logged();
    const purge = new SharedCachePurge({ urls: [a.url], logger, backoffMs: 5 });
    purge.add('k1');
    await purge.flush();
    expect(a.seen.map((s) => s.keys)).toEqual(['k1', 'k1', 'k1']);
    expect(purge.sent).toBe(1);
    expect(lines.map((l) => [l.attempt, l.msg])).toEqual([
      [1, expect.stringMatching(/answered 503.*trying again/)],
      [2, expect.stringMatching(/answered 502.*trying again/)],
    ]);
  });

  it('gives a purge up after its attempts when the cache is unreachable', async () => {
    const gone = await fakeCache();
    servers.pop()!.close();
    const { logger, lines } = logged();
    const purge = new SharedCachePurge({ urls: [gone.url], logger, backoffMs: 1, attempts: 3 });
    purge.add('k1');
    await purge.flush();
    expect(purge.sent).toBe(0);
    expect(lines.map((l) => l.attempt)).toEqual([1, 2, 3]);
    expect(lines.at(-1)!.msg).toMatch(/given up/);
  });

  it('does not retry a refusal (this node is not among the purgers)', async () => {
    const a = await fakeCache([403]);
    const { logger, lines } = logged();
    const purge = new SharedCachePurge({ urls: [a.url], logger, backoffMs: 1 });
    purge.add('k1');
    await purge.flush();
    expect(a.seen).toHaveLength(1);
    expect(lines).toEqual([expect.objectContaining({ status: 403, msg: expect.stringMatching(/refused/) })]);
  });

  it('on stop, sends what has gathered, then ends its retries and takes no more keys', async () => {
    const a = await fakeCache([503]);
    const purge = new SharedCachePurge({ urls: [a.url], logger: logged().logger, backoffMs: 60_000 });
    purge.add('k1');
    await purge.stop();
    purge.add('k2');
    await purge.flush();
    expect(a.seen.map((s) => s.keys)).toEqual(['k1']);
  });
});
