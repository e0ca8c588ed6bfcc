/**
 * The one SQL interface the stores use. Two implementations run the same SQL: PGlite (PostgreSQL compiled to
 * WebAssembly, in-process, files in the data directory) by default, and a PostgreSQL server via `DATABASE_URL`.
 * A failure that means the database cannot answer right now is thrown as a `StoreUnavailableError`
 * (`store-errors.ts`); anything else is thrown as the driver gave it.
 */
export interface Sql {
  query<R extends Record<string, unknown> = Record<string, unknown>>(text: string, params?: unknown[]): Promise<R[]>;
  /** Runs `fn` in one transaction; it commits when `fn` resolves and rolls back when it throws. */
  transaction<T>(fn: (tx: SqlTx) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  readonly kind: 'pglite' | 'postgres';
  /** Whether the last use reached the database; undefined for a store that cannot tell. */
  health?(): StoreHealth;
}

export interface StoreHealth {
  available: boolean;
  /** Since when it has been in this state (ISO time). */
  since: string;
  detail: string;
}

export type SqlTx = Pick<Sql, 'query'>;
