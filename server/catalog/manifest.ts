import path from 'node:path';
import { readFile, stat } from 'node:fs/promises';
import { z } from 'zod';
import { COLLECTION_NAMES, type CollectionName } from '../../shared/schemas/documents.js';

/** Bumped whenever a document schema changes: an older catalog is then generated anew. */
export const CATALOG_FORMAT_VERSION = 2;

/**
 * Bumped whenever the demo generator writes a different catalog from the same options: a generated catalog of
 * an older generator is generated anew (an imported one is the operator's and stays). 2: league seasons as real
 * schedules. 3: tours and runs over the window as a circle (the first weeks as full as the later ones). A manifest
 * without the field is of generator 1.
 */
export const CATALOG_GENERATOR_VERSION = 3;

export const CatalogManifestSchema = z.object({
  version: z.literal(CATALOG_FORMAT_VERSION),
  seed: z.number().int(),
  /** The demo generator that wrote the catalog (absent: generator 1, or an import). */
  generator: z.number().int().positive().optional(),
  /** The number of events asked for; `counts.Event` is what was written. */
  events: z.number().int().positive(),
  /** First day of the schedule window (`YYYY-MM-DD`, UTC). */
  start: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  /** When the files were written: the change log's changes are made over these files, named by it. */
  generatedAt: z.string(),
  /** Generated (the demo catalog, renewed when its schedule is a month old) or imported by an operator (kept). */
  source: z.enum(['generated', 'import']).optional(),
  /** Ticket groups in `Listing.jsonl` (an operator's own inventory); absent: listings are generated. */
  listings: z.number().int().min(0).optional(),
  counts: z.record(z.enum(COLLECTION_NAMES as [CollectionName, ...CollectionName[]]), z.number().int().min(0)),
});
export type CatalogManifest = z.infer<typeof CatalogManifestSchema>;

export const MANIFEST_FILE = 'manifest.json';

export const collectionFile = (dir: string, collection: CollectionName) => path.join(dir, `${collection}.jsonl`);

/** An imported catalog's own listings, beside its collections. */
export const LISTINGS_FILE = 'Listing.jsonl';

/** The manifest of the catalog in `dir`, or null when there is none (or it is unreadable). */
export async function readManifest(dir: string): Promise<CatalogManifest | null> {
  try {
    return CatalogManifestSchema.parse(JSON.parse(await readFile(path.join(dir, MANIFEST_FILE), 'utf8')));
  } catch {
    return null;
  }
}

/**
 * What identifies the catalog in `dir` as it is on disk: the manifest, and each collection file's size and
 * modification time (to the nanosecond). Anything built from the files is stale once this differs.
 */
export async function catalogFingerprint(dir: string): Promise<{ manifest: string; files: Record<string, string> }> {
  const manifest = await readFile(path.join(dir, MANIFEST_FILE), 'utf8');
  const files: Record<string, string> = {};
  for (const name of COLLECTION_NAMES) {
    const s = await stat(collectionFile(dir, name), { bigint: true });
    files[name] = `${s.size} bytes, modified ${s.mtimeNs}`;
  }
  return { manifest, files };
}
