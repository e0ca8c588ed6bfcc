// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { StrictMode } from 'react';
import { MemoryRouter, useNavigate } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../test/fetch-stub.js';
import { sentEvents } from '../test/events.js';
import { currentPageView, discardEvents, EVENTS_PATH } from '../lib/analytics.js';
import { PageContext } from './page-context.js';
import { isLayoutPath, usePageViews } from './page-views.js';

/** The shell's page views, and a button for each move the test makes. */
function Shell() {
  usePageViews();
  const navigate = useNavigate();
  const moves: [string, string, boolean][] = [
    ['performer', '/performers/knicks-3', false],
    ['filter', '/performers/knicks-3?page=2', true],
    ['category', '/category/nfl', false],
  ];
  return moves.map(([name, to, replace]) => (
    <button key={name} type="button" onClick={() => void navigate(to, { replace })}>
      {name}
    </button>
  ));
}
const go = (name: string) => fireEvent.click(screen.getByRole('button', { name }));

function start(route: string) {
  const fetchMock = mockFetch({ [`POST ${EVENTS_PATH}`]: () => new Response(null, { status: 204 }) });
  render(
    <StrictMode>
      <PageContext value={{ origin: 'http://localhost', status: 200 }}>
        <MemoryRouter initialEntries={[route]}>
          <Shell />
        </MemoryRouter>
      </PageContext>
    </StrictMode>,
  );
  return fetchMock;
}

afterEach(() => {
  cleanup();
  discardEvents();
  vi.unstubAllGlobals();
});

describe('page views', () => {
  it('starts one at the first page and at each move to another page, recording those without a layout', () => {
    const fetchMock = start('/events/knicks-at-nets-7');
    const first = currentPageView();
    go('performer');
    const second = currentPageView();
    // A filter written into the address in place is the same page view.
    go('filter');
    expect(currentPageView()).toBe(second);
    // A layout page records its own page view, once its answer has come.
    go('category');
    const third = currentPageView();
    expect(new Set([first, second, third]).size).toBe(3);
    expect(sentEvents(fetchMock).map((e) => [e.name, e.pageView, e.variation])).toEqual([
      ['page_view', first, 'base'],
      ['page_view', second, 'base'],
    ]);
  });
});

describe('the layout pages', () => {
  it('knows the home and category pages as layout pages', () => {
    expect(['/', '/category/nfl', '/category/nfl/'].every(isLayoutPath)).toBe(true);
    expect(['/category', '/category/nfl/teams', '/events/x-1', '/faq'].some(isLayoutPath)).toBe(false);
  });
});
