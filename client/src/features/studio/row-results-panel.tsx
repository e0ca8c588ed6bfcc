import { useId, useState } from 'react';
import { ATTRIBUTION_WINDOW_HOURS, type RowMetrics, type RowResults } from '../../../../shared/schemas/row-results.js';
import {
  badgeText,
  count,
  dollars,
  downloadCsv,
  presetRange,
  rangeDays,
  rate,
  type ResultRange,
} from './row-results.js';
import { useRowResults } from './use-studio.js';

type Split = 'total' | 'version' | 'variation';

const PRESETS: { value: ResultRange['preset']; label: string }[] = [
  { value: 'last7', label: 'Last 7 days' },
  { value: 'last30', label: 'Last 30 days' },
  { value: 'last90', label: 'Last 90 days' },
  { value: 'dates', label: 'Between two days' },
];

const SPLITS: { value: Split; label: string }[] = [
  { value: 'total', label: 'Each row’s total' },
  { value: 'version', label: 'Per published version' },
  { value: 'variation', label: 'Per variation' },
];

/** The rule of RULES 18.1 in the merchandiser's words. */
export const ATTRIBUTION_SENTENCE =
  `A purchase counts for the row of the guest’s last row click on this brand in the ${ATTRIBUTION_WINDOW_HOURS} ` +
  'hours before it; a purchase with no row click in those hours counts for no row.';

function Cells({ m }: { m: RowMetrics }) {
  return (
    <>
      <td>{count(m.impressions)}</td>
      <td>{count(m.viewers)}</td>
      <td>{count(m.clicks)}</td>
      <td>{rate(m.ctr)}</td>
      <td>{count(m.purchases)}</td>
      <td>{dollars(m.revenue)}</td>
    </>
  );
}

function RowResultsTable({ results, split, label }: { results: RowResults; split: Split; label: string }) {
  const { first, last } = rangeDays(results);
  if (results.rows.length === 0)
    return (
      <p>
        No row of {label} was seen or clicked from {first} to {last}.
      </p>
    );
  return (
    <table className="row-results__table">
      <caption>
        {results.rows.length} rows of {label}, {first} to {last}
        {results.rowsLeftOut > 0 ? ` (${results.rowsLeftOut} less seen rows left out)` : ''}
      </caption>
      <thead>
        <tr>
          <th scope="col">Row</th>
          <th scope="col">Impressions</th>
          <th scope="col">Unique viewers</th>
          <th scope="col">Clicks</th>
          <th scope="col">CTR</th>
          <th scope="col">Purchases</th>
          <th scope="col">Revenue</th>
        </tr>
      </thead>
      {results.rows.map((row) => {
        const parts =
          split === 'version'
            ? row.versions.map((v) => ({
                key: String(v.version),
                name: v.version === null ? 'never published' : `version ${v.version}`,
                m: v,
              }))
            : split === 'variation'
              ? row.variations.map((v) => ({ key: v.variation, name: `variation ${v.variation}`, m: v }))
              : [];
        return (
          <tbody key={row.rowId}>
            <tr className="row-results__row">
              <th scope="row">
                <code>{row.rowId}</code>
                {split !== 'total' && ' (total)'}
              </th>
              <Cells m={row.total} />
            </tr>
            {parts.map((p) => (
              <tr key={p.key} className="row-results__split">
                <th scope="row">
                  <span className="sr-only">{row.rowId}, </span>
                  {p.name}
                </th>
                <Cells m={p.m} />
              </tr>
            ))}
          </tbody>
        );
      })}
    </table>
  );
}

/**
 * RULES 18.1: the row results of the page the preview shows: per row its impressions, unique viewers, clicks,
 * click-through, purchases and revenue over a range, in total or per version or variation, and as a CSV file.
 */
export function RowResultsPanel({
  brand,
  page,
  label,
  range,
  onRange,
}: {
  brand: string;
  page: string;
  /** The page in words, e.g. "Encore’s Home page". */
  label: string;
  range: ResultRange;
  onRange: (range: ResultRange) => void;
}) {
  const ids = { range: useId(), since: useId(), until: useId(), split: useId() };
  const [split, setSplit] = useState<Split>('total');
  const results = useRowResults(brand, page, range);
  return (
    <section className="studio-panel row-results" aria-labelledby="row-results-heading">
      <h2 id="row-results-heading" tabIndex={-1}>
        Row results
      </h2>
      <p>
        How each row of {label} (the page the preview shows) did with shoppers, over whole days in UTC.{' '}
        {ATTRIBUTION_SENTENCE}
      </p>
      <div className="row-results__controls">
        <div>
          <label htmlFor={ids.range}>Range</label>
          <select
            id={ids.range}
            value={range.preset}
            onChange={(e) =>
              onRange(
                e.target.value === 'dates'
                  ? { preset: 'dates', since: range.since, until: range.until }
                  : presetRange(e.target.value as ResultRange['preset']),
              )
            }
          >
            {PRESETS.map((p) => (
              <option key={p.value} value={p.value}>
                {p.label}
              </option>
            ))}
          </select>
        </div>
        {range.preset === 'dates' && (
          <>
            <div>
              <label htmlFor={ids.since}>From</label>
              <input
                id={ids.since}
                type="date"
                value={range.since}
                onChange={(e) => onRange({ ...range, since: e.target.value })}
              />
            </div>
            <div>
              <label htmlFor={ids.until}>To (included)</label>
              <input
                id={ids.until}
                type="date"
                value={range.until}
                onChange={(e) => onRange({ ...range, until: e.target.value })}
              />
            </div>
          </>
        )}
        <div>
          <label htmlFor={ids.split}>Show</label>
          <select id={ids.split} value={split} onChange={(e) => setSplit(e.target.value as Split)}>
            {SPLITS.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
        </div>
        <button
          type="button"
          disabled={!results.data}
          onClick={() => {
            if (results.data) downloadCsv(results.data);
          }}
        >
          Download CSV
        </button>
      </div>
      {results.isPending && <p>Reading the row results…</p>}
      {results.isError && <p role="alert">The row results could not load: {results.error.message}</p>}
      {results.data && <RowResultsTable results={results.data} split={split} label={label} />}
    </section>
  );
}

/**
 * RULES 18.1: a preview row's results, its impressions, click-through and purchases over the chosen range: of the
 * variation its column shows, or of every variation in the base column.
 */
export function RowResultBadge({ metrics, variation }: { metrics: RowMetrics | undefined; variation?: string }) {
  const scope = variation === undefined ? 'all variations' : `variation ${variation}`;
  return (
    <p className="row-result-badge">
      <span className="tag">Results, {scope}</span> {metrics ? badgeText(metrics) : 'not seen in this range'}
    </p>
  );
}
