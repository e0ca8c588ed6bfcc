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
