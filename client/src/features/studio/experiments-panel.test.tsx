// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ExperimentResults } from '../../../../shared/schemas/experiment-results.js';
import { json, mockFetch, urlsOf } from '../../test/fetch-stub.js';
import { ExperimentsPanel } from './experiments-panel.js';

const list = {
  experiments: [
    { key: 'home-layout', feature: 'home_layout', name: 'Home layout', variations: [] },
    { key: 'ab-search', feature: 'isABSearch', name: null, variations: [] },
  ],
};

function results(flagged: boolean): ExperimentResults {
  const arm = (id: string, name: string, users: number, purchasers: number) => ({
    id,
    name,
    weight: 0.5,
    users,
    purchasers,
    conversionRate: purchasers / users,
    conversionInterval: { low: 0.03, high: 0.05 },
    revenue: purchasers * 100,
    revenuePerUser: (purchasers * 100) / users,
    lift: id === '0' ? null : { relative: 0.25, low: 0.089, high: 0.411, pValue: 0.002 },
    revenueLift: null,
    firstExposure: '2026-11-01T10:00:00.000Z',
    lastExposure: '2026-11-20T10:00:00.000Z',
  });
  return {
    experiment: 'home-layout',
    feature: 'home_layout',
    since: null,
    variations: [arm('0', 'base', 10_000, 400), arm('1', 'promos', flagged ? 9_500 : 10_000, 500)],
    srm: { chiSquare: flagged ? 12.8 : 0, pValue: flagged ? 0.000343 : 1, flagged },
    multipleExposures: 0,
    firstExposure: '2026-11-01T10:00:00.000Z',
    lastExposure: '2026-11-20T10:00:00.000Z',
  };
}

function renderPanel() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <ExperimentsPanel />
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('ExperimentsPanel', () => {
  it('shows each variation’s guests, conversion and lift with its interval, the first experiment first', async () => {
    mockFetch({
      'GET /api/studio/experiments/results': () => json(list),
      'GET /api/studio/experiments/home-layout/results': () => json(results(false)),
    });
    renderPanel();
    const table = await screen.findByRole('table', { name: /home-layout: 20000 guests exposed/ });
    const promos = within(table).getByRole('row', { name: /promos/ });
    expect(promos.textContent).toMatch(/10000.*500.*5\.00%.*\+25\.0% \(\+8\.9% to \+41\.1%\)/);
    expect(within(table).getByRole('row', { name: /base/ }).textContent).toMatch(/control/);
    expect(screen.getByText(/The split matches the weights/)).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('warns of a sample-ratio mismatch, and asks again for another experiment and a start day', async () => {
    const fetchMock = mockFetch({
      'GET /api/studio/experiments/results': () => json(list),
      'GET /api/studio/experiments/home-layout/results': () => json(results(true)),
      'GET /api/studio/experiments/ab-search/results': () => json({ ...results(false), experiment: 'ab-search' }),
    });
    renderPanel();
    expect((await screen.findByRole('alert')).textContent).toMatch(/Sample ratio mismatch \(p = 0\.000343\)/);
    fireEvent.change(screen.getByLabelText('Experiment'), { target: { value: 'ab-search' } });
    await screen.findByRole('table', { name: /^ab-search/ });
    fireEvent.change(screen.getByLabelText('Exposed since'), { target: { value: '2026-11-10' } });
    await vi.waitFor(() =>
      expect(urlsOf(fetchMock, '/api/studio/experiments/ab-search').map((u) => u.search)).toContain(
        '?since=2026-11-10',
      ),
    );
  });
});
