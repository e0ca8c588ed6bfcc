import { useMemo, type CSSProperties, type ReactNode } from 'react';
import type { LayoutRow } from '../../../../shared/schemas/layout.js';
import type { PreviewRowView, PreviewView, StudioStateView } from '../../../../shared/schemas/studio.js';
import { parseRows } from '../../features/rows/layout-rows.js';
import { ROW_COMPONENTS, RowSetLabel } from '../../features/rows/rows.js';

/** A brand's colours as the storefront's styles read them. */
export function brandStyle(theme: StudioStateView['brands'][number]['theme'] | undefined): CSSProperties | undefined {
  return theme
    ? ({
        '--brand': theme.primary,
        '--brand-contrast': theme.primaryContrast,
        '--ink': theme.ink,
        '--surface': theme.surface,
        '--accent': theme.accent,
      } as CSSProperties)
    : undefined;
}

/**
 * A preview's page drawn by the storefront's own row components, under `labelId`'s heading: in the studio with
 * what made each row and how it went (`details`), on a preview link's page as shoppers would see it.
 */
export function PreviewRows({
  preview,
  labelId,
  details,
  badge,
}: {
  preview: PreviewView;
  labelId: string;
  details: boolean;
  /** What the studio shows under a row's details: its results (RULES 18.1). */
  badge?: ((rowId: string) => ReactNode) | undefined;
}) {
  const rows = useMemo(() => parseRows(preview.layout.rows).rows, [preview]);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const { layout } = preview;
  return (
    <>
      <p className="preview__place">
        {layout.title} for {layout.brand.name}, near {layout.location.city || 'you'}
        {layout.location.state ? `, ${layout.location.state}` : ''}
      </p>
      <RowSetLabel value={labelId}>
        {preview.rows.map((meta) => (
          <PreviewRow key={meta.id} meta={meta} row={byId.get(meta.id)} details={details}>
            {details && badge?.(meta.id)}
          </PreviewRow>
        ))}
      </RowSetLabel>
    </>
  );
}

const STATUS_WORDS: Record<PreviewRowView['status'], string> = {
  ok: 'shown',
  empty: 'shown empty',
  timeout: 'timed out',
  error: 'failed',
  hidden: 'hidden: found nothing',
};

function PreviewRow({
  meta,
  row,
  details,
  children,
}: {
  meta: PreviewRowView;
  row: LayoutRow | undefined;
  details: boolean;
  children?: ReactNode;
}) {
  const Row = row ? (ROW_COMPONENTS[row.type] as React.ComponentType<{ row: LayoutRow; eager: boolean }>) : null;
  if (!details && !(Row && row)) return null;
  return (
    <div className={`preview-row preview-row--${meta.status}`}>
      {details && (
        <p className="preview-row__meta">
          <code>{meta.id}</code> <span className={`tag tag--${meta.status}`}>{STATUS_WORDS[meta.status]}</span>
          {' · '}
          {meta.items} item{meta.items === 1 ? '' : 's'}
          {' · '}
          {meta.ms} ms{' · '}
          <span>
            from <code>{meta.file}</code>
            {meta.via !== 'base' && (
              <>
                {' '}
                by <code>{meta.via}</code>
              </>
            )}
          </span>
        </p>
      )}
      {children}
      {Row && row && <Row row={row} eager={false} />}
    </div>
  );
}
