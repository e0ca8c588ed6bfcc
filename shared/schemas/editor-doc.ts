import { z } from './zod.js';

/**
 * Editor documentation for a field of a file people edit by hand (segment files, brands.json, flags.json): what
 * it does, and values from the shipped files. The JSON Schemas generated from the zod schemas carry it
 * (`npm run segments -- schema`), so an editor shows it beside the field.
 */
export const doc = (description: string, examples: readonly unknown[]) => ({ description, examples: [...examples] });

/** The `$schema` line every segment file starts with; the server ignores it. */
export const schemaRef = (file: string, example: string) =>
  z
    .string()
    .optional()
    .meta(
      doc(`The JSON Schema editors check this file against (shared/schemas/json/${file}); the server ignores it.`, [
        example,
      ]),
    );
