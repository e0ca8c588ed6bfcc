import { pino } from 'pino';
import { createApp, type AppDeps } from '../app.js';
import { CatalogStore } from '../catalog/catalog-store.js';
import { parseEnv } from '../config/env.js';
import { Readiness } from '../health/readiness.js';
import { SearchService } from '../search/search-service.js';

/** An in-process app with silent logs, for supertest. */
export function testApp(overrides: Partial<AppDeps> = {}) {
  const deps: AppDeps = {
    env: parseEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }),
    logger: pino({ level: 'silent' }),
    readiness: new Readiness(['catalog']),
    catalog: new CatalogStore(),
    search: new SearchService(),
    ...overrides,
  };
  return { app: createApp(deps), deps };
}
