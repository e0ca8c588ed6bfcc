import type { RowMetrics, RowResult, RowResults } from '../../../../shared/schemas/row-results.js';

/** The range of the row results: the last days up to now, or from one day to another (both whole days, UTC). */
export interface ResultRange {
  preset: 'last7' | 'last30' | 'last90' | 'dates';
  /** `YYYY-MM-DD`, or empty: the server's default (the last 30 days). */
  since: string;
  /** `YYYY-MM-DD`, or empty: up to now. */
  until: string;
}

export const DEFAULT_RANGE: ResultRange = { preset: 'last30', since: '', until: '' };

const DAY_MS = 86_400_000;

/** The range of a preset chosen now: the last 7 or 90 days start that many days ago; the last 30 are the default. */
export function presetRange(preset: ResultRange['preset'], now = new Date()): ResultRange {
  if (preset === 'last30' || preset === 'dates') return { ...DEFAULT_RANGE, preset };
  const days = preset === 'last7' ? 7 : 90;
  return { preset, since: new Date(now.getTime() - days * DAY_MS).toISOString().slice(0, 10), until: '' };
}

/** `brand=base&page=home[&since=…][&until=…]`: the query of `GET /api/studio/rows`. */
export function rowResultsQuery(brand: string, page: string, range: ResultRange): string {
  return new URLSearchParams({
    brand,
    page,
    ...(range.since ? { since: range.since } : {}),
    ...(range.until ? { until: range.until } : {}),
  }).toString();
}

export const count = (n: number) => n.toLocaleString('en-US');
export const rate = (x: number | null) => (x === null ? '–' : `${(x * 100).toFixed(1)}%`);
export const dollars = (x: number) => x.toLocaleString('en-US', { style: 'currency', currency: 'USD' });
const plural = (n: number, word: string) => `${count(n)} ${word}${n === 1 ? '' : 's'}`;

/** A preview row's badge: its impressions, click-through and purchases. */
export const badgeText = (m: RowMetrics) =>
  `${plural(m.impressions, 'impression')} · ${rate(m.ctr)} CTR · ${plural(m.purchases, 'purchase')}`;

/** The numbers a preview column's row shows: its variation's when the column forces one, else the row's total. */
export function badgeMetrics(result: RowResult | undefined, variation: string | undefined): RowMetrics | undefined {
  if (!result) return undefined;
  return variation === undefined ? result.total : result.variations.find((v) => v.variation === variation);
}

/**
 * One CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break, its quotes doubled. Text that a
 * spreadsheet would run as a formula (starting `=`, `+`, `-`, `@`, a tab or a carriage return) is kept as text
 * with a leading `'`: a row id or a variation is whatever a browser sent.
 */
export function csvField(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export const CSV_HEADER = [
  'brand',
  'page',
  'row_id',
  'split',
  'value',
  'impressions',
  'unique_viewers',
  'clicks',
  'ctr',
  'purchases',
  'revenue',
] as const;

/**
 * The page's row results as CSV (RFC 4180, CRLF line ends): per row its total, then one line per published
 * version (`unpublished` for a set never published) and one per variation.
 */
export function rowResultsCsv(results: RowResults): string {
  const lines: (string | number | null)[][] = [[...CSV_HEADER]];
  const line = (row: RowResult, split: string, value: string, m: RowMetrics) =>
    lines.push([
      results.brand,
      results.page,
      row.rowId,
      split,
      value,
      m.impressions,
      m.viewers,
      m.clicks,
      m.ctr,
      m.purchases,
      m.revenue.toFixed(2),
    ]);
  for (const row of results.rows) {
    line(row, 'total', '', row.total);
    for (const v of row.versions) line(row, 'version', v.version === null ? 'unpublished' : String(v.version), v);
    for (const v of row.variations) line(row, 'variation', v.variation, v);
  }
  return lines.map((fields) => fields.map(csvField).join(',')).join('\r\n') + '\r\n';
}

/** The first and the last day a range covers (`until` is the end, not counted: midnight ends the day before). */
export const rangeDays = (results: Pick<RowResults, 'since' | 'until'>) => ({
  first: results.since.slice(0, 10),
  last: new Date(Date.parse(results.until) - 1).toISOString().slice(0, 10),
});

/** `row-results-base-home-2026-10-28-to-2026-11-27.csv` */
export function csvFileName(results: RowResults): string {
  const { first, last } = rangeDays(results);
  return `row-results-${results.brand}-${results.page}-${first}-to-${last}.csv`;
}

/** Saves the results as a CSV file through the browser's download. */
export function downloadCsv(results: RowResults): void {
  // The byte order mark lets spreadsheets read the file as UTF-8.
  const blob = new Blob(['\uFEFF', rowResultsCsv(results)], { type: 'text/csv;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = csvFileName(results);
  document.body.append(link);
  link.click();
  link.remove();
  // The download has taken the file by then.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
