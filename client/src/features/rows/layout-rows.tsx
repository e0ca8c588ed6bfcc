import { memo, useEffect, useMemo } from 'react';
import type { LayoutRow, RowStatus } from '../../../../shared/schemas/layout.js';
import { reportClientError } from '../../lib/api.js';
import { RowTracking } from './row-events.js';
import { ROW_COMPONENTS } from './rows.js';

type Shape = 'string' | 'number' | 'array';
/** What the row components read of each item (its key, its link, what they call a method on): nothing else. */
const ITEM_SHAPES: { [T in LayoutRow['type']]: Record<string, Shape> } = {
  performers: { id: 'number', url: 'string' },
  events: { id: 'number', url: 'string', badges: 'array' },
  venues: { id: 'number', url: 'string' },
  categories: { slug: 'string', url: 'string', eventCount: 'number' },
  promos: { id: 'number', url: 'string' },
};
/** Every status, spelled out so the compiler holds it to the schema's. */
const STATUSES: Record<RowStatus, true> = { ok: true, empty: true, error: true, timeout: true };

const has = (value: unknown, shape: Shape): boolean =>
  shape === 'array' ? Array.isArray(value) : typeof value === shape;
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

function drawableItems(items: unknown, shapes: Record<string, Shape>): boolean {
  return (
    Array.isArray(items) &&
    items.every((item) => isObject(item) && Object.entries(shapes).every(([key, shape]) => has(item[key], shape)))
  );
}

/**
 * Whether a row can be drawn: a type the registry knows, and the id, title, status and items (and tabs) its
 * component reads. A structural check, not the schema: rows come parsed from the server's own answers (a page it
 * rendered, checked there) or from `LayoutAnswerSchema` (a layout fetched, checked by zod as it came), so this only
 * has to keep what a newer server or a broken row could send from reaching a component.
 */
function isDrawable(raw: unknown): raw is LayoutRow {
  if (!isObject(raw) || typeof raw.type !== 'string' || !Object.hasOwn(ITEM_SHAPES, raw.type)) return false;
  const items = ITEM_SHAPES[raw.type as LayoutRow['type']];
  const framed = (row: Record<string, unknown>) =>
    typeof row.id === 'string' &&
    typeof row.title === 'string' &&
    typeof row.status === 'string' &&
    Object.hasOwn(STATUSES, row.status) &&
    drawableItems(row.items, items);
  if (!framed(raw)) return false;
  if (raw.type !== 'events' || raw.tabs === undefined) return true;
  return Array.isArray(raw.tabs) && raw.tabs.every((tab) => isObject(tab) && framed(tab));
}

/**
 * Keeps each row that can be drawn: a row of a type this client does not know (a newer server, a typo in a
 * segment) or a broken one is skipped and reported, and the rest of the page still renders (RULES 11.11). No zod
 * here: the rows of a page the server rendered draw as the page hydrates, and the first screen carries no schema.
 */
export function parseRows(rows: readonly unknown[]): { rows: LayoutRow[]; skipped: string[] } {
  const parsed: LayoutRow[] = [];
  const skipped: string[] = [];
  for (const raw of rows) {
    if (isDrawable(raw)) parsed.push(raw);
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
