import { z } from './zod.js';

/**
 * A page's row results for merchandisers (RULES 18.1): per row of a brand's page, its impressions, unique viewers,
 * clicks, click-through rate, and the purchases and revenue its clicks earned (18.1), in total, per published
 * segment version and per variation. `GET /api/studio/rows`, the studio's row results table and the badges of its
 * preview all read this.
 */

/** RULES 18.1: a purchase is earned by the guest's last row click of the brand at most this long before it. */
export const ATTRIBUTION_WINDOW_HOURS = 24;
/** RULES 18.1: the results cover this many days up to now when no `since` is given. */
export const DEFAULT_RESULT_DAYS = 30;

export const RowMetricsSchema = z.object({
  /** Row impressions (RULES 16.1, 16.3: once per row per page view). */
  impressions: z.number().int().nonnegative(),
  /** Distinct guests with at least one impression of the row. */
  viewers: z.number().int().nonnegative(),
  /** Clicks on the row's cards. */
  clicks: z.number().int().nonnegative(),
  /** Clicks over impressions; null without impressions. */
  ctr: z.number().nonnegative().nullable(),
  /** Purchases earned by a click on the row (RULES 18.1). */
  purchases: z.number().int().nonnegative(),
  /** The all-in revenue of those purchases, in dollars. */
  revenue: z.number().nonnegative(),
});
export type RowMetrics = z.infer<typeof RowMetricsSchema>;

export const RowVersionResultSchema = RowMetricsSchema.extend({
  /** The published segment version the row was served from; null for a set never published. */
  version: z.number().int().positive().nullable(),
});
export type RowVersionResult = z.infer<typeof RowVersionResultSchema>;

export const RowVariationResultSchema = RowMetricsSchema.extend({
  /** The layout variation the page showed (`base` when none). */
  variation: z.string(),
});
export type RowVariationResult = z.infer<typeof RowVariationResultSchema>;

export const RowResultSchema = z.object({
  /** The row's id in its segment file. */
  rowId: z.string(),
  /** The segment files its events named (a brand's override can bring a row of its own). */
  files: z.array(z.string()),
  /** The highest place on the page it was seen or clicked at (from 1); null when only purchases are counted. */
  position: z.number().int().positive().nullable(),
  total: RowMetricsSchema,
  /** Newest version first, a set never published last. */
  versions: z.array(RowVersionResultSchema),
  /** `base` first, then by name. */
  variations: z.array(RowVariationResultSchema),
});
export type RowResult = z.infer<typeof RowResultSchema>;

export const RowResultsSchema = z.object({
  brand: z.string(),
  /** The studio's page: `home`, a group page (`sports`) or a category slug (`nfl`). */
  page: z.string(),
  /** The page addresses its events carry, e.g. `/category/nfl`. */
  paths: z.array(z.string()),
  /** The range read: events at or after `since` and before `until` (ISO date-times). */
  since: z.string(),
  until: z.string(),
  /** Highest on the page first. */
  rows: z.array(RowResultSchema),
  /** Rows left out beyond the most-seen `MAX_ROW_RESULTS`. */
  rowsLeftOut: z.number().int().nonnegative(),
});
export type RowResults = z.infer<typeof RowResultsSchema>;

/** At most this many rows are answered (the most seen): a row id is whatever a browser sent. */
export const MAX_ROW_RESULTS = 200;

/** An ISO date (`2026-11-01`), or a date and time with an optional zone (UTC without one). */
const ISO_DATE = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?)(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * An ISO date or date-time as an instant. A date alone is the start of that day (UTC), or for an `until` its
 * end (the next day's start): `until=2026-11-30` covers the 30th. Undefined when it is no real date.
 */
export function rangeBound(value: string, end: 'since' | 'until'): Date | undefined {
  const match = ISO_DATE.exec(value);
  if (!match) return undefined;
  const [, day, time, zone] = match;
  const midnight = new Date(`${day}T00:00:00Z`);
  // `2026-02-30` would roll over to March: only a day that exists.
  if (Number.isNaN(midnight.getTime()) || midnight.toISOString().slice(0, 10) !== day) return undefined;
  if (time === undefined) return end === 'until' ? new Date(midnight.getTime() + 86_400_000) : midnight;
  const at = new Date(`${day}T${time}${zone ?? 'Z'}`);
  return Number.isNaN(at.getTime()) ? undefined : at;
}

/**
 * The first and last instants a range may name: the years 1 to 9999, as an ISO date has four digits for its year and
 * the event store (PostgreSQL) has no year 0.
 */
export const RANGE_FIRST = new Date('0001-01-01T00:00:00Z');
export const RANGE_LAST = new Date('9999-12-31T23:59:59.999Z');
export const inRange = (at: Date) => at >= RANGE_FIRST && at <= RANGE_LAST;

const bound = (end: 'since' | 'until') =>
  z
    .string()
    .refine(
      (s) => rangeBound(s, end) !== undefined,
      `${end} must be an ISO date such as 2026-11-01 or a date and time such as 2026-11-01T09:00:00Z`,
    )
    .refine((s) => {
      const at = rangeBound(s, end);
      return at === undefined || inRange(at);
    }, `${end} must be in the years 0001 to 9999 (UTC)`)
    .optional();

/** `GET /api/studio/rows`'s query. */
export const RowResultsQuerySchema = z
  .object({
    brand: z
      .string({ error: 'brand is required: a brand id such as "base"' })
      .regex(/^[a-z0-9-]{1,64}$/, 'brand must be a brand id such as "base"'),
    page: z
      .string({ error: 'page is required: home, a group page or a category slug' })
      .regex(/^[a-z0-9-]{1,64}$/, 'page must be home, a group page or a category slug such as "nfl"'),
    since: bound('since'),
    until: bound('until'),
  })
  .superRefine((q, ctx) => {
    if (q.since === undefined || q.until === undefined) return;
    if (rangeBound(q.since, 'since')! >= rangeBound(q.until, 'until')!)
      ctx.addIssue({ code: 'custom', path: ['until'], message: 'until must be after since' });
  });
export type RowResultsQuery = z.infer<typeof RowResultsQuerySchema>;
