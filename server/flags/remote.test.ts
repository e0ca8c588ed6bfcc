import { describe, expect, it, vi } from 'vitest';
import type { FlagPayload } from './flags-file.js';
import { MAX_AGE_MS, MAX_ENTRIES, PayloadCache, RemoteFlagSource, STALE_AFTER_MS } from './remote.js';

const HOST = 'https://gb.example/';
const fallback: FlagPayload = {
  features: { home_layout: { defaultValue: 'base' } },
  dateUpdated: '2026-01-01T00:00:00.000Z',
};
const remotePayload = (layout: string, dateUpdated: string) => ({
  status: 200,
  features: { home_layout: { defaultValue: layout } },
  dateUpdated,
});

function harness() {
  let now = Date.parse('2026-06-01T12:00:00Z');
  const clock = { now: () => now, advance: (ms: number) => (now += ms) };
  const answers: (() => Promise<Response>)[] = [];
  const fetch = vi.fn(async (_url: string | URL | Request, _init?: RequestInit) => {
    const next = answers.shift();
    if (!next) throw new Error('no answer queued');
    return next();
  });
  const json = (body: unknown, status = 200) =>
    answers.push(
      async () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }),
    );
  const fail = (err: Error) => answers.push(async () => Promise.reject(err));
  const logger = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
  const source = new RemoteFlagSource({
    host: HOST,
    clientKey: 'sdk-abc',
    fallback,
    fetch: fetch as typeof globalThis.fetch,
    logger,
    now: clock.now,
    timeoutMs: 50,
  });
  const heard: FlagPayload[] = [];
  source.subscribe((p) => heard.push(p));
  return { clock, fetch, json, fail, answers, logger, source, heard };
}

describe('RemoteFlagSource', () => {
  it('reads {host}/api/features/{clientKey} once and serves it while fresh', async () => {
    const h = harness();
    h.json(remotePayload('promos', '2026-06-01T11:00:00.000Z'));
    const loaded = await h.source.load();
    expect(h.fetch).toHaveBeenCalledOnce();
    expect(h.fetch.mock.calls[0]?.[0]).toBe('https://gb.example/api/features/sdk-abc');
    expect(h.fetch.mock.calls[0]?.[1]?.signal).toBeInstanceOf(AbortSignal);
    expect(loaded).toEqual({
      features: { home_layout: { defaultValue: 'promos' } },
      dateUpdated: '2026-06-01T11:00:00.000Z',
    });
    expect(h.heard).toEqual([loaded]);

    h.clock.advance(STALE_AFTER_MS - 1);
    expect(h.source.payload()).toBe(loaded);
    expect(h.fetch).toHaveBeenCalledOnce();
    expect(h.source.status()).toMatchObject({ source: 'remote', ok: true, cache: 'fresh' });
  });

  it('serves a stale payload at once and refreshes it in the background, one fetch at a time', async () => {
    const h = harness();
    h.json(remotePayload('base', '2026-06-01T11:00:00.000Z'));
    const first = await h.source.load();

    h.clock.advance(STALE_AFTER_MS);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    h.answers.push(async () => {
      await gate;
      return new Response(JSON.stringify(remotePayload('promos', '2026-06-01T12:00:30.000Z')));
    });
    expect(h.source.status()).toMatchObject({ cache: 'stale' });
    expect(h.source.payload()).toBe(first);
    expect(h.source.payload()).toBe(first);
    expect(h.fetch).toHaveBeenCalledTimes(2);

    release();
    await h.source.refresh();
    await vi.waitFor(() => expect(h.source.payload().features.home_layout?.defaultValue).toBe('promos'));
    expect(h.heard.map((p) => p.dateUpdated)).toEqual(['2026-06-01T11:00:00.000Z', '2026-06-01T12:00:30.000Z']);
  });

  it('does not notify when a refresh brings the same payload', async () => {
    const h = harness();
    h.json(remotePayload('base', '2026-06-01T11:00:00.000Z'));
    h.json(remotePayload('base', '2026-06-01T11:00:00.000Z'));
    await h.source.load();
    await h.source.refresh();
    expect(h.heard).toHaveLength(1);
  });

  it('keeps the last good payload when a fetch fails, times out, or answers garbage', async () => {
    const h = harness();
    h.json(remotePayload('promos', '2026-06-01T11:00:00.000Z'));
    const good = await h.source.load();

    h.fail(new TypeError('fetch failed'));
    await h.source.refresh();
    h.json({ error: 'down' }, 503);
    await h.source.refresh();
    h.answers.push(async () => new Response('<html>', { status: 200 }));
    await h.source.refresh();
    h.json(remotePayload('promos', 'yesterday'));
    await h.source.refresh();
    const hung = vi.fn(
      async (_url: string | URL | Request, init?: RequestInit) =>
        new Promise<Response>((_resolve, reject) =>
          init?.signal?.addEventListener('abort', () => reject(init.signal!.reason)),
        ),
    );
    h.fetch.mockImplementationOnce(hung);
    await h.source.refresh();

    expect(h.source.payload()).toBe(good);
    expect(h.heard).toHaveLength(1);
    const reasons = h.logger.warn.mock.calls.map(([obj, msg]) => `${(obj as { path: string }).path}|${msg as string}`);
    expect(reasons).toEqual([
      '|remote flags rejected: unreachable: fetch failed; the last good payload keeps serving',
      '|remote flags rejected: HTTP 503; the last good payload keeps serving',
      expect.stringMatching(/^\|remote flags rejected: not valid JSON: .*; the last good payload keeps serving$/),
      'dateUpdated|remote flags rejected: dateUpdated: must be a date and time in ISO 8601 (2026-05-01T19:30:00Z); ' +
        'the last good payload keeps serving',
      '|remote flags rejected: no answer within 50 ms; the last good payload keeps serving',
    ]);
    expect(h.source.status()).toMatchObject({
      ok: false,
      problems: [{ file: 'https://gb.example/api/features/sdk-abc', path: '' }],
    });
  });

  it('tries again at most once per stale period while GrowthBook is down', async () => {
    const h = harness();
    h.fail(new TypeError('fetch failed'));
    await h.source.load();
    for (let i = 0; i < 5; i++) h.source.payload();
    expect(h.fetch).toHaveBeenCalledOnce();
    h.clock.advance(STALE_AFTER_MS);
    h.fail(new TypeError('fetch failed'));
    h.source.payload();
    h.source.payload();
    await h.source.refresh();
    expect(h.fetch).toHaveBeenCalledTimes(2);
  });

  it(
    'serves the embedded flags until GrowthBook first answers, and again once ' +
      'the last good payload is 4 hours old',
    async () => {
      const h = harness();
      h.fail(new TypeError('fetch failed'));
      expect(await h.source.load()).toBe(fallback);
      expect(h.source.status()).toMatchObject({ ok: false, cache: 'fallback' });
      expect(h.logger.warn).toHaveBeenLastCalledWith(
        expect.anything(),
        expect.stringMatching(/the embedded flags serve$/),
      );

      h.json(remotePayload('promos', '2026-06-01T11:00:00.000Z'));
      await h.source.refresh();
      expect(h.source.payload().features.home_layout?.defaultValue).toBe('promos');

      h.clock.advance(MAX_AGE_MS - 1);
      h.fail(new TypeError('fetch failed'));
      await h.source.refresh();
      expect(h.source.payload().features.home_layout?.defaultValue).toBe('promos');

      h.clock.advance(1);
      expect(h.source.payload()).toBe(fallback);
      expect(h.heard.at(-1)).toBe(fallback);
      expect(h.fetch).toHaveBeenCalledTimes(3);
    },
  );

  it('polls every 60 seconds once started', async () => {
    vi.useFakeTimers();
    try {
      const h = harness();
      h.json(remotePayload('base', '2026-06-01T11:00:00.000Z'));
      await h.source.load();
      const stop = h.source.start();
      h.json(remotePayload('promos', '2026-06-01T12:01:00.000Z'));
      await vi.advanceTimersByTimeAsync(STALE_AFTER_MS);
      expect(h.fetch).toHaveBeenCalledTimes(2);
      expect(h.heard.at(-1)?.features.home_layout?.defaultValue).toBe('promos');
      stop();
      await vi.advanceTimersByTimeAsync(STALE_AFTER_MS * 3);
      expect(h.fetch).toHaveBeenCalledTimes(2);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('PayloadCache', () => {
  it('holds at most 10 entries, dropping the least recently used', () => {
    const cache = new PayloadCache();
    for (let i = 0; i < MAX_ENTRIES; i++) cache.set(`k${i}`, fallback);
    expect(cache.get('k0')).toBeDefined();
    cache.set('k10', fallback);
    expect(cache.size).toBe(MAX_ENTRIES);
    expect(cache.get('k1')).toBeUndefined();
    expect(cache.get('k0')).toBeDefined();
    expect(cache.get('k10')).toBeDefined();
  });

  it('is fresh for 60 s, stale until 4 hours, then gone', () => {
    let now = 0;
    const cache = new PayloadCache({ now: () => now });
    cache.set('k', fallback);
    expect(cache.get('k')?.state).toBe('fresh');
    now = STALE_AFTER_MS;
    expect(cache.get('k')?.state).toBe('stale');
    now = MAX_AGE_MS - 1;
    expect(cache.get('k')?.state).toBe('stale');
    now = MAX_AGE_MS;
    expect(cache.get('k')).toBeUndefined();
    expect(cache.size).toBe(0);
  });
});
