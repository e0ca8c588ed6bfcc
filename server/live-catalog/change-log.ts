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

/** The advisory lock writers hold from reading the log to committing their changes (any number no other code uses). */
const WRITERS_LOCK = 22_791_002;
/** Rows per INSERT: one statement per thousand changes keeps an import to a few round trips. */
const INSERT_CHUNK = 1_000;

/**
 * The ordered log of catalog changes in the store (`catalog_changes`), which every node applies in order.
 * Writers take turns under one lock, so sequence numbers commit in order: a reader that has seen change n
 * has seen every change before it, and reading everything after the last applied number never skips one.
 * Each change names the catalog files it was made over (`catalog`, the manifest's `generatedAt`): a catalog
 * generated or imported anew starts from its own files, and the changes to the one before no longer apply.
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
      'SELECT max(seq) AS seq FROM catalog_changes WHERE catalog = $1',
      [catalog],
    );
    return Number(row?.seq ?? 0);
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

  /** Appends changes in order; their sequence numbers, in the same order. */
  async append(changes: readonly Omit<CatalogChange, 'seq'>[]): Promise<number[]> {
    const seqs: number[] = [];
    for (let at = 0; at < changes.length; at += INSERT_CHUNK) {
      const chunk = changes.slice(at, at + INSERT_CHUNK);
      const rows = await this.tx.query<{ seq: string | number }>(
        `INSERT INTO catalog_changes (catalog, collection, doc_id, document, previous)
         SELECT $1, c, i, d::jsonb, p::jsonb
         FROM unnest($2::text[], $3::text[], $4::text[], $5::text[]) WITH ORDINALITY AS t(c, i, d, p, n) ORDER BY n
         RETURNING seq`,
        [
          this.catalog,
          chunk.map((c) => c.collection),
          chunk.map((c) => c.id),
          chunk.map((c) => json(c.document)),
          chunk.map((c) => json(c.previous ?? null)),
        ],
      );
      // RETURNING gives no order of its own; the numbers were drawn in insert order, so sorted they match it.
      seqs.push(...rows.map((r) => Number(r.seq)).sort((a, b) => a - b));
    }
    return seqs;
  }
}

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
    'SELECT seq, collection, doc_id, document, previous FROM catalog_changes ' +
      'WHERE catalog = $1 AND seq > $2 ORDER BY seq LIMIT $3',
    [catalog, seq, limit],
  );
  const parsed = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v) as Doc | null;
  return rows.map((r) => ({
    seq: Number(r.seq),
    collection: r.collection as CollectionName,
    id: r.doc_id,
    document: parsed(r.document),
    previous: parsed(r.previous),
  }));
}

const json = (doc: Doc | null) => (doc ? JSON.stringify(doc) : null);
