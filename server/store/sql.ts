/**
 * The one SQL interface the stores use. Two implementations run the same SQL: PGlite (PostgreSQL compiled to
 * WebAssembly, in-process, files in the data directory) by default, and a PostgreSQL server via `DATABASE_URL`.
 */
export interface Sql {
  query<R extends Record<string, unknown> = Record<string, unknown>>(text: string, params?: unknown[]): Promise<R[]>;
  /** Runs `fn` in one transaction; it commits when `fn` resolves and rolls back when it throws. */
  transaction<T>(fn: (tx: SqlTx) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  readonly kind: 'pglite' | 'postgres';
}

export type SqlTx = Pick<Sql, 'query'>;
