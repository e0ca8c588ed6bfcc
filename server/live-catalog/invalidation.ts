import { collectionTag, entityTag, type FastLane } from '../http/fast-lane.js';
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
  for (const tag of new Set(changes.flatMap(entityTagsOf))) caches.fastLane.forget(tag);
  caches.layout.invalidate(
    changes.flatMap((c) =>
      [c.before, c.after ?? undefined].flatMap((document) =>
        document ? [{ collection: c.collection, document }] : [],
      ),
    ),
  );
}

/**
 * The entity pages a change touches (RULES 13.7): the changed entity's own, and for an event (before and after
 * the change) the pages of its performers and venue, which list it.
 */
export function entityTagsOf(change: AppliedChange): string[] {
  const { collection } = change;
  if (collection === 'Performer' || collection === 'Venue') return [entityTag(collection, change.id)];
  if (collection !== 'Event') return [];
  const tags = [entityTag('Event', change.id)];
  for (const doc of [change.before, change.after]) {
    if (!doc) continue;
    const { performer_ids: performers, venue_id: venue } = doc as { performer_ids?: unknown; venue_id?: unknown };
    if (Array.isArray(performers)) for (const id of performers) tags.push(entityTag('Performer', String(id)));
    if (typeof venue === 'number') tags.push(entityTag('Venue', venue));
  }
  return tags;
}
