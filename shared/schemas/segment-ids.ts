import { z } from './zod.js';

/** Row and tab ids: stable, URL-safe, what overrides refer to. */
export const RowIdSchema = z
  .string()
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'use lower-case words joined by hyphens, e.g. "local-events"')
  .max(64);

/** `$category` in a category template stands for the page's category slug. */
export const CategorySlugSchema = z
  .string()
  .regex(
    /^(\$category|[a-z0-9]+(?:-[a-z0-9]+)*)$/,
    'a category slug such as "nfl", or "$category" in the category template',
  );
