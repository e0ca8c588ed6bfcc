import { z } from './zod.js';
import { doc, schemaRef } from './editor-doc.js';
import { RowIdSchema } from './segment-ids.js';
import { RowSpecSchema } from './segment-rows.js';

/**
 * What merchandisers write: one file per brand and page (`segments/<brand>/<page>.json`), either a full page of
 * rows or a brand's changes to another brand's page by row id. Each row kind declares what it needs
 * (`segment-rows.ts`): its query, size, radius, tabs, title and what to do when it finds nothing.
 * JSON Schema for editors is generated from these (`npm run segments -- schema`).
 */

const rowDoc = (what: string) =>
  doc(`${what}: its kind (performers, events, venues, categories or promos) decides which other fields it takes.`, [
    { id: 'promos', kind: 'promos', title: 'Promos', size: 6, empty: 'hide' },
  ]);

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

/** The pages a brand can define; `category` is the template behind every other `/category/:slug`. */
export const PAGE_NAMES = ['explore', 'theater', 'concerts', 'sports', 'category'] as const;
export type PageName = (typeof PAGE_NAMES)[number];
