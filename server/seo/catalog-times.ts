import type { CollectionName } from '../../shared/schemas/documents.js';
import { AppError } from '../http/errors.js';
import type { Sql } from '../store/sql.js';

/** The collections whose documents have pages in the sitemaps. */
export const PAGED_COLLECTIONS = ['Event', 'Performer', 'Venue'] as const satisfies readonly CollectionName[];
export type PagedCollection = (typeof PAGED_COLLECTIONS)[number];

/** One document's last logged change. */
export interface ChangeTime {
  collection: string;
  id: string;
  at: number;
}

/**
 * When each page's document last changed, for the sitemaps' `<lastmod>`: the time of its last change in the
 * catalog's change log, or, for a document no operator has changed, the time the catalog files were generated
 * or imported (the manifest's `generatedAt`). Only changed documents are kept, one number each.
 */
export class CatalogTimes {
  private base: number | undefined;
  private readonly changed = new Map<string, Map<string, number>>(PAGED_COLLECTIONS.map((c) => [c, new Map()]));
  private latestChange = 0;
  private recording = false;

  /**
   * Names the catalog the engine holds (its manifest's `generatedAt`) and reads the times of the changes logged
   * over it. Changes applied from here on are timed as they are applied (within a sync interval of being logged);
   * those applied before (the start's catch-up) are timed by the log.
   */
  async attach(generatedAt: string, logged: () => Promise<readonly ChangeTime[]>): Promise<void> {
    const base = Date.parse(generatedAt);
    if (Number.isNaN(base)) throw new Error(`the catalog's generatedAt is not a time: ${JSON.stringify(generatedAt)}`);
    for (const times of this.changed.values()) times.clear();
    this.latestChange = 0;
    this.recording = true;
    for (const { collection, id, at } of await logged()) {
      const times = this.changed.get(collection);
      // A change applied while the log was read is timed already, and no earlier than the log has it.
      if (!times || times.has(id)) continue;
      times.set(id, at);
      if (at > this.latestChange) this.latestChange = at;
    }
    this.base = base;
  }

  /** Times changes as they are applied on this node. */
  record(changes: readonly { collection: CollectionName; id: string }[], at = Date.now()): void {
    if (!this.recording) return;
    for (const change of changes) {
      const times = this.changed.get(change.collection);
      if (!times) continue;
      times.set(change.id, at);
      if (at > this.latestChange) this.latestChange = at;
    }
  }

  private get catalogTime(): number {
    if (this.base === undefined)
      throw new AppError(503, 'catalog_unavailable', 'The catalog is still opening; try again in a moment');
    return this.base;
  }

  /** When the document last changed (milliseconds since the epoch). */
  of(collection: PagedCollection, id: string): number {
    return this.changed.get(collection)!.get(id) ?? this.catalogTime;
  }

  /** When any paged document last changed: what a page gathering many of them (a category) last changed by. */
  get latest(): number {
    return Math.max(this.catalogTime, this.latestChange);
  }
}

/**
 * The last change time of each document changed over catalog `catalog`, read from the change log's table
 * (`server/live-catalog/change-log.ts` writes it; `at` is the commit time the store gave each change).
 */
export async function loggedChangeTimes(sql: Pick<Sql, 'query'>, catalog: string): Promise<ChangeTime[]> {
  const rows = await sql.query<{ collection: string; doc_id: string; at: Date | string }>(
    // The changes pruned from the log are folded, each document's last one kept with its time.
    'SELECT collection, doc_id, max(at) AS at FROM (SELECT collection, doc_id, at FROM catalog_changes ' +
      'WHERE catalog = $1 UNION ALL SELECT collection, doc_id, at FROM catalog_folded WHERE catalog = $1) AS c ' +
      'WHERE collection = ANY($2::text[]) GROUP BY collection, doc_id',
    [catalog, [...PAGED_COLLECTIONS]],
  );
  return rows.map((r) => ({ collection: r.collection, id: r.doc_id, at: new Date(r.at).getTime() }));
}
