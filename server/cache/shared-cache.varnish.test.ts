import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Agent, createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entitySlug } from '../../shared/rules/slug.js';
import { loadCatalog } from '../catalog/load-catalog.js';
import { freePort, havePostgres } from '../test/postgres.js';
import { sellableEvents } from '../test/shopper.js';
import { startStack, type Stack } from '../test/stack.js';
import {
  CROWD_ADMIN_KEY,
  crowd,
  get,
  runCrowd,
  startCrowdStack,
  textOf,
  type CrowdStack,
} from '../test/varnish-crowd.js';
import { startVarnish, varnishdForTests, type Varnish } from '../test/varnish.js';

// Pages through a real shared cache: Varnish with the project's configuration (deploy/varnish/storefront.vcl, run
// as `npm run varnish` runs it) in front of a stand-in origin, then in front of a storefront node. `npm test`
// installs Debian's varnish and varnish-modules and runs this file after the build (the node renders pages with the
// built client's server renderer).

const varnishd = varnishdForTests();
const built = ['dist/ssr/entry-server.js', 'dist/client/index.html'].every((file) =>
  existsSync(fileURLToPath(new URL(`../../${file}`, import.meta.url))),
);
if (!varnishd)
  console.warn(
    "Skipping the tests through Varnish: varnishd with xkey not found. Install Debian's packages as root " +
      '(apt-get install -y --no-install-recommends varnish varnish-modules) or set VARNISHD; npm test does it.',
  );
else if (!built)
  console.warn('Skipping the storefront through Varnish: no built client (dist/ssr). Run npm run build first.');

/** What the stand-in origin saw of one request. */
interface Seen {
  url: string;
  cookie: string | undefined;
}

/**
 * The origin's answers by path: `/set-cookie` sets a cookie, `/private` is someone's own, `/no-lifetime` names
 * none, `/short` lives a second and may be served stale for a minute; every other path is a public page tagged
 * `page:<path>` and `collection:Event`.
 */
function stubHeaders(pathname: string, n: number): Record<string, string> {
  const page = {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'public, max-age=0, s-maxage=300, stale-while-revalidate=60',
    xkey: `page:${pathname} collection:Event`,
    'surrogate-key': `page:${pathname} collection:Event`,
    'x-render': String(n),
  };
  if (pathname === '/set-cookie') return { ...page, 'set-cookie': 'guestToken=abc; Path=/; HttpOnly' };
  if (pathname === '/private') return { ...page, 'cache-control': 'private, no-store' };
  if (pathname === '/no-lifetime') return { ...page, 'cache-control': 'public' };
  if (pathname === '/failing')
    return { ...page, 'cache-control': 'public, max-age=0, s-maxage=1, stale-while-revalidate=1' };
  if (pathname === '/short' || pathname === '/limited' || pathname === '/purged-late')
    return { ...page, 'cache-control': 'public, max-age=0, s-maxage=1, stale-while-revalidate=60' };
  return page;
}

describe.skipIf(!varnishd)('the shared cache configuration, in front of a stand-in origin', () => {
  let origin: Server;
  let varnish: Varnish;
  const seen: Seen[] = [];
  /** Whether `/failing` fails now. */
  let failing = false;
  /** Whether `/limited` is refused now, as a client over its rate limit is. */
  let limited = false;
  /** Whether `/purged-then-down` fails now. */
  let down = false;
  /** The request id each request reached the origin with, and whether one carried the query the cache keeps aside. */
  const originIds: (string | undefined)[] = [];
  let queryAsideSent = false;
  const agent = new Agent({ keepAlive: true });
  const renders = (pathname: string) => seen.filter((s) => new URL(s.url, 'http://x').pathname === pathname).length;
  const fetchVia = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
    get(agent, `${varnish.url}${path}`, headers, method);

  beforeAll(async () => {
    origin = createServer((req, res) => {
      if (req.url === '/readyz') return void res.end('ok');
      seen.push({ url: req.url ?? '', cookie: req.headers.cookie });
      const id = req.headers['x-request-id'];
      originIds.push(typeof id === 'string' ? id : undefined);
      queryAsideSent ||= req.headers['x-storefront-query'] !== undefined;
      const { pathname, search } = new URL(req.url ?? '/', 'http://x');
      // A moved page, as the storefront answers an entity's old address: to the new one, with the query as sent.
      if (pathname === '/moved')
        return void res.writeHead(301, { ...stubHeaders(pathname, seen.length), location: `/new${search}` }).end();
      if (pathname === '/failing' && failing) return void res.writeHead(500).end('down');
      if (pathname === '/purged-then-down' && down) return void res.writeHead(500).end('down');
      if ((pathname === '/limited' || pathname === '/purged-late') && limited)
        return void res.writeHead(429, { 'cache-control': 'no-store', 'retry-after': '30' }).end('slow down');
      res.writeHead(200, stubHeaders(pathname, seen.length)).end(`<p>${req.url} #${seen.length}</p>`);
    });
    await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
    varnish = await startVarnish({
      varnishd: varnishd!,
      backends: [`127.0.0.1:${(origin.address() as AddressInfo).port}`],
      listen: `127.0.0.1:${await freePort()}`,
      output: () => {},
    });
  });

  afterAll(async () => {
    agent.destroy();
    await varnish?.stop();
    await new Promise((resolve) => origin?.close(resolve));
  });

  it('keys the home page on the place and the variation alone: tracking and other cookies split nothing', async () => {
    const place = 'shopperLocation=40.71%2C-74.01';
    const first = await fetchVia('/?utm_source=mail&utm_content=1', {
      cookie: `guestToken=a; ${place}; _ga=GA1.1.1; homeLayout=home-layout:1`,
    });
    const again = await fetchVia('/?utm_content=2&gclid=x&UTM_Source=y', {
      cookie: `homeLayout=home-layout:1; privacy=all; ${place}; guestToken=b`,
    });
    expect([first.headers['x-cache'], again.headers['x-cache']]).toEqual(['MISS', 'HIT']);
    expect(textOf(again)).toBe(textOf(first));
    // The origin saw the address without tracking, and only the cookies in the key.
    expect(seen.at(-1)).toEqual({
      url: '/',
      cookie: expect.stringMatching(/^shopperLocation=[^;]+; homeLayout=home-layout:1;?$/),
    });

    const otherVariation = await fetchVia('/', { cookie: `${place}; homeLayout=home-layout:0` });
    const basePlace = await fetchVia('/', { cookie: place });
    const otherPlace = await fetchVia('/', { cookie: 'shopperLocation=10001; homeLayout=home-layout:1' });
    expect([otherVariation, basePlace, otherPlace].map((a) => a.headers['x-cache'])).toEqual(['MISS', 'MISS', 'MISS']);
    expect(renders('/')).toBe(4);
  });

  it('keys a category page on the place only, and other pages on their address only', async () => {
    const a = await fetchVia('/category/nfl?utm_medium=cpc', {
      cookie: 'shopperLocation=10001; homeLayout=home-layout:0',
    });
    const b = await fetchVia('/category/nfl', { cookie: 'homeLayout=home-layout:1; shopperLocation=10001' });
    const c = await fetchVia('/events/a-show-100001?fbclid=1', { cookie: 'shopperLocation=10001; guestToken=x' });
    const d = await fetchVia('/events/a-show-100001', { cookie: 'shopperLocation=90210' });
    expect([a, b, c, d].map((x) => x.headers['x-cache'])).toEqual(['MISS', 'HIT', 'MISS', 'HIT']);
    expect(seen.filter((s) => s.url === '/events/a-show-100001').map((s) => s.cookie)).toEqual([undefined]);
  });

  it('keys a page on the host a proxy names as well as on the Host', async () => {
    const plain = await fetchVia('/venues/a-hall-7', { host: 'shop.example.com' });
    const named = await fetchVia('/venues/a-hall-7', {
      host: 'shop.example.com',
      'x-forwarded-host': 'tickets.example.org',
    });
    const again = await fetchVia('/venues/a-hall-7', {
      host: 'shop.example.com',
      'x-forwarded-host': 'Tickets.Example.org',
    });
    expect([plain, named, again].map((x) => x.headers['x-cache'])).toEqual(['MISS', 'MISS', 'HIT']);
    expect(textOf(named)).not.toBe(textOf(plain));
  });

  it('never stores an answer with Set-Cookie, one marked private or no-store, or one without a lifetime', async () => {
    for (const path of ['/set-cookie', '/private', '/no-lifetime']) {
      await fetchVia(path);
      const second = await fetchVia(path);
      expect(second.headers['x-cache'], path).toBe('MISS');
      expect(renders(path), path).toBe(2);
    }
    expect((await fetchVia('/set-cookie')).headers['set-cookie']).toEqual(['guestToken=abc; Path=/; HttpOnly']);
  });

  it('passes the personal pages, the API and every other method to the origin each time', async () => {
    // In any case: the server routes `/API/…` as `/api/…`.
    const paths = [
      '/orders/1',
      '/checkout/2',
      '/tickets/3',
      '/studio',
      '/preview/x',
      '/api/layout/home',
      '/API/events/x',
    ];
    for (const path of paths) {
      const answers = [await fetchVia(path), await fetchVia(path)];
      expect(
        answers.map((a) => a.headers['x-cache']),
        path,
      ).toEqual(['PASS', 'PASS']);
      expect(renders(path), path).toBe(2);
    }
    expect((await fetchVia('/events/posted', {}, 'POST')).headers['x-cache']).toBe('PASS');
  });

  it('keeps the query a kept redirect was asked with, tracking parameters too (RULES 2.6, 2.10)', async () => {
    const first = await fetchVia('/moved?utm_source=mail&a=1');
    const tracked = await fetchVia('/moved?a=1&utm_content=42&gclid=x');
    const plain = await fetchVia('/moved?a=1');
    const onlyTracking = await fetchVia('/moved?fbclid=z');
    const bare = await fetchVia('/moved');
    expect(
      [first, tracked, plain, onlyTracking, bare].map((a) => [a.headers['x-cache'], a.status, a.headers.location]),
    ).toEqual([
      ['MISS', 301, '/new?utm_source=mail&a=1'],
      ['HIT', 301, '/new?a=1&utm_content=42&gclid=x'],
      ['HIT', 301, '/new?a=1'],
      ['MISS', 301, '/new?fbclid=z'],
      ['HIT', 301, '/new'],
    ]);
    // The origin was asked without them, once for each key, and never told the query they came with.
    expect(seen.filter((s) => s.url.startsWith('/moved')).map((s) => s.url)).toEqual(['/moved?a=1', '/moved']);
    expect(queryAsideSent).toBe(false);
  });

  it('gives each request an id of its own, a kept answer included: the client’s when plain, else its own', async () => {
    const fetched = await fetchVia('/venues/hall-ids');
    const kept = await fetchVia('/venues/hall-ids');
    const own = await fetchVia('/venues/hall-ids', { 'x-request-id': 'shop-request-0001' });
    const odd = await fetchVia('/venues/hall-ids', { 'x-request-id': 'not an id' });
    expect([fetched, kept, own, odd].map((a) => a.headers['x-cache'])).toEqual(['MISS', 'HIT', 'HIT', 'HIT']);
    const ids = [fetched, kept, own, odd].map((a) => a.headers['x-request-id']);
    expect(ids[0]).toMatch(/^varnish-\d+$/);
    // The origin logged the fetch under the id its client was told.
    expect(originIds.at(-1)).toBe(ids[0]);
    expect(ids[1]).toMatch(/^varnish-\d+$/);
    expect(ids[2]).toBe('shop-request-0001');
    expect(ids[3]).toMatch(/^varnish-\d+$/);
    expect(new Set(ids).size).toBe(4);
    // Its own answers too, and one id of two headers, the one the origin is given.
    const purged = await fetchVia('/', { 'xkey-purge': 'page:/nothing' }, 'PURGE');
    const refused = await fetchVia('/', {}, 'BAN');
    expect([purged, refused].map((a) => a.headers['x-request-id'])).toEqual([
      expect.stringMatching(/^varnish-\d+$/),
      expect.stringMatching(/^varnish-\d+$/),
    ]);
    const twice = await fetchVia('/venues/hall-twice', {
      'x-request-id': ['shop-request-0002', 'not an id'] as unknown as string,
    });
    expect([twice.headers['x-request-id'], originIds.at(-1)]).toEqual(['shop-request-0002', 'shop-request-0002']);
  });

  it('shows clients neither the tags nor its own bookkeeping', async () => {
    const answer = await fetchVia('/venues/hall-1');
    expect(answer.headers).not.toHaveProperty('xkey');
    expect(answer.headers).not.toHaveProperty('surrogate-key');
    expect(answer.headers).not.toHaveProperty('x-storefront-swr');
    expect(answer.headers['cache-control']).toBe('public, max-age=0, s-maxage=300, stale-while-revalidate=60');
  });

  it('purges by surrogate key at once, answering with the count, for the purgers alone', async () => {
    await fetchVia('/performers/p-1');
    expect((await fetchVia('/performers/p-1')).headers['x-cache']).toBe('HIT');
    const purged = await fetchVia('/', { 'xkey-purge': 'page:/performers/p-1 page:/nothing' }, 'PURGE');
    expect([purged.status, textOf(purged).trim()]).toEqual([200, 'Purged 1']);
    expect((await fetchVia('/performers/p-1')).headers['x-cache']).toBe('MISS');

    expect((await fetchVia('/', {}, 'PURGE')).status).toBe(400);
    expect((await fetchVia('/', {}, 'BAN')).status).toBe(405);
    // From another address (127.0.0.2 is this machine, but not in the purgers' list).
    const outsider = await new Promise<number>((resolve, reject) =>
      request(
        `${varnish.url}/`,
        { method: 'PURGE', headers: { 'xkey-purge': 'collection:Event' }, localAddress: '127.0.0.2' },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      )
        .on('error', reject)
        .end(),
    );
    expect(outsider).toBe(403);
    expect((await fetchVia('/performers/p-1')).headers['x-cache']).toBe('HIT');
  });

  it('renders a purged page anew before serving it, and serves the purged copy only while that fails', async () => {
    const page = '/purged-then-down';
    const purge = async () => textOf(await fetchVia('/', { 'xkey-purge': `page:${page}` }, 'PURGE')).trim();
    const first = await fetchVia(page);
    expect((await fetchVia(page)).headers['x-cache']).toBe('HIT');
    expect(await purge()).toBe('Purged 1');
    // Well within its lifetime and its stale-while-revalidate, but purged: rendered anew, never the purged copy.
    const renewed = await fetchVia(page);
    expect([renewed.status, renewed.headers['x-cache']]).toEqual([200, 'MISS']);
    expect(textOf(renewed)).not.toBe(textOf(first));
    expect((await fetchVia(page)).headers['x-cache']).toBe('HIT');
    expect(renders(page)).toBe(2);

    // Purged, and the server fails: the purged copy rather than an error, until it answers again.
    expect(await purge()).toBe('Purged 1');
    down = true;
    const meanwhile = await fetchVia(page);
    expect([meanwhile.status, meanwhile.headers['x-cache'], textOf(meanwhile)]).toEqual([
      200,
      'HIT-STALE',
      textOf(renewed),
    ]);
    down = false;
    // Rendered anew: by this request, or by the fetch the stale copy set off behind it, should that have run since.
    const back = await fetchVia(page);
    expect([back.status, back.headers['x-cache']]).toEqual([200, expect.stringMatching(/^(MISS|HIT)$/)]);
    expect(textOf(back)).not.toBe(textOf(renewed));
    expect(back.headers).not.toHaveProperty('x-storefront-expires');
  });

  it('never serves a purged page as it was while the server answers, past its first lifetime too', async () => {
    // A second's lifetime and a minute's stale-while-revalidate: a page purged, then asked for once its first
    // lifetime is out, is no stale page to serve while fetching it.
    const page = '/purged-late';
    const purge = async () => textOf(await fetchVia('/', { 'xkey-purge': `page:${page}` }, 'PURGE')).trim();
    const first = await fetchVia(page);
    expect(await purge()).toBe('Purged 1');
    await sleep(1_300);
    const after = await fetchVia(page);
    expect([after.status, after.headers['x-cache']]).toEqual([200, 'MISS']);
    expect(textOf(after)).not.toBe(textOf(first));

    // Purged late in its one second of lifetime, and asked for at once: fetched, not served as it was.
    await sleep(600);
    expect(await purge()).toBe('Purged 1');
    const late = await fetchVia(page);
    expect([late.status, late.headers['x-cache']]).toEqual([200, 'MISS']);
    expect(textOf(late)).not.toBe(textOf(after));

    // A client over its limit when it asks for a purged page gets its 429, not the purged copy.
    expect(await purge()).toBe('Purged 1');
    limited = true;
    const refused = await fetchVia(page);
    limited = false;
    expect([refused.status, refused.headers['x-cache']]).toEqual([429, 'MISS']);
    const next = await fetchVia(page);
    expect([next.status, next.headers['x-cache']]).toEqual([200, 'MISS']);
    expect(textOf(next)).not.toBe(textOf(late));
  });

  it('serves the stale copy when the server fails on a page past its stale-while-revalidate', async () => {
    const first = await fetchVia('/failing');
    expect([first.status, first.headers['x-cache']]).toEqual([200, 'MISS']);
    failing = true;
    // Past the page's lifetime and its stale-while-revalidate (a second each).
    await sleep(2_500);
    const stale = await fetchVia('/failing');
    expect([stale.status, stale.headers['x-cache'], textOf(stale)]).toEqual([200, 'HIT-STALE', textOf(first)]);
    failing = false;
    await expect.poll(async () => (await fetchVia('/failing')).headers['x-cache']).toMatch(/^(MISS|HIT)$/);
  });

  it('npm run varnish: runs in the foreground, says where it listens; stops on SIGTERM, folder and all', async () => {
    const listen = `127.0.0.1:${await freePort()}`;
    const backend = `127.0.0.1:${(origin.address() as AddressInfo).port}`;
    // The one origin named twice: two nodes, taken in turn.
    const args = ['run', '-s', 'varnish', '--', '--backend', backend, '--backend', backend, '--listen', listen];
    // Through npm, as an operator runs it: SIGTERM to npm must reach the script (`exec`), or Varnish outlives it.
    const child = spawn('npm', args, {
      cwd: fileURLToPath(new URL('../..', import.meta.url)),
      env: { ...process.env, VARNISHD: varnishd! },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    await expect.poll(() => out, { timeout: 30_000 }).toMatch(/Varnish listening at http:\/\/127\.0\.0\.1:\d+/);
    expect(out).toContain(`in front of ${backend}, ${backend} (work folder`);
    const workDir = /work folder (\S+);/.exec(out)![1]!;
    expect(existsSync(workDir)).toBe(true);
    const answer = await get(agent, `http://${listen}/venues/through-the-cli`);
    expect([answer.status, answer.headers['x-cache']]).toEqual([200, 'MISS']);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(existsSync(path.dirname(workDir))).toBe(false);
    // No varnishd of that folder is left serving.
    expect(processesNaming(workDir)).toEqual([]);
  });

  it('serves a page past its lifetime while it fetches it anew, within its stale-while-revalidate', async () => {
    await fetchVia('/short');
    const before = renders('/short');
    // Past the page's one-second lifetime.
    await sleep(1_500);
    const stale = await fetchVia('/short');
    expect(stale.headers['x-cache']).toBe('HIT-STALE');
    await expect.poll(() => renders('/short')).toBe(before + 1);
    await expect.poll(async () => (await fetchVia('/short')).headers['x-cache']).toBe('HIT');
  });

  it('keeps the stale page when the fetch behind it is refused with a 429 (one client’s limit)', async () => {
    const first = await fetchVia('/limited');
    limited = true;
    await sleep(1_500);
    const before = renders('/limited');
    const stale = await fetchVia('/limited');
    expect([stale.headers['x-cache'], textOf(stale)]).toEqual(['HIT-STALE', textOf(first)]);
    await expect.poll(() => renders('/limited')).toBe(before + 1);
    // The refusal replaced nothing: the page is still there for the next shopper, not a miss.
    const next = await fetchVia('/limited');
    expect([next.status, next.headers['x-cache'], textOf(next)]).toEqual([200, 'HIT-STALE', textOf(first)]);
    limited = false;
    await expect.poll(async () => (await fetchVia('/limited')).headers['x-cache']).toBe('HIT');
  });
});

/** The ids of the processes whose command line names `text`. */
function processesNaming(text: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(text);
      } catch {
        return false; // gone meanwhile
      }
    })
    .map(Number);
}

/** Requests Varnish sent to each of its nodes so far (`VBE.<vcl>.storefront_<n>.req`), by node number from 1. */
async function requestsByNode(varnish: Varnish): Promise<Map<number, number>> {
  const byNode = new Map<number, number>();
  for (const [name, value] of Object.entries(await varnish.stats())) {
    const node = /^VBE\.[^.]+\.storefront_(\d+)\.req$/.exec(name)?.[1];
    if (node) byNode.set(Number(node), (byNode.get(Number(node)) ?? 0) + value);
  }
  return byNode;
}

describe.skipIf(!varnishd)('several nodes behind one Varnish, as stand-in origins', () => {
  const origins: Server[] = [];
  /** What each origin drew, and whether its `/readyz` fails. */
  const drawn = [0, 0];
  const notReady = [false, false];
  let varnish: Varnish;
  const agent = new Agent({ keepAlive: true });
  let page = 0;
  /** `count` pages never asked for before, through Varnish: how many each origin drew. */
  const drawPages = async (count: number) => {
    const before = [...drawn];
    for (let i = 0; i < count; i++) {
      const answer = await get(agent, `${varnish.url}/venues/spread-${page++}`);
      expect(answer.status).toBe(200);
    }
    return drawn.map((n, i) => n - before[i]!);
  };

  beforeAll(async () => {
    for (const i of [0, 1]) {
      const origin = createServer((req, res) => {
        if (req.url === '/readyz') return void res.writeHead(notReady[i] ? 503 : 200).end();
        drawn[i]!++;
        res.writeHead(200, stubHeaders(new URL(req.url ?? '/', 'http://x').pathname, drawn[i]!)).end(`node ${i}`);
      });
      await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
      origins.push(origin);
    }
    varnish = await startVarnish({
      varnishd: varnishd!,
      backends: origins.map((o) => `127.0.0.1:${(o.address() as AddressInfo).port}`),
      listen: `127.0.0.1:${await freePort()}`,
      output: () => {},
    });
  });

  afterAll(async () => {
    agent.destroy();
    await varnish?.stop();
    await Promise.all(origins.map((o) => new Promise((resolve) => o.close(resolve))));
  });

  it('takes the nodes in turn for pages it does not hold, and keeps each page once for all', async () => {
    expect(await drawPages(10)).toEqual([5, 5]);
    const again = await get(agent, `${varnish.url}/venues/spread-0`);
    expect(again.headers['x-cache']).toBe('HIT');
    expect(await requestsByNode(varnish)).toEqual(
      new Map([
        [1, 5],
        [2, 5],
      ]),
    );
  });

  it('leaves out a node whose /readyz fails, and takes it back once it is ready', { timeout: 30_000 }, async () => {
    notReady[1] = true;
    // Two failed checks of three, a second apart.
    await expect.poll(async () => (await drawPages(4))[1], { timeout: 10_000, interval: 500 }).toBe(0);
    expect(await drawPages(6)).toEqual([6, 0]);
    notReady[1] = false;
    await expect.poll(async () => (await drawPages(4))[1], { timeout: 10_000, interval: 500 }).toBe(2);
  });
});

describe.skipIf(!varnishd || !built)('the storefront through Varnish', () => {
  let stack: CrowdStack;
  const agent = new Agent({ keepAlive: true });

  beforeAll(async () => {
    stack = await startCrowdStack({ varnishd: varnishd! });
  });

  afterAll(async () => {
    agent.destroy();
    await stack?.stop();
  });

  const backendRequests = async () => (await stack.varnish.stats())['MAIN.backend_req'] ?? 0;

  it(
    'serves 20,000 views of / by 5,000 guests at 500 places in two variations with at most 1,100 origin ' +
      'requests, each guest the page of its own place and variation',
    { timeout: 180_000 },
    async () => {
      const guests = crowd(5_000, 500);
      const run = await runCrowd(stack, guests, { views: 20_000, connections: 100 });
      console.log(
        `crowd through Varnish: ${run.views} views in ${(run.wallMs / 1000).toFixed(1)} s, ` +
          `${run.backendRequests} origin requests, hit ratio ${(run.hitRatio * 100).toFixed(2)}% ` +
          `(${run.hits} hits, ${run.misses} misses), ${run.bodies} distinct pages, ` +
          `p50 ${run.p50.toFixed(2)} ms, p99 ${run.p99.toFixed(2)} ms (after each guest's first view: ` +
          `p50 ${run.warmP50.toFixed(2)} ms, p99 ${run.warmP99.toFixed(2)} ms)`,
      );
      expect(run.wrong.slice(0, 5)).toEqual([]);
      expect(run.bodies).toBeGreaterThanOrEqual(1_000);
      expect(run.backendRequests).toBeLessThanOrEqual(1_100);
    },
  );

  it('answers a page as public for a shared cache, with its tags for the cache alone', async () => {
    const answer = await get(agent, `${stack.node.url}/`, { cookie: 'shopperLocation=10001' });
    expect(answer.headers['cache-control']).toMatch(/\bpublic\b.*\bs-maxage=\d+/);
    expect(String(answer.headers.vary ?? '')).not.toMatch(/cookie/i);
    expect(answer.headers.xkey).toBeTruthy();
    const through = await get(agent, `${stack.varnish.url}/`, { cookie: 'shopperLocation=10001' });
    expect(through.headers).not.toHaveProperty('xkey');
    expect(through.headers).not.toHaveProperty('surrogate-key');
  });

  it('shows a catalog change to an event through Varnish within 2 seconds', async () => {
    // An event the node serves, from the catalog it generated at start.
    const event = sellableEvents(await loadCatalog(path.join(stack.dataDir, 'catalog')))[0]!;
    const page = `/events/${entitySlug(event.event_name, event.event_id)}`;
    await get(agent, `${stack.varnish.url}${page}`);
    expect((await get(agent, `${stack.varnish.url}${page}`)).headers['x-cache']).toBe('HIT');

    const renamed = `${event.event_name} Encore ${Date.now() % 100_000}`;
    expect(await patchEvent(stack.node.url, event.event_id, { event_name: renamed })).toBe(200);
    expect(
      await secondsUntil(() => showsRenamed(agent, stack.varnish.url, page, renamed, event.event_id)),
    ).toBeLessThanOrEqual(2);

    // The move is kept by the cache; named as before again, the old address is the event's own page once more
    // within 2 seconds, not the move kept a moment ago (RULES 13.7).
    const moved = `/events/${entitySlug(renamed, event.event_id)}`;
    await expect.poll(() => xCacheOf(agent, `${stack.varnish.url}${page}`)).toEqual(['HIT', 301, moved]);
    // A campaign's link to the old address keeps its tracking parameters on the way (RULES 2.6, 2.10).
    expect(await xCacheOf(agent, `${stack.varnish.url}${page}?utm_source=mail&utm_content=7`)).toEqual([
      'HIT',
      301,
      `${moved}?utm_source=mail&utm_content=7`,
    ]);
    expect(await patchEvent(stack.node.url, event.event_id, { event_name: event.event_name })).toBe(200);
    const drawnAgain = async () => {
      const answer = await get(agent, `${stack.varnish.url}${page}`);
      return answer.status === 200 && !textOf(answer).includes(renamed);
    };
    expect(await secondsUntil(drawnAgain), `${page} is the event's page again`).toBeLessThanOrEqual(2);
  });

  it('never caches a personal page: each request reaches the node, which says no-store', async () => {
    for (const path of ['/orders/ord_missing', '/checkout/cart_missing']) {
      const before = await backendRequests();
      const answers = [
        await get(agent, `${stack.varnish.url}${path}`),
        await get(agent, `${stack.varnish.url}${path}`),
      ];
      expect(
        answers.map((a) => a.headers['x-cache']),
        path,
      ).toEqual(['PASS', 'PASS']);
      expect(
        answers.map((a) => a.headers['cache-control']),
        path,
      ).toEqual([expect.stringMatching(/no-store/), expect.stringMatching(/no-store/)]);
      expect((await backendRequests()) - before, path).toBe(2);
    }
  });
});

const twoNodes = Boolean(varnishd && built && havePostgres());

describe.skipIf(!twoNodes)('two storefront nodes on one PostgreSQL behind one Varnish', () => {
  let stack: Stack;
  let varnish: Varnish;
  const agent = new Agent({ keepAlive: true });

  beforeAll(async () => {
    const listen = `127.0.0.1:${await freePort()}`;
    stack = await startStack({
      nodes: 2,
      env: { SHARED_CACHE_PURGE_URLS: `http://${listen}`, CATALOG_ADMIN_KEY: CROWD_ADMIN_KEY, LOG_LEVEL: 'warn' },
    });
    varnish = await startVarnish({
      varnishd: varnishd!,
      backends: stack.nodes.map((node) => node.url.replace(/^http:\/\//, '')),
      listen,
      output: () => {},
    });
  }, 120_000);

  afterAll(async () => {
    agent.destroy();
    await varnish?.stop();
    await stack?.stop();
  });

  it(
    'shows a change made on one node within 2 seconds on a page the other node drew, for good once both read it',
    { timeout: 60_000 },
    async () => {
      const event = sellableEvents(stack.catalog)[0]!;
      const page = `/events/${entitySlug(event.event_name, event.event_id)}`;
      const before = await requestsByNode(varnish);
      expect((await get(agent, `${varnish.url}${page}`)).status).toBe(200);
      const after = await requestsByNode(varnish);
      const drew = [1, 2].filter((n) => (after.get(n) ?? 0) > (before.get(n) ?? 0));
      expect(drew, 'one node drew the page').toHaveLength(1);
      expect((await get(agent, `${varnish.url}${page}`)).headers['x-cache']).toBe('HIT');

      // The other node takes the change and purges at once. The node that drew the page reads it from the change
      // log within half a second; until then it may draw the page as it was, and purges again once it has read it.
      const other = stack.nodes[drew[0] === 1 ? 1 : 0]!;
      const renamed = `${event.event_name} Encore ${Date.now() % 100_000}`;
      const moved = `/events/${entitySlug(renamed, event.event_id)}`;
      expect(await patchEvent(other.url, event.event_id, { event_name: renamed })).toBe(200);
      expect(
        await secondsUntil(() => showsRenamed(agent, varnish.url, page, renamed, event.event_id)),
      ).toBeLessThanOrEqual(2);
      const everyNodeMoves = async () =>
        (await Promise.all(stack.nodes.map((n) => get(agent, `${n.url}${page}`)))).every((a) => a.status === 301);
      await expect.poll(everyNodeMoves).toBe(true);
      // The move itself is kept by the cache until the event changes again (RULES 13.7), once the last node's purge
      // (gathered for 50 ms) has gone out (a second is ample); from then on every answer is the move, from the cache.
      await sleep(1_000);
      await expect.poll(() => xCacheOf(agent, `${varnish.url}${page}`)).toEqual(['HIT', 301, moved]);
      for (let i = 0; i < 10; i++) {
        expect(await xCacheOf(agent, `${varnish.url}${page}`), 'the old address moves').toEqual(['HIT', 301, moved]);
        await sleep(100);
      }
    },
  );
});

/**
 * Whether `page` through the cache at `base` shows that event `id` is now called `renamed`: the old address sends
 * the shopper on to the renamed event (RULES 2.4), or draws it under its new name.
 */
async function showsRenamed(agent: Agent, base: string, page: string, renamed: string, id: number) {
  const answer = await get(agent, `${base}${page}`);
  const location = String(answer.headers.location ?? '');
  return (
    (answer.status === 301 && location.endsWith(entitySlug(renamed, id))) ||
    (answer.status === 200 && textOf(answer).includes(renamed))
  );
}

/** What the cache at `url` says it served (`X-Cache`), with the status and any `Location`. */
async function xCacheOf(agent: Agent, url: string): Promise<[unknown, number, unknown]> {
  const answer = await get(agent, url);
  return [answer.headers['x-cache'], answer.status, answer.headers.location];
}

/** Seconds until `holds` answers true, asked every 100 ms; Infinity when it does not within 5 seconds. */
async function secondsUntil(holds: () => Promise<boolean>): Promise<number> {
  const from = Date.now();
  while (!(await holds())) {
    if (Date.now() - from > 5_000) return Number.POSITIVE_INFINITY;
    await sleep(100);
  }
  return (Date.now() - from) / 1000;
}

/** An operator's change to one event through the catalog documents API; the answer's status. */
function patchEvent(nodeUrl: string, id: number, change: Record<string, unknown>): Promise<number> {
  const body = JSON.stringify(change);
  const headers: IncomingHttpHeaders = {
    'x-typesense-api-key': CROWD_ADMIN_KEY,
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
  };
  return new Promise((resolve, reject) =>
    request(`${nodeUrl}/api/admin/collections/Event/documents/${id}`, { method: 'PATCH', headers }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    })
      .on('error', reject)
      .end(body),
  );
}
