import type { CategoryDefinition } from './taxonomy.js';
import { CATEGORIES } from './categories.js';

/** The lower-cased `parent/child/grandchild` path of the RULES 5.8 category-to-image map. */
export function categoryPath(parent: string, child = '', grandchild = ''): string {
  return [parent, child, grandchild]
    .filter((part) => part !== '')
    .join('/')
    .toLowerCase();
}

/**
 * RULES 5.8: the category-to-image map, lower-cased `parent/child/grandchild` → image code `NN-NNN-NNN`.
 * Every category above has an entry at each of its levels, plus sub-categories the catalog has no
 * performers in yet (other leagues, Olympic sports…), so a future category finds its art.
 */
export const CATEGORY_IMAGE_CODES: ReadonlyMap<string, string> = buildImageCodes();

function buildImageCodes(): Map<string, string> {
  const extraPaths = [
    'sports/hockey/ahl',
    'sports/hockey/college hockey',
    'sports/hockey/ohl',
    'sports/hockey/world juniors',
    'sports/soccer/premier league',
    'sports/soccer/la liga',
    'sports/soccer/liga mx',
    'sports/soccer/nwsl',
    'sports/soccer/international friendlies',
    'sports/soccer/usl championship',
    'sports/olympic sports',
    'sports/olympic sports/gymnastics',
    'sports/olympic sports/figure skating',
    'sports/olympic sports/track and field',
    'sports/olympic sports/swimming',
    'sports/football/college football',
    'sports/football/ufl',
    'sports/basketball/wnba',
    'sports/basketball/college basketball',
    'sports/baseball/minor league baseball',
    'sports/lacrosse',
    'sports/volleyball',
    'other/horse racing',
    'other/esports',
    'other/motorsports/monster trucks',
    'theatre/comedy',
    'theatre/magic',
    'concerts/reggae',
    'concerts/r&b',
    'concerts/k-pop',
  ];
  const paths = new Set<string>();
  for (const c of CATEGORIES) {
    paths.add(categoryPath(c.parent));
    paths.add(categoryPath(c.parent, c.child));
    paths.add(categoryPath(c.parent, c.child, c.grandchild));
  }
  for (const p of extraPaths) {
    const parts = p.split('/');
    for (let i = 1; i <= parts.length; i++) paths.add(parts.slice(0, i).join('/'));
  }
  // Codes are assigned by position in the sorted list of paths: NN is the top level, NNN the child within
  // it, NNN the grandchild within that; 000 marks a level that is absent.
  const sorted = [...paths].sort();
  const codes = new Map<string, string>();
  const counters = new Map<string, number>();
  const next = (key: string) => {
    const n = (counters.get(key) ?? 0) + 1;
    counters.set(key, n);
    return n;
  };
  for (const p of sorted) {
    const parts = p.split('/');
    const top = parts[0]!;
    const topCode = codes.get(top)?.slice(0, 2) ?? String(next('')).padStart(2, '0');
    if (parts.length === 1) {
      codes.set(p, `${topCode}-000-000`);
      continue;
    }
    const childKey = parts.slice(0, 2).join('/');
    const childCode = codes.get(childKey)?.slice(3, 6) ?? String(next(top)).padStart(3, '0');
    if (parts.length === 2) {
      codes.set(p, `${topCode}-${childCode}-000`);
      continue;
    }
    codes.set(p, `${topCode}-${childCode}-${String(next(childKey)).padStart(3, '0')}`);
  }
  return codes;
}

export function categoryImageCode(category: CategoryDefinition): string {
  const code = CATEGORY_IMAGE_CODES.get(categoryPath(category.parent, category.child, category.grandchild));
  if (!code) throw new Error(`category ${category.slug} has no image code`);
  return code;
}
