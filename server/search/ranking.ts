import type { PerformerDocument } from '../../shared/schemas/documents.js';
import { POPULAR_PERFORMERS_MAX, POPULAR_PERFORMERS_MIN_SHARE, TRENDING_SHOWN } from '../../shared/rules/constants.js';

type Orders = Pick<PerformerDocument, 'performer_orders_d7' | 'performer_orders_t12'>;

/**
 * RULES 7.13: at most 3 performers, and only those whose twelve-month orders are at least 10% of the combined
 * twelve-month orders of the hits. Order of the hits is kept.
 */
export function popularPerformers<P extends Pick<PerformerDocument, 'performer_orders_t12'>>(
  hits: readonly P[],
  max = POPULAR_PERFORMERS_MAX,
  minShare = POPULAR_PERFORMERS_MIN_SHARE,
): P[] {
  const total = hits.reduce((n, p) => n + p.performer_orders_t12, 0);
  if (total <= 0) return [];
  return hits.filter((p) => p.performer_orders_t12 >= total * minShare).slice(0, max);
}

/** The trending ratio of RULES 7.12: 7-day orders over 12-month orders (0 when there were none in 12 months). */
export function trendingRatio(p: Orders): number {
  return p.performer_orders_t12 > 0 ? p.performer_orders_d7 / p.performer_orders_t12 : 0;
}

/** RULES 7.12: rank the trending pool by that ratio, highest first (7-day orders break ties), and keep 9. */
export function rankTrending<P extends Orders>(pool: readonly P[], shown = TRENDING_SHOWN): P[] {
  return pool
    .map((p, i) => ({ p, i, ratio: trendingRatio(p) }))
    .sort((a, b) => b.ratio - a.ratio || b.p.performer_orders_d7 - a.p.performer_orders_d7 || a.i - b.i)
    .slice(0, shown)
    .map((x) => x.p);
}
