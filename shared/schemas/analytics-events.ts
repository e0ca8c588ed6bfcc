import {
  BROWSER_EVENT_NAMES,
  EVENT_ID_MESSAGE,
  EVENT_ID_PATTERN,
  EVENT_NEEDS,
  EVENT_POSITION_MAX,
  EVENT_TEXT_MAX,
  MAX_EVENTS_PER_BATCH,
} from './browser-events.js';
import { z } from './zod.js';
import { textProblem } from '../rules/json-limits.js';

/**
 * First-party events (RULES 16): what the browser sends to `POST /api/events`, in batches. The server adds who
 * sent it (the guest of the verified session cookie), the brand, the device class and the time; it never takes
 * a purchase from the browser (purchases are written by the server when an order is placed).
 */

export {
  BROWSER_EVENT_NAMES,
  MAX_EVENT_BATCH_BYTES,
  MAX_EVENTS_PER_BATCH,
  PAGE_VIEW_HEADER,
  SESSION_COOKIE,
  type BrowserEventName,
} from './browser-events.js';

/** Every event the store keeps: the browser's, and the server's own `purchase`. */
export const EVENT_NAMES = [...BROWSER_EVENT_NAMES, 'purchase'] as const;
export type EventName = (typeof EVENT_NAMES)[number];

/** An id made by the browser: an event's (so a batch sent twice counts once) or a page view's. */
export const EventIdSchema = z.string().regex(EVENT_ID_PATTERN, EVENT_ID_MESSAGE);

/** One of an event's texts, kept as sent: never a NUL or a lone surrogate, which the store refuses (RULES 14.15). */
const short = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .refine((text) => textProblem(text) === undefined, 'must not hold a NUL character or half of a surrogate pair');

/** Where a row came from: its segment file and the published version of the segment set. */
export const RowSourceSchema = z.object({
  file: short(EVENT_TEXT_MAX.sourceFile),
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
    page: short(EVENT_TEXT_MAX.page).regex(/^\//, 'page is a path starting with /'),
    /** When it happened in the browser (ms since the epoch); the server keeps its own time if this is far off. */
    at: z.number().int().nonnegative(),
    /** The layout variation the page shows (`base` when none). */
    variation: short(EVENT_TEXT_MAX.variation).optional(),
    /** For row events: the row's id in its segment file, where it came from and its place on the page (1-based). */
    rowId: short(EVENT_TEXT_MAX.rowId).optional(),
    source: RowSourceSchema.optional(),
    position: z.number().int().positive().max(EVENT_POSITION_MAX).optional(),
    /** For a row click: the chosen card's place in its row (1-based). */
    itemPosition: z.number().int().positive().max(EVENT_POSITION_MAX).optional(),
    /** For a row click or an add to cart: what was chosen, e.g. `event:123`, `performer:45`, `listing:9`. */
    item: short(EVENT_TEXT_MAX.item).optional(),
    /** For an exposure: the experiment and the variation the guest was put in. */
    experimentId: short(EVENT_TEXT_MAX.experimentId).optional(),
    variationId: short(EVENT_TEXT_MAX.variationId).optional(),
    /** For a failed checkout: why, as the client names it. */
    reason: short(EVENT_TEXT_MAX.reason).optional(),
  })
  .superRefine((event, ctx) => {
    for (const field of EVENT_NEEDS[event.name])
      if (event[field] === undefined)
        ctx.addIssue({ code: 'custom', path: [field], message: `${event.name} needs ${field}` });
  });
export type BrowserEvent = z.infer<typeof BrowserEventSchema>;

export const EventBatchSchema = z.object({
  /** The site id, for a sender that cannot set the `X-Site-Id` header (`navigator.sendBeacon`). */
  site: z.number().int().positive().max(999_999_999).optional(),
  events: z.array(BrowserEventSchema).min(1, 'a batch has at least one event').max(MAX_EVENTS_PER_BATCH),
});
export type EventBatch = z.infer<typeof EventBatchSchema>;

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
