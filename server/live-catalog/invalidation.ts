import { collectionTag, type FastLane } from '../http/fast-lane.js';
import type { LayoutService } from '../layout/layout-service.js';
import type { CachedEngine } from '../search/cached-engine.js';
import type { AppliedChange } from './live-catalog.js';

export interface Caches {
  engine: CachedEngine;
  layout: LayoutService;
  fastLane: FastLane;
}

/**
 * Drops what applied changes make stale, and nothing else: the search results of the changed collections, the
 * layout rows whose searches the documents (before or after the change) could match, with the page answers built
 * from those rows (`LayoutService.invalidate`), and the suggestions replayed from the changed collections.
 */
export function invalidateCaches(changes: readonly AppliedChange[], caches: Caches): void {
  const collections = new Set(changes.map((c) => c.collection));
  for (const collection of collections) {
    caches.engine.invalidate(collection);
    caches.fastLane.forget(collectionTag(collection));
  }
  caches.layout.invalidate(
    changes.flatMap((c) =>
      [c.before, c.after ?? undefined].flatMap((document) =>
        document ? [{ collection: c.collection, document }] : [],
      ),
    ),
  );
}
