import type { ClientRateLimitInfo, Options, Store } from 'express-rate-limit';

/** A key's count in the shared store as one `take` left it. */
export interface Taken {
  /** The key's hits in its window after this take, every node's included. */
  hits: number;
  /** The window's name in the store (its end, as the store spells it): tokens go back to this window only. */
  window: string;
  /** How long the window still runs by the store's clock. */
  msLeft: number;
}

/** Unused tokens of a lease, handed back to the window they were taken from. */
export interface TokenReturn {
  /** The key as the store spells it (the limiter's prefix included). */
  key: string;
  n: number;
  window: string;
}

/** The exact, shared count behind a leased store: each hit of it is a round trip to the database. */
export interface RateLimitLedger extends Store {
  readonly prefix: string;
  /** Adds `n` hits to a key's window (a new window when none runs), atomically. */
  take(key: string, n: number): Promise<Taken>;
}

/** What a node leases at most of a key's window at once: a round trip per this many requests of a busy client. */
export const MAX_LEASE = 64;
/** A lease is at most this share of what the key has left, so nodes leave each other most of the remainder. */
export const LEASE_SHARE = 16;
/** Tokens a node has not used for this long go back to the store for other nodes. */
export const IDLE_MS = 1_000;
/** A key known to be over its limit is refused here without a round trip, and asked again after this long. */
export const RECHECK_MS = 1_000;
/** How often leases are looked over: idle tokens go back, ended windows are forgotten. */
export const SETTLE_EVERY_MS = 250;

/** How many tokens to ask for when `left` remain of the key's limit (never less than the one this request needs). */
export const leaseSize = (left: number): number => Math.max(1, Math.min(MAX_LEASE, Math.floor(left / LEASE_SHARE)));

interface Lease {
  /** The window in the store this lease was taken from. */
  window: string;
  /** When the window ends by this node's clock, measured from before the take was sent (so early, never late). */
  endsAt: number;
  /** The key's count in the store as last known, this node's unused tokens included. */
  booked: number;
  /** Tokens booked in the store for this node and not yet used. */
  left: number;
  /** Requests refused here without asking the store, the key being known to be over its limit. */
  over: number;
  lastUsed: number;
  /** When the store last answered for this key. */
  askedAt: number;
}

/**
 * The leases of every limiter on one database, looked over together: idle tokens of all keys go back in one
 * statement per `SETTLE_EVERY_MS`, not one per key.
 */
export class LeaseKeeper {
  private readonly stores = new Set<LeasedRateLimitStore>();
  private readonly returns = new Map<string, TokenReturn>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly giveBack: (returns: TokenReturn[]) => Promise<void>,
    private readonly options: { everyMs?: number; now?: () => number; timer?: boolean } = {},
  ) {}

  /** A store holding leases: looked over until it holds none. */
  watch(store: LeasedRateLimitStore): void {
    this.stores.add(store);
    this.start();
  }

  /** Tokens to hand back with the next settling; returns to one key and window add up. */
  queue(ret: TokenReturn): void {
    const id = `${ret.window} ${ret.key}`;
    const queued = this.returns.get(id);
    if (queued) queued.n += ret.n;
    else this.returns.set(id, { ...ret });
    this.start();
  }

  /** Hands idle tokens back in one statement, forgets ended windows. Best effort: lost tokens end with their window. */
  async settle(): Promise<void> {
    const now = (this.options.now ?? Date.now)();
    for (const store of this.stores) if (store.settle(now, this) === 0) this.stores.delete(store);
    const returns = [...this.returns.values()];
    this.returns.clear();
    if (this.stores.size === 0) this.stop();
    if (returns.length) await this.giveBack(returns).catch(() => {});
  }

  private start(): void {
    if (this.timer || this.options.timer === false) return;
    this.timer = setInterval(() => void this.settle(), this.options.everyMs ?? SETTLE_EVERY_MS);
    this.timer.unref();
  }

  private stop(): void {
    if (this.returns.size) return;
    clearInterval(this.timer);
    this.timer = undefined;
  }
}

/**
 * One limiter's counts shared by every node on a database, counted here on most requests: a node leases a few of a
 * key's hits from the store (`take`, one round trip) and spends them locally until they run out (RULES 8.6). The
 * store never grants more than the limit in a window, so the nodes together never admit more than a shared count
 * would; tokens a node leaves unused go back after `IDLE_MS`. A lease is at most a sixteenth of what is left, one
 * token near the limit, so a small limit is counted in the store request by request, as exactly as before.
 */
export class LeasedRateLimitStore implements Store {
  readonly localKeys = false;
  readonly prefix: string;
  /** The limiter's limit, from `init`; none (a limit computed per request): every hit goes to the store. */
  private limit: number | undefined;
  private readonly leases = new Map<string, Lease>();
  /** Takes on their way, one per key: requests arriving meanwhile wait for it rather than sending their own. */
  private readonly taking = new Map<string, Promise<void>>();

  constructor(
    private readonly ledger: RateLimitLedger,
    private readonly keeper: LeaseKeeper,
    private readonly now: () => number = Date.now,
  ) {
    this.prefix = ledger.prefix;
  }

  init(options: Options): void {
    this.limit = typeof options.limit === 'number' ? options.limit : undefined;
    void this.ledger.init?.(options);
  }

  async get(key: string): Promise<ClientRateLimitInfo | undefined> {
    const lease = this.live(key);
    return lease ? info(lease) : this.ledger.get?.(key);
  }

  async increment(key: string): Promise<ClientRateLimitInfo> {
    const limit = this.limit;
    if (limit === undefined) return this.ledger.increment(key);
    for (;;) {
      const lease = this.live(key);
      const now = this.now();
      if (lease && lease.left > 0) {
        lease.left--;
        lease.lastUsed = now;
        return info(lease);
      }
      const pending = this.taking.get(key);
      if (pending) {
        await pending;
        continue;
      }
      if (lease && lease.booked >= limit && now - lease.askedAt < RECHECK_MS) {
        lease.over++;
        return info(lease);
      }
      // Whoever comes first after the take gets its tokens; a take that grants none leaves the key known over.
      await this.take(key, limit, lease);
    }
  }

  async decrement(key: string): Promise<void> {
    if (this.limit === undefined) return this.ledger.decrement(key);
    const lease = this.leases.get(key);
    // A hit of a window that has ended counts for nothing any more.
    if (!lease || lease.endsAt <= this.now()) return;
    // The hit's token stays booked in the store: it is this node's to spend again.
    if (lease.over > 0) lease.over--;
    else lease.left++;
  }

  async resetKey(key: string): Promise<void> {
    this.leases.delete(key);
    await this.ledger.resetKey(key);
  }

  async resetAll(): Promise<void> {
    this.leases.clear();
    await this.ledger.resetAll?.();
  }

  /** Hands back tokens idle since `IDLE_MS`, forgets ended windows; answers how many leases are left. */
  settle(now: number, keeper: LeaseKeeper): number {
    for (const [key, lease] of this.leases) {
      if (lease.endsAt <= now) this.leases.delete(key);
      else if (lease.left > 0 && now - lease.lastUsed >= IDLE_MS) {
        keeper.queue({ key: this.prefix + key, n: lease.left, window: lease.window });
        lease.booked -= lease.left;
        lease.left = 0;
      }
    }
    return this.leases.size;
  }

  /** The key's lease while its window runs. */
  private live(key: string): Lease | undefined {
    const lease = this.leases.get(key);
    return lease && lease.endsAt > this.now() ? lease : undefined;
  }

  private take(key: string, limit: number, lease: Lease | undefined): Promise<void> {
    const asked = leaseSize(limit - (lease?.booked ?? 0));
    const sent = this.now();
    const done = this.ledger
      .take(key, asked)
      .then((taken) => this.taken(key, limit, asked, sent, taken))
      .finally(() => this.taking.delete(key));
    this.taking.set(key, done);
    return done;
  }

  private taken(key: string, limit: number, asked: number, sent: number, taken: Taken): void {
    // The store adds what was asked whatever was left; the part past the limit was never granted and goes back.
    const granted = Math.max(0, Math.min(asked, limit - (taken.hits - asked)));
    const unwanted = asked - granted;
    if (unwanted > 0) this.keeper.queue({ key: this.prefix + key, n: unwanted, window: taken.window });
    let lease = this.leases.get(key);
    if (!lease || lease.window !== taken.window) {
      lease = { window: taken.window, endsAt: 0, booked: 0, left: 0, over: 0, lastUsed: sent, askedAt: sent };
      this.leases.set(key, lease);
    }
    lease.endsAt = sent + taken.msLeft;
    lease.booked = taken.hits - unwanted;
    lease.left += granted;
    lease.askedAt = this.now();
    // Refusals counted here belong to a count that was over the limit; a granted token means it no longer is.
    if (granted > 0) lease.over = 0;
    this.keeper.watch(this);
  }
}

/** What the limiter sees: the hits counted in the store, less this node's unused tokens, plus its own refusals. */
const info = (lease: Lease): ClientRateLimitInfo => ({
  totalHits: lease.booked - lease.left + lease.over,
  resetTime: new Date(lease.endsAt),
});
