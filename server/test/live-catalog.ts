import { pino } from 'pino';
import { ChangeLog } from '../live-catalog/change-log.js';
import { Invalidator, type Caches } from '../live-catalog/invalidation.js';
import { LiveCatalog, type AppliedChange } from '../live-catalog/live-catalog.js';
import { CachedEngine } from '../search/cached-engine.js';
import { EmbeddedCatalog } from '../search/embedded/embedded-catalog.js';
import { EmbeddedEngine } from '../search/embedded/embedded-engine.js';
import { SearchService } from '../search/search-service.js';
import type { Sql } from '../store/sql.js';
import type { CatalogFixture } from './catalog-fixture.js';

/**
 * A node's live catalog over a fixture's catalog files, as the server wires it: the embedded engine behind
 * the result cache, the change log in `sql`. Its changes clear `caches` once `connect` names them (the app's,
 * made after it).
 */
export async function liveCatalogOver(
  fixture: CatalogFixture,
  sql: Sql,
  also?: (changes: readonly AppliedChange[]) => void,
) {
  const embedded = await EmbeddedEngine.build(fixture.catalog.collections);
  const search = new SearchService();
  search.set(new CachedEngine(embedded), new EmbeddedCatalog(embedded));
  let caches: Caches | undefined;
  const invalidator = new Invalidator(() => caches!);
  const live = new LiveCatalog({
    log: new ChangeLog(sql),
    engine: () => search.catalog,
    onApplied: (changes) => {
      const invalidated = caches ? invalidator.applied(changes) : undefined;
      also?.(changes);
      return invalidated;
    },
    logger: pino({ level: 'silent' }),
  });
  live.attach(fixture.catalog.manifest.generatedAt);
  return { embedded, search, live, connect: (to: Caches) => void (caches = to) };
}

/**
 * A node of its own over a fixture's catalog files, for the change log's tests and bench: its own embedded engine,
 * the shared log in `sql`, its id, and its clock (the store's when none is given); `onApplied` hears each change.
 */
export async function logNodeOver(
  fixture: CatalogFixture,
  sql: Sql,
  nodeId: string,
  options: { clock?: { now: number }; onApplied?: (changes: readonly AppliedChange[]) => void } = {},
) {
  const embedded = await EmbeddedEngine.build(fixture.catalog.collections);
  const catalog = new EmbeddedCatalog(embedded);
  const { clock, onApplied } = options;
  const live = new LiveCatalog({
    log: new ChangeLog(sql),
    engine: () => catalog,
    onApplied: (changes) => onApplied?.(changes),
    logger: pino({ level: 'silent' }),
    nodeId,
    ...(clock ? { now: () => new Date(clock.now) } : {}),
  });
  live.attach(fixture.catalog.manifest.generatedAt);
  return { live, embedded };
}
