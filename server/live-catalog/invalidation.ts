import { collectionTag, entityTag, type FastLane } from '../http/fast-lane.js';
import type { LayoutService } from '../layout/layout-service.js';
import type { ChangedDocument } from '../layout/row-scopes.js';
import type { CachedEngine } from '../search/cached-engine.js';
import type { AppliedChange } from './live-catalog.js';

export interface Caches {
  engine: CachedEngine;
  layout: LayoutService;
  fastLane: FastLane;
}

/**
 * A slice's budget in units of work (`LayoutService.dropStale`: a filed request tested against a changed document,
 * a filing removed, a row dropped with what was built from it): about 2 ms on the bench's
 * machine (bench/invalidation.ts), so that invalidation never holds the loop for long (RULES 13.11).
 */
export const SLICE_UNITS = 2_000;
/** A slice also ends once it has run this long, whatever units it has left (a slow or busy machine). */
export const SLICE_MS = 3;
/** The work of forgetting one entity tag (its answers, pages and shared-cache copies), in units. */
const TAG_FORGET_UNITS = 20;
/** Units done between two looks at the clock. */
const CLOCK_EVERY_UNITS = 100;

/**
 * One slice of invalidation: how long it held the loop, the units of work it did and those of its last step (a slice
 * begins no step once it has spent its budget: `units - lastStep` is under it).
 */
export interface SliceReport {
  ms: number;
  /** The process's CPU time meanwhile, in ms: less than `ms` when the machine gave the time to others. */
  cpuMs: number;
  units: number;
  lastStep: number;
}

export interface InvalidatorOptions {
  sliceUnits?: number;
  sliceMs?: number;
  /** Told of every slice, the first (in the turn that applied the changes) included. */
  onSlice?: (report: SliceReport) => void;
}

/**
 * Drops what applied changes make stale, and nothing else (RULES 13.11), without holding the loop for long:
 * - at once, in the turn that applied them, what costs a lookup whatever the caches hold: the engine's results
 *   of the changed collections stop being used (`CachedEngine.expire`), the suggestions and search answers replayed
 *   from those collections are forgotten by tag, and the layout notes the changed documents
 *   (`LayoutService.changed`), so nothing resolved from before the change is kept;
 * - then in slices of `SLICE_UNITS` (or `SLICE_MS`), a turn of the loop each: the entity pages the changes touch
 *   are forgotten by tag (an import's chunk names hundreds), then the layout rows whose searches the documents
 *   (before or after the change) could match are found and dropped, with the answers and pages built from them
 *   (`LayoutService.dropStale`, by tag: row → answers → pages → shared caches). What is built meanwhile is fresh
 *   (the engine no longer answers from before) or is not kept (a page drawn across a forget, a layout answer while
 *   rows remain to drop).
 * Changes applied while slices run join them (the rows' search takes every change noted when it begins): under a
 * stream of changes, as an import sends, the work is coalesced rather than repeated; when the node is idle it begins
 * on the next turn, so a change is not held back by a fixed wait.
 */
export class Invalidator {
  private readonly sliceUnits: number;
  private readonly sliceMs: number;
  private running: Promise<void> | undefined;
  /** The entity tags still to forget (RULES 13.7), a few to a slice. */
  private readonly tags = new Set<string>();

  constructor(
    private readonly caches: () => Caches,
    private readonly options: InvalidatorOptions = {},
  ) {
    this.sliceUnits = options.sliceUnits ?? SLICE_UNITS;
    this.sliceMs = options.sliceMs ?? SLICE_MS;
  }

  /** Drops what `changes` make stale; resolves once every slice has run (changes applied meanwhile included). */
  applied(changes: readonly AppliedChange[]): Promise<void> {
    const began = performance.now();
    const cpu = this.options.onSlice && process.cpuUsage();
    const { engine, layout, fastLane } = this.caches();
    for (const collection of new Set(changes.map((c) => c.collection))) {
      engine.expire(collection);
      fastLane.forget(collectionTag(collection));
    }
    for (const change of changes) for (const tag of entityTagsOf(change)) this.tags.add(tag);
    layout.changed(changes.flatMap(documentsOf));
    if (cpu) this.options.onSlice!({ ms: performance.now() - began, cpuMs: cpuMs(cpu), units: 0, lastStep: 0 });
    return (this.running ??= this.run());
  }

  /** Whether slices are still to run. */
  get pending(): boolean {
    return this.running !== undefined;
  }

  private async run(): Promise<void> {
    for (;;) {
      await new Promise((resolve) => setImmediate(resolve));
      let done: boolean;
      try {
        done = this.slice();
      } catch (err) {
        // A listener failed: this run ends with its error, and the next change starts another where it stopped.
        this.running = undefined;
        throw err;
      }
      if (done) {
        // Cleared in the same turn as the last slice: a change applied after it starts a run of its own.
        this.running = undefined;
        return;
      }
    }
  }

  /** One slice: entity tags to forget first, then the search for stale rows and their dropping; whether all is done. */
  private slice(): boolean {
    const began = performance.now();
    const cpu = this.options.onSlice && process.cpuUsage();
    const { layout, fastLane } = this.caches();
    let units = 0;
    let lastStep = 0;
    let done = false;
    const spent = () => units >= this.sliceUnits || performance.now() - began >= this.sliceMs;
    for (const tag of this.tags) {
      if (spent()) break;
      this.tags.delete(tag);
      fastLane.forget(tag);
      units += lastStep = TAG_FORGET_UNITS;
    }
    while (this.tags.size === 0 && !spent()) {
      const step = layout.dropStale(Math.min(CLOCK_EVERY_UNITS, this.sliceUnits - units));
      units += step.units;
      if (step.units > 0) lastStep = step.lastStep;
      if ((done = step.done)) break;
    }
    if (cpu) this.options.onSlice!({ ms: performance.now() - began, cpuMs: cpuMs(cpu), units, lastStep });
    return done;
  }
}

/** The CPU time since `from`, in ms. */
function cpuMs(from: NodeJS.CpuUsage): number {
  const { user, system } = process.cpuUsage(from);
  return (user + system) / 1000;
}

/** The documents a change touched, as they were and as they are. */
export function documentsOf(change: AppliedChange): ChangedDocument[] {
  return [change.before, change.after ?? undefined].flatMap((document) =>
    document ? [{ collection: change.collection, document }] : [],
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
