import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { pageCookiesRead, readPageCookies, type PageCookies } from '../../shared/schemas/page-render.js';
import { answerBytes, byteBounded, CACHE_BYTES, type BoundedCache } from '../cache/byte-bounded.js';
import { TagIndex } from '../cache/tag-index.js';
import type { FlagService } from '../flags/flag-service.js';
import type { FastLane, URLParts } from '../http/fast-lane.js';
import type { ReplayableAnswer } from '../http/replayable.js';
import type { SegmentRepository } from '../segments/segment-repository.js';
import type { PublicOrigins } from '../seo/public-origins.js';
import { withoutTrackingParams } from '../../shared/rules/tracking-params.js';

/** The longest a page is replayed from the lane without being looked at again. */
const MAX_LANE_TTL_MS = 60 * 60_000;

export interface KeptPage {
  answer: ReplayableAnswer;
  status: number;
}

export interface KeptPagesDeps {
  segments: SegmentRepository;
  flags: FlagService;
  /** The API's lane: its `forget` is the one invalidation of kept answers, pages included. */
  fastLane: FastLane;
  /** The pages' own lane, in front of Express: a kept page goes out from it as a kept layout answer does. */
  pageLane?: FastLane;
  /** The origins pages are given on: with one alone, the request's host changes nothing in a page. */
  origins: PublicOrigins;
}

/** A request address as the lanes split it. */
export function urlParts(address: string): URLParts {
  const q = address.indexOf('?');
  return q < 0 ? { pathname: address, search: '' } : { pathname: address.slice(0, q), search: address.slice(q + 1) };
}

/**
 * Rendered pages kept and replayed like layout answers: keyed by the same inputs, tagged with the rows and
 * collections they were drawn from, dropped by the same changes (the fast lane's `forget`), and handed to the
 * pages' lane when the same key always makes the same page.
 */
export class KeptPages {
  private readonly pages: BoundedCache<string, KeptPage>;
  private readonly tags = new TagIndex();
  private payloadSeen: unknown = null;
  private payloadNumber = 0;

  constructor(private readonly deps: KeptPagesDeps) {
    // Their compressed copies included (`answerBytes`).
    this.pages = byteBounded<string, KeptPage>(CACHE_BYTES.pages, (page) => answerBytes(page.answer.body), {
      dispose: (_page, key, reason) => {
        if (reason !== 'set') this.tags.untag(key);
      },
    });
    deps.fastLane.onForget((tag) => {
      for (const key of this.tags.take(tag)) this.pages.delete(key);
      deps.pageLane?.forget(tag);
    });
    deps.pageLane?.route('/', (req, parts) => this.laneKey(req, parts));
  }

  get(key: string): KeptPage | undefined {
    return this.pages.get(key);
  }

  /** Keeps a page for `ttlMs` (forever for Infinity) until a change to one of `tags`. */
  keep(key: string, page: KeptPage, ttlMs: number, tags: readonly string[]): void {
    if (this.pages.set(key, page, { ttl: Number.isFinite(ttlMs) ? ttlMs : undefined }).has(key))
      this.tags.tag(key, [...new Set(tags)]);
  }

  /** A number for the flag payload in use (a new payload is a new object): it may assign guests differently. */
  private payloadId(): number {
    const payload = this.deps.flags.payload();
    if (payload !== this.payloadSeen) {
      this.payloadSeen = payload;
      this.payloadNumber++;
    }
    return this.payloadNumber;
  }

  /** The page lane's key of a request, read straight off it (`laneKeyOf`). */
  laneKey(req: IncomingMessage, parts: URLParts): string | undefined {
    return this.laneKeyOf(parts, req.headers, readPageCookies(req.headers.cookie ?? ''));
  }

  /**
   * The key a kept page is replayed under from the page lane: the address without its tracking parameters
   * (RULES 2.10), the origin's inputs, and the page cookies the page is drawn from (RULES 13.7: the shopper's place
   * on the home and category pages, the guest's home-layout assignment on the home page), with the flag payload and
   * segment set in use. Another page is one entry whatever place its guests chose.
   */
  laneKeyOf({ pathname, search }: URLParts, headers: IncomingHttpHeaders, cookies: PageCookies): string | undefined {
    if (pathname.startsWith('/api/') || pathname.includes('.')) return undefined;
    const origin = this.deps.origins.single
      ? ''
      : [headers.host, headers['x-forwarded-host'], headers['x-forwarded-proto']].join('|');
    const reads = pageCookiesRead(pathname);
    return JSON.stringify([
      pathname,
      withoutTrackingParams(search),
      origin,
      reads.place ? (cookies.place ?? '') : '',
      reads.homeLayout ? (cookies.homeLayout ?? '') : '',
      this.payloadId(),
      this.deps.segments.current.loadedAt,
    ]);
  }

  /** Hands a kept page to the page lane, when it is the same for whoever sends the same lane key. */
  toLane(page: KeptPage, key: string, laneKey: () => string | undefined): void {
    const { pageLane } = this.deps;
    // Only 200 pages: another status is the app's to send.
    if (!pageLane || page.status !== 200) return;
    const lane = laneKey();
    const ttl = this.pages.getRemainingTTL(key);
    if (lane !== undefined && ttl > 0)
      // Kept until now: whatever was forgotten before has been checked (`PageService`).
      pageLane.remember(lane, page.answer, Math.min(ttl, MAX_LANE_TTL_MS), this.tags.tagsOf(key), pageLane.forgets);
  }
}
