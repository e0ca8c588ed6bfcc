import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { COLLECTION_NAMES, COLLECTION_SCHEMAS } from '../../../shared/schemas/documents.js';
import { SEARCHABLE_FIELDS } from '../search-engine.js';
import { ColumnStore } from './columns.js';
import { RANKED } from './index-plans.js';

/**
 * What a snapshot must have been saved by: this engine's modules (its index plans, columns and text analysis
 * live in this folder), the searchable fields, and the document schemas as columns. Any change means a rebuild.
 */
let fingerprint: Promise<string> | undefined;
export function engineFingerprint(): Promise<string> {
  fingerprint ??= (async () => {
    const dir = path.dirname(fileURLToPath(import.meta.url));
    const hash = createHash('sha256');
    for (const file of (await readdir(dir)).filter((f) => /\.[cm]?[jt]s$/.test(f) && !f.includes('.test.')).sort()) {
      hash.update(`${file}\n`).update(await readFile(path.join(dir, file)));
    }
    const columns = COLLECTION_NAMES.map((name) => [
      name,
      new ColumnStore(COLLECTION_SCHEMAS[name].shape as never).layout,
    ]);
    hash.update(JSON.stringify({ searchable: SEARCHABLE_FIELDS, ranked: RANKED, columns }));
    return hash.digest('hex');
  })();
  return fingerprint;
}
