// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../test/fetch-stub.js';
import { sentEvents } from '../../test/events.js';
import { discardEvents, EVENTS_PATH, newPageView } from '../../lib/analytics.js';
import { LayoutRows } from './layout-rows.js';
import { IMPRESSION_DWELL_MS, IMPRESSION_VISIBLE_SHARE, inView } from './row-events.js';

/** A stand-in for the browser's IntersectionObserver: the test says how much of the element is in view. */
class FakeObserver {
  static live: FakeObserver[] = [];
  element: Element | null = null;
  constructor(
    private readonly callback: IntersectionObserverCallback,
    readonly options: IntersectionObserverInit = {},
  ) {}
  observe(element: Element) {
    this.element = element;
    FakeObserver.live.push(this);
  }
  unobserve() {}
  disconnect() {
    FakeObserver.live = FakeObserver.live.filter((o) => o !== this);
  }
  takeRecords() {
    return [];
  }
  /** Reports `ratio` of the element in view, in a screen of 800 px, the element `height` px tall. */
  report(ratio: number, height = 300) {
    const entry = {
      isIntersecting: ratio > 0,
      intersectionRatio: ratio,
      intersectionRect: { height: height * ratio },
      rootBounds: { height: 800 },
      target: this.element,
    } as unknown as IntersectionObserverEntry;
    this.callback([entry], this as unknown as IntersectionObserver);
  }
}

/** The observer of the row with this id. */
function observerOf(rowId: string): FakeObserver {
  const observer = FakeObserver.live.find((o) => o.element?.getAttribute('data-row-id') === rowId);
  if (!observer) throw new Error(`no row ${rowId} is observed`);
  return observer;
}

const source = { file: 'base/explore~promos.json', version: 7 };
const performers = {
  id: 'popular',
  type: 'performers',
  title: 'Popular Local Performers',
  status: 'ok',
  source,
  items: [1, 2].map((id) => ({
    id,
    name: `Performer ${id}`,
    eventCount: '3 Events',
    pathPicture: `/media/performers/${id}.svg`,
    minPrice: 0,
    url: `/performers/performer-${id}`,
  })),
};
const events = {
  id: 'local-events',
  type: 'events',
  title: 'Local Events',
  status: 'ok',
  source: { file: 'base/explore.json', version: 7 },
  items: [7, 8].map((id) => ({
    id,
    name: `Game ${id}`,
    badges: [],
    address: 'Barclays Center, Brooklyn, NY',
    day: 'SAT',
    date: 'Jan 2',
    time: '07:30 PM',
    year: '2027',
    url: `/events/game-${id}`,
  })),
};
const nothingNear = { id: 'nothing-near', type: 'venues', title: 'Local Venues', status: 'empty', items: [] };
const rows = [performers, events, nothingNear];

function renderRows(pageView: string | undefined) {
  const ui = (view: string | undefined) => (
    <MemoryRouter>
      <LayoutRows rows={rows} pageView={view} variation={view === undefined ? undefined : 'promos'} />
    </MemoryRouter>
  );
  const result = render(ui(pageView));
  return { rerender: (view: string | undefined) => result.rerender(ui(view)) };
}

let fetchMock: ReturnType<typeof mockFetch>;
beforeEach(() => {
  vi.useFakeTimers();
  vi.stubGlobal('IntersectionObserver', FakeObserver);
  fetchMock = mockFetch({ [`POST ${EVENTS_PATH}`]: () => new Response(null, { status: 204 }) });
});
afterEach(() => {
  cleanup();
  discardEvents();
  FakeObserver.live = [];
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('row impressions', () => {
  it('records a row half in view for a whole second, with its id, source, place and variation', () => {
    const pageView = newPageView();
    renderRows(pageView);
    expect(observerOf('local-events').options.threshold).toContain(IMPRESSION_VISIBLE_SHARE);
    observerOf('local-events').report(IMPRESSION_VISIBLE_SHARE);
    vi.advanceTimersByTime(IMPRESSION_DWELL_MS - 1);
    expect(sentEvents(fetchMock)).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(sentEvents(fetchMock)).toEqual([
      expect.objectContaining({
        name: 'row_impression',
        pageView,
        rowId: 'local-events',
        source: events.source,
        position: 2,
        variation: 'promos',
      }),
    ]);
  });

  it('does not count a row less than half in view, or one that leaves before the second is over', () => {
    renderRows(newPageView());
    observerOf('popular').report(0.4);
    vi.advanceTimersByTime(IMPRESSION_DWELL_MS * 3);
    observerOf('popular').report(0.8);
    vi.advanceTimersByTime(IMPRESSION_DWELL_MS / 2);
    observerOf('popular').report(0.1);
    observerOf('popular').report(0.8);
    vi.advanceTimersByTime(IMPRESSION_DWELL_MS / 2);
    expect(sentEvents(fetchMock)).toEqual([]);
  });

  it('counts a row once per page view, and again in the next page view', () => {
    const first = newPageView();
    const { rerender } = renderRows(first);
    observerOf('popular').report(1);
    vi.advanceTimersByTime(IMPRESSION_DWELL_MS);
    // Drawn again in the same page view (the page's answer refreshed): already counted.
    rerender(undefined);
    rerender(first);
    observerOf('popular').report(1);
    vi.advanceTimersByTime(IMPRESSION_DWELL_MS);
    const second = newPageView();
    rerender(second);
    observerOf('popular').report(1);
    vi.advanceTimersByTime(IMPRESSION_DWELL_MS);
    expect(sentEvents(fetchMock).map((e) => [e.name, e.rowId, e.pageView])).toEqual([
      ['row_impression', 'popular', first],
      ['row_impression', 'popular', second],
    ]);
  });

  it('watches no row drawn as a note only (nothing near the shopper)', () => {
    renderRows(newPageView());
    expect(screen.getByText(/Nothing here yet/)).toBeTruthy();
    expect(() => observerOf('nothing-near')).toThrow();
    expect(observerOf('popular')).toBeTruthy();
  });

  it('counts a row taller than two screens once it fills half the screen', () => {
    const entry = (ratio: number, rowHeight: number) =>
      ({
        isIntersecting: true,
        intersectionRatio: ratio,
        intersectionRect: { height: rowHeight * ratio },
        rootBounds: { height: 800 },
      }) as unknown as IntersectionObserverEntry;
    // Half of an 800 px screen is 400 px: a fifth of a 2,000 px row.
    expect(inView(entry(0.15, 2_000))).toBe(false);
    expect(inView(entry(0.2, 2_000))).toBe(true);
    expect(inView(entry(0.49, 300))).toBe(false);
    expect(inView(entry(0.5, 300))).toBe(true);
  });
});

describe('row clicks', () => {
  it('records the row and the card a click chose before the link is followed', () => {
    const pageView = newPageView();
    renderRows(pageView);
    fireEvent.click(screen.getByRole('link', { name: /Game 8/ }));
    fireEvent.click(screen.getByRole('link', { name: /Performer 1/ }));
    fireEvent.click(screen.getByRole('heading', { name: 'Local Events' }));
    expect(sentEvents(fetchMock)).toEqual([
      expect.objectContaining({
        name: 'row_click',
        pageView,
        rowId: 'local-events',
        source: events.source,
        position: 2,
        itemPosition: 2,
        item: 'event:8',
        variation: 'promos',
      }),
      expect.objectContaining({
        name: 'row_click',
        rowId: 'popular',
        position: 1,
        itemPosition: 1,
        item: 'performer:1',
      }),
    ]);
  });
});

describe('rows outside a shopper’s page view (the studio’s previews)', () => {
  it('watch nothing and record no click', () => {
    renderRows(undefined);
    expect(FakeObserver.live).toEqual([]);
    fireEvent.click(screen.getByRole('link', { name: /Game 7/ }));
    expect(sentEvents(fetchMock)).toEqual([]);
  });
});
