// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RowMetrics, RowResults } from '../../../../shared/schemas/row-results.js';
import { apiError, json, mockFetch, urlsOf } from '../../test/fetch-stub.js';
import { badgeMetrics, csvField, DEFAULT_RANGE, rowResultsCsv, type ResultRange } from './row-results.js';
import { RowResultBadge, RowResultsPanel } from './row-results-panel.js';

const m = (impressions: number, viewers: number, clicks: number, purchases: number, revenue: number): RowMetrics => ({
  impressions,
  viewers,
  clicks,
  ctr: impressions > 0 ? clicks / impressions : null,
  purchases,
  revenue,
});

/** Two rows: one with versions and variations, one whose id and variation are what a hostile browser might send. */
const RESULTS: RowResults = {
  brand: 'base',
  page: 'home',
  paths: ['/'],
  since: '2026-10-28T00:00:00.000Z',
  until: '2026-11-27T00:00:00.000Z',
  rows: [
    {
      rowId: 'popular',
      files: ['base/explore.json'],
      position: 1,
      total: m(1_250, 900, 40, 3, 1_234.5),
      versions: [
        { version: 2, ...m(1_000, 700, 30, 2, 1_000) },
        { version: null, ...m(250, 200, 10, 1, 234.5) },
      ],
      variations: [
        { variation: 'base', ...m(600, 450, 20, 1, 234.5) },
        { variation: 'promos', ...m(650, 450, 20, 2, 1_000) },
      ],
    },
    {
      rowId: '=HYPERLINK("x")',
      files: [],
      position: null,
      total: m(0, 0, 1, 0, 0),
      versions: [{ version: 3, ...m(0, 0, 1, 0, 0) }],
      variations: [{ variation: 'spring, "new"\nline', ...m(0, 0, 1, 0, 0) }],
    },
  ],
  rowsLeftOut: 0,
};

const CSV =
  [
    'brand,page,row_id,split,value,impressions,unique_viewers,clicks,ctr,purchases,revenue',
    'base,home,popular,total,,1250,900,40,0.032,3,1234.50',
    'base,home,popular,version,2,1000,700,30,0.03,2,1000.00',
    'base,home,popular,version,unpublished,250,200,10,0.04,1,234.50',
    'base,home,popular,variation,base,600,450,20,0.03333333333333333,1,234.50',
    'base,home,popular,variation,promos,650,450,20,0.03076923076923077,2,1000.00',
    `base,home,"'=HYPERLINK(""x"")",total,,0,0,1,,0,0.00`,
    `base,home,"'=HYPERLINK(""x"")",version,3,0,0,1,,0,0.00`,
    `base,home,"'=HYPERLINK(""x"")",variation,"spring, ""new""\nline",0,0,1,,0,0.00`,
  ].join('\r\n') + '\r\n';

function Panel({ initial = DEFAULT_RANGE }: { initial?: ResultRange }) {
  const [range, setRange] = useState(initial);
  return <RowResultsPanel brand="base" page="home" label="Base’s Home page" range={range} onRange={setRange} />;
}

function renderPanel() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <Panel />
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('rowResultsCsv', () => {
  it('writes a line per row total, version and variation, quoting what needs it and disarming formulas', () => {
    expect(rowResultsCsv(RESULTS)).toBe(CSV);
  });

  it.each([
    ['plain', 'plain'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['cr\rhere', '"cr\rhere"'],
    ['=1+1', "'=1+1"],
    ['+1', "'+1"],
    ['-1', "'-1"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['=a,b', `"'=a,b"`],
    [12.5, '12.5'],
    [null, ''],
  ] as const)('%j → %s', (value, field) => {
    expect(csvField(value)).toBe(field);
  });
});

describe('RowResultsPanel', () => {
  it('shows per row its impressions, viewers, clicks, CTR, purchases, revenue; per version, variation', async () => {
    const fetchMock = mockFetch({ 'GET /api/studio/rows': () => json(RESULTS) });
    renderPanel();
    const table = await screen.findByRole('table', { name: /2 rows of Base’s Home page, 2026-10-28 to 2026-11-26/ });
    expect(urlsOf(fetchMock, '/api/studio/rows')[0]!.search).toBe('?brand=base&page=home');
    const popular = within(table).getByRole('row', { name: /^popular/ });
    expect([...popular.querySelectorAll('td')].map((td) => td.textContent)).toEqual([
      '1,250',
      '900',
      '40',
      '3.2%',
      '3',
      '$1,234.50',
    ]);
    expect(within(table).queryByRole('row', { name: /version 2/ })).toBeNull();
    expect(screen.getByText(/last row click on this brand in the 24 hours before it/)).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Show'), { target: { value: 'version' } });
    const v2 = within(table).getByRole('row', { name: /popular, version 2/ });
    expect(v2.textContent).toMatch(/1,000.*700.*30.*3\.0%.*2.*\$1,000\.00/);
    expect(within(table).getByRole('row', { name: /popular, never published/ }).textContent).toMatch(/250/);

    fireEvent.change(screen.getByLabelText('Show'), { target: { value: 'variation' } });
    expect(within(table).getByRole('row', { name: /popular, variation promos/ }).textContent).toMatch(/650.*3\.1%/);
    expect(within(table).queryByRole('row', { name: /version 2/ })).toBeNull();
  });

  it('asks for the chosen range: a preset, or two days', async () => {
    const fetchMock = mockFetch({ 'GET /api/studio/rows': () => json(RESULTS) });
    renderPanel();
    await screen.findByRole('table');
    fireEvent.change(screen.getByLabelText('Range'), { target: { value: 'last7' } });
    await waitFor(() =>
      expect(urlsOf(fetchMock, '/api/studio/rows').at(-1)!.search).toMatch(
        /^\?brand=base&page=home&since=\d{4}-\d\d-\d\d$/,
      ),
    );
    fireEvent.change(screen.getByLabelText('Range'), { target: { value: 'dates' } });
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-11-01' } });
    fireEvent.change(screen.getByLabelText('To (included)'), { target: { value: '2026-11-15' } });
    await waitFor(() =>
      expect(urlsOf(fetchMock, '/api/studio/rows').at(-1)!.search).toBe(
        '?brand=base&page=home&since=2026-11-01&until=2026-11-15',
      ),
    );
  });

  it('downloads the results as a CSV file named for the brand, page and days', async () => {
    mockFetch({ 'GET /api/studio/rows': () => json(RESULTS) });
    const blobs: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      blobs.push(blob as Blob);
      return 'blob:row-results';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    const names: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download);
    });
    renderPanel();
    await screen.findByRole('table');
    fireEvent.click(screen.getByRole('button', { name: 'Download CSV' }));
    expect(names).toEqual(['row-results-base-home-2026-10-28-to-2026-11-26.csv']);
    expect(blobs).toHaveLength(1);
    expect(blobs[0]!.type).toBe('text/csv;charset=utf-8');
    const bytes = new Uint8Array(await blobs[0]!.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(new TextDecoder().decode(bytes.slice(3))).toBe(CSV);
  });

  it('says why the results could not load, and offers nothing to download', async () => {
    mockFetch({
      'GET /api/studio/rows': () => apiError(400, 'unknown_brand', 'No brand "nope" (brands: base, encore).'),
    });
    renderPanel();
    expect((await screen.findByRole('alert')).textContent).toMatch(/No brand "nope"/);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Download CSV' }).disabled).toBe(true);
  });

  it('says when no row was seen in the range', async () => {
    mockFetch({ 'GET /api/studio/rows': () => json({ ...RESULTS, rows: [] }) });
    renderPanel();
    expect(
      await screen.findByText('No row of Base’s Home page was seen or clicked from 2026-10-28 to 2026-11-26.'),
    ).toBeTruthy();
  });
});

describe('RowResultBadge', () => {
  it('shows a row’s impressions, CTR and purchases, of every variation or of the column’s', () => {
    const row = RESULTS.rows[0]!;
    render(<RowResultBadge metrics={badgeMetrics(row, undefined)} />);
    expect(screen.getByText(/Results, all variations/).parentElement!.textContent).toBe(
      'Results, all variations 1,250 impressions · 3.2% CTR · 3 purchases',
    );
    cleanup();
    render(<RowResultBadge metrics={badgeMetrics(row, 'promos')} variation="promos" />);
    expect(screen.getByText(/Results, variation promos/).parentElement!.textContent).toBe(
      'Results, variation promos 650 impressions · 3.1% CTR · 2 purchases',
    );
    cleanup();
    render(<RowResultBadge metrics={badgeMetrics(undefined, undefined)} />);
    expect(screen.getByText(/not seen in this range/)).toBeTruthy();
    cleanup();
    render(<RowResultBadge metrics={m(1, 1, 0, 1, 5)} />);
    expect(screen.getByText(/1 impression · 0\.0% CTR · 1 purchase$/)).toBeTruthy();
  });
});
