import { z } from './zod.js';
import { TopCategorySchema } from './documents.js';

/**
 * What merchandisers write: one file per brand and page (`segments/<brand>/<page>.json`). Each row kind
 * declares what it needs: its query, size, radius, tabs, title and what to do when it finds nothing.
 * JSON Schema for editors is generated from these (`npm run segments -- schema`).
 */

export const DATE_FILTERS = [
  'all',
  'this_week',
  'this_month',
  'this_quarter',
  'next_7_days',
  'next_30_days',
  'next_60_days',
] as const;
export const DateFilterNameSchema = z.enum(DATE_FILTERS);

/** Editor documentation for a field: what it does for a merchandiser, and values from the shipped files. */
const doc = (description: string, examples: readonly unknown[]) => ({ description, examples: [...examples] });

/** The `$schema` line every segment file starts with; the server ignores it. */
const schemaRef = (file: string, example: string) =>
  z
    .string()
    .optional()
    .meta(
      doc(`The JSON Schema editors check this file against (shared/schemas/json/${file}); the server ignores it.`, [
        example,
      ]),
    );

/** Row and tab ids: stable, URL-safe, what overrides refer to. */
export const RowIdSchema = z
  .string()
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'use lower-case words joined by hyphens, e.g. "local-events"')
  .max(64);

/** `$category` in a category template stands for the page's category slug. */
const CategorySlugSchema = z
  .string()
  .regex(
    /^(\$category|[a-z0-9]+(?:-[a-z0-9]+)*)$/,
    'a category slug such as "nfl", or "$category" in the category template',
  );

/** Which documents a row draws from; tabs narrow it further. */
export const RowFilterSchema = z
  .object({
    categories: z
      .array(CategorySlugSchema)
      .min(1)
      .max(30)
      .optional()
      .meta(
        doc(
          'Only documents in these categories, by route slug (1 to 30 slugs). In ' +
            'the category template, "$category" stands for the page\'s own category.',
          [['nfl', 'nba'], ['pop', 'alternative'], ['$category']],
        ),
      ),
    parents: z
      .array(TopCategorySchema)
      .min(1)
      .optional()
      .meta(
        doc('Only documents under these top-level categories: SPORTS, CONCERTS, THEATRE or OTHER (at least 1).', [
          ['CONCERTS'],
          ['SPORTS', 'THEATRE'],
        ]),
      ),
    dateFilter: DateFilterNameSchema.optional().meta(
      doc(
        'Only events in this date window (spec §9): all = today onwards; ' +
          'this_week / this_month = tomorrow to the end of the week / month; ' +
          'this_quarter = 120 days; next_7_days, next_30_days, next_60_days. ' +
          'Absent: no date limit.',
        ['this_week', 'next_30_days', 'all'],
      ),
    ),
  })
  .strict()
  .meta(
    doc('Which documents the row draws from. Every field narrows it further; an empty filter {} takes everything.', [
      { dateFilter: 'this_week' },
      { categories: ['$category'] },
    ]),
  );
export type RowFilter = z.infer<typeof RowFilterSchema>;

export const TabSchema = z
  .object({
    id: RowIdSchema.meta(
      doc("The tab's id, unique within its row: lower-case words joined by hyphens, at most 64 characters.", [
        'this-week',
        'next-30-days',
      ]),
    ),
    title: z
      .string()
      .min(1)
      .max(60)
      .meta(doc("The tab's label, 1 to 60 characters.", ['This Week', 'Pop & Rock'])),
    filter: RowFilterSchema.default({}).meta(
      doc(
        "What this tab adds to the row's own filter: its fields are merged over " +
          "the row's. Default {}: the row's documents as they are.",
        [{ dateFilter: 'this_week' }, { categories: ['pop', 'alternative'] }],
      ),
    ),
  })
  .strict()
  .meta(
    doc("One tab of an events row: its own title and a filter over the row's.", [
      { id: 'this-week', title: 'This Week', filter: { dateFilter: 'this_week' } },
    ]),
  );

/** `hide`: leave the row out; `show`: keep it with status "empty"; `widen`: ask again without the radius. */
export const EmptyBehaviourSchema = z.enum(['hide', 'show', 'widen']);

/** Spec §9: 50 mi for local rows, 200 mi for category event rows and Browse By Category. */
const radius = z.number().positive().max(3000);
const size = (max: number) => z.number().int().min(1).max(max);
const title = z
  .string()
  .min(1)
  .max(80)
  .meta(
    doc(
      'The heading shown above the row, 1 to 80 characters. In the category ' +
        "template, {category} stands for the category's name.",
      ['Popular Local Performers', '{category} Events Coming Up'],
    ),
  );
const radiusDoc = (what: string) =>
  doc(
    `${what} within this many miles of the shopper (more than 0, at most ` +
      `3000). Leave it out for a national row. Spec §9: 50 mi for local rows, ` +
      `200 mi for category event rows and Browse By Category.`,
    [50, 200],
  );
const sizeDoc = (what: string, max: number, spec: string, examples: number[]) =>
  doc(`How many ${what} the row shows, 1 to ${max}.${spec ? ` ${spec}` : ''}`, examples);

const rowBase = {
  id: RowIdSchema.meta(
    doc(
      "The row's id: unique on the page, lower-case words joined by hyphens, at " +
        'most 64 characters. Overrides and analytics refer to the row by it, so ' +
        'keep it once published.',
      ['local-events', 'popular-local-performers'],
    ),
  ),
  title,
  empty: EmptyBehaviourSchema.default('hide').meta(
    doc(
      'What to do when the row finds nothing: "hide" leaves it out of the page, ' +
        '"show" keeps it with an empty state, "widen" asks again without the ' +
        'radius (nationally). Default "hide".',
      ['hide', 'show', 'widen'],
    ),
  ),
};

export const PerformersRowSchema = z
  .object({
    ...rowBase,
    kind: z
      .literal('performers')
      .meta(
        doc(
          'performers: a row of performer cards (artists, teams, shows) ranked by ' +
            'orders, near the shopper when radiusMiles is set.',
          ['performers'],
        ),
      ),
    filter: RowFilterSchema.default({}).meta(
      doc(
        'Which performers: by category, top-level category, or (with dateFilter) ' +
          'those with events in that window. Default {}: all.',
        [{ dateFilter: 'this_week' }, { parents: ['CONCERTS'] }],
      ),
    ),
    /** popular: twelve-month orders; trending: 7-day orders. With a dateFilter, performers with events in it. */
    sort: z
      .enum(['popular', 'trending'])
      .default('popular')
      .meta(
        doc(
          'Ranking: "popular" by twelve-month orders, "trending" by the last 7 days\' ' +
            'orders (spec §9). Default "popular".',
          ['popular', 'trending'],
        ),
      ),
    size: size(24).meta(sizeDoc('performer cards', 24, 'Spec §9: 4 on home rows, 9 on category pages.', [4, 9])),
    radiusMiles: radius.optional().meta(radiusDoc('Performers with events')),
  })
  .strict()
  .meta(
    doc('A row of performers.', [
      {
        id: 'popular-local-performers',
        kind: 'performers',
        title: 'Popular Local Performers',
        sort: 'popular',
        size: 4,
        radiusMiles: 50,
        empty: 'widen',
      },
    ]),
  );

export const EventsRowSchema = z
  .object({
    ...rowBase,
    kind: z
      .literal('events')
      .meta(
        doc(
          'events: a row of event cards (date, venue, prices), optionally split ' +
            'into tabs, near the shopper when radiusMiles is set.',
          ['events'],
        ),
      ),
    filter: RowFilterSchema.default({}).meta(
      doc('Which events: by category, top-level category and date window. Tabs narrow it further. Default {}: all.', [
        { parents: ['CONCERTS'], dateFilter: 'this_week' },
        { categories: ['$category'] },
      ]),
    ),
    sort: z
      .enum(['soonest', 'popular', 'trending'])
      .default('soonest')
      .meta(
        doc(
          'Order: "soonest" by date, "popular" by twelve-month orders, "trending" ' +
            'by the last 7 days\' orders (spec §9). Default "soonest".',
          ['soonest', 'trending'],
        ),
      ),
    size: size(24).meta(
      sizeDoc('event cards (per tab, when it has tabs)', 24, 'Spec §9: 5 events on home rows.', [5, 10]),
    ),
    radiusMiles: radius.optional().meta(radiusDoc('Events at venues')),
    tabs: z
      .array(TabSchema)
      .min(1)
      .max(12)
      .optional()
      .meta(
        doc(
          'Tabs the shopper switches between, 1 to 12, each with its own filter ' +
            "over the row's. Leave out for a row without tabs.",
          [
            [
              { id: 'all-events', title: 'All Events', filter: { dateFilter: 'all' } },
              { id: 'this-week', title: 'This Week', filter: { dateFilter: 'this_week' } },
            ],
          ],
        ),
      ),
  })
  .strict()
  .meta(
    doc('A row of events.', [
      {
        id: 'national-trending-events',
        kind: 'events',
        title: 'National Trending Events',
        sort: 'trending',
        size: 5,
        empty: 'hide',
      },
    ]),
  );

export const VenuesRowSchema = z
  .object({
    ...rowBase,
    kind: z
      .literal('venues')
      .meta(doc('venues: a row of venue cards, nearest first when radiusMiles is set.', ['venues'])),
    size: size(24).meta(sizeDoc('venue cards', 24, 'Spec §9: 8 venues on home rows.', [8, 6])),
    radiusMiles: radius.optional().meta(radiusDoc('Venues')),
  })
  .strict()
  .meta(
    doc('A row of venues.', [
      { id: 'local-venues', kind: 'venues', title: 'Local Venues', size: 8, radiusMiles: 50, empty: 'hide' },
    ]),
  );

export const CategoryTileSpecSchema = z
  .object({
    slug: CategorySlugSchema.meta(
      doc(
        'Where the tile links: a category route slug (/category/<slug>), or ' +
          'sports, concerts or theater for those pages.',
        ['concerts', 'nfl', 'broadway'],
      ),
    ),
    title: z
      .string()
      .min(1)
      .max(40)
      .meta(doc("The tile's label, 1 to 40 characters.", ['Concerts', 'Broadway & Play'])),
  })
  .strict()
  .meta(doc('One category tile.', [{ slug: 'nfl', title: 'NFL' }]));

export const CategoriesRowSchema = z
  .object({
    ...rowBase,
    kind: z
      .literal('categories')
      .meta(
        doc(
          'categories: a row of category tiles, in the order listed, each with a ' +
            'count of events near the shopper (spec §2 Browse By Category).',
          ['categories'],
        ),
      ),
    tiles: z
      .array(CategoryTileSpecSchema)
      .min(1)
      .max(24)
      .meta(
        doc('The tiles in the order shown, 1 to 24.', [
          [
            { slug: 'concerts', title: 'Concerts' },
            { slug: 'sports', title: 'Sports' },
            { slug: 'nfl', title: 'NFL' },
          ],
        ]),
      ),
    /** Each tile counts the events within this radius. */
    radiusMiles: radius.optional().meta(radiusDoc('Each tile counts the events')),
  })
  .strict()
  .meta(
    doc('A row of category tiles.', [
      {
        id: 'browse-by-category',
        kind: 'categories',
        title: 'Browse By Category',
        radiusMiles: 200,
        empty: 'show',
        tiles: [{ slug: 'concerts', title: 'Concerts' }],
      },
    ]),
  );

export const PromosRowSchema = z
  .object({
    ...rowBase,
    kind: z
      .literal('promos')
      .meta(
        doc(
          "promos: a row of the catalog's promo banners for the brand (spec §2: the " +
            'Promos row of the second Explore variant).',
          ['promos'],
        ),
      ),
    size: size(12).meta(sizeDoc('promotion cards', 12, '', [6])),
  })
  .strict()
  .meta(doc('A row of promotions.', [{ id: 'promos', kind: 'promos', title: 'Promos', size: 6, empty: 'hide' }]));

export const RowSpecSchema = z.discriminatedUnion('kind', [
  PerformersRowSchema,
  EventsRowSchema,
  VenuesRowSchema,
  CategoriesRowSchema,
  PromosRowSchema,
]);

const rowDoc = (what: string) =>
  doc(`${what}: its kind (performers, events, venues, categories or promos) decides which other fields it takes.`, [
    { id: 'promos', kind: 'promos', title: 'Promos', size: 6, empty: 'hide' },
  ]);
export type RowSpec = z.infer<typeof RowSpecSchema>;
export type RowKind = RowSpec['kind'];

/** A full page: the base brand's files, and any brand's page that does not extend another. */
export const PageFileSchema = z
  .object({
    $schema: schemaRef('segment-page.schema.json', '../../shared/schemas/json/segment-page.schema.json'),
    title: z
      .string()
      .min(1)
      .max(80)
      .meta(
        doc(
          "The page's title, 1 to 80 characters. In the category template, {category} stands for the category's name.",
          ['Explore', 'Concerts', '{category}'],
        ),
      ),
    rows: z
      .array(RowSpecSchema)
      .max(30)
      .meta(
        doc("The page's rows, top to bottom, at most 30; every row id once.", [
          [{ id: 'local-venues', kind: 'venues', title: 'Local Venues', size: 8, radiusMiles: 50, empty: 'hide' }],
        ]),
      ),
  })
  .strict()
  .superRefine((page, ctx) => {
    const seen = new Set<string>();
    page.rows.forEach((row, i) => {
      if (seen.has(row.id))
        ctx.addIssue({ code: 'custom', path: ['rows', i, 'id'], message: `row id "${row.id}" is used twice` });
      seen.add(row.id);
    });
  });
export type PageFile = z.infer<typeof PageFileSchema>;

/** A brand's page that changes the base brand's page by row id. */
const targetId = (what: string) =>
  RowIdSchema.meta(
    doc(`The id of the row ${what}, as the extended page has it (after any earlier operation).`, [
      'browse-by-category',
      'popular-local-performers',
    ]),
  );
const opDoc = <const Op extends string>(op: Op, description: string) => z.literal(op).meta(doc(description, [op]));
const promosExample = { id: 'promos', kind: 'promos', title: 'Promos', size: 6, empty: 'hide' };

export const OverrideOperationSchema = z.discriminatedUnion('op', [
  z
    .object({
      op: opDoc('replace', 'replace: puts `row` where the row `id` was; the new row may have another id.'),
      id: targetId('to replace'),
      row: RowSpecSchema.meta(rowDoc('The row that takes its place')),
    })
    .strict()
    .meta(doc('Replaces a row.', [{ op: 'replace', id: 'promos', row: promosExample }])),
  z
    .object({
      op: opDoc('remove', "remove: leaves the row `id` out of this brand's page."),
      id: targetId('to leave out'),
    })
    .strict()
    .meta(doc('Removes a row.', [{ op: 'remove', id: 'browse-by-category' }])),
  z
    .object({
      op: opDoc('insertBefore', 'insertBefore: adds `row` just above the row `id`.'),
      id: targetId('the new row goes above'),
      row: RowSpecSchema.meta(rowDoc('The new row; its id must not be on the page yet')),
    })
    .strict()
    .meta(
      doc('Adds a row above another.', [{ op: 'insertBefore', id: 'popular-local-performers', row: promosExample }]),
    ),
  z
    .object({
      op: opDoc('insertAfter', 'insertAfter: adds `row` just below the row `id`.'),
      id: targetId('the new row goes below'),
      row: RowSpecSchema.meta(rowDoc('The new row; its id must not be on the page yet')),
    })
    .strict()
    .meta(doc('Adds a row below another.', [{ op: 'insertAfter', id: 'promos', row: promosExample }])),
  z
    .object({
      op: opDoc('append', 'append: adds `row` at the bottom of the page.'),
      row: RowSpecSchema.meta(rowDoc('The new row; its id must not be on the page yet')),
    })
    .strict()
    .meta(doc('Adds a row at the bottom.', [{ op: 'append', row: promosExample }])),
]);
export type OverrideOperation = z.infer<typeof OverrideOperationSchema>;

export const OverrideFileSchema = z
  .object({
    $schema: schemaRef('segment-override.schema.json', '../../shared/schemas/json/segment-override.schema.json'),
    /** The brand whose page of the same name this one changes. */
    extends: RowIdSchema.meta(
      doc('The brand whose page of the same name this file changes, by its id in brands.json.', ['base']),
    ),
    title: z
      .string()
      .min(1)
      .max(80)
      .optional()
      .meta(
        doc("A new title for the page, 1 to 80 characters. Leave out to keep the extended page's title.", [
          'Explore',
          'Sports',
        ]),
      ),
    operations: z
      .array(OverrideOperationSchema)
      .min(1)
      .max(50)
      .meta(
        doc(
          "The changes, 1 to 50, applied in order to the extended page's rows; each " +
            'finds its row by id. op is one of replace, remove, insertBefore, ' +
            'insertAfter, append.',
          [
            [
              { op: 'remove', id: 'browse-by-category' },
              { op: 'insertBefore', id: 'popular-local-performers', row: promosExample },
            ],
          ],
        ),
      ),
  })
  .strict();
export type OverrideFile = z.infer<typeof OverrideFileSchema>;

export const SegmentFileSchema = z.union([PageFileSchema, OverrideFileSchema]);

const color = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'a colour like #5b21b6');
const baseBrandExample = {
  id: 'base',
  name: 'Ticket Storefront',
  siteId: 22791,
  partnerBaseUrl: 'https://partner-tickets.example.com',
  theme: {
    primary: '#5b21b6',
    primaryContrast: '#ffffff',
    ink: '#1f2937',
    surface: '#ffffff',
    accent: '#047857',
    logo: '/brands/base/logo.svg',
  },
};
const colorDoc = (what: string, examples: string[]) => color.meta(doc(`${what}, as #rrggbb.`, examples));

export const BrandSchema = z
  .object({
    id: RowIdSchema.meta(
      doc(
        "The brand's id: lower-case words joined by hyphens, at most 64 " +
          'characters. Its page files live in segments/<id>/, and overrides name it ' +
          'in "extends".',
        ['base', 'encore'],
      ),
    ),
    name: z
      .string()
      .min(1)
      .max(60)
      .meta(doc("The brand's name as shoppers see it, 1 to 60 characters.", ['Ticket Storefront', 'Encore Seats'])),
    siteId: z
      .number()
      .int()
      .positive()
      .meta(
        doc(
          'The site id that selects this brand when a request carries one: a whole ' +
            'number, each brand its own. Spec §9: site id 22791.',
          [22791, 22792],
        ),
      ),
    partnerBaseUrl: z
      .url({ protocol: /^https$/ })
      .meta(
        doc("The base address of the partner's ticketing site for this brand: an https URL.", [
          'https://partner-tickets.example.com',
        ]),
      ),
    theme: z
      .object({
        primary: colorDoc('The main brand colour: header, buttons and links', ['#5b21b6', '#b91c1c']),
        primaryContrast: colorDoc('Text and icons on the primary colour; keep it readable on it', ['#ffffff']),
        ink: colorDoc('Body text', ['#1f2937', '#111827']),
        surface: colorDoc('Page background', ['#ffffff', '#fffbf5']),
        accent: colorDoc('Accent colour: prices and highlights', ['#047857', '#1d4ed8']),
        logo: z
          .string()
          .regex(/^\/[A-Za-z0-9/_.-]+\.svg$/, 'a path under the site, e.g. /brands/base/logo.svg')
          .meta(
            doc("The brand's logo: an .svg path under the site, starting with /.", [
              '/brands/base/logo.svg',
              '/brands/encore/logo.svg',
            ]),
          ),
      })
      .strict()
      .meta(doc("The brand's colours and logo.", [baseBrandExample.theme])),
  })
  .strict()
  .meta(
    doc('One brand: its id, name, partner site and theme.', [
      {
        id: 'encore',
        name: 'Encore Seats',
        siteId: 22792,
        partnerBaseUrl: 'https://partner-tickets.example.com',
        theme: {
          primary: '#b91c1c',
          primaryContrast: '#ffffff',
          ink: '#111827',
          surface: '#fffbf5',
          accent: '#1d4ed8',
          logo: '/brands/encore/logo.svg',
        },
      },
    ]),
  );
export type Brand = z.infer<typeof BrandSchema>;

export const BrandRegistrySchema = z
  .object({
    $schema: schemaRef('brands.schema.json', '../shared/schemas/json/brands.schema.json'),
    defaultBrand: RowIdSchema.meta(
      doc(
        'The brand served when a request names no brand or site id, and whose ' +
          'pages every other brand falls back to; it must define every page. The id ' +
          'of a brand listed below.',
        ['base'],
      ),
    ),
    brands: z
      .array(BrandSchema)
      .min(1)
      .meta(doc('Every brand, at least 1; ids and site ids each once.', [[baseBrandExample]])),
  })
  .strict()
  .superRefine((registry, ctx) => {
    const ids = new Set<string>();
    const sites = new Set<number>();
    registry.brands.forEach((b, i) => {
      if (ids.has(b.id))
        ctx.addIssue({ code: 'custom', path: ['brands', i, 'id'], message: `brand "${b.id}" is listed twice` });
      if (sites.has(b.siteId))
        ctx.addIssue({ code: 'custom', path: ['brands', i, 'siteId'], message: `site id ${b.siteId} is used twice` });
      ids.add(b.id);
      sites.add(b.siteId);
    });
    if (!ids.has(registry.defaultBrand))
      ctx.addIssue({ code: 'custom', path: ['defaultBrand'], message: `no brand "${registry.defaultBrand}"` });
  });
export type BrandRegistry = z.infer<typeof BrandRegistrySchema>;

/** The pages a brand can define; `category` is the template behind every other `/category/:slug`. */
export const PAGE_NAMES = ['explore', 'theater', 'concerts', 'sports', 'category'] as const;
export type PageName = (typeof PAGE_NAMES)[number];
