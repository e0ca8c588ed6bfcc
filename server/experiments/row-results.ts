import { CATEGORY_BY_SLUG } from '../../shared/catalog/categories.js';
import { categoryPath } from '../../shared/rules/site-paths.js';
import {
  ATTRIBUTION_WINDOW_HOURS,
  DEFAULT_RESULT_DAYS,
  inRange,
  MAX_ROW_RESULTS,
  RANGE_FIRST,
  rangeBound,
  type RowMetrics,
  type RowResult,
  type RowResults,
  type RowResultsQuery,
} from '../../shared/schemas/row-results.js';
import { AppError } from '../http/errors.js';
import { didYouMean } from '../segments/did-you-mean.js';
import { GROUP_PAGES } from '../segments/segment-set.js';
import type { Sql } from '../store/sql.js';

const DAY_MS = 86_400_000;

/** The studio's pages: home, the group pages and every category (as the studio's page list names them). */
const STUDIO_PAGES: readonly string[] = ['home', ...GROUP_PAGES, ...CATEGORY_BY_SLUG.keys()];

/**
 * RULES 18.1: the addresses a studio page's events carry (RULES 2.1, `client/src/app/page-views.ts`): `/` for
 * home, `/category/<slug>` for a group or category page, with or without the trailing slash the router allows.
 */
export function pagePaths(page: string): string[] {
  if (page === 'home') return ['/'];
  if (!STUDIO_PAGES.includes(page))
    throw new AppError(
      400,
      'unknown_page',
      `No page "${page}": use home, a group page (${GROUP_PAGES.join(', ')}) or a category slug such as "nfl".` +
        didYouMean(page, STUDIO_PAGES),
    );
  return [categoryPath(page), `${categoryPath(page)}/`];
}

/** One line of an aggregate: a row in total (`level` 3), per version (1) or per variation (2). */
interface MetricLine extends Record<string, unknown> {
  row_id: string;
  version: number | null;
  variation: string | null;
  level: number;
}

interface SeenLine extends MetricLine {
  impressions: string | number;
  viewers: string | number;
  clicks: string | number;
  position: number | null;
  files: string[] | null;
}

interface EarnedLine extends MetricLine {
  purchases: string | number;
  revenue: string | number | null;
}

/** `GROUPING(segment_version, variation)`: which of the three grouping sets a line is (2: per variation). */
const BY_VERSION = 1;
const TOTAL = 3;
const GROUPING_SETS = 'GROUPING SETS ((row_id), (row_id, segment_version), (row_id, variation))';

/**
 * RULES 18.1: the page's row impressions, unique viewers and clicks per row, in total, per version and per
 * variation. Read through `analytics_events_row_events` (brand, page, time; migration 9).
 */
const SEEN_SQL = `
  SELECT row_id, segment_version AS version, variation,
         GROUPING(segment_version, variation) AS level,
         count(*) FILTER (WHERE name = 'row_impression') AS impressions,
         count(DISTINCT anonymous_id) FILTER (WHERE name = 'row_impression') AS viewers,
         count(*) FILTER (WHERE name = 'row_click') AS clicks,
         min(position) AS position,
         array_agg(DISTINCT segment_file) FILTER (WHERE segment_file IS NOT NULL) AS files
  FROM (
    SELECT name, anonymous_id, row_id, segment_version, coalesce(variation, 'base') AS variation, position,
           segment_file
    FROM analytics_events
    WHERE name IN ('row_impression', 'row_click') AND brand = $1 AND page = ANY($2::text[])
      AND occurred_at >= $3::timestamptz AND occurred_at < $4::timestamptz
  ) seen
  GROUP BY ${GROUPING_SETS}`;

/**
 * RULES 18.1: the purchases of the brand in the range that a click on one of the page's rows earned: the guest's
 * last row click of the brand (on any of its pages) at most the window before the purchase. Each of the page's
 * clicks looks for the guest's purchases in the window after it (`analytics_events_purchases`), and keeps those
 * no later click of the brand comes before (`analytics_events_row_clicks`, migration 9); the click's id breaks a
 * tie of times, so a purchase is earned by one click at most.
 */
const EARNED_SQL = `
  SELECT row_id, segment_version AS version, variation,
         GROUPING(segment_version, variation) AS level,
         count(*) AS purchases,
         coalesce(sum(revenue), 0) AS revenue
  FROM (
    SELECT c.row_id, c.segment_version, coalesce(c.variation, 'base') AS variation, p.revenue
    FROM analytics_events c
    JOIN analytics_events p
      ON p.name = 'purchase' AND p.anonymous_id = c.anonymous_id AND p.brand = c.brand
     AND p.occurred_at >= c.occurred_at AND p.occurred_at <= c.occurred_at + make_interval(hours => $5)
     AND p.occurred_at >= $3::timestamptz AND p.occurred_at < $4::timestamptz
    WHERE c.name = 'row_click' AND c.brand = $1 AND c.page = ANY($2::text[])
      AND c.occurred_at >= $3::timestamptz - make_interval(hours => $5) AND c.occurred_at < $4::timestamptz
      AND NOT EXISTS (
        SELECT 1 FROM analytics_events later
        WHERE later.name = 'row_click' AND later.anonymous_id = c.anonymous_id AND later.brand = c.brand
          AND later.occurred_at >= c.occurred_at AND later.occurred_at <= p.occurred_at
          AND (later.occurred_at > c.occurred_at OR later.id > c.id)
      )
  ) earned
  GROUP BY ${GROUPING_SETS}`;

const round = (value: number, digits: number) => Number(value.toFixed(digits));

const empty = (): RowMetrics => ({ impressions: 0, viewers: 0, clicks: 0, ctr: null, purchases: 0, revenue: 0 });

interface RowParts {
  rowId: string;
  files: string[];
  position: number | null;
  total: RowMetrics;
  versions: Map<number | null, RowMetrics>;
  variations: Map<string, RowMetrics>;
}

/** Reads a brand's page's row results from the event store (RULES 18). */
export class RowResultsReadout {
  constructor(
    private readonly sql: Sql,
    /** The brands of the live segment set. */
    private readonly brands: () => readonly string[],
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** RULES 18.1: the range asked for; by default the last `DEFAULT_RESULT_DAYS` days up to now. */
  range(query: Pick<RowResultsQuery, 'since' | 'until'>): { since: Date; until: Date } {
    const until = query.until === undefined ? this.now() : rangeBound(query.until, 'until');
    if (!until) throw new AppError(400, 'invalid_range', `until "${query.until}" is not an ISO date`);
    if (!inRange(until)) throw new AppError(400, 'invalid_range', 'until must be in the years 0001 to 9999 (UTC)');
    // The default range starts no earlier than the first instant a range may name (the store has no year 0).
    const since =
      query.since === undefined
        ? new Date(Math.max(until.getTime() - DEFAULT_RESULT_DAYS * DAY_MS, RANGE_FIRST.getTime()))
        : rangeBound(query.since, 'since');
    if (!since) throw new AppError(400, 'invalid_range', `since "${query.since}" is not an ISO date`);
    if (!inRange(since)) throw new AppError(400, 'invalid_range', 'since must be in the years 0001 to 9999 (UTC)');
    if (since >= until) {
      const end = `${until.toISOString()}${query.until === undefined ? ', now' : ''}`;
      throw new AppError(400, 'invalid_range', `since (${since.toISOString()}) must be before until (${end})`);
    }
    return { since, until };
  }

  /** RULES 18.1: per row of the page, in total, per published version and per variation. */
  async results(query: RowResultsQuery): Promise<RowResults> {
    const brands = this.brands();
    if (!brands.includes(query.brand))
      throw new AppError(
        400,
        'unknown_brand',
        `No brand "${query.brand}" (brands: ${brands.join(', ')}).${didYouMean(query.brand, brands)}`,
      );
    const paths = pagePaths(query.page);
    const { since, until } = this.range(query);
    const params = [query.brand, paths, since.toISOString(), until.toISOString()];
    const seen = await this.sql.query<SeenLine>(SEEN_SQL, params);
    const earned = await this.sql.query<EarnedLine>(EARNED_SQL, [...params, ATTRIBUTION_WINDOW_HOURS]);

    const rows = new Map<string, RowParts>();
    const partsOf = (id: string) => {
      let parts = rows.get(id);
      if (!parts) {
        parts = { rowId: id, files: [], position: null, total: empty(), versions: new Map(), variations: new Map() };
        rows.set(id, parts);
      }
      return parts;
    };
    const metricsOf = (line: MetricLine): RowMetrics => {
      const parts = partsOf(line.row_id);
      const level = Number(line.level);
      if (level === TOTAL) return parts.total;
      const [map, key] =
        level === BY_VERSION
          ? [parts.versions as Map<unknown, RowMetrics>, line.version === null ? null : Number(line.version)]
          : [parts.variations as Map<unknown, RowMetrics>, String(line.variation)];
      let metrics = map.get(key);
      if (!metrics) map.set(key, (metrics = empty()));
      return metrics;
    };
    for (const line of seen) {
      const metrics = metricsOf(line);
      metrics.impressions = Number(line.impressions);
      metrics.viewers = Number(line.viewers);
      metrics.clicks = Number(line.clicks);
      metrics.ctr = metrics.impressions > 0 ? round(metrics.clicks / metrics.impressions, 6) : null;
      if (Number(line.level) === TOTAL) {
        const parts = partsOf(line.row_id);
        parts.files = [...(line.files ?? [])].sort();
        parts.position = line.position === null ? null : Number(line.position);
      }
    }
    for (const line of earned) {
      const metrics = metricsOf(line);
      metrics.purchases = Number(line.purchases);
      metrics.revenue = round(Number(line.revenue ?? 0), 2);
    }

    // The most seen rows when there are too many (a row id is what a browser sent), highest on the page first.
    const all = [...rows.values()];
    const kept = all
      .sort((a, b) => b.total.impressions - a.total.impressions || b.total.purchases - a.total.purchases)
      .slice(0, MAX_ROW_RESULTS)
      .sort(
        (a, b) =>
          (a.position ?? Infinity) - (b.position ?? Infinity) || (a.rowId < b.rowId ? -1 : a.rowId > b.rowId ? 1 : 0),
      );
    return {
      brand: query.brand,
      page: query.page,
      paths,
      since: since.toISOString(),
      until: until.toISOString(),
      rows: kept.map((r): RowResult => ({
        rowId: r.rowId,
        files: r.files,
        position: r.position,
        total: r.total,
        versions: [...r.versions]
          .sort(([a], [b]) => (a === null ? 1 : b === null ? -1 : b - a))
          .map(([version, metrics]) => ({ version, ...metrics })),
        variations: [...r.variations]
          .sort(([a], [b]) => (a === 'base' ? -1 : b === 'base' ? 1 : a < b ? -1 : a > b ? 1 : 0))
          .map(([variation, metrics]) => ({ variation, ...metrics })),
      })),
      rowsLeftOut: all.length - kept.length,
    };
  }
}
