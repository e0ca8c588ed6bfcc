import type { OverrideFile, PageFile } from '../../shared/schemas/segments.js';
import type { RowSpec } from '../../shared/schemas/segment-rows.js';
import { didYouMean } from './did-you-mean.js';

/** Where a row of a merged page came from, for `segments explain`. */
export interface RowOrigin {
  id: string;
  file: string;
  via: 'base' | 'replace' | 'insertBefore' | 'insertAfter' | 'append';
}

export class MergeError extends Error {
  constructor(
    readonly path: (string | number)[],
    message: string,
  ) {
    super(message);
  }
}

/**
 * Applies a brand's override to the page it extends, operation by operation, by stable row id. An operation
 * naming a row that is not there (any more) is an error, never silently skipped.
 */
export function applyOverride(
  base: { page: PageFile; origins: RowOrigin[] },
  override: OverrideFile,
  overrideFile: string,
): { page: PageFile; origins: RowOrigin[] } {
  const rows: RowSpec[] = [...base.page.rows];
  const origins: RowOrigin[] = [...base.origins];
  const indexOf = (id: string, at: number) => {
    const i = rows.findIndex((r) => r.id === id);
    const ids = rows.map((r) => r.id);
    if (i === -1)
      throw new MergeError(
        ['operations', at, 'id'],
        `there is no row "${id}" on the page this extends.${didYouMean(id, ids)} Rows: ${ids.join(', ')}`,
      );
    return i;
  };
  const ensureNew = (row: RowSpec, at: number) => {
    if (rows.some((r) => r.id === row.id))
      throw new MergeError(
        ['operations', at, 'row', 'id'],
        `row id "${row.id}" is already on the page: give the new row an id of its own`,
      );
  };
  override.operations.forEach((op, at) => {
    switch (op.op) {
      case 'remove': {
        const i = indexOf(op.id, at);
        rows.splice(i, 1);
        origins.splice(i, 1);
        break;
      }
      case 'replace': {
        const i = indexOf(op.id, at);
        if (op.row.id !== op.id) ensureNew(op.row, at);
        rows[i] = op.row;
        origins[i] = { id: op.row.id, file: overrideFile, via: 'replace' };
        break;
      }
      case 'insertBefore':
      case 'insertAfter': {
        ensureNew(op.row, at);
        const i = indexOf(op.id, at) + (op.op === 'insertAfter' ? 1 : 0);
        rows.splice(i, 0, op.row);
        origins.splice(i, 0, { id: op.row.id, file: overrideFile, via: op.op });
        break;
      }
      case 'append':
        ensureNew(op.row, at);
        rows.push(op.row);
        origins.push({ id: op.row.id, file: overrideFile, via: 'append' });
        break;
    }
  });
  return { page: { ...base.page, title: override.title ?? base.page.title, rows }, origins };
}
