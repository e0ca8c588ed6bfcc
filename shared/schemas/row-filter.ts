import { z } from './zod.js';
import { TopCategorySchema } from './documents.js';
import { doc } from './editor-doc.js';
import { CategorySlugSchema, RowIdSchema } from './segment-ids.js';

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
        'Only events in this date window (RULES 4.4): all = today onwards; ' +
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
