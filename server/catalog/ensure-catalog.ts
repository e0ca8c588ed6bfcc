import type { Logger } from 'pino';
import { generateCatalog } from './generate/generate-catalog.js';
import { CATALOG_GENERATOR_VERSION, readManifest } from './manifest.js';

/** Days after which a generated schedule has drifted too far into the past to be useful. */
export const CATALOG_MAX_AGE_DAYS = 30;

export interface EnsureCatalogOptions {
  dir: string;
  events: number;
  seed: number;
  logger: Logger;
  now?: Date;
}

/**
 * Generates the catalog when none is in `dir`, or when the one there was generated for a schedule that
 * started more than 30 days ago or by an older generator. An existing, current catalog is left alone, whatever its
 * size, and an
 * imported one always.
 */
export async function ensureCatalog({
  dir,
  events,
  seed,
  logger,
  now = new Date(),
}: EnsureCatalogOptions): Promise<'kept' | 'generated'> {
  const manifest = await readManifest(dir);
  // An operator's own catalog is theirs to renew (`npm run catalog -- import`), whatever its dates.
  if (manifest?.source === 'import') return 'kept';
  if (manifest && (manifest.generator ?? 1) !== CATALOG_GENERATOR_VERSION) {
    logger.info(
      { generator: manifest.generator ?? 1 },
      'catalog was written by an older generator: generating a new one',
    );
  } else if (manifest) {
    const ageDays = (now.getTime() - Date.parse(`${manifest.start}T00:00:00Z`)) / 86_400_000;
    if (ageDays <= CATALOG_MAX_AGE_DAYS) return 'kept';
    logger.info({ start: manifest.start }, 'catalog schedule is stale: generating a new one');
  } else {
    logger.info({ dir }, 'no catalog found: generating one');
  }
  const began = performance.now();
  const start = now.toISOString().slice(0, 10);
  const generated = await generateCatalog({ events, seed, start, outDir: dir });
  logger.info({ counts: generated.counts, ms: Math.round(performance.now() - began) }, 'catalog generated');
  return 'generated';
}
