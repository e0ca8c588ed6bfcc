import { z } from './zod.js';
import { doc, schemaRef } from './editor-doc.js';
import { RowIdSchema } from './segment-ids.js';

/** `segments/brands.json`: every brand, its site id, partner site and theme, and the default brand. */

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
            'number, each brand its own. RULES 1.3: site id 22791.',
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
    supportEmail: z
      .email({ error: 'an email address, e.g. support@ticket-storefront.example' })
      .optional()
      .meta(
        doc(
          "The brand's support address, shown in the footer of every mail to its buyers and used as their " +
            'Reply-To. Optional: without it, mail names the sender address (MAIL_FROM).',
          ['support@ticket-storefront.example', 'support@encore-seats.example'],
        ),
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
