import { CATEGORY_IMAGE_CODES, categoryPath } from '../catalog/category-images.js';
import { CATEGORY_IMAGE_NOT_FOUND_MESSAGE } from './constants.js';
import type { WarnLogger } from '../logger.js';

// Paths come from documents, so the set of reported ones stays small; the cap only guards against a bad feed.
const MAX_REPORTED = 1_000;
const reported = new Set<string>();

/**
 * RULES 5.8: the image code of a category, by its lower-cased `parent/child/grandchild` path, falling back to
 * `parent/child` and then `parent`. RULES 14.10: when nothing matches, 'not found' is logged once per path and
 * the result is null.
 */
export function categoryImageCode(parent: string, child = '', grandchild = '', logger?: WarnLogger): string | null {
  const p = parent.trim();
  const c = child.trim();
  // A grandchild without its child names no level of the tree.
  const g = c === '' ? '' : grandchild.trim();
  const path = categoryPath(p, c, g);
  if (p === '') {
    report(path, logger);
    return null;
  }
  for (const candidate of [path, categoryPath(p, c), categoryPath(p)]) {
    const code = CATEGORY_IMAGE_CODES.get(candidate);
    if (code) return code;
  }
  report(path, logger);
  return null;
}

function report(path: string, logger: WarnLogger | undefined): void {
  if (!logger || reported.has(path)) return;
  if (reported.size >= MAX_REPORTED) return;
  reported.add(path);
  logger.warn({ path }, CATEGORY_IMAGE_NOT_FOUND_MESSAGE);
}

export const CATEGORY_IMAGE_BASE = '/media/categories';

/** The category's image URL, or null when it has no image (never a URL that would 404). */
export function categoryImageUrl(parent: string, child = '', grandchild = '', logger?: WarnLogger): string | null {
  const code = categoryImageCode(parent, child, grandchild, logger);
  return code === null ? null : `${CATEGORY_IMAGE_BASE}/${code}.svg`;
}
