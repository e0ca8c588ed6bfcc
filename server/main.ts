import { EventCollector } from './analytics/event-collector.js';
import { EventLog } from './analytics/event-log.js';
import type { Server } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApp } from './app.js';
import { loadPageRenderer } from './pages/page-renderer.js';
import { EnvError, parseEnv, type Env } from './config/env.js';
import { Readiness } from './health/readiness.js';
import { limitHeapGrowth } from './config/heap.js';
import { createLogger } from './http/logger.js';
import { storefrontServer } from './http/protocol-errors.js';
import { exitOnSignals } from './http/shutdown.js';
import { RecentActivity } from './activity/recent-activity.js';
import { createCommerce } from './commerce/commerce.js';
import { SandboxPaymentProvider } from './commerce/domain/payments.js';
import { SqlSandboxLedger } from './commerce/sandbox-ledger.js';
import { OrderMailCodes, orderMailLinks, ticketAttachments } from './commerce/order-mail.js';
import { createFlagSource } from './flags/flag-source.js';
import { FlagService } from './flags/flag-service.js';
import { LayoutService } from './layout/layout-service.js';
import { sessionSecret, SessionTokens } from './sessions/session-tokens.js';
import { TicketBarcodes } from './commerce/domain/ticket-barcode.js';
import { ScannerKeys } from './commerce/scanner-keys.js';
import { openStore, storeDegradation } from './store/open-store.js';
import type { Sql } from './store/sql.js';
import { SegmentRepository } from './segments/segment-repository.js';
import { SegmentPublisher } from './segments/segment-publisher.js';
import { FileVersionStore, SqlVersionStore } from './segments/segment-versions.js';
import { StudioService } from './studio/studio-service.js';
import { previewLinkKey } from './studio/preview-links.js';
import { recordStoresFor } from './store/record-collections.js';
import { SearchService } from './search/search-service.js';
import { ChangeLog } from './live-catalog/change-log.js';
import { Invalidator } from './live-catalog/invalidation.js';
import { LiveCatalog } from './live-catalog/live-catalog.js';
import { DemandSignals } from './live-catalog/demand.js';
import { CatalogTimes } from './seo/catalog-times.js';
import { categoryPages } from './seo/category-pages.js';
import { SitemapService } from './seo/sitemap-service.js';
import { startCatalog } from './start-up.js';
import { MailOutbox } from './mail/outbox.js';
import { emlFileTransport, smtpTransport } from './mail/transport.js';
import { SharedCachePurge } from './cache/shared-cache-purge.js';
import { surrogateKey } from './cache/surrogate-keys.js';

/** How long an idle kept-alive connection is held open (Node's own is 5 s). */
const KEEP_ALIVE_MS = 65_000;

const here = path.dirname(fileURLToPath(import.meta.url));
/** The built client sits beside the compiled server (`dist/client` next to `dist/server`); from source, in dist. */
const clientDir = here.endsWith(path.join('dist', 'server'))
  ? path.resolve(here, '../client')
  : path.resolve(here, '../dist/client');

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
  let linkKey: Uint8Array;
  let mailCodes: OrderMailCodes;
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
    // RULES 18.3: the studio's preview links, signed with a key of their own derived from the session secret.
    linkKey = previewLinkKey(secret);
    // RULES 19.4: the codes order emails carry in their links, derived from the session secret like the rest.
    mailCodes = new OrderMailCodes(secret);
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
    records: recordStoresFor(sql, env.studioRecordsDir),
    publisher,
    live: segments,
    engine: () => search.engine,
    flags,
    logger,
    rowDeadlineMs: env.LAYOUT_ROW_DEADLINE_MS,
    linkKey,
  });
  const stopScheduling = studio.schedule.start();
  const activity = new RecentActivity(sql);
  const eventLog = new EventLog(sql, { retentionDays: env.EVENTS_RETENTION_DAYS, logger });
  const events = new EventCollector(eventLog);
  const commerce = createCommerce({
    sql,
    engine: () => search.engine,
    // The sandbox's records in the store: any node settles or refunds what another charged (RULES 10.7, 19.3).
    payments: new SandboxPaymentProvider({ ledger: new SqlSandboxLedger(sql) }),
    logger,
    barcodes,
    mailCodes,
  });
  // RULES 19.6: the scanners' keys, in the shared store with PostgreSQL, else beside the data (`npm run scanners`).
  const scannerKeys = new ScannerKeys(recordStoresFor(sql, env.scannerRecordsDir));
  // The mail room: SMTP when SMTP_URL is set, else .eml files under DATA_DIR/mail; sent by this node's worker.
  let origin = env.PUBLIC_BASE_URL ?? '';
  const mailTransport = env.SMTP_URL ? smtpTransport(env.SMTP_URL) : emlFileTransport(path.join(env.dataDir, 'mail'));
  const mail = new MailOutbox({
    sql,
    transport: mailTransport,
    brands: (id) => segments.brand(id) ?? segments.defaultBrand,
    links: orderMailLinks(mailCodes, () => origin),
    // The eTickets PDF, read as the mail goes (opened with the order's mail code, as the mail's own link would).
    attachments: ticketAttachments((id) => commerce.orders.ticketsPdf(id, { code: mailCodes.code(id) })),
    logger,
    options: {
      from: env.MAIL_FROM,
      retryMaxSeconds: env.MAIL_RETRY_MAX_SECONDS,
      leaseMs: env.MAIL_LEASE_SECONDS * 1000,
    },
  });
  const changeLog = new ChangeLog(sql);
  const catalogTimes = new CatalogTimes();
  const sitemaps = new SitemapService({
    engine: () => search.engine,
    times: catalogTimes,
    categories: () => categoryPages(layout, segments),
  });
  // RULES 13.11: what a change makes stale is dropped in slices; the app's lane is read once the app is made.
  const invalidator = new Invalidator(() => ({ engine: search.engine, layout, fastLane: app.fastLane }));
  const catalog = new LiveCatalog({
    log: changeLog,
    engine: () => search.catalog,
    onApplied: (changes) => {
      const invalidated = invalidator.applied(changes);
      studio.catalogChanged();
      // RULES 19.1, 19.2: an event changed after sale reaches its buyers.
      commerce.eventChanges.eventsChanged(changes.flatMap((c) => (c.collection === 'Event' ? [Number(c.id)] : [])));
      catalogTimes.record(changes);
      sitemaps.catalogChanged(changes);
      return invalidated;
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
    events,
    flags,
    commerce,
    scannerKeys,
    clientDir,
    sql,
    catalog,
    studio,
    sitemaps,
    renderer,
    mail,
  });
  // The shared caches in front hear of each forgotten tag too, by its surrogate key (RULES 13.7).
  const sharedCache = new SharedCachePurge({ urls: env.SHARED_CACHE_PURGE_URLS, logger });
  if (env.SHARED_CACHE_PURGE_URLS.length > 0) app.fastLane.onForget((tag) => sharedCache.add(surrogateKey(tag)));
  const demand = new DemandSignals({
    sql,
    catalog,
    listings: (event, listed) => commerce.catalog.listingsAsListed(event, listed),
    engine: () => search.engine,
    logger,
  });

  // An idle kept-alive connection stays open longer than the clients and balancers in front keep theirs (60 s is
  // common): a server that closes first races a request just being sent on it, which the client sees reset.
  const server: Server = storefrontServer(app, KEEP_ALIVE_MS);
  server.listen(env.PORT, env.HOST);
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
  origin ||= url;
  const stopMail = mail.start();
  logger.info({ mail: mailTransport.description }, 'mail outbox started');

  // Event streams never go idle: they are ended first so a graceful close does not wait on them.
  let stopHousekeeping = () => {};
  exitOnSignals(
    server,
    env.SHUTDOWN_TIMEOUT_MS,
    logger,
    () => {
      stopHousekeeping();
      stopMail();
      stopPublishing();
      stopScheduling();
      void sharedCache.stop();
      flags.close();
    },
    // What the requests in flight recorded (a purchase among them) is written before the process ends.
    () => eventLog.close(),
  );

  // The server answers /healthz at once and /readyz with 503 until the catalog is in memory.
  stopHousekeeping = await startCatalog({
    env,
    logger,
    readiness,
    search,
    sql,
    changeLog,
    catalog,
    catalogTimes,
    demand,
    commerce,
  });
  limitHeapGrowth(env.HEAP_GROWTH_PERCENT);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
