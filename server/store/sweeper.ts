import type { Sql } from './sql.js';

/**
 * Deletes a table's expired rows with `statement` (judged by the database's clock, like every node), at most
 * once per `everyMs` however often it is asked, as a side effect of ordinary use. Best effort: a row left
 * behind is harmless (its next use replaces it) and goes next time.
 */
export class ExpiredRowSweeper {
  private last = -Infinity;

  constructor(
    private readonly sql: Sql,
    private readonly statement: string,
    private readonly everyMs: number,
  ) {}

  maybeSweep(): void {
    const now = Date.now();
    if (now - this.last < this.everyMs) return;
    this.last = now;
    void this.sql.query(this.statement).catch(() => {});
  }
}
