import { AppError } from '../http/errors.js';
import { MAX_JSON_DEPTH } from '../../shared/rules/json-limits.js';
import { jsonTextDepth } from '../segments/segment-problems.js';
import { PAGE_NAMES } from '../../shared/schemas/segments.js';
import { REGISTRY_FILE, WRITABLE_SEGMENT_FILE } from '../segments/segment-set.js';

/** Product decision: a segment file is a few kilobytes; a draft above this is a paste gone wrong. */
export const DRAFT_MAX_BYTES = 256 * 1024;

/** Refuses a path that is not one of a segment set's files. */
export function checkPath(file: string): void {
  if (!WRITABLE_SEGMENT_FILE.test(file) || file.length > 200) {
    throw new AppError(
      400,
      'invalid_path',
      `"${file.slice(0, 100)}" is not a segment file: use ${REGISTRY_FILE} or ` +
        `<brand>/<page>.json (pages: ${PAGE_NAMES.join(', ')}), or ` +
        `<brand>/<page>~<variant>.json with a variant of lower-case words joined ` +
        `by hyphens`,
    );
  }
}

/** Refuses a draft at a path no segment file has, or larger than a segment file has any need to be. */
export function checkDraft(file: string, text: string): void {
  checkPath(file);
  if (Buffer.byteLength(text) > DRAFT_MAX_BYTES)
    throw new AppError(413, 'draft_too_large', `A segment file may have at most ${DRAFT_MAX_BYTES / 1024} KB`);
  // RULES 14.15: refused before it is kept, where every later read of the set would meet it.
  if (jsonTextDepth(text) > MAX_JSON_DEPTH)
    throw new AppError(400, 'draft_too_deep', `A segment file's brackets may nest at most ${MAX_JSON_DEPTH} deep`);
}
