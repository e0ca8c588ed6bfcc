import type { CollectionName } from '../../shared/schemas/documents.js';
import type { ReindexChanges } from '../search/typesense/reindex.js';
import type { Sql, SqlTx } from '../store/sql.js';
import type { Doc } from '../catalog/document-writes.js';

/**
 * One acknowledged change to the catalog: a document as it now stands, or its deletion (`document: null`), with
 * the document it replaced (`previous`, null for a new one), so that every node can tell what it touched.
 */
export interface CatalogChange {
  seq: number;
  collection: CollectionName;
  id: string;
  document: Doc | null;
  previous?: Doc | null;
}

/** What a node has applied of the log, as it last said (`catalog_nodes`). */
export interface NodeProgress {
  node: string;
  applied: number;
  seen: Date;
}

/** One pass of pruning: the changes folded out of the log, and the sequence number the log now starts after. */
export interface Pruned {
  changes: number;
  through: number;
}

/** The advisory lock writers hold from reading the log to committing their changes (any number no other code uses). */
const WRITERS_LOCK = 22_791_002;
/** The advisory lock a pruning node holds, so one node at a time prunes (any number no other code uses). */
const PRUNE_LOCK = 22_791_003;
/** Rows per INSERT: one statement per thousand changes keeps an import to a few round trips. */
const INSERT_CHUNK = 1_000;
/** Changes folded out of the log per transaction: a bounded batch, so pruning never holds the table long. */
export const PRUNE_BATCH = 5_000;

/**
 * The ordered log of catalog changes in the store (`catalog_changes`), which every node applies in order.
 * Writers take turns under one lock, so sequence numbers commit in order: a reader that has seen change n
 * has seen every change before it, and reading everything after the last applied number never skips one.
 * Each change names the catalog files it was made over (`catalog`, the manifest's `generatedAt`): a catalog
 * generated or imported anew starts from its own files, and the changes to the one before no longer apply.
 *
 * The log is pruned behind its nodes (RULES 15.11). Each node records what it has applied (`catalog_nodes`, `record`);
 * changes every node seen lately has applied are folded out of the log into `catalog_folded` (`prune`): the last change
 * of each document, as the document then stood. Reading "after n" reads both, in order: a node at or past the pruned
 * point reads only the log, as before; one behind it (a node starting from the catalog files or an old snapshot, one
 * that was away) first gets every document changed since n as it stood at the pruned point (the snapshot it starts
 * from), then the log after it. Demand signals (`append(…, { demand: true })`) replace the demand change of the same
 * document still in the log, so the log holds at most one of each document's.
 */
export class ChangeLog {
  constructor(private readonly sql: Sql) {}

  /**
   * Runs `fn` as the only writer: inside one transaction holding the writers' lock. What `fn` appends
   * commits with it, or not at all.
   */
  write<T>(catalog: string, fn: (writer: LogWriter) => Promise<T>): Promise<T> {
    return this.sql.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [WRITERS_LOCK]);
      return fn(new LogWriter(tx, catalog));
    });
  }

  /** The log as a reindex replays it: read, and read again with writes held while the aliases move. */
  reindexChanges(): ReindexChanges {
    return {
      after: (catalog, seq, limit) => this.after(catalog, seq, limit),
      exclusive: (catalog, fn) => this.write(catalog, (writer) => fn((seq, limit) => writer.after(seq, limit))),
    };
  }

  /** This log's name, made once with the table: a snapshot with changes folded in says which log they came from. */
  async identity(): Promise<string> {
    const [row] = await this.sql.query<{ id: string }>('SELECT id FROM catalog_log');
    if (!row) throw new Error('the store has no catalog_log row: its migrations did not run');
    return row.id;
  }

  /** The sequence number of the last change to `catalog` (0 when there is none). */
  async lastSeq(catalog: string): Promise<number> {
    const [row] = await this.sql.query<{ seq: string | number | null }>(
      'SELECT greatest((SELECT max(seq) FROM catalog_changes WHERE catalog = $1), ' +
        '(SELECT max(seq) FROM catalog_folded WHERE catalog = $1)) AS seq',
      [catalog],
    );
    return Number(row?.seq ?? 0);
  }

  /**
   * Records that node `node` has applied every change through `applied`, as seen `at` (by default the store's
   * clock, so that nodes whose clocks differ are judged by one).
   */
  async record(node: string, applied: number, at?: Date): Promise<void> {
    await this.sql.query(
      `INSERT INTO catalog_nodes (node_id, applied_seq, seen_at) VALUES ($1, $2, coalesce($3::timestamptz, now()))
       ON CONFLICT (node_id) DO UPDATE SET applied_seq = EXCLUDED.applied_seq, seen_at = EXCLUDED.seen_at`,
      [node, applied, at?.toISOString() ?? null],
    );
  }

  /** The nodes as they last recorded themselves. */
  async nodes(): Promise<NodeProgress[]> {
    const rows = await this.sql.query<{ node_id: string; applied_seq: string | number; seen_at: string | Date }>(
      'SELECT node_id, applied_seq, seen_at FROM catalog_nodes ORDER BY node_id',
    );
    return rows.map((r) => ({ node: r.node_id, applied: Number(r.applied_seq), seen: new Date(r.seen_at) }));
  }

  /** The sequence number the log starts after: changes up to it are folded (0 when none was pruned). */
  async prunedThrough(): Promise<number> {
    const [row] = await this.sql.query<{ pruned_through: string | number }>('SELECT pruned_through FROM catalog_log');
    return Number(row?.pruned_through ?? 0);
  }

  /**
   * Gives the space of pruned and replaced changes back to the store. PostgreSQL's autovacuum and checkpointer do it
   * by themselves; the embedded PGlite runs as a single process with neither. Without the vacuum the table's files
   * would grow with every change ever deleted; without the checkpoint its write-ahead log would keep every segment
   * written since it opened (about 380 MiB a simulated hour at 50 views a second, bench/change-log.ts), in memory
   * or in the data folder: a checkpoint lets it recycle them.
   */
  async reclaim(): Promise<void> {
    if (this.sql.kind !== 'pglite') return;
    await this.sql.query('VACUUM catalog_changes, catalog_folded, catalog_nodes');
    await this.sql.query('CHECKPOINT');
  }

  /**
   * Folds one batch of changes out of the log: at most `batch` of those every node seen in the last `staleMs` has
   * applied (nodes not seen since then no longer hold the log back, and their records go), by the store's clock or
   * `now`. One node prunes at a time: another one pruning already makes this a pass that prunes nothing.
   */
  prune(staleMs: number, now?: Date, batch = PRUNE_BATCH): Promise<Pruned> {
    return this.sql.transaction(async (tx) => {
      const [locked] = await tx.query<{ ok: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS ok', [PRUNE_LOCK]);
      const [log] = await tx.query<{ pruned_through: string | number }>('SELECT pruned_through FROM catalog_log');
      const through = Number(log?.pruned_through ?? 0);
      if (!locked?.ok) return { changes: 0, through };
      await tx.query(
        "DELETE FROM catalog_nodes WHERE seen_at <= coalesce($1::timestamptz, now()) - $2 * interval '1 millisecond'",
        [now?.toISOString() ?? null, staleMs],
      );
      const [bound] = await tx.query<{ n: string | number; upto: string | number | null }>(
        `SELECT count(*) AS n, max(seq) AS upto FROM (
           SELECT seq FROM catalog_changes WHERE seq <= (SELECT min(applied_seq) FROM catalog_nodes)
           ORDER BY seq LIMIT $1
         ) AS b`,
        [batch],
      );
      const changes = Number(bound?.n ?? 0);
      if (changes === 0 || bound?.upto === null || bound?.upto === undefined) return { changes: 0, through };
      const upto = Number(bound.upto);
      // The last change of each document becomes its folded row; the folded row keeps the document from before
      // the first change it stands for.
      await tx.query(
        `WITH moved AS (
           DELETE FROM catalog_changes WHERE seq <= $1
           RETURNING catalog, collection, doc_id, seq, document, previous, at
         ), latest AS (
           SELECT DISTINCT ON (catalog, collection, doc_id) * FROM moved ORDER BY catalog, collection, doc_id, seq DESC
         ), earliest AS (
           SELECT DISTINCT ON (catalog, collection, doc_id) catalog, collection, doc_id, previous
           FROM moved ORDER BY catalog, collection, doc_id, seq
         )
         INSERT INTO catalog_folded (catalog, collection, doc_id, seq, document, previous, at)
         SELECT l.catalog, l.collection, l.doc_id, l.seq, l.document, e.previous, l.at
         FROM latest l JOIN earliest e USING (catalog, collection, doc_id)
         ON CONFLICT (catalog, collection, doc_id) DO UPDATE
           SET seq = EXCLUDED.seq, document = EXCLUDED.document, at = EXCLUDED.at`,
        [upto],
      );
      const next = Math.max(through, upto);
      await tx.query('UPDATE catalog_log SET pruned_through = $1', [next]);
      return { changes, through: next };
    });
  }

  /** Changes to `catalog` after `seq`, in order, at most `limit`. */
  after(catalog: string, seq: number, limit: number): Promise<CatalogChange[]> {
    return readAfter(this.sql, catalog, seq, limit);
  }
}

/** The log as seen by the one writer of a transaction. */
export class LogWriter {
  constructor(
    private readonly tx: SqlTx,
    private readonly catalog: string,
  ) {}

  after(seq: number, limit: number): Promise<CatalogChange[]> {
    return readAfter(this.tx, this.catalog, seq, limit);
  }

  /**
   * Appends changes in order; their sequence numbers, in the same order. Demand signals (`demand`) replace the
   * demand changes of the same documents still in the log: a change holds the whole document, so the later one
   * carries the earlier one's effect, and it keeps the document from before the earliest as its `previous`.
   */
  async append(changes: readonly Omit<CatalogChange, 'seq'>[], options: { demand?: boolean } = {}): Promise<number[]> {
    const demand = options.demand === true;
    const seqs: number[] = [];
    for (let at = 0; at < changes.length; at += INSERT_CHUNK) {
      let chunk = changes.slice(at, at + INSERT_CHUNK);
      if (demand) chunk = await this.replaceDemand(chunk);
      const rows = await this.tx.query<{ seq: string | number }>(
        `INSERT INTO catalog_changes (catalog, collection, doc_id, document, previous, demand)
         SELECT $1, c, i, d::jsonb, p::jsonb, $6
         FROM unnest($2::text[], $3::text[], $4::text[], $5::text[]) WITH ORDINALITY AS t(c, i, d, p, n) ORDER BY n
         RETURNING seq`,
        [
          this.catalog,
          chunk.map((c) => c.collection),
          chunk.map((c) => c.id),
          chunk.map((c) => json(c.document)),
          chunk.map((c) => json(c.previous ?? null)),
          demand,
        ],
      );
      // RETURNING gives no order of its own; the numbers were drawn in insert order, so sorted they match it.
      seqs.push(...rows.map((r) => Number(r.seq)).sort((a, b) => a - b));
    }
    return seqs;
  }

  /** Deletes the demand changes of these documents still in the log; the changes, with the earliest `previous`. */
  private async replaceDemand(changes: readonly Omit<CatalogChange, 'seq'>[]): Promise<Omit<CatalogChange, 'seq'>[]> {
    const removed = await this.tx.query<{
      collection: string;
      doc_id: string;
      seq: string | number;
      previous: unknown;
    }>(
      `DELETE FROM catalog_changes WHERE demand AND catalog = $1
         AND (collection, doc_id) IN (SELECT * FROM unnest($2::text[], $3::text[]))
       RETURNING collection, doc_id, seq, previous`,
      [this.catalog, changes.map((c) => c.collection), changes.map((c) => c.id)],
    );
    if (removed.length === 0) return [...changes];
    const earliest = new Map<string, { seq: number; previous: Doc | null }>();
    for (const r of removed) {
      const key = `${r.collection}\u0000${r.doc_id}`;
      const seq = Number(r.seq);
      if ((earliest.get(key)?.seq ?? Infinity) > seq) earliest.set(key, { seq, previous: parsed(r.previous) });
    }
    // The first change of a document in this batch takes over the replaced one's `previous`.
    return changes.map((c) => {
      const key = `${c.collection}\u0000${c.id}`;
      const replaced = earliest.get(key);
      if (!replaced) return c;
      earliest.delete(key);
      return { ...c, previous: replaced.previous };
    });
  }
}

/**
 * Changes after `seq`, in order: the folded ones first (every document changed since `seq` and pruned since, as it
 * stood at the pruned point), then the log's. One statement, so a pruning pass is seen whole or not at all.
 */
async function readAfter(
  sql: Pick<Sql, 'query'>,
  catalog: string,
  seq: number,
  limit: number,
): Promise<CatalogChange[]> {
  const rows = await sql.query<{
    seq: string | number;
    collection: string;
    doc_id: string;
    document: unknown;
    previous: unknown;
  }>(
    `SELECT seq, collection, doc_id, document, previous FROM catalog_changes WHERE catalog = $1 AND seq > $2
     UNION ALL
     SELECT seq, collection, doc_id, document, previous FROM catalog_folded WHERE catalog = $1 AND seq > $2
     ORDER BY seq LIMIT $3`,
    [catalog, seq, limit],
  );
  return rows.map((r) => ({
    seq: Number(r.seq),
    collection: r.collection as CollectionName,
    id: r.doc_id,
    document: parsed(r.document),
    previous: parsed(r.previous),
  }));
}

const json = (doc: Doc | null) => (doc ? JSON.stringify(doc) : null);
const parsed = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v) as Doc | null;
