import { z } from 'zod';
import { FlagsFileSchema } from '../../shared/schemas/flags.js';
import { BrandRegistrySchema } from '../../shared/schemas/brand-registry.js';
import { OverrideFileSchema, PageFileSchema } from '../../shared/schemas/segments.js';

/**
 * The JSON Schemas editors use for segment files and flags.json (`$schema` in each), generated from the zod schemas.
 */
export function segmentJsonSchemas(): Record<string, unknown> {
  const generate = (schema: z.ZodType, title: string, description: string) => ({
    ...z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }),
    title,
    description,
  });
  return {
    'segment-page.schema.json': generate(
      PageFileSchema,
      'Segment page',
      'A page of rows: segments/<brand>/<page>.json',
    ),
    'segment-override.schema.json': generate(
      OverrideFileSchema,
      'Segment override',
      "A brand's changes to another brand's page, by row id",
    ),
    'brands.schema.json': generate(
      BrandRegistrySchema,
      'Brand registry',
      'segments/brands.json: every brand, its site id and theme',
    ),
    'flags.schema.json': generate(
      FlagsFileSchema,
      'Feature flags',
      'segments/flags.json: the GrowthBook features payload the storefront serves to the SDK',
    ),
  };
}

export const renderJsonSchema = (schema: unknown) => `${JSON.stringify(schema, null, 2)}\n`;
