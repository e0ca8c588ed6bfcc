import { z } from './zod.js';

/**
 * An experiment's readout (RULES 17): the same numbers in the studio's Experiments page, `npm run experiments --
 * results`, and `GET /api/studio/experiments/:key/results`.
 */

const Interval = z.object({ low: z.number().nullable(), high: z.number().nullable() });

export const LiftSchema = z.object({
  /** Variation's mean over control's, minus 1. */
  relative: z.number(),
  /** The 95% interval (delta method). */
  low: z.number(),
  high: z.number(),
  pValue: z.number(),
});
export type Lift = z.infer<typeof LiftSchema>;

export const VariationResultSchema = z.object({
  /** The variation's id in exposures (its `meta` key, else its index). */
  id: z.string(),
  name: z.string(),
  /** The configured share of traffic (normalised), 0 for a variation the flags no longer define. */
  weight: z.number(),
  /** Guests exposed, each counted in the variation of their first exposure. */
  users: z.number().int(),
  /** Guests with a purchase after their first exposure. */
  purchasers: z.number().int(),
  conversionRate: z.number(),
  conversionInterval: Interval,
  /** All-in revenue of those purchases, in dollars. */
  revenue: z.number(),
  revenuePerUser: z.number(),
  /** Conversion against the control; null for the control and when it cannot be computed. */
  lift: LiftSchema.nullable(),
  /** Revenue per user against the control. */
  revenueLift: LiftSchema.nullable(),
  firstExposure: z.string().nullable(),
  lastExposure: z.string().nullable(),
});
export type VariationResult = z.infer<typeof VariationResultSchema>;

export const ExperimentResultsSchema = z.object({
  experiment: z.string(),
  /** The feature whose rule runs it; null when the flags no longer define it. */
  feature: z.string().nullable(),
  since: z.string().nullable(),
  variations: z.array(VariationResultSchema),
  srm: z.object({ chiSquare: z.number(), pValue: z.number(), flagged: z.boolean() }),
  /** Guests exposed to more than one variation (counted in their first). */
  multipleExposures: z.number().int(),
  firstExposure: z.string().nullable(),
  lastExposure: z.string().nullable(),
});
export type ExperimentResults = z.infer<typeof ExperimentResultsSchema>;

export const ExperimentListSchema = z.object({
  experiments: z.array(
    z.object({
      key: z.string(),
      feature: z.string(),
      name: z.string().nullable(),
      variations: z.array(z.object({ id: z.string(), name: z.string(), weight: z.number() })),
    }),
  ),
});
export type ExperimentList = z.infer<typeof ExperimentListSchema>;

/** `?since=`: an ISO date or date-time. */
export const ResultsQuerySchema = z.object({
  since: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}([T ][0-9:.]+(Z|[+-]\d{2}:?\d{2})?)?$/, 'since must be an ISO date such as 2026-11-01')
    .refine((s) => !Number.isNaN(Date.parse(s)), 'since must be a real date')
    .optional(),
});
