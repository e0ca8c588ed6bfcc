import path from 'node:path';
import type { Logger } from 'pino';
import { ensureCatalog } from './catalog/ensure-catalog.js';
import { LISTINGS_FILE } from './catalog/manifest.js';
import type { Commerce } from './commerce/commerce.js';
import { loadOperatorListings } from './commerce/operator-listings.js';
import type { Env } from './config/env.js';
import type { Readiness } from './health/readiness.js';
import type { ChangeLog } from './live-catalog/change-log.js';
import type { DemandSignals } from './live-catalog/demand.js';
import type { LiveCatalog } from './live-catalog/live-catalog.js';
import { searchDegradation } from './search/cached-engine.js';
import { openCatalog, SearchStartError } from './search/create-engine.js';
import type { SearchService } from './search/search-service.js';
import { loggedChangeTimes, type CatalogTimes } from './seo/catalog-times.js';
import type { Sql } from './store/sql.js';
import { isStoreUnavailable } from './store/store-errors.js';

/**
 * Catalog changes applied at start beyond which they are folded into the engine snapshot before serving, so
 * the next start applies only what came after (about a second of applying at most).
 */
const FOLD_AFTER_CHANGES = 10_000;
/** How long start-up waits before asking a store that is away again. */
const STORE_RETRY_MS = 1_000;

export interface StartUpDeps {
  env: Env;
  logger: Logger;
  readiness: Readiness;
  search: SearchService;
  sql: Sql;
  changeLog: ChangeLog;
  catalog: LiveCatalog;
  catalogTimes: CatalogTimes;
  demand: DemandSignals;
  commerce: Commerce;
}

/**
 * Brings the catalog into the search engine: generated when absent, opened from the engine snapshot or loaded
 * from its files, with the changes operators logged since applied, then marks the catalog and search ready and
 * starts the background work (catalog sync, demand signals, order housekeeping). Returns what stops that work.
 * A failure marks search or the catalog not ready and is logged; the server goes on answering /healthz.
 */
export async function startCatalog(deps: StartUpDeps): Promise<() => void> {
  const { env, logger, readiness, search, sql, changeLog, catalog, catalogTimes, demand, commerce } = deps;
  try {
    await ensureCatalog({ dir: env.catalogDir, events: env.CATALOG_EVENTS, seed: env.CATALOG_SEED, logger });
    const began = performance.now();
    // The catalog streams into the engine as it is read: loaded and indexed are one step.
    // Serving the files without the changes operators were told are saved would show what they removed: the
    // store must answer first.
    const whenStoreAnswers = async <T>(what: () => Promise<T>): Promise<T> => {
      for (;;) {
        try {
          return await what();
        } catch (err) {
          // A store that is away is waited for; any other failure (a query that is wrong) fails the catalog.
          if (!isStoreUnavailable(err)) throw err;
          readiness.set('catalog', false, 'waiting for the store to read the catalog changes');
          logger.warn({ err }, 'cannot read the catalog changes yet; retrying');
          await new Promise((resolve) => setTimeout(resolve, STORE_RETRY_MS));
        }
      }
    };
    const logName = env.typesense ? undefined : await whenStoreAnswers(() => changeLog.identity());
    const { manifest, engine, writable, embedded, folded, fold } = await openCatalog(env, env.catalogDir, {
      changeLog: logName,
    });
    search.set(engine, writable);
    // A shared engine (Typesense) already holds every logged change: its writers applied them before committing.
    const through = writable?.shared
      ? await whenStoreAnswers(() => changeLog.lastSeq(manifest.generatedAt))
      : (folded?.through ?? 0);
    catalog.attach(manifest.generatedAt, through);
    // The changes operators made since the catalog files (or since those folded into the snapshot).
    const changes = writable ? await whenStoreAnswers(() => catalog.sync()) : 0;
    // The sitemaps' lastmod: each changed document's time from the log, the others the catalog files' own.
    await whenStoreAnswers(() =>
      catalogTimes.attach(manifest.generatedAt, () => loggedChangeTimes(sql, manifest.generatedAt)),
    );
    // An imported catalog may bring its own listings: into the store, where every node sells them from.
    if (manifest.listings !== undefined) {
      const listings = manifest.listings;
      await whenStoreAnswers(() =>
        loadOperatorListings(sql, manifest.generatedAt, path.join(env.catalogDir, LISTINGS_FILE), listings),
      );
      commerce.catalog.useOperatorListings(manifest.generatedAt);
    }
    if (fold && logName && changes >= FOLD_AFTER_CHANGES) {
      const bytes = await fold({ log: logName, through: catalog.appliedThrough });
      logger.info(
        { changes, through: catalog.appliedThrough, bytes },
        'catalog changes folded into the engine snapshot',
      );
    }
    const stopCatalog = writable ? [catalog.start(), demand.start()] : [];
    readiness.set('catalog', true, `${manifest.counts.Event} events, ${changes} catalog changes applied`);
    readiness.probe('search', searchDegradation(engine));
    readiness.set('search', true, engine.kind === 'typesense' ? 'Typesense' : 'embedded engine');
    logger.info(
      { counts: manifest.counts, engine: engine.kind, ...embedded, ms: Math.round(performance.now() - began) },
      'search ready',
    );
    // RULES 19.1, 19.2: after the catalog is in memory, so that every event with standing orders is looked at once
    // against the catalog as it now is (a catalog imported while the node was down included).
    const stopOrders = [commerce.settlement.start(), commerce.refunds.start(), commerce.eventChanges.start()];
    return () => [...stopOrders, ...stopCatalog].forEach((stop) => stop());
  } catch (err) {
    const failed = err instanceof SearchStartError ? 'search' : 'catalog';
    readiness.set(failed, false, err instanceof Error ? err.message : String(err));
    logger.error({ err }, `${failed} failed to start`);
    return () => {};
  }
}
