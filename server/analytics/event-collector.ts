import type { IncomingHttpHeaders } from 'node:http';
import type { EventBatch } from '../../shared/schemas/analytics-events.js';
import { EventIdSchema, PAGE_VIEW_HEADER } from '../../shared/schemas/analytics-events.js';
import { deviceTypeFromUserAgent, type DeviceType } from '../../shared/rules/device-type.js';
import { keptReads } from '../../shared/kept-reads.js';
import { readCookie } from '../../shared/schemas/page-render.js';
import { OPT_OUT_COOKIE } from '../../shared/schemas/privacy.js';
import type { EventLog, EventRecord } from './event-log.js';

/** RULES 16.2: a browser's clock is believed within this much of the server's; beyond it the server's time is kept. */
export const CLOCK_SKEW_MS = 5 * 60_000;

/**
 * RULES 16.4: declared crawlers, link previewers and audit tools, whose visits are no shoppers'. Automated
 * browsers that do not say what they are cannot be told apart here.
 */
const KNOWN_BOTS = new RegExp(
  [
    'bot\\b|bot/|crawl|spider|slurp|mediapartners|facebookexternalhit|embedly|bingpreview',
    'lighthouse|pagespeed|curl/|wget/|python-requests|go-http-client|httpclient|okhttp|axios/',
  ].join('|'),
  'i',
);

/** Who an event is from, read off the request: the verified guest, the brand, the device class, and consent. */
export interface Visitor {
  guest: string;
  brand: string;
  device: DeviceType;
}

/**
 * RULES 16.4, 21.4: whether events may be collected for a request: not when the browser asks not to be tracked
 * (`Sec-GPC: 1` or `DNT: 1`) or carries the guest's opt-out of selling and sharing, and not for a known bot.
 */
export function collectsFrom(headers: IncomingHttpHeaders): boolean {
  if (headers['sec-gpc'] === '1' || headers['dnt'] === '1') return false;
  if (readCookie(headers.cookie ?? '', OPT_OUT_COOKIE) === '1') return false;
  const ua = headers['user-agent'];
  return !(typeof ua === 'string' && isKnownBot(ua));
}

/** User-Agent headers repeat from request to request: the first 1,000 are tested once and kept. */
const isKnownBot = keptReads((ua) => KNOWN_BOTS.test(ua), 1_000, 512);

/** The visitor of a request for a verified guest, or undefined when nothing may be collected for it. */
export function visitorOf(headers: IncomingHttpHeaders, guest: string | undefined, brand: string): Visitor | undefined {
  if (!guest || !collectsFrom(headers)) return undefined;
  return { guest, brand, device: deviceTypeFromUserAgent(headers['user-agent']) };
}

/** The page view a request names in its `X-Page-View` header, when it names one well. */
export function pageViewOf(headers: IncomingHttpHeaders): string | undefined {
  const value = headers[PAGE_VIEW_HEADER];
  return typeof value === 'string' && EventIdSchema.safeParse(value).success ? value : undefined;
}

/** An exposure as the server's evaluation lists it. */
export interface ExposureSeen {
  key: string;
  variationId: string;
}

/** Where the server showed an experiment: the page, its view, the variation and the segment version served. */
export interface ExposurePlace {
  page: string;
  /** The browser's page view when it named one; else the guest's unnamed page view of the period (RULES 16.3). */
  pageView: string | undefined;
  variation: string;
  segmentVersion: number | null;
}

/** A placed order, as the checkout answered it. */
export interface PlacedOrder {
  id: string;
  /** The all-in total, in dollars. */
  total: number;
  placedAt: Date;
}

/**
 * What the storefront records of its visitors (RULES 16), each written through the event log without waiting:
 * the browser's batches, the server's own exposures, and purchases.
 */
export class EventCollector {
  constructor(
    readonly log: EventLog,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** RULES 16.5: whether a batch of `count` events can be taken now. */
  hasRoom(count: number): boolean {
    return this.log.hasRoom(count);
  }

  /** RULES 16.2, 16.3: a browser's checked batch; says how many events were taken. */
  browserBatch(batch: EventBatch, visitor: Visitor): number {
    const now = this.now();
    const records = batch.events.map((e): EventRecord => {
      const sent = e.at;
      const at = Math.abs(sent - now.getTime()) <= CLOCK_SKEW_MS ? new Date(sent) : now;
      return {
        name: e.name,
        at,
        guest: visitor.guest,
        brand: visitor.brand,
        device: visitor.device,
        page: e.page,
        pageView: e.pageView,
        variation: e.variation ?? null,
        segmentFile: e.source?.file ?? null,
        segmentVersion: e.source?.version ?? null,
        rowId: e.rowId ?? null,
        position: e.position ?? null,
        itemPosition: e.itemPosition ?? null,
        item: e.item ?? null,
        experimentId: e.experimentId ?? null,
        variationId: e.variationId ?? null,
        reason: e.reason ?? null,
        once: onceKey(visitor.guest, e),
      };
    });
    this.log.record(...records);
    return records.length;
  }

  /** RULES 16.1: the experiments the server put a guest in while answering a page or a layout. */
  exposures(visitor: Visitor, place: ExposurePlace, exposures: readonly ExposureSeen[]): void {
    if (exposures.length === 0) return;
    const at = this.now();
    const pageView = place.pageView ?? unnamedPageView(at);
    this.log.record(
      ...exposures.map((e): EventRecord => ({
        name: 'experiment_viewed',
        at,
        guest: visitor.guest,
        brand: visitor.brand,
        device: visitor.device,
        page: place.page,
        pageView,
        variation: place.variation,
        segmentVersion: place.segmentVersion,
        experimentId: e.key,
        variationId: e.variationId,
        once: exposureKey(visitor.guest, e.key, pageView),
      })),
    );
  }

  /** RULES 16.3: an order placed, once per order however often its checkout is retried or replayed. */
  purchase(visitor: Visitor, order: PlacedOrder): void {
    this.log.record({
      name: 'purchase',
      at: order.placedAt,
      guest: visitor.guest,
      brand: visitor.brand,
      device: visitor.device,
      page: '/checkout',
      orderId: order.id,
      revenue: order.total,
      once: `o:${order.id}`,
    });
  }
}

/**
 * RULES 16.3: answers asked for without naming their page view (by a client other than the storefront, which names
 * it) count as one page view of the guest's for each period this long, so a client asking again and again is
 * exposed once per period rather than once per answer.
 */
export const UNNAMED_PAGE_VIEW_MS = 30 * 60_000;

/** The page view of an answer asked for at `at` without naming one: the same on every node for the period. */
export const unnamedPageView = (at: Date) => `srv-${Math.floor(at.getTime() / UNNAMED_PAGE_VIEW_MS).toString(36)}`;

/**
 * One exposure per guest, experiment and page view, whichever side (server or browser) records it first. The page
 * view comes first: the server's own (`srv-<period>`) grow with time, so the unique index on these keys takes each
 * new one at its end, as it does the row ids and times, rather than at a place picked by the guest among pages a
 * big table has long evicted from memory (RULES 16.3).
 */
const exposureKey = (guest: string, experiment: string, pageView: string) => `x:${pageView}:${guest}:${experiment}`;

/** RULES 16.3: what makes a browser's event count once. */
function onceKey(guest: string, e: EventBatch['events'][number]): string {
  switch (e.name) {
    case 'experiment_viewed':
      return exposureKey(guest, e.experimentId!, e.pageView);
    case 'row_impression':
      return `i:${guest}:${e.pageView}:${e.rowId!}`;
    case 'page_view':
      return `p:${guest}:${e.pageView}`;
    default:
      return `b:${guest}:${e.id}`;
  }
}
