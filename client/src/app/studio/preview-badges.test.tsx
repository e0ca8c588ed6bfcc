// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RowResults } from '../../../../shared/schemas/row-results.js';
import type { ExperimentView, StudioStateView } from '../../../../shared/schemas/studio.js';
import { DEFAULT_RANGE } from '../../features/studio/row-results.js';
import { json, mockFetch, urlsOf } from '../../test/fetch-stub.js';
import { PreviewPanel } from './preview-panel.js';

const theme = { primary: '#000', primaryContrast: '#fff', ink: '#111', surface: '#fff', accent: '#333' };
const STATE: StudioStateView = {
  live: null,
  files: [],
  removed: [],
  problems: [],
  skipped: [],
  brands: [{ id: 'base', name: 'Base', theme: { ...theme, logo: '/logo.svg' } }],
  pages: [{ value: 'home', label: 'Home' }],
  me: { id: 'local', name: 'local', grants: [{ brand: '*', role: 'admin' }] },
};

const EXPERIMENT: ExperimentView = {
  key: 'home-layout',
  feature: 'home_layout',
  name: 'Home layout',
  page: 'home',
  hashAttribute: 'id',
  coverage: 1,
  condition: null,
  rule: 'Half and half',
  variations: [
    { index: 0, key: '0', name: 'base', value: 'base', weight: 0.5, file: 'base/explore.json' },
    { index: 1, key: '1', name: 'promos', value: 'promos', weight: 0.5, file: 'base/explore~promos.json' },
  ],
};

const metrics = (impressions: number, clicks: number, purchases: number) => ({
  impressions,
  viewers: impressions,
  clicks,
  ctr: clicks / impressions,
  purchases,
  revenue: purchases * 100,
});
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
      total: metrics(1_000, 50, 4),
      versions: [],
      variations: [
        { variation: 'base', ...metrics(400, 10, 1) },
        { variation: 'promos', ...metrics(600, 40, 3) },
      ],
    },
  ],
  rowsLeftOut: 0,
};

/** The preview's answer: two rows, drawn with no cards (the badges are beside each row's line). */
function preview(url: URL) {
  const variation = url.searchParams.get('variation');
  const row = (id: string) => ({ id, status: 'ok', items: 0, ms: 1, file: 'base/explore.json', via: 'base' });
  return json({
    layout: {
      page: 'explore',
      title: 'Home',
      brand: { id: 'base', name: 'Base' },
      location: { lat: 40.7, lng: -74, city: 'New York', state: 'NY', country: 'US', source: 'default' },
      experiments: [],
      variation: variation === '1' ? 'promos' : 'base',
      rows: [],
    },
    rows: [row('popular'), row('venues')],
    variant: variation === '1' ? 'promos' : null,
    problems: [],
  });
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the preview’s row badges', () => {
  it('show each row’s results: every variation’s in the base page, the column’s own beside a variation', async () => {
    const fetchMock = mockFetch({
      'GET /api/studio/experiments': () => json({ experiments: [EXPERIMENT] }),
      'GET /api/studio/preview': preview,
      'GET /api/studio/rows': () => json(RESULTS),
    });
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <PreviewPanel
          state={STATE}
          target={{ brand: 'base', page: 'home' }}
          onTarget={() => {}}
          range={DEFAULT_RANGE}
        />
      </QueryClientProvider>,
    );
    const badges = (column: HTMLElement) => [...column.querySelectorAll('.row-result-badge')].map((b) => b.textContent);
    const base = await screen.findByRole('article', { name: 'Base page' });
    await waitFor(() =>
      expect(badges(base)).toEqual([
        'Results, all variations 1,000 impressions · 5.0% CTR · 4 purchases',
        'Results, all variations not seen in this range',
      ]),
    );
    expect(urlsOf(fetchMock, '/api/studio/rows').map((u) => u.search)).toEqual(['?brand=base&page=home']);

    fireEvent.change(screen.getByLabelText('Variation'), { target: { value: 'all' } });
    const control = await screen.findByRole('article', { name: /^Variation 0: base/ });
    const promos = await screen.findByRole('article', { name: /^Variation 1: promos/ });
    await waitFor(() =>
      expect(badges(promos)[0]).toBe('Results, variation promos 600 impressions · 6.7% CTR · 3 purchases'),
    );
    await waitFor(() =>
      expect(badges(control)[0]).toBe('Results, variation base 400 impressions · 2.5% CTR · 1 purchase'),
    );
  });
});
