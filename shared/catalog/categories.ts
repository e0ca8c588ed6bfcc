import type { CategoryDefinition } from './taxonomy.js';
import { CONCERT_CATEGORIES } from './concert-categories.js';
import { OTHER_CATEGORIES } from './other-categories.js';
import { SPORTS_CATEGORIES } from './sports-categories.js';
import { THEATER_CATEGORIES } from './theater-categories.js';

/**
 * Every category route of RULES 2.1, plus the concert sub-segments of the Concerts page that have no route of
 * their own (Techno & Electronic, Jazz & Blues).
 */
export const CATEGORIES: readonly CategoryDefinition[] = [
  ...SPORTS_CATEGORIES,
  ...CONCERT_CATEGORIES,
  ...THEATER_CATEGORIES,
  ...OTHER_CATEGORIES,
];

export const CATEGORY_BY_SLUG: ReadonlyMap<string, CategoryDefinition> = new Map(CATEGORIES.map((c) => [c.slug, c]));
