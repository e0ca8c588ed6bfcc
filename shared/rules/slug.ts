/**
 * RULES 2.2: an entity slug is the lower-cased name and the id joined by hyphens ("Dallas Cowboys", 1001 →
 * `dallas-cowboys-1001`). So that every slug is a valid, stable path segment: accents are dropped ("Beyoncé"
 * → `beyonce`), `&` reads as `and`, apostrophes vanish ("Guns N' Roses" → `guns-n-roses`), and every other
 * run of non-alphanumerics becomes one hyphen.
 */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/['’‘`]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

export function entitySlug(name: string, id: number | string): string {
  const base = slugify(name);
  return base ? `${base}-${id}` : String(id);
}

/** The id at the end of an entity slug, or null when the slug does not end in one. */
export function idFromSlug(slug: string): number | null {
  const match = /(?:^|-)(\d{1,15})$/.exec(slug);
  return match ? Number(match[1]) : null;
}

/**
 * RULES 2.3, the second slug helper: joins several text parts after removing the first period and turning the
 * first colon into a hyphen, each part lower-cased (and made path-safe as above).
 */
export function joinSlugParts(...parts: string[]): string {
  return parts
    .map((part) => slugify(part.replace('.', '').replace(':', '-')))
    .filter((part) => part !== '')
    .join('-');
}
