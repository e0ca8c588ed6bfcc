import type { Logger } from 'pino';
import type { CollectionName } from '../../../schemas/documents.js';
import { AppError } from '../../http/errors.js';
import type { CatalogChange, ChangeLog } from './change-log.js';
import { prepareWrite, type DirtyValues, type Doc, type PreparedWrite, type RefusedWrite, type WriteAction } from './document-writes.js';

/**
 * How often each node reads the change log for changes other nodes made. Issue 16 asks for a change to show
 * on every node within 2 s; half a second leaves room for applying it and for the caches it clears.
 */
export const SYNC_INTERVAL_MS = 500;
/** Changes read from the log at once. */
const READ_CHUNK = 5_000;
/** Changes applied to the engine between yields to the event loop, so an import never stalls the pages. */
const APPLY_CHUNK = 250;

/** The engine the catalog is applied to (the embedded engine, or any that can be written one document at a time). */
export interface CatalogEngine {
  upsert(collection: CollectionName, doc: Doc): void;
  delete(collection: CollectionName, id: string): boolean;
  document(collection: CollectionName, id: string): Doc | undefined;
}

/** A change as applied on this node, with the document it replaced, so caches can tell what it touched. */
export interface AppliedChange {
  collection: CollectionName;
  id: string;
  before: Doc | undefined;
  after: Doc | null;
}

export interface LiveCatalogDeps {
  log: ChangeLog;
  /** The engine to apply changes to (a 503 while the catalog is still opening). */
  engine: () => CatalogEngine;
  /** Called after each chunk of changes is applied (cache invalidation). */
  onApplied: (changes: readonly AppliedChange[]) => void;
  logger: Logger;
}

/** One line of an import: the JSON text as sent, and what it parsed to (undefined: it did not parse). */
export interface WriteItem {
  text: string;
  value: unknown;
}

/**
 * The catalog as operators change it while the storefront serves. A write is prepared against the documents as
 * they stand (Typesense's semantics, `document-writes.ts`), appended to the change log, and acknowledged only
 * once the log has committed it; then it is applied here. Every node applies the log in order, its own
 * writes and others' alike (`sync`, every `SYNC_INTERVAL_MS`), so each converges on the same catalog; a
 * restart applies the whole log again over the catalog files, and applying a change twice leaves the same state.
 */
export class LiveCatalog {
  /** The sequence number of the last change applied here. */
  private applied = 0;
  /** The catalog files the engine was filled from (their manifest's `generatedAt`), once opened. */
  private base: string | undefined;
  /** Writes and syncs run one at a time on a node, in order. */
  private queue: Promise<unknown> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly deps: LiveCatalogDeps) {}

  get appliedThrough(): number {
    return this.applied;
  }

  /**
   * Names the catalog files the engine now holds; the changes made over them are the ones applied, after
   * `through` when the engine already includes those (folded into its snapshot).
   */
  attach(base: string, through = 0): void {
    this.base = base;
    this.applied = through;
  }

  private get catalog(): string {
    if (this.base === undefined) throw new AppError(503, 'catalog_unavailable', 'The catalog is still opening; try again in a moment');
    return this.base;
  }

  /** Applies every change logged after the last one applied here; how many there were. */
  sync(): Promise<number> {
    return this.serial(() => this.catchUp((seq, limit) => this.deps.log.after(this.catalog, seq, limit)));
  }

  /** Syncs every `SYNC_INTERVAL_MS` until `stop`; a store that cannot answer is tried again on the next tick. */
  start(intervalMs = SYNC_INTERVAL_MS): void {
    this.timer ??= setInterval(() => {
      this.sync().catch((err: unknown) => this.deps.logger.warn({ err }, 'catalog sync failed; retrying'));
    }, intervalMs).unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** The document as this node has it. */
  document(collection: CollectionName, id: string): Doc | undefined {
    return this.deps.engine().document(collection, id);
  }

  /**
   * Writes documents in order, each against the catalog as the lines before it left it; one outcome per item.
   * The accepted ones are durable when this resolves; it rejects (and nothing is written) when the store fails.
   */
  write(collection: CollectionName, action: WriteAction, items: readonly WriteItem[], dirty?: DirtyValues): Promise<(PreparedWrite | RefusedWrite)[]> {
    return this.commit(collection, items.length, (i, current) => {
      const value = items[i]!.value;
      return value === undefined ? { ok: false, code: 400, error: 'Bad JSON: the line is not valid JSON.' } : prepareWrite(collection, action, value, current, dirty);
    });
  }

  /** Deletes a document: the document deleted, or undefined when there was none. */
  async delete(collection: CollectionName, id: string): Promise<Doc | undefined> {
    const [outcome] = await this.commit(
      collection,
      1,
      (_i, current) => {
        const existing = current(id);
        return existing ? { ok: true, id, document: existing, replaced: true } : { ok: false, code: 404, error: `Could not find a document with id: ${id}` };
      },
      true,
    );
    return outcome?.ok ? outcome.document : undefined;
  }

  /**
   * Prepares writes as the only writer (under the log's lock, after applying what others committed first),
   * appends the accepted ones (as deletions with `deleting`), and applies them here once committed.
   */
  private commit(
    collection: CollectionName,
    count: number,
    prepare: (i: number, current: (id: string) => Doc | undefined) => PreparedWrite | RefusedWrite,
    deleting = false,
  ): Promise<(PreparedWrite | RefusedWrite)[]> {
    return this.serial(async () => {
      const { outcomes, changes } = await this.deps.log.write(this.catalog, async (writer) => {
        await this.catchUp((seq, limit) => writer.after(seq, limit));
        // Later items see earlier ones: two lines with one id behave as two requests in a row.
        const pending = new Map<string, Doc | null>();
        const engine = this.deps.engine();
        const current = (id: string) => (pending.has(id) ? (pending.get(id) ?? undefined) : engine.document(collection, id));
        const outcomes: (PreparedWrite | RefusedWrite)[] = [];
        const accepted: Omit<CatalogChange, 'seq'>[] = [];
        for (let i = 0; i < count; i++) {
          const outcome = prepare(i, current);
          outcomes.push(outcome);
          if (!outcome.ok) continue;
          const document = deleting ? null : outcome.document;
          pending.set(outcome.id, document);
          accepted.push({ collection, id: outcome.id, document });
        }
        const seqs = accepted.length > 0 ? await writer.append(accepted) : [];
        return { outcomes, changes: accepted.map((c, i): CatalogChange => ({ ...c, seq: seqs[i]! })) };
      });
      await this.apply(changes);
      return outcomes;
    });
  }

  private async catchUp(after: (seq: number, limit: number) => Promise<CatalogChange[]>): Promise<number> {
    let count = 0;
    for (;;) {
      const changes = await after(this.applied, READ_CHUNK);
      if (changes.length === 0) return count;
      await this.apply(changes);
      count += changes.length;
    }
  }

  /** Applies changes in log order, a chunk per turn of the event loop. */
  private async apply(changes: readonly CatalogChange[]): Promise<void> {
    const { onApplied } = this.deps;
    const engine = this.deps.engine();
    for (let at = 0; at < changes.length; at += APPLY_CHUNK) {
      if (at > 0) await new Promise((resolve) => setImmediate(resolve));
      const applied: AppliedChange[] = [];
      for (const change of changes.slice(at, at + APPLY_CHUNK)) {
        if (change.seq <= this.applied) continue;
        const before = engine.document(change.collection, change.id);
        if (change.document) engine.upsert(change.collection, change.document);
        else engine.delete(change.collection, change.id);
        this.applied = change.seq;
        applied.push({ collection: change.collection, id: change.id, before, after: change.document });
      }
      if (applied.length > 0) onApplied(applied);
    }
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => {});
    return run;
  }
}
