import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pino } from 'pino';
import { createApp, type AppDeps } from '../app.js';
import { parseEnv } from '../config/env.js';
import { Readiness } from '../health/readiness.js';
import { FlagService } from '../flags/flag-service.js';
import { StaticFlagSource } from '../flags/flags-file.js';
import { LayoutService, type LayoutServiceOptions } from '../layout/layout-service.js';
import { RecentActivity } from '../activity/recent-activity.js';
import { EventCollector } from '../analytics/event-collector.js';
import { EventLog } from '../analytics/event-log.js';
import { createCommerce } from '../commerce/commerce.js';
import { SandboxPaymentProvider } from '../commerce/domain/payments.js';
import { PURCHASE_LIMITS } from '../commerce/domain/purchase-limits.js';
import { ScannerKeys } from '../commerce/scanner-keys.js';
import { SearchService } from '../search/search-service.js';
import { SessionTokens } from '../sessions/session-tokens.js';
import { lazySql } from '../store/lazy-sql.js';
import { sqlRecordStores } from '../store/record-collections.js';
import type { Sql } from '../store/sql.js';
import { SegmentRepository } from '../segments/segment-repository.js';
import { openMigratedPglite } from '../store/test-stores.js';

/**
 * The layout service's clock and row deadline a test may set: its own clock and 30 seconds a row otherwise, so that
 * a loaded machine never turns a row into a `timeout` a test did not ask for (a test of the deadline sets its own).
 */
export type TestLayoutOptions = Partial<Pick<LayoutServiceOptions, 'now' | 'rowDeadlineMs'>>;

/** How long a test's layout row may take unless the test says otherwise (see above). */
export const TEST_ROW_DEADLINE_MS = 30_000;

/** An in-process app with silent logs, for supertest. */
export function testApp(overrides: Partial<AppDeps> = {}, layoutOptions: TestLayoutOptions = {}) {
  const logger = pino({ level: process.env.TEST_LOG ?? 'silent' });
  const search = overrides.search ?? new SearchService();
  const segments = overrides.segments ?? new SegmentRepository(path.resolve('segments'), logger);
  const sql =
    overrides.sql ??
    lazySql(async () => {
      const opened = await openMigratedPglite();
      return opened;
    });
  const deps: AppDeps = {
    env: parseEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }),
    logger,
    readiness: new Readiness(['catalog']),
    search,
    segments,
    layout: new LayoutService({
      segments,
      engine: () => search.engine,
      logger,
      rowDeadlineMs: TEST_ROW_DEADLINE_MS,
      ...layoutOptions,
    }),
    tokens: new SessionTokens(new Uint8Array(randomBytes(32)), 3600),
    activity: new RecentActivity(sql),
    events: new EventCollector(new EventLog(sql)),
    commerce: createCommerce({
      sql,
      engine: () => search.engine,
      payments: new SandboxPaymentProvider(),
      logger,
      sellerDelayMs: 0,
    }),
    scannerKeys: new ScannerKeys(sqlRecordStores(sql)),
    flags:
      overrides.flags ??
      new FlagService(new StaticFlagSource(JSON.parse(readFileSync(path.resolve('segments/flags.json'), 'utf8')))),
    sql,
    ...overrides,
  } as AppDeps;
  return { app: createApp(deps), deps };
}

/** The same, with the shipped segment files loaded. */
export async function testAppWithSegments(overrides: Partial<AppDeps> = {}) {
  const made = testApp(overrides);
  await made.deps.segments.load();
  return made;
}

/**
 * The commerce of a test whose guests all shop from one address: the sandbox processor, no seller delay, and the
 * per-address share (RULES 8.1) lifted so that many guests may buy.
 */
export function sharedAddressCommerce(sql: Sql, search: SearchService, now?: () => Date) {
  return createCommerce({
    sql,
    engine: () => search.engine,
    payments: new SandboxPaymentProvider(),
    logger: pino({ level: 'silent' }),
    sellerDelayMs: 0,
    limits: { ...PURCHASE_LIMITS, guestsPerAddress: 10_000 },
    ...(now ? { now } : {}),
  });
}
