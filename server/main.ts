import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApp } from './app.js';
import { loadPageRenderer } from './pages/page-renderer.js';
import { ensureCatalog } from './catalog/ensure-catalog.js';
import { EnvError, parseEnv, type Env } from './config/env.js';
import { Readiness } from './health/readiness.js';
import { createLogger } from './http/logger.js';
import { answerProtocolErrors } from './http/protocol-errors.js';
import { exitOnSignals } from './http/shutdown.js';
import { RecentActivity } from './activity/recent-activity.js';
import { CommerceService } from './commerce/commerce-service.js';
import { CommerceStore } from './commerce/commerce-store.js';
import { SandboxPaymentProvider } from './commerce/domain/payments.js';
import { createFlagSource } from './flags/flag-source.js';
import { FlagService } from './flags/flag-service.js';
import { LayoutService } from './layout/layout-service.js';
import { sessionSecret, SessionTokens } from './sessions/session-tokens.js';
import { TicketBarcodes } from './commerce/domain/ticket-barcode.js';
import { openStore, storeDegradation } from './store/open-store.js';
import type { Sql } from './store/sql.js';
import { isStoreUnavailable } from './store/store-errors.js';
import { searchDegradation } from './search/cached-engine.js';
import { openCatalog, SearchStartError } from './search/create-engine.js';
import { SegmentRepository } from './segments/segment-repository.js';
import { SegmentPublisher } from './segments/segment-publisher.js';
import { FileVersionStore, SqlVersionStore } from './segments/segment-versions.js';
import { StudioService } from './studio/studio-service.js';
import { SearchService } from './search/search-service.js';
import { ChangeLog } from './live-catalog/change-log.js';
import { invalidateCaches } from './live-catalog/invalidation.js';
import { LiveCatalog } from './live-catalog/live-catalog.js';
import { DemandSignals } from './live-catalog/demand.js';
import { LISTINGS_FILE } from './catalog/manifest.js';
import { loadOperatorListings } from './commerce/operator-listings.js';
import { CatalogTimes, loggedChangeTimes } from './seo/catalog-times.js';
import { categoryPages } from './seo/category-pages.js';
import { SitemapService } from './seo/sitemap-service.js';

const here = path.dirname(fileURLToPath(import.meta.url));
/** The built client sits beside the compiled server (`dist/client` next to `dist/server`); from source, in dist. */
const clientDir = here.endsWith(path.join('dist', 'server'))
  ? path.resolve(here, '../client')
  : path.resolve(here, '../dist/client');

/**
 * Catalog changes applied at start beyond which they are folded into the engine snapshot before serving, so
 * the next start applies only what came after (about a second of applying at most).
 */
const FOLD_AFTER_CHANGES = 10_000;

function readEnv(): Env {
  try {
    return parseEnv();
  } catch (err) {
    if (err instanceof EnvError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
}

async function main() {
  const env = readEnv();
  const logger = createLogger(env.LOG_LEVEL);
  const readiness = new Readiness(['catalog', 'search', 'store']);
  const search = new SearchService();
  const segments = new SegmentRepository(env.segmentsDir, logger);
  try {
    await segments.load();
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  }
  const layout = new LayoutService({
    segments,
    engine: () => search.engine,
    logger,
    rowDeadlineMs: env.LAYOUT_ROW_DEADLINE_MS,
  });
  let tokens: SessionTokens;
  let barcodes: TicketBarcodes;
  let sql: Sql;
  let flags: FlagService;
  try {
    const secret = await sessionSecret({
      secret: env.SESSION_SECRET,
      dataDir: env.dataDir,
      production: env.NODE_ENV === 'production',
    });
    tokens = new SessionTokens(secret, env.SESSION_TTL_DAYS * 86_400);
    // Ticket barcodes: their own secret, or one derived from the session secret, the same on every node.
    barcodes = new TicketBarcodes(TicketBarcodes.derivedKey(env.TICKET_SIGNING_SECRET ?? secret));
    sql = await openStore({ databaseUrl: env.DATABASE_URL, dataDir: env.dataDir, logger });
    readiness.set('store', true, sql.kind === 'postgres' ? 'PostgreSQL' : 'PGlite (embedded)');
    readiness.probe('store', storeDegradation(sql));
    flags = new FlagService(await createFlagSource(env.flags, logger));
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  }
  // Published segment versions: in the shared store when nodes share PostgreSQL, else as files beside the data.
  const publisher = new SegmentPublisher({
    versions: sql.kind === 'postgres' ? new SqlVersionStore(sql) : new FileVersionStore(env.segmentVersionsDir),
    live: segments,
    liveDir: env.segmentsDir,
    logger,
  });
  const stopPublishing = publisher.start();
  const studio = new StudioService({
    draftsDir: env.segmentDraftsDir,
    publisher,
    live: segments,
    engine: () => search.engine,
    flags,
    logger,
    rowDeadlineMs: env.LAYOUT_ROW_DEADLINE_MS,
  });
  const activity = new RecentActivity(sql);
  const commerce = new CommerceService({
    store: new CommerceStore(sql),
    engine: () => search.engine,
    payments: new SandboxPaymentProvider(),
    logger,
    barcodes,
  });
  const changeLog = new ChangeLog(sql);
  const catalogTimes = new CatalogTimes();
  const sitemaps = new SitemapService({
    engine: () => search.engine,
    times: catalogTimes,
    categories: () => categoryPages(layout, segments),
  });
  const catalog = new LiveCatalog({
    log: changeLog,
    engine: () => search.catalog,
    onApplied: (changes) => {
      invalidateCaches(changes, { engine: search.engine, layout, fastLane: app.fastLane });
      studio.catalogChanged();
      catalogTimes.record(changes);
      sitemaps.catalogChanged(changes);
    },
    logger,
  });
  // The client's server renderer, built beside the client (`dist/ssr`); without it the client draws every page.
  const renderer = await loadPageRenderer(path.resolve(clientDir, '../ssr/entry-server.js'));
  if (!renderer) logger.warn('no server renderer built (dist/ssr): pages are drawn by the client alone');
  const app = createApp({
    env,
    logger,
    readiness,
    search,
    segments,
    layout,
    tokens,
    activity,
    flags,
    commerce,
    clientDir,
    sql,
    catalog,
    studio,
    sitemaps,
    renderer,
  });
  const demand = new DemandSignals({
    sql,
    catalog,
    listings: (event, listed) => commerce.listingsAsListed(event, listed),
    engine: () => search.engine,
    logger,
  });

  const server: Server = createServer(app).listen(env.PORT, env.HOST);
  answerProtocolErrors(server);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EADDRINUSE') return reject(err);
      console.error(
        `Port ${env.PORT} on ${env.HOST} is already in use: stop the other server ` +
          `or set PORT (PORT=0 picks a free one)`,
      );
      process.exit(1);
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : env.PORT;
  const url = `http://${env.HOST.includes(':') ? `[${env.HOST}]` : env.HOST}:${port}`;
  logger.info({ url }, 'listening');
  console.log(`Storefront running at ${url}`);

  // Event streams never go idle: they are ended first so a graceful close does not wait on them.
  let stopHousekeeping = () => {};
  exitOnSignals(server, env.SHUTDOWN_TIMEOUT_MS, logger, () => {
    stopHousekeeping();
    stopPublishing();
    flags.close();
  });

  // The server answers /healthz at once and /readyz with 503 until the catalog is in memory.
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
          await new Promise((resolve) => setTimeout(resolve, 1_000));
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
      commerce.useOperatorListings(manifest.generatedAt);
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
    const stopOrders = commerce.start();
    stopHousekeeping = () => [stopOrders, ...stopCatalog].forEach((stop) => stop());
  } catch (err) {
    const failed = err instanceof SearchStartError ? 'search' : 'catalog';
    readiness.set(failed, false, err instanceof Error ? err.message : String(err));
    logger.error({ err }, `${failed} failed to start`);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
