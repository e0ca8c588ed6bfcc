import { z } from './zod.js';

/**
 * First-party events (RULES 16): what the browser sends to `POST /api/events`, in batches. The server adds who
 * sent it (the guest of the verified session cookie), the brand, the device class and the time; it never takes
 * a purchase from the browser (purchases are written by the server when an order is placed).
 */

/**
 * The cookie copy of the guest token (RULES 1.6), for the one request a browser cannot give a header: the events
 * beacon. Written `SameSite=Strict`, so no request another site starts carries it, and read by `POST /api/events`
 * alone; every other API takes the token only as a bearer header, and no page reads it (RULES 13.7).
 */
export const SESSION_COOKIE = 'guestToken';

/** The events a browser may send. */
export const BROWSER_EVENT_NAMES = [
  'page_view',
  'experiment_viewed',
  'row_impression',
  'row_click',
  'add_to_cart',
  'checkout_failed',
] as const;
export type BrowserEventName = (typeof BROWSER_EVENT_NAMES)[number];

/** Every event the store keeps: the browser's, and the server's own `purchase`. */
export const EVENT_NAMES = [...BROWSER_EVENT_NAMES, 'purchase'] as const;
export type EventName = (typeof EVENT_NAMES)[number];

/** At most this many events in one batch: a page's worth. */
export const MAX_EVENTS_PER_BATCH = 50;
/** A batch's body is refused beyond this many bytes (50 events of a few hundred bytes each, with room). */
export const MAX_EVENT_BATCH_BYTES = 64 * 1024;

/** An id made by the browser: an event's (so a batch sent twice counts once) or a page view's. */
export const EventIdSchema = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'an id is 8 to 64 letters, digits, `_` or `-`');

const short = (max: number) => z.string().min(1).max(max);

/** Where a row came from: its segment file and the published version of the segment set. */
export const RowSourceSchema = z.object({
  file: short(200),
  version: z.number().int().positive().nullable(),
});
export type RowSource = z.infer<typeof RowSourceSchema>;

export const BrowserEventSchema = z
  .object({
    /** The browser's id of this event: sending it again changes nothing. */
    id: EventIdSchema,
    name: z.enum(BROWSER_EVENT_NAMES),
    /** The page view it happened in: impressions and exposures count once per page view. */
    pageView: EventIdSchema,
    /** The page's path, e.g. `/` or `/category/nfl`. */
    page: short(300).regex(/^\//, 'page is a path starting with /'),
    /** When it happened in the browser (ms since the epoch); the server keeps its own time if this is far off. */
    at: z.number().int().nonnegative(),
    /** The layout variation the page shows (`base` when none). */
    variation: short(100).optional(),
    /** For row events: the row's id in its segment file, where it came from and its place on the page (1-based). */
    rowId: short(100).optional(),
    source: RowSourceSchema.optional(),
    position: z.number().int().positive().max(1_000).optional(),
    /** For a row click: the chosen card's place in its row (1-based). */
    itemPosition: z.number().int().positive().max(1_000).optional(),
    /** For a row click or an add to cart: what was chosen, e.g. `event:123`, `performer:45`, `listing:9`. */
    item: short(100).optional(),
    /** For an exposure: the experiment and the variation the guest was put in. */
    experimentId: short(100).optional(),
    variationId: short(100).optional(),
    /** For a failed checkout: why, as the client names it. */
    reason: short(200).optional(),
  })
  .superRefine((event, ctx) => {
    const need = (field: keyof typeof event) => {
      if (event[field] === undefined)
        ctx.addIssue({ code: 'custom', path: [field], message: `${event.name} needs ${field}` });
    };
    if (event.name === 'experiment_viewed') {
      need('experimentId');
      need('variationId');
    }
    if (event.name === 'row_impression' || event.name === 'row_click') {
      need('rowId');
      need('position');
    }
    if (event.name === 'row_click' || event.name === 'add_to_cart') need('item');
  });
export type BrowserEvent = z.infer<typeof BrowserEventSchema>;

export const EventBatchSchema = z.object({
  /** The site id, for a sender that cannot set the `X-Site-Id` header (`navigator.sendBeacon`). */
  site: z.number().int().positive().max(999_999_999).optional(),
  events: z.array(BrowserEventSchema).min(1, 'a batch has at least one event').max(MAX_EVENTS_PER_BATCH),
});
export type EventBatch = z.infer<typeof EventBatchSchema>;

/** The page-view header the client sends with layout requests, so the server's exposures join the browser's. */
export const PAGE_VIEW_HEADER = 'x-page-view';

/** One stored event as an operator reads it back (`GET /api/studio/events`, RULES 16.8). */
export const StoredEventSchema = z.object({
  name: z.enum(EVENT_NAMES),
  at: z.string(),
  page: z.string().nullable(),
  pageView: z.string().nullable(),
  variation: z.string().nullable(),
  rowId: z.string().nullable(),
  segmentFile: z.string().nullable(),
  segmentVersion: z.number().nullable(),
  position: z.number().nullable(),
  itemPosition: z.number().nullable(),
  item: z.string().nullable(),
  experimentId: z.string().nullable(),
  variationId: z.string().nullable(),
  reason: z.string().nullable(),
  orderId: z.string().nullable(),
  revenue: z.number().nullable(),
  brand: z.string(),
  device: z.string(),
});
export type StoredEvent = z.infer<typeof StoredEventSchema>;
export const StoredEventsSchema = z.object({ events: z.array(StoredEventSchema) });
