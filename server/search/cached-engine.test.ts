import { describe, expect, it } from 'vitest';
import type { SearchResult } from '../../shared/schemas/search.js';
import { CachedEngine } from './cached-engine.js';
import type { SearchEngine } from './search-engine.js';

function fakeEngine() {
  const state = { calls: 0, fail: false, delayMs: 0 };
  const engine: SearchEngine = {
    kind: 'embedded',
    async search(request) {
      const n = ++state.calls;
      if (state.delayMs) await new Promise((r) => setTimeout(r, state.delayMs));
      if (state.fail) throw new Error('engine down');
      return {
        hits: [{ document: { q: request.q, n } as never, textMatch: 1 }],
        found: 1,
        page: 1,
        searchTimeMs: 1,
      } as SearchResult<never>;
    },
    async health() {
      return { ok: !state.fail, detail: '' };
    },
  };
  return { engine, state };
}

const request = (q: string) => ({ collection: 'Performer' as const, q, queryBy: ['performer_name'] });

describe('CachedEngine', () => {
  it('answers a repeated query from the cache', async () => {
    const { engine, state } = fakeEngine();
    const cached = new CachedEngine(engine);
    await cached.search(request('heat'));
    await cached.search({ ...request('heat'), page: 1, perPage: 10 });
    expect(state.calls).toBe(1);
    expect(cached.cacheStats()).toMatchObject({ hits: 1, misses: 1, entries: 1 });
  });

  it('shares one engine call between concurrent identical queries', async () => {
    const { engine, state } = fakeEngine();
    state.delayMs = 30;
    const cached = new CachedEngine(engine);
    const results = await Promise.all(Array.from({ length: 10 }, () => cached.search(request('nets'))));
    expect(state.calls).toBe(1);
    expect(new Set(results.map((r) => JSON.stringify(r))).size).toBe(1);
  });

  it('serves the stale entry when the engine fails after expiry', async () => {
    const { engine, state } = fakeEngine();
    const cached = new CachedEngine(engine, { ttlMs: 20 });
    const fresh = await cached.search(request('kings'));
    await new Promise((r) => setTimeout(r, 40));
    state.fail = true;
    const stale = await cached.search(request('kings'));
    expect(stale).toEqual(fresh);
    expect(cached.cacheStats().staleServed).toBe(1);
  });

  it('fails when the engine fails and nothing is cached', async () => {
    const { engine, state } = fakeEngine();
    state.fail = true;
    await expect(new CachedEngine(engine).search(request('x'))).rejects.toThrow('engine down');
  });

  it('drops entries by collection or tag on invalidate', async () => {
    const { engine, state } = fakeEngine();
    const cached = new CachedEngine(engine);
    await cached.search(request('a'), ['home']);
    await cached.search(request('b'));
    expect(cached.invalidate('home')).toBe(1);
    await cached.search(request('a'));
    await cached.search(request('b'));
    expect(state.calls).toBe(3);
    expect(cached.invalidate('Performer')).toBe(2);
    await cached.search(request('b'));
    expect(state.calls).toBe(4);
  });

  it('keeps no answer of a call that was under way when its entries were invalidated', async () => {
    const { engine, state } = fakeEngine();
    state.delayMs = 30;
    const cached = new CachedEngine(engine);
    const before = cached.search(request('jets'));
    await new Promise((r) => setTimeout(r, 5));
    expect(cached.invalidate('Performer')).toBe(1);
    // Asked again after the change: a call of its own, not the one under way.
    const after = cached.search(request('jets'));
    expect(((await before).hits[0]!.document as { n: number }).n).toBe(1);
    expect(((await after).hits[0]!.document as { n: number }).n).toBe(2);
    expect(((await cached.search(request('jets'))).hits[0]!.document as { n: number }).n).toBe(2);
    expect(state.calls).toBe(2);
  });

  it('expires a collection at once: nothing from before is used or kept, nor served if the engine fails', async () => {
    const { engine, state } = fakeEngine();
    const cached = new CachedEngine(engine);
    const n = async (q: string) => ((await cached.search(request(q))).hits[0]!.document as { n: number }).n;
    expect(await n('suns')).toBe(1);
    state.delayMs = 30;
    const under = cached.search(request('mets'));
    await new Promise((r) => setTimeout(r, 5));
    cached.expire('Performer');
    // A call of its own, not the one under way, and not the entry from before.
    const after = cached.search(request('mets'));
    expect(((await under).hits[0]!.document as { n: number }).n).toBe(2);
    expect(((await after).hits[0]!.document as { n: number }).n).toBe(3);
    state.delayMs = 0;
    expect(await n('mets')).toBe(3);
    expect(await n('suns')).toBe(4);
    expect(await n('suns')).toBe(4);
    cached.expire('Performer');
    state.fail = true;
    await expect(cached.search(request('suns'))).rejects.toThrow('engine down');
  });

  it('counts an engine that throws at once as a failed call', async () => {
    const engine: SearchEngine = {
      kind: 'embedded',
      search: () => {
        throw new Error('broken at once');
      },
      health: async () => ({ ok: false, detail: '' }),
    };
    const cached = new CachedEngine(engine);
    await expect(cached.search(request('x'))).rejects.toThrow('broken at once');
    expect(cached.failuresWithin(60_000)).toBe(1);
  });

  it('stays within its size bound', async () => {
    const { engine } = fakeEngine();
    const cached = new CachedEngine(engine, { maxBytes: 20_000 });
    for (let i = 0; i < 100; i++) await cached.search(request(`query ${i}`));
    const stats = cached.cacheStats();
    expect(stats.bytes).toBeLessThanOrEqual(20_000);
    expect(stats.entries).toBeGreaterThan(0);
    expect(stats.entries).toBeLessThan(100);
  });
});
