import { z } from 'zod';
import { TopCategorySchema } from './documents.js';

/**
 * What merchandisers write: one file per brand and page (`segments/<brand>/<page>.json`). Each row kind
 * declares what it needs: its query, size, radius, tabs, title and what to do when it finds nothing.
 * JSON Schema for editors is generated from these (`npm run segments -- schema`).
 */

export const DATE_FILTERS = ['all', 'this_week', 'this_month', 'this_quarter', 'next_7_days', 'next_30_days', 'next_60_days'] as const;
export const DateFilterNameSchema = z.enum(DATE_FILTERS);

/** Row and tab ids: stable, URL-safe, what overrides refer to. */
export const RowIdSchema = z
  .string()
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'use lower-case words joined by hyphens, e.g. "local-events"')
  .max(64);

/** `$category` in a category template stands for the page's category slug. */
const CategorySlugSchema = z
  .string()
  .regex(/^(\$category|[a-z0-9]+(?:-[a-z0-9]+)*)$/, 'a category slug such as "nfl", or "$category" in the category template');

/** Which documents a row draws from; tabs narrow it further. */
export const RowFilterSchema = z
  .object({
    categories: z.array(CategorySlugSchema).min(1).max(30).optional().describe('category route slugs, e.g. ["nfl", "nba"]'),
    parents: z.array(TopCategorySchema).min(1).optional().describe('top-level categories: SPORTS, CONCERTS, THEATRE, OTHER'),
    dateFilter: DateFilterNameSchema.optional().describe('spec §9 date window'),
  })
  .strict();
export type RowFilter = z.infer<typeof RowFilterSchema>;

export const TabSchema = z
  .object({
    id: RowIdSchema,
    title: z.string().min(1).max(60),
    filter: RowFilterSchema.default({}).describe("merged over the row's own filter"),
  })
  .strict();

/** `hide`: leave the row out; `show`: keep it with status "empty"; `widen`: ask again without the radius. */
export const EmptyBehaviourSchema = z.enum(['hide', 'show', 'widen']);

/** Spec §9: 50 mi for local rows, 200 mi for category event rows and Browse By Category. */
const radius = z.number().positive().max(3000).describe('miles around the shopper; absent for a national row');
const size = (max: number) => z.number().int().min(1).max(max);
const title = z.string().min(1).max(80).describe('may use {category} for the category name in the template');

const rowBase = {
  id: RowIdSchema,
  title,
  empty: EmptyBehaviourSchema.default('hide'),
};

export const PerformersRowSchema = z
  .object({
    ...rowBase,
    kind: z.literal('performers'),
    filter: RowFilterSchema.default({}),
    /** popular: twelve-month orders; trending: 7-day orders. With a dateFilter, performers with events in it. */
    sort: z.enum(['popular', 'trending']).default('popular'),
    size: size(24),
    radiusMiles: radius.optional(),
  })
  .strict();

export const EventsRowSchema = z
  .object({
    ...rowBase,
    kind: z.literal('events'),
    filter: RowFilterSchema.default({}),
    sort: z.enum(['soonest', 'popular', 'trending']).default('soonest'),
    size: size(24),
    radiusMiles: radius.optional(),
    tabs: z.array(TabSchema).min(1).max(12).optional(),
  })
  .strict();

export const VenuesRowSchema = z
  .object({
    ...rowBase,
    kind: z.literal('venues'),
    size: size(24),
    radiusMiles: radius.optional(),
  })
  .strict();

export const CategoryTileSpecSchema = z
  .object({
    slug: CategorySlugSchema.describe('a category route slug, or sports / concerts / theater'),
    title: z.string().min(1).max(40),
  })
  .strict();

export const CategoriesRowSchema = z
  .object({
    ...rowBase,
    kind: z.literal('categories'),
    tiles: z.array(CategoryTileSpecSchema).min(1).max(24),
    /** Each tile counts the events within this radius. */
    radiusMiles: radius.optional(),
  })
  .strict();

export const PromosRowSchema = z
  .object({
    ...rowBase,
    kind: z.literal('promos'),
    size: size(12),
  })
  .strict();

export const RowSpecSchema = z.discriminatedUnion('kind', [
  PerformersRowSchema,
  EventsRowSchema,
  VenuesRowSchema,
  CategoriesRowSchema,
  PromosRowSchema,
]);
export type RowSpec = z.infer<typeof RowSpecSchema>;
export type RowKind = RowSpec['kind'];

/** A full page: the base brand's files, and any brand's page that does not extend another. */
export const PageFileSchema = z
  .object({
    $schema: z.string().optional(),
    title: z.string().min(1).max(80),
    rows: z.array(RowSpecSchema).max(30),
  })
  .strict()
  .superRefine((page, ctx) => {
    const seen = new Set<string>();
    page.rows.forEach((row, i) => {
      if (seen.has(row.id)) ctx.addIssue({ code: 'custom', path: ['rows', i, 'id'], message: `row id "${row.id}" is used twice` });
      seen.add(row.id);
    });
  });
export type PageFile = z.infer<typeof PageFileSchema>;

/** A brand's page that changes the base brand's page by row id. */
export const OverrideOperationSchema = z.discriminatedUnion('op', [
  z.object({ op: z.literal('replace'), id: RowIdSchema, row: RowSpecSchema }).strict(),
  z.object({ op: z.literal('remove'), id: RowIdSchema }).strict(),
  z.object({ op: z.literal('insertBefore'), id: RowIdSchema, row: RowSpecSchema }).strict(),
  z.object({ op: z.literal('insertAfter'), id: RowIdSchema, row: RowSpecSchema }).strict(),
  z.object({ op: z.literal('append'), row: RowSpecSchema }).strict(),
]);
export type OverrideOperation = z.infer<typeof OverrideOperationSchema>;

export const OverrideFileSchema = z
  .object({
    $schema: z.string().optional(),
    /** The brand whose page of the same name this one changes. */
    extends: RowIdSchema,
    title: z.string().min(1).max(80).optional(),
    operations: z.array(OverrideOperationSchema).min(1).max(50),
  })
  .strict();
export type OverrideFile = z.infer<typeof OverrideFileSchema>;

export const SegmentFileSchema = z.union([PageFileSchema, OverrideFileSchema]);

const color = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'a colour like #5b21b6');

export const BrandSchema = z
  .object({
    id: RowIdSchema,
    name: z.string().min(1).max(60),
    siteId: z.number().int().positive(),
    partnerBaseUrl: z.url({ protocol: /^https$/ }),
    theme: z
      .object({
        primary: color,
        primaryContrast: color,
        ink: color,
        surface: color,
        accent: color,
        logo: z.string().regex(/^\/[A-Za-z0-9/_.-]+\.svg$/, 'a path under the site, e.g. /brands/base/logo.svg'),
      })
      .strict(),
  })
  .strict();
export type Brand = z.infer<typeof BrandSchema>;

export const BrandRegistrySchema = z
  .object({
    $schema: z.string().optional(),
    defaultBrand: RowIdSchema,
    brands: z.array(BrandSchema).min(1),
  })
  .strict()
  .superRefine((registry, ctx) => {
    const ids = new Set<string>();
    const sites = new Set<number>();
    registry.brands.forEach((b, i) => {
      if (ids.has(b.id)) ctx.addIssue({ code: 'custom', path: ['brands', i, 'id'], message: `brand "${b.id}" is listed twice` });
      if (sites.has(b.siteId)) ctx.addIssue({ code: 'custom', path: ['brands', i, 'siteId'], message: `site id ${b.siteId} is used twice` });
      ids.add(b.id);
      sites.add(b.siteId);
    });
    if (!ids.has(registry.defaultBrand)) ctx.addIssue({ code: 'custom', path: ['defaultBrand'], message: `no brand "${registry.defaultBrand}"` });
  });
export type BrandRegistry = z.infer<typeof BrandRegistrySchema>;

/** The pages a brand can define; `category` is the template behind every other `/category/:slug`. */
export const PAGE_NAMES = ['explore', 'theater', 'concerts', 'sports', 'category'] as const;
export type PageName = (typeof PAGE_NAMES)[number];
