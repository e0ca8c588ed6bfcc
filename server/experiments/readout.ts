import type { FeatureDefinitions } from '@growthbook/growthbook';
import { WEIGHT_SUM_TOLERANCE } from '../../shared/schemas/flag-rules.js';
import type {
  ExperimentList,
  ExperimentResults,
  Lift,
  VariationResult,
} from '../../shared/schemas/experiment-results.js';
import { AppError } from '../http/errors.js';
import type { Sql } from '../store/sql.js';
import {
  conversionMoments,
  proportion,
  relativeLift,
  revenuePerUserMoments,
  srm,
  type LiftEstimate,
} from './statistics.js';

/** An experiment as the flags define it: its variations' ids, names and configured weights. */
export interface ExperimentDefinition {
  key: string;
  feature: string;
  name: string | null;
  variations: { id: string; name: string; weight: number }[];
}

/**
 * RULES 17.1: every experiment rule of a flag payload, keyed as the SDK tracks it (the rule's `key`, else its
 * feature's), with its variations as exposures name them (the `meta` key, else the index) and its weights as
 * GrowthBook applies them (equal when absent or not summing to 1).
 */
export function experimentDefinitions(features: FeatureDefinitions): ExperimentDefinition[] {
  const found = new Map<string, ExperimentDefinition>();
  for (const [feature, definition] of Object.entries(features)) {
    for (const rule of definition.rules ?? []) {
      if (!rule.variations || 'force' in rule) continue;
      const key = rule.key ?? feature;
      if (found.has(key)) continue;
      const count = rule.variations.length;
      const given = rule.weights;
      const sum = given?.reduce((a, b) => a + b, 0) ?? 0;
      const weights =
        given && given.length === count && Math.abs(sum - 1) <= WEIGHT_SUM_TOLERANCE
          ? given.map((w) => w / sum)
          : new Array<number>(count).fill(1 / count);
      found.set(key, {
        key,
        feature,
        name: rule.name ?? null,
        variations: weights.map((weight, i) => ({
          id: rule.meta?.[i]?.key ?? String(i),
          name: rule.meta?.[i]?.name ?? rule.meta?.[i]?.key ?? String(i),
          weight,
        })),
      });
    }
  }
  return [...found.values()];
}

interface ArmRow extends Record<string, unknown> {
  variation_id: string;
  users: string | number;
  purchasers: string | number;
  multiple: string | number;
  revenue: string | number | null;
  sum_squares: string | number | null;
  first_at: Date | string | null;
  last_at: Date | string | null;
}

/**
 * RULES 17.2: per variation, the guests exposed (each in the variation of their first exposure), and their
 * purchases after that first exposure only. Read from the two views GrowthBook reads, so its numbers and these
 * agree. Each exposed guest's purchases are looked up once, through the purchases index, whatever the planner
 * believes of the table's size (PGlite never gathers statistics, and joining a grouped subquery back to the
 * guests it came from became a nested loop over every pair of guests: seconds at 2,000 guests).
 */
const ARMS_SQL = `
  WITH exposed AS (
    SELECT anonymous_id,
           min(timestamp) AS first_at,
           max(timestamp) AS last_at,
           (array_agg(variation_id ORDER BY timestamp, variation_id))[1] AS variation_id,
           count(DISTINCT variation_id) AS variations
    FROM experiment_viewed
    WHERE experiment_id = $1 AND ($2::timestamptz IS NULL OR timestamp >= $2::timestamptz)
    GROUP BY anonymous_id
  ),
  per_guest AS (
    SELECT e.variation_id, e.variations, e.first_at, e.last_at,
           count(p.anonymous_id) AS purchases,
           sum(p.revenue) AS revenue
    FROM exposed e
    LEFT JOIN purchases p ON p.anonymous_id = e.anonymous_id AND p.timestamp >= e.first_at
    GROUP BY e.anonymous_id, e.variation_id, e.variations, e.first_at, e.last_at
  )
  SELECT variation_id,
         count(*) AS users,
         count(*) FILTER (WHERE purchases > 0) AS purchasers,
         count(*) FILTER (WHERE variations > 1) AS multiple,
         coalesce(sum(revenue), 0) AS revenue,
         coalesce(sum(revenue * revenue), 0) AS sum_squares,
         min(first_at) AS first_at,
         max(last_at) AS last_at
  FROM per_guest
  GROUP BY variation_id`;

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());
const round = (value: number, digits = 6) => Number(value.toFixed(digits));
const liftOf = (estimate: LiftEstimate | null): Lift | null =>
  estimate && {
    relative: round(estimate.lift),
    low: round(estimate.low),
    high: round(estimate.high),
    pValue: round(estimate.pValue, 8),
  };

/** Reads experiment results from the event store (RULES 17). */
export class ExperimentReadout {
  constructor(
    private readonly sql: Sql,
    private readonly definitions: () => ExperimentDefinition[],
  ) {}

  list(): ExperimentList {
    return { experiments: this.definitions() };
  }

  /** RULES 17.2–17.4: the results of one experiment since `since` (all of its exposures without). */
  async results(key: string, since?: Date): Promise<ExperimentResults> {
    const definitions = this.definitions();
    const definition = definitions.find((d) => d.key === key);
    const rows = await this.sql.query<ArmRow>(ARMS_SQL, [key, since?.toISOString() ?? null]);
    if (!definition && rows.length === 0) {
      const known = definitions.map((d) => d.key).join(', ') || 'none';
      throw new AppError(404, 'experiment_not_found', `No experiment "${key}" (experiments: ${known})`);
    }
    const byId = new Map(rows.map((r) => [r.variation_id, r]));
    // The configured variations in order (the first is the control), then any the flags no longer define.
    const arms = [
      ...(definition?.variations ?? []),
      ...rows
        .filter((r) => !definition?.variations.some((v) => v.id === r.variation_id))
        .map((r) => ({ id: r.variation_id, name: r.variation_id, weight: 0 })),
    ];
    const measured = arms.map((arm) => {
      const row = byId.get(arm.id);
      const users = Number(row?.users ?? 0);
      const purchasers = Number(row?.purchasers ?? 0);
      const revenue = Number(row?.revenue ?? 0);
      const sumSquares = Number(row?.sum_squares ?? 0);
      return { arm, row, users, purchasers, revenue, sumSquares };
    });
    const control = measured[0];
    const variations = measured.map((m, i): VariationResult => {
      const rate = proportion(m.purchasers, m.users);
      const isControl = i === 0 || !control;
      return {
        id: m.arm.id,
        name: m.arm.name,
        weight: round(m.arm.weight),
        users: m.users,
        purchasers: m.purchasers,
        conversionRate: round(rate.rate),
        conversionInterval: {
          low: rate.low === null ? null : round(rate.low),
          high: rate.high === null ? null : round(rate.high),
        },
        revenue: round(m.revenue, 2),
        revenuePerUser: m.users > 0 ? round(m.revenue / m.users, 4) : 0,
        lift: isControl
          ? null
          : liftOf(
              relativeLift(
                conversionMoments(control.purchasers, control.users),
                conversionMoments(m.purchasers, m.users),
              ),
            ),
        revenueLift: isControl
          ? null
          : liftOf(
              relativeLift(
                revenuePerUserMoments(control.users, control.revenue, control.sumSquares),
                revenuePerUserMoments(m.users, m.revenue, m.sumSquares),
              ),
            ),
        firstExposure: iso(m.row?.first_at ?? null),
        lastExposure: iso(m.row?.last_at ?? null),
      };
    });
    const ratio =
      arms.length >= 2 && arms.some((a) => a.weight > 0)
        ? srm(
            measured.map((m) => m.users),
            arms.map((a) => a.weight),
          )
        : { chiSquare: 0, pValue: 1, flagged: false };
    const times = (pick: (v: VariationResult) => string | null) =>
      variations
        .map(pick)
        .filter((t): t is string => t !== null)
        .sort();
    return {
      experiment: key,
      feature: definition?.feature ?? null,
      since: since?.toISOString() ?? null,
      variations,
      srm: { chiSquare: round(ratio.chiSquare, 4), pValue: round(ratio.pValue, 8), flagged: ratio.flagged },
      multipleExposures: rows.reduce((n, r) => n + Number(r.multiple), 0),
      firstExposure: times((v) => v.firstExposure)[0] ?? null,
      lastExposure: times((v) => v.lastExposure).at(-1) ?? null,
    };
  }
}
