import { memo, useEffect, useMemo } from 'react';
import type { LayoutRow } from '../../../../shared/schemas/layout.js';
import { LayoutRowSchema } from '../../../../shared/schemas/layout.js';
import { reportClientError } from '../../lib/api.js';
import { RowTracking } from './row-events.js';
import { ROW_COMPONENTS } from './rows.js';

/**
 * Parses each row on its own: a row of a type this client does not know (a newer server, a typo in a
 * segment) is skipped and reported, and the rest of the page still renders.
 */
export function parseRows(rows: readonly unknown[]): { rows: LayoutRow[]; skipped: string[] } {
  const parsed: LayoutRow[] = [];
  const skipped: string[] = [];
  for (const raw of rows) {
    const result = LayoutRowSchema.safeParse(raw);
    if (result.success) parsed.push(result.data);
    else skipped.push(String((raw as { type?: unknown } | null)?.type ?? 'unknown'));
  }
  return { rows: parsed, skipped };
}

/** The row types that draw pictures (cards with an image). */
const PICTURE_ROWS: ReadonlySet<string> = new Set(['performers', 'categories', 'promos']);
/** How many picture rows load their pictures at once, among how many first rows. */
const EAGER_PICTURE_ROWS = 2;
const EAGER_WITHIN_ROWS = 3;

export interface LayoutRowsProps {
  rows: readonly unknown[];
  /** The page view and the layout's variation the rows' events are recorded under; none without both. */
  pageView?: string;
  variation?: string;
}

/** Memoised: while newer rows render in a transition, the page re-renders with the same rows for nothing. */
export const LayoutRows = memo(function LayoutRows({ rows: raw, pageView, variation }: LayoutRowsProps) {
  const { rows, skipped } = useMemo(() => parseRows(raw), [raw]);
  useEffect(() => {
    for (const type of skipped) reportClientError(new Error(`unknown row type "${type}"`), 'layout');
  }, [skipped]);
  // The pictures of the first two rows that have any are loaded at once: on a phone both are on the first
  // screen, and the largest paint is one of them (a lazy image there waits for layout before it is asked for).
  let pictureRows = 0;
  return (
    <>
      {rows.map((row, i) => {
        const Row = ROW_COMPONENTS[row.type] as React.ComponentType<{ row: LayoutRow; eager: boolean }>;
        const eager = i < EAGER_WITHIN_ROWS && PICTURE_ROWS.has(row.type) && pictureRows++ < EAGER_PICTURE_ROWS;
        const tracking =
          pageView !== undefined && variation !== undefined ? { pageView, variation, position: i + 1 } : null;
        return (
          <RowTracking key={row.id} value={tracking}>
            <Row row={row} eager={eager} />
          </RowTracking>
        );
      })}
    </>
  );
});
