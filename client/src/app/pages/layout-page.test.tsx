// @vitest-environment happy-dom
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, mockFetch, renderAt, usePageTestLifecycle } from '../../features/buying/test-utils.js';
import { LayoutPage } from './layout-page.js';

const layout = {
  page: 'home',
  title: 'Home',
  brand: { id: 'base', name: 'Tickets' },
  location: { lat: 41.88, lng: -87.63, city: 'Chicago', state: 'IL', country: 'US', source: 'coordinates' },
  experiments: [],
  rows: [
    {
      id: 'popular',
      type: 'performers',
      title: 'Popular Local Performers',
      status: 'ok',
      items: [{ id: 1, name: 'Chicago Bulls', eventCount: '9 Events', pathPicture: '/media/performers/1.svg', minPrice: 64, url: '/performers/chicago-bulls-1' }],
    },
  ],
};

usePageTestLifecycle();

describe('layout page', () => {
  it('keeps its skeletons until the rows are in, never showing an empty page in between', async () => {
    // What the page holds after each change to it: skeleton rows, layout rows, or neither.
    const states: string[] = [];
    const observer = new MutationObserver(() => {
      const skeletons = document.querySelectorAll('.row--skeleton').length;
      const rows = document.querySelectorAll('section.row:not(.row--skeleton)').length;
      const state = skeletons ? 'skeletons' : rows ? 'rows' : 'nothing';
      if (states.at(-1) !== state) states.push(state);
    });
    observer.observe(document.body, { subtree: true, childList: true });
    mockFetch({ 'GET /api/layout/home': () => json(layout) });
    renderAt(<LayoutPage kind="home" />);
    expect(await screen.findByRole('heading', { name: 'Popular Local Performers' })).toBeTruthy();
    observer.disconnect();
    expect(states).toEqual(['skeletons', 'rows']);
    expect(screen.getByText('Chicago, IL')).toBeTruthy();
  });
});

describe('choosing a place by ZIP code', () => {
  const place = { lat: 34.05, lng: -118.24, city: 'Los Angeles', state: 'CA', country: 'US', source: 'zip', zip: '90012', market: 'LAX' };

  async function changeTo(zip: string) {
    const { userEvent } = await import('@testing-library/user-event');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Change location' }));
    await user.type(await screen.findByLabelText('ZIP code'), zip);
    await user.click(screen.getByRole('button', { name: 'Show events' }));
  }

  it('tells the shopper about a ZIP code nobody knows and keeps the place they had', async () => {
    const fetchMock = mockFetch({
      'GET /api/layout/home': () => json(layout),
      'GET /api/location': (url) => (url.searchParams.get('zip') === '90012' ? json(place) : json({ error: { code: 'unknown_zip', message: 'ZIP code 00000 is not a US ZIP code we know' } }, 404)),
    });
    renderAt(<LayoutPage kind="home" />);
    await changeTo('00000');
    expect(await screen.findByText('We don’t know ZIP code 00000. Still showing events near Chicago, IL.')).toBeTruthy();
    expect(localStorage.getItem('shopperLocation')).toBeNull();
    expect(fetchMock.mock.calls.some(([u]) => String(u).includes('zip=00000') && String(u).startsWith('/api/layout'))).toBe(false);
  });

  it('moves to a ZIP code it knows', async () => {
    const fetchMock = mockFetch({ 'GET /api/layout/home': () => json(layout), 'GET /api/location': () => json(place) });
    renderAt(<LayoutPage kind="home" />);
    await changeTo('90012');
    await screen.findByRole('button', { name: 'Change location' });
    expect(JSON.parse(localStorage.getItem('shopperLocation') ?? 'null')).toEqual({ zip: '90012' });
    expect(fetchMock.mock.calls.some(([u]) => String(u) === '/api/layout/home?zip=90012')).toBe(true);
  });
});
