import { z } from './zod.js';
import { doc } from './editor-doc.js';
import { RowFilterSchema, TabSchema } from './row-filter.js';
import { CategorySlugSchema, RowIdSchema } from './segment-ids.js';

/**
 * The rows a page file lists, one schema per kind: each declares what it needs, its query, size, radius, tabs,
 * title and what to do when it finds nothing.
 */

/** `hide`: leave the row out; `show`: keep it with status "empty"; `widen`: ask again without the radius. */
export const EmptyBehaviourSchema = z.enum(['hide', 'show', 'widen']);

/** RULES 6.5: 50 mi for local rows, 200 mi for category event rows and Browse By Category. */
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
      `3000). Leave it out for a national row. RULES 6.5: 50 mi for local rows, ` +
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
            'orders (RULES 7.16). Default "popular".',
          ['popular', 'trending'],
        ),
      ),
    size: size(24).meta(sizeDoc('performer cards', 24, 'RULES 11.2: 4 on home rows, 9 on category pages.', [4, 9])),
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
            'by the last 7 days\' orders (RULES 7.16). Default "soonest".',
          ['soonest', 'trending'],
        ),
      ),
    size: size(24).meta(
      sizeDoc('event cards (per tab, when it has tabs)', 24, 'RULES 11.2: 5 events on home rows.', [5, 10]),
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
    size: size(24).meta(sizeDoc('venue cards', 24, 'RULES 11.2: 8 venues on home rows.', [8, 6])),
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
            'count of events near the shopper (RULES 11.7, Browse By Category).',
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
          "promos: a row of the catalog's promo banners for the brand (RULES 11.7: the " +
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
export type RowSpec = z.infer<typeof RowSpecSchema>;
export type RowKind = RowSpec['kind'];
