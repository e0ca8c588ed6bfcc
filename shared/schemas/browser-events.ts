/**
 * What a browser's first-party event may carry (RULES 16), without zod: its names, its limits, and a check of one
 * event by hand. The schema the server parses batches with (`BrowserEventSchema`, `./analytics-events.ts`) is built
 * from the same figures; the client checks each event it queues with `browserEventProblem`, so the page's first
 * screen carries no zod, and the tests hold the check and the schema to the same answers.
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

/** At most this many events in one batch: a page's worth. */
export const MAX_EVENTS_PER_BATCH = 50;
/** A batch's body is refused beyond this many bytes (50 events of a few hundred bytes each, with room). */
export const MAX_EVENT_BATCH_BYTES = 64 * 1024;

/** The page-view header the client sends with layout requests, so the server's exposures join the browser's. */
export const PAGE_VIEW_HEADER = 'x-page-view';

/** An id made by the browser: an event's (so a batch sent twice counts once) or a page view's. */
export const EVENT_ID_PATTERN = /^[A-Za-z0-9_-]{8,64}$/;
export const EVENT_ID_MESSAGE = 'an id is 8 to 64 letters, digits, `_` or `-`';

/** The longest text of each field, in UTF-16 code units as `String.length` counts them; each at least 1. */
export const EVENT_TEXT_MAX = {
  page: 300,
  variation: 100,
  rowId: 100,
  item: 100,
  experimentId: 100,
  variationId: 100,
  reason: 200,
  /** A row source's segment file. */
  sourceFile: 200,
} as const;

/** A row's place on the page and a card's place in its row: 1 to this. */
export const EVENT_POSITION_MAX = 1_000;

/** The fields each event needs beyond the ones every event has. */
export const EVENT_NEEDS: Record<
  BrowserEventName,
  readonly ('experimentId' | 'variationId' | 'rowId' | 'position' | 'item')[]
> = {
  page_view: [],
  experiment_viewed: ['experimentId', 'variationId'],
  row_impression: ['rowId', 'position'],
  row_click: ['rowId', 'position', 'item'],
  add_to_cart: ['item'],
  checkout_failed: [],
};

export function isEventId(value: unknown): value is string {
  return typeof value === 'string' && EVENT_ID_PATTERN.test(value);
}

type Check = (value: unknown) => boolean;
const text =
  (max: number): Check =>
  (value) =>
    typeof value === 'string' && value.length >= 1 && value.length <= max;
const whole =
  (min: number, max: number): Check =>
  (value) =>
    Number.isSafeInteger(value) && (value as number) >= min && (value as number) <= max;
const position = whole(1, EVENT_POSITION_MAX);
const isName: Check = (value) => (BROWSER_EVENT_NAMES as readonly unknown[]).includes(value);

const REQUIRED: Record<string, Check> = {
  id: isEventId,
  name: isName,
  pageView: isEventId,
  page: (value) => text(EVENT_TEXT_MAX.page)(value) && (value as string).startsWith('/'),
  at: whole(0, Number.MAX_SAFE_INTEGER),
};
const OPTIONAL: Record<string, Check> = {
  variation: text(EVENT_TEXT_MAX.variation),
  rowId: text(EVENT_TEXT_MAX.rowId),
  source: (value) => {
    if (typeof value !== 'object' || value === null) return false;
    const { file, version } = value as { file?: unknown; version?: unknown };
    return text(EVENT_TEXT_MAX.sourceFile)(file) && (version === null || whole(1, Number.MAX_SAFE_INTEGER)(version));
  },
  position,
  itemPosition: position,
  item: text(EVENT_TEXT_MAX.item),
  experimentId: text(EVENT_TEXT_MAX.experimentId),
  variationId: text(EVENT_TEXT_MAX.variationId),
  reason: text(EVENT_TEXT_MAX.reason),
};

/**
 * What is wrong with an event the browser would send (`events[0].rowId`-style field names), or null when the server
 * takes it: the same answer as `BrowserEventSchema`, whose figures these are.
 */
export function browserEventProblem(event: unknown): string | null {
  if (typeof event !== 'object' || event === null) return 'an event is an object';
  const fields = event as Record<string, unknown>;
  for (const [field, check] of Object.entries(REQUIRED)) if (!check(fields[field])) return `bad ${field}`;
  for (const [field, check] of Object.entries(OPTIONAL))
    if (fields[field] !== undefined && !check(fields[field])) return `bad ${field}`;
  const name = fields.name as BrowserEventName;
  for (const field of EVENT_NEEDS[name]) if (fields[field] === undefined) return `${name} needs ${field}`;
  return null;
}
