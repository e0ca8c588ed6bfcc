import type { ClientRateLimitInfo, Options } from 'express-rate-limit';
import { describe, expect, it } from 'vitest';
import {
  IDLE_MS,
  LeaseKeeper,
  LeasedRateLimitStore,
  leaseSize,
  RECHECK_MS,
  type RateLimitLedger,
  type Taken,
  type TokenReturn,
} from './leased-rate-limit-store.js';

const WINDOW_MS = 60_000;

/** A clock the tests move by hand. */
const clock = () => {
  const c = { t: 1_000_000, now: () => c.t };
  return c;
};

/** The shared count, exact and atomic as the database's, each call a round trip answered on a later turn. */
class FakeLedger implements RateLimitLedger {
  readonly prefix = 'test:';
  readonly counts = new Map<string, { hits: number; window: string; endsAt: number }>();
  takes = 0;
  /** The size of each take, in order. */
  asked: number[] = [];
  increments = 0;
  decrements = 0;
  giveBacks: TokenReturn[][] = [];
  failing = false;
  private windows = 0;

  constructor(private readonly now: () => number) {}

  async take(key: string, n: number): Promise<Taken> {
    this.takes++;
    this.asked.push(n);
    await new Promise((resolve) => setImmediate(resolve));
    if (this.failing) throw new Error('connect ECONNREFUSED');
    const full = this.prefix + key;
    let count = this.counts.get(full);
    if (!count || count.endsAt <= this.now()) {
      count = { hits: 0, window: `w${++this.windows}`, endsAt: this.now() + WINDOW_MS };
      this.counts.set(full, count);
    }
    count.hits += n;
    return { hits: count.hits, window: count.window, msLeft: count.endsAt - this.now() };
  }

  async giveBack(returns: TokenReturn[]): Promise<void> {
    this.giveBacks.push(returns);
    for (const r of returns) {
      const count = this.counts.get(r.key);
      if (count && count.window === r.window) count.hits = Math.max(0, count.hits - r.n);
    }
  }

  hits(key: string): number {
    return this.counts.get(this.prefix + key)?.hits ?? 0;
  }

  async increment(key: string): Promise<ClientRateLimitInfo> {
    this.increments++;
    const taken = await this.take(key, 1);
    return { totalHits: taken.hits, resetTime: new Date(this.now() + taken.msLeft) };
  }

  async decrement(): Promise<void> {
    this.decrements++;
  }

  async resetKey(key: string): Promise<void> {
    this.counts.delete(this.prefix + key);
  }
}

/** `nodes` nodes counting one limiter over one shared ledger, each with its own leases. */
function nodesOn(limit: number | undefined, nodes = 1) {
  const time = clock();
  const ledger = new FakeLedger(time.now);
  const keeper = new LeaseKeeper((returns) => ledger.giveBack(returns), { now: time.now, timer: false });
  const stores = Array.from({ length: nodes }, () => {
    const store = new LeasedRateLimitStore(ledger, keeper, time.now);
    store.init({ windowMs: WINDOW_MS, limit } as Options);
    return store;
  });
  return { time, ledger, keeper, stores, store: stores[0]! };
}

/** Whether express-rate-limit would let the request through. */
const admitted = (limit: number) => (hit: ClientRateLimitInfo) => hit.totalHits <= limit;

describe('leaseSize', () => {
  it('leases one token near the limit and a sixteenth of what is left, at most 64, far from it', () => {
    expect(leaseSize(10)).toBe(1);
    expect(leaseSize(0)).toBe(1);
    expect(leaseSize(-5)).toBe(1);
    expect(leaseSize(300)).toBe(18);
    expect(leaseSize(100_000_000)).toBe(64);
  });
});

describe('LeasedRateLimitStore', () => {
  it('admits exactly the limit from one node, most requests without a round trip', async () => {
    const { ledger, store } = nodesOn(300);
    const hits = [];
    for (let i = 0; i < 301; i++) hits.push(await store.increment('198.51.100.7'));
    expect(hits.filter(admitted(300))).toHaveLength(300);
    expect(admitted(300)(hits[300]!)).toBe(false);
    // The counts the limiter sees go up one by one, as the shared count's do.
    expect(hits.slice(0, 300).map((h) => h.totalHits)).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
    expect(ledger.takes).toBeLessThan(100);
    expect(ledger.hits('198.51.100.7')).toBe(300);
  });

  it('admits exactly the limit from requests at once on three nodes', async () => {
    const { ledger, stores } = nodesOn(100, 3);
    const hits = await Promise.all(Array.from({ length: 150 }, (_, i) => stores[i % 3]!.increment('198.51.100.7')));
    expect(hits.filter(admitted(100))).toHaveLength(100);
    // Every take sent by a node waiting for tokens was one for the node's waiting requests together.
    expect(ledger.takes).toBeLessThan(150);
  });

  it('admits exactly the limit when the nodes take turns, a node sometimes asking for more than is left', async () => {
    const { ledger, stores } = nodesOn(40, 3);
    const hits = [];
    // One node is far behind: its view of the count says much is left when little is.
    for (let i = 0; i < 30; i++) hits.push(await stores[0]!.increment('a'));
    for (let i = 0; i < 30; i++) hits.push(await stores[i % 2 ? 1 : 2]!.increment('a'));
    expect(hits.filter(admitted(40))).toHaveLength(40);
    expect(ledger.hits('a')).toBeGreaterThanOrEqual(40);
  });

  it('counts a small limit in the shared count request by request', async () => {
    const { ledger, keeper, stores } = nodesOn(10, 3);
    const hits = await Promise.all(Array.from({ length: 15 }, (_, i) => stores[i % 3]!.increment('a')));
    expect(hits.filter(admitted(10))).toHaveLength(10);
    expect(ledger.takes).toBeGreaterThanOrEqual(10);
    expect(new Set(ledger.asked)).toEqual(new Set([1]));
    // Hits asked for past the limit go back: the shared count is the admitted requests.
    await keeper.settle();
    expect(ledger.hits('a')).toBe(10);
  });

  it('hands idle tokens of all keys back in one statement and leaves tokens in use alone', async () => {
    const { time, ledger, keeper, store } = nodesOn(300);
    await store.increment('a');
    await store.increment('b');
    time.t += IDLE_MS / 2;
    await store.increment('c');
    expect(ledger.hits('a')).toBe(leaseSize(300));
    time.t += IDLE_MS / 2;
    await keeper.settle();
    expect(ledger.giveBacks).toHaveLength(1);
    expect(ledger.giveBacks[0]!.map((r) => [r.key, r.n])).toEqual([
      ['test:a', leaseSize(300) - 1],
      ['test:b', leaseSize(300) - 1],
    ]);
    expect(ledger.hits('a')).toBe(1);
    expect(ledger.hits('c')).toBe(leaseSize(300));
    // The next request of `a` leases again, counting on from the one hit it made.
    expect((await store.increment('a')).totalHits).toBe(2);
  });

  it('refuses a key over its limit without a round trip, and asks again after a while', async () => {
    const { time, ledger, keeper, stores } = nodesOn(40, 2);
    const [one, two] = stores as [LeasedRateLimitStore, LeasedRateLimitStore];
    await one.increment('a');
    for (let i = 0; i < 40; i++) await two.increment('a');
    const takes = ledger.takes;
    for (let i = 0; i < 5; i++) expect(admitted(40)(await two.increment('a'))).toBe(false);
    expect(ledger.takes).toBe(takes);
    // The first node's unused tokens go back, and the second finds them once it asks again.
    time.t += Math.max(IDLE_MS, RECHECK_MS);
    await keeper.settle();
    expect(admitted(40)(await two.increment('a'))).toBe(true);
  });

  it('gives a hit taken back to the node, not to the shared count', async () => {
    const { ledger, store } = nodesOn(20);
    for (let i = 0; i < 5; i++) {
      const hit = await store.increment('a');
      expect(hit.totalHits).toBe(1);
      await store.decrement('a');
    }
    expect(ledger.takes).toBe(1);
    expect(ledger.decrements).toBe(0);
    expect(ledger.hits('a')).toBe(1);
  });

  it('takes refusals back before tokens: a refused hit taken back hands nothing back to the shared count', async () => {
    const { time, ledger, keeper, store } = nodesOn(3);
    for (let i = 0; i < 3; i++) await store.increment('a');
    const refused = await store.increment('a');
    expect(refused.totalHits).toBe(4);
    await store.decrement('a');
    expect((await store.increment('a')).totalHits).toBe(4);
    await store.decrement('a');
    time.t += IDLE_MS;
    await keeper.settle();
    expect(ledger.hits('a')).toBe(3);
  });

  it('starts over when the window ends, and tokens of the old window never lower the new count', async () => {
    const { time, ledger, keeper, store } = nodesOn(300);
    const first = await store.increment('a');
    time.t += 60_000;
    const second = await store.increment('a');
    expect(second.totalHits).toBe(1);
    expect(second.resetTime!.getTime()).toBeGreaterThan(first.resetTime!.getTime());
    // A late return to the first window leaves the second's count as it is.
    keeper.queue({ key: 'test:a', n: 5, window: 'w1' });
    await keeper.settle();
    expect(ledger.hits('a')).toBe(leaseSize(300));
  });

  it('forgets leases of ended windows', async () => {
    const { time, keeper, store } = nodesOn(300);
    await store.increment('a');
    time.t += 60_000;
    expect(store.settle(time.t, keeper)).toBe(0);
  });

  it('sends every hit to the shared count when the limit is computed per request', async () => {
    const { ledger, store } = nodesOn(undefined);
    for (let i = 0; i < 3; i++) await store.increment('a');
    await store.decrement('a');
    expect(ledger.increments).toBe(3);
    expect(ledger.decrements).toBe(1);
  });

  it('fails every request waiting on a take that fails, and takes again afterwards', async () => {
    const { ledger, store } = nodesOn(300);
    ledger.failing = true;
    const waiting = await Promise.allSettled([store.increment('a'), store.increment('a'), store.increment('a')]);
    expect(waiting.map((w) => w.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(ledger.takes).toBe(1);
    ledger.failing = false;
    expect((await store.increment('a')).totalHits).toBe(1);
  });
});
