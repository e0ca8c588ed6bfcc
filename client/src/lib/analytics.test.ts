// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  EventBatchSchema,
  EventIdSchema,
  MAX_EVENT_BATCH_BYTES,
  MAX_EVENTS_PER_BATCH,
  PAGE_VIEW_HEADER,
  type BrowserEvent,
} from '../../../shared/schemas/analytics-events.js';
import { mockFetch } from '../test/fetch-stub.js';
import {
  currentPageView,
  discardEvents,
  EVENTS_PATH,
  flushEvents,
  FLUSH_INTERVAL_MS,
  newPageView,
  noteLayoutExperiments,
  pageViewHeaders,
  track,
  trackExperimentViewed,
  trackPageView,
} from './analytics.js';
import { CLIENT_ID } from './api.js';

function stubEvents() {
  return mockFetch({ [`POST ${EVENTS_PATH}`]: () => new Response(null, { status: 204 }) });
}

/** The events of every batch fetched so far, each batch checked against the server's schema. */
function sentBatches(fetchMock: ReturnType<typeof stubEvents>): BrowserEvent[][] {
  return fetchMock.mock.calls.map(([, init]) => EventBatchSchema.parse(JSON.parse(String(init?.body))).events);
}

const click = (n: number) =>
  track({ name: 'row_click', rowId: 'popular', position: 1, itemPosition: n, item: `performer:${n}` });

function setPrivacy(name: 'globalPrivacyControl' | 'doNotTrack', value: unknown) {
  Object.defineProperty(navigator, name, { value, configurable: true });
}

beforeEach(() => {
  vi.useFakeTimers();
  newPageView();
});
afterEach(() => {
  discardEvents();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  Reflect.deleteProperty(navigator, 'globalPrivacyControl');
  Reflect.deleteProperty(navigator, 'doNotTrack');
  Reflect.deleteProperty(navigator, 'sendBeacon');
  Reflect.deleteProperty(document, 'visibilityState');
});

describe('the event queue', () => {
  it('sends a batch the server was too busy to take again after its Retry-After, and only then', async () => {
    let answers = 0;
    const fetchMock = mockFetch({
      [`POST ${EVENTS_PATH}`]: () =>
        ++answers === 1
          ? new Response('{}', { status: 503, headers: { 'Retry-After': '5' } })
          : new Response(null, { status: 202 }),
    });
    click(1);
    click(2);
    flushEvents();
    await vi.advanceTimersByTimeAsync(4_900);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(200);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    const [first, again] = sentBatches(fetchMock);
    expect(again).toEqual(first);
  });

  it('sends what a page queued together once the flush interval is over, each event named and placed', () => {
    const fetchMock = stubEvents();
    trackPageView('base');
    click(1);
    click(2);
    expect(fetchMock).not.toHaveBeenCalled();
    vi.advanceTimersByTime(FLUSH_INTERVAL_MS);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe(EVENTS_PATH);
    expect(init).toMatchObject({ method: 'POST', keepalive: true });
    const headers = new Headers(init?.headers);
    expect(headers.get('Content-Type')).toBe('application/json');
    expect(headers.get('X-Client-Id')).toBe(CLIENT_ID);
    expect(headers.get('X-Site-Id')).toBeTruthy();
    const [events] = sentBatches(fetchMock);
    expect(events!.map((e) => e.name)).toEqual(['page_view', 'row_click', 'row_click']);
    for (const event of events!) {
      expect(EventIdSchema.safeParse(event.id).success).toBe(true);
      expect(event).toMatchObject({ pageView: currentPageView(), page: location.pathname });
      expect(Number.isInteger(event.at)).toBe(true);
    }
    expect(new Set(events!.map((e) => e.id)).size).toBe(3);
  });

  it('sends a full batch at once and the rest when the interval is over', () => {
    const fetchMock = stubEvents();
    for (let i = 1; i <= MAX_EVENTS_PER_BATCH + 3; i++) click(i);
    expect(sentBatches(fetchMock).map((b) => b.length)).toEqual([MAX_EVENTS_PER_BATCH]);
    vi.advanceTimersByTime(FLUSH_INTERVAL_MS);
    expect(sentBatches(fetchMock).map((b) => b.length)).toEqual([MAX_EVENTS_PER_BATCH, 3]);
    vi.advanceTimersByTime(FLUSH_INTERVAL_MS * 3);
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('splits events as large as the schema allows into batches within the byte limit, losing none', () => {
    const fetchMock = stubEvents();
    const long = (n: number) => 'é'.repeat(n);
    for (let i = 0; i < MAX_EVENTS_PER_BATCH - 1; i++)
      track({
        name: 'row_click',
        rowId: long(100),
        position: 1_000,
        itemPosition: 1_000,
        item: long(100),
        variation: long(100),
        source: { file: long(200), version: 1 },
        experimentId: long(100),
        variationId: long(100),
        reason: long(200),
      });
    flushEvents();
    const bodies = fetchMock.mock.calls.map(([, init]) => String(init?.body));
    expect(bodies.length).toBeGreaterThan(1);
    for (const body of bodies) expect(new TextEncoder().encode(body).length).toBeLessThanOrEqual(MAX_EVENT_BATCH_BYTES);
    expect(sentBatches(fetchMock).flat()).toHaveLength(MAX_EVENTS_PER_BATCH - 1);
  });

  it('sends what is queued by beacon when the page is hidden, and when it is left', async () => {
    const fetchMock = stubEvents();
    const beacon = vi.fn((_url: string, _body: Blob) => true);
    Object.defineProperty(navigator, 'sendBeacon', { value: beacon, configurable: true });
    click(1);
    click(2);
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
    expect(beacon).toHaveBeenCalledTimes(1);
    const [url, blob] = beacon.mock.calls[0]!;
    expect(url).toBe(EVENTS_PATH);
    expect(blob.type).toBe('application/json');
    expect(EventBatchSchema.parse(JSON.parse(await blob.text())).events).toHaveLength(2);

    click(3);
    window.dispatchEvent(new Event('pagehide'));
    expect(beacon).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(FLUSH_INTERVAL_MS);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('drops a batch quietly when the server cannot be reached', async () => {
    const fetchMock = mockFetch({});
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => {});
    click(1);
    expect(() => flushEvents()).not.toThrow();
    await vi.waitFor(() => expect(debug).toHaveBeenCalled());
  });

  it('drops an event the server would refuse, and only that one', () => {
    const fetchMock = stubEvents();
    vi.spyOn(console, 'debug').mockImplementation(() => {});
    track({ name: 'row_click', rowId: 'popular' });
    click(1);
    flushEvents();
    expect(
      sentBatches(fetchMock)
        .flat()
        .map((e) => e.item),
    ).toEqual(['performer:1']);
  });
});

describe('privacy', () => {
  it.each([
    ['Global Privacy Control', 'globalPrivacyControl', true],
    ['Do Not Track', 'doNotTrack', '1'],
  ] as const)('queues and sends nothing with %s on, and gives layout requests no page view', (_, name, value) => {
    const fetchMock = stubEvents();
    const beacon = vi.fn(() => true);
    Object.defineProperty(navigator, 'sendBeacon', { value: beacon, configurable: true });
    setPrivacy(name, value);
    trackPageView('base');
    click(1);
    trackExperimentViewed('search-ab', '1');
    vi.advanceTimersByTime(FLUSH_INTERVAL_MS);
    window.dispatchEvent(new Event('pagehide'));
    expect(fetchMock).not.toHaveBeenCalled();
    expect(beacon).not.toHaveBeenCalled();
    expect(pageViewHeaders()).toEqual({});
  });

  it('queues and sends nothing once the shopper opted out of selling and sharing (RULES 21.4)', () => {
    const fetchMock = stubEvents();
    document.cookie = 'privacyOptOut=1; Path=/';
    try {
      trackPageView('base');
      click(1);
      flushEvents();
      expect(fetchMock).not.toHaveBeenCalled();
      expect(pageViewHeaders()).toEqual({});
    } finally {
      document.cookie = 'privacyOptOut=; Max-Age=0; Path=/';
    }
  });

  it('gives layout requests the page view when tracking is allowed', () => {
    setPrivacy('doNotTrack', '0');
    expect(pageViewHeaders()).toEqual({ [PAGE_VIEW_HEADER]: currentPageView() });
  });
});

describe('page views', () => {
  it('counts the page view event once per page view', () => {
    const fetchMock = stubEvents();
    const first = currentPageView();
    trackPageView('promos');
    trackPageView('promos');
    const second = newPageView();
    trackPageView('base');
    flushEvents();
    expect(
      sentBatches(fetchMock)
        .flat()
        .map((e) => [e.pageView, e.variation]),
    ).toEqual([
      [first, 'promos'],
      [second, 'base'],
    ]);
    expect(second).not.toBe(first);
  });

  it('takes the id the server chose when it is a valid id, and makes its own otherwise', () => {
    expect(newPageView('served-page-view-1')).toBe('served-page-view-1');
    const own = newPageView('not an id!');
    expect(own).not.toBe('not an id!');
    expect(EventIdSchema.safeParse(own).success).toBe(true);
  });
});

describe('exposures', () => {
  it('records an experiment once per page view, but none the page’s layout answer lists', () => {
    const fetchMock = stubEvents();
    noteLayoutExperiments(['home-layout']);
    trackExperimentViewed('home-layout', '1');
    trackExperimentViewed('search-ab', '0');
    trackExperimentViewed('search-ab', '0');
    newPageView();
    trackExperimentViewed('search-ab', '0');
    trackExperimentViewed('home-layout', '1');
    flushEvents();
    expect(
      sentBatches(fetchMock)
        .flat()
        .map((e) => e.experimentId),
    ).toEqual(['search-ab', 'search-ab', 'home-layout']);
  });

  it('takes back an exposure reported before the layout answer that lists it came', () => {
    const fetchMock = stubEvents();
    trackExperimentViewed('home-layout', '1');
    trackExperimentViewed('search-ab', '0');
    noteLayoutExperiments(['home-layout']);
    flushEvents();
    expect(
      sentBatches(fetchMock)
        .flat()
        .map((e) => e.experimentId),
    ).toEqual(['search-ab']);
  });
});
