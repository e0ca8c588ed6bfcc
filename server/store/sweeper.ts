import type { Sql } from './sql.js';

/**
 * How often a node deletes a table's expired rows: the table then holds about a minute's worth beyond its
 * live rows, and a busy node pays for one small DELETE a minute.
 */
const SWEEP_EVERY_MS = 60_000;

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
    private readonly everyMs: number = SWEEP_EVERY_MS,
  ) {}

  maybeSweep(): void {
    const now = Date.now();
    if (now - this.last < this.everyMs) return;
    this.last = now;
    void this.sql.query(this.statement).catch(() => {});
  }
}
