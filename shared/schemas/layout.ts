import { z } from './zod.js';
import { RowSourceSchema } from './analytics-events.js';
import { EventCardSchema, PerformerCardSchema, VenueCardSchema } from './cards.js';

/** What `GET /api/layout/*` answers: a page of typed, display-ready rows. */

export const CategoryTileSchema = z.object({
  slug: z.string(),
  title: z.string(),
  url: z.string(),
  image: z.string().nullable(),
  /** Events within the row's radius (or nationally). */
  eventCount: z.number().int().min(0),
});
export type CategoryTile = z.infer<typeof CategoryTileSchema>;

export const PromoCardSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  subtitle: z.string(),
  image: z.string(),
  url: z.string(),
});
export type PromoCard = z.infer<typeof PromoCardSchema>;

export const ROW_STATUSES = ['ok', 'empty', 'error', 'timeout'] as const;
export const RowStatusSchema = z.enum(ROW_STATUSES);
export type RowStatus = z.infer<typeof RowStatusSchema>;

const rowCommon = {
  id: z.string(),
  title: z.string(),
  status: RowStatusSchema,
  /** The segment file the row is defined in and the published version served: what the row's events carry. */
  source: RowSourceSchema.optional(),
};

function tabbed<T extends z.ZodType>(item: T) {
  return z.array(z.object({ id: z.string(), title: z.string(), status: RowStatusSchema, items: z.array(item) }));
}

export const LayoutRowSchema = z.discriminatedUnion('type', [
  z.object({ ...rowCommon, type: z.literal('performers'), items: z.array(PerformerCardSchema) }),
  z.object({
    ...rowCommon,
    type: z.literal('events'),
    items: z.array(EventCardSchema),
    tabs: tabbed(EventCardSchema).optional(),
    /** The tab shown first (a league in season); `items` are its items. */
    defaultTab: z.string().optional(),
  }),
  z.object({ ...rowCommon, type: z.literal('venues'), items: z.array(VenueCardSchema) }),
  z.object({ ...rowCommon, type: z.literal('categories'), items: z.array(CategoryTileSchema) }),
  z.object({ ...rowCommon, type: z.literal('promos'), items: z.array(PromoCardSchema) }),
]);
export type LayoutRow = z.infer<typeof LayoutRowSchema>;

export const LOCATION_SOURCES = ['coordinates', 'zip', 'default'] as const;
export const ResolvedLocationSchema = z.object({
  lat: z.number(),
  lng: z.number(),
  city: z.string(),
  state: z.string(),
  country: z.string(),
  /** How it was found: the shopper's coordinates, their zip's market, or the New York fallback. */
  source: z.enum(LOCATION_SOURCES),
  zip: z.string().optional(),
  market: z.string().optional(),
});
export type ResolvedLocation = z.infer<typeof ResolvedLocationSchema>;

export const ExperimentExposureSchema = z.object({ key: z.string(), variationId: z.string() });

export const LayoutResponseSchema = z.object({
  page: z.string(),
  /** The category slug a category page shows. */
  category: z.string().optional(),
  title: z.string(),
  brand: z.object({ id: z.string(), name: z.string() }),
  location: ResolvedLocationSchema,
  experiments: z.array(ExperimentExposureSchema),
  /** The layout variation shown (`base` for the page itself): what the page's events carry. */
  variation: z.string().optional(),
  /**
   * With the exposures of a guest's own answer: their assignment in GrowthBook's force syntax (`home-layout:1`),
   * which the browser keeps in the `homeLayout` cookie so the next page is drawn with it (RULES 9.4, 13.7).
   */
  assignment: z.string().optional(),
  rows: z.array(LayoutRowSchema),
});
export type LayoutResponse = z.infer<typeof LayoutResponseSchema>;

/**
 * What `/api/brand` answers: a brand of the registry as the storefront shows it. Its own schema, without the
 * registry's editor documentation (`shared/schemas/brand-registry.ts`), which has no place in the shoppers' script.
 */
export const BrandAnswerSchema = z.object({
  id: z.string(),
  name: z.string(),
  siteId: z.number().int(),
  partnerBaseUrl: z.string(),
  theme: z.object({
    primary: z.string(),
    primaryContrast: z.string(),
    ink: z.string(),
    surface: z.string(),
    accent: z.string(),
    logo: z.string(),
  }),
});
export type BrandAnswer = z.infer<typeof BrandAnswerSchema>;

/** The longest layout address a page's exposures report may name (the layout API's own address and query). */
export const MAX_LAYOUT_ADDRESS_LENGTH = 2_000;

/**
 * `POST /api/layout/exposures` (RULES 9.4, 16.1): what a browser says after it shows a home page it did not ask
 * the API for (a server-rendered or shared-cache page): the layout address the page was drawn with, the assignment
 * it was drawn by (the `homeLayout` cookie; null for none) and the variation it showed.
 */
export const LayoutExposuresBodySchema = z.object({
  address: z
    .string()
    .max(MAX_LAYOUT_ADDRESS_LENGTH)
    .regex(/^\/api\/layout\/home(\?|$)/, 'address must be the home layout address the page was drawn with'),
  assignment: z.string().max(MAX_LAYOUT_ADDRESS_LENGTH).nullable(),
  shown: z.string().min(1).max(64),
});
export type LayoutExposuresBody = z.infer<typeof LayoutExposuresBodySchema>;

/**
 * Its answer: the guest's variation, the exposures recorded (none when the page showed another variation, or the
 * address forced one), and the assignment for the `homeLayout` cookie (null: none, so no cookie; absent: the
 * address forced a variation, so the cookie stays as it is).
 */
export const LayoutExposuresAnswerSchema = z.object({
  variation: z.string(),
  experiments: z.array(ExperimentExposureSchema),
  assignment: z.string().nullable().optional(),
});
export type LayoutExposuresAnswer = z.infer<typeof LayoutExposuresAnswerSchema>;
