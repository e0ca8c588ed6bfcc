// @vitest-environment happy-dom
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { useNavigate } from 'react-router';
import { describe, expect, it } from 'vitest';
import { apiError, json, mockFetch } from '../../test/fetch-stub.js';
import { renderAt, setUpPageTests } from '../../test/render-page.js';
import { callQueryKey, queryText } from '../../../../shared/schemas/api-calls.js';
import { PAGE_VIEW_HEADER } from '../../../../shared/schemas/analytics-events.js';
import { EVENTS_PATH, newPageView, trackExperimentViewed } from '../../lib/analytics.js';
import { sentEvents } from '../../test/events.js';
import { gbForceVariations, layoutPageParams } from '../../lib/flags.js';
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
      items: [
        {
          id: 1,
          name: 'Chicago Bulls',
          eventCount: '9 Events',
          pathPicture: '/media/performers/1.svg',
          minPrice: 64,
          url: '/performers/chicago-bulls-1',
        },
      ],
    },
  ],
};

setUpPageTests();

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
  const place = {
    lat: 34.05,
    lng: -118.24,
    city: 'Los Angeles',
    state: 'CA',
    country: 'US',
    source: 'zip',
    zip: '90012',
    market: 'LAX',
  };

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
      'GET /api/location': (url) =>
        url.searchParams.get('zip') === '90012'
          ? json(place)
          : json({ error: { code: 'unknown_zip', message: 'ZIP code 00000 is not a US ZIP code we know' } }, 404),
    });
    renderAt(<LayoutPage kind="home" />);
    await changeTo('00000');
    expect(
      await screen.findByText('We don’t know ZIP code 00000. Still showing events near Chicago, IL.'),
    ).toBeTruthy();
    expect(document.cookie).not.toContain('shopperLocation');
    expect(
      fetchMock.mock.calls.some(([u]) => String(u).includes('zip=00000') && String(u).startsWith('/api/layout')),
    ).toBe(false);
  });

  it('moves to a ZIP code it knows', async () => {
    const fetchMock = mockFetch({ 'GET /api/layout/home': () => json(layout), 'GET /api/location': () => json(place) });
    renderAt(<LayoutPage kind="home" />);
    await changeTo('90012');
    await screen.findByRole('button', { name: 'Change location' });
    // Kept in a cookie, so the server draws the next page for the same place.
    expect(document.cookie).toContain('shopperLocation=90012');
    expect(fetchMock.mock.calls.some(([u]) => String(u) === '/api/layout/home?zip=90012')).toBe(true);
  });
});

describe("the page URL's experiment override (GrowthBook's ?<experiment-key>=<index>)", () => {
  const layoutCalls = (fetchMock: ReturnType<typeof mockFetch>) =>
    fetchMock.mock.calls.map(([u]) => String(u)).filter((u) => u.startsWith('/api/layout/'));

  it("goes with the layout request, without the page URL's own place, brand or tracking parameters", async () => {
    const fetchMock = mockFetch({ 'GET /api/layout/home': () => json(layout) });
    renderAt(<LayoutPage kind="home" />, { route: '/?home-layout=1&zip=10001&utm_source=mail&brand=encore' });
    await screen.findByRole('heading', { name: 'Popular Local Performers' });
    expect(layoutCalls(fetchMock)).toEqual(['/api/layout/home?home-layout=1']);
  });

  it(
    'says what an address asks for that it cannot show (a variation that does ' + 'not exist), with a way home',
    async () => {
      const message = 'home-layout: experiment "home-layout" has variations 0 to 1, not "7"';
      mockFetch({ 'GET /api/layout/home': () => apiError(400, 'invalid_request', message) });
      renderAt(<LayoutPage kind="home" />, { route: '/?home-layout=7' });
      expect((await screen.findByRole('alert')).textContent).toBe(
        `This address asks for something the page cannot show: ${message}. See the home page`,
      );
      expect(screen.getByRole('link', { name: 'See the home page' }).getAttribute('href')).toBe('/');
    },
  );

  it('follows the current page URL as the shopper moves within the page, and stays with a new place', async () => {
    function Nav() {
      const navigate = useNavigate();
      return (
        <>
          <button type="button" onClick={() => void navigate('/?home-layout=0')}>
            base
          </button>
          <button type="button" onClick={() => void navigate('/')}>
            plain
          </button>
        </>
      );
    }
    const fetchMock = mockFetch({
      'GET /api/layout/home': () => json(layout),
      'GET /api/location': () =>
        json({
          lat: 34.05,
          lng: -118.24,
          city: 'Los Angeles',
          state: 'CA',
          country: 'US',
          source: 'zip',
          zip: '90012',
          market: 'LAX',
        }),
    });
    renderAt(
      <>
        <LayoutPage kind="home" />
        <Nav />
      </>,
      { route: '/?gb_force=home-layout:1' },
    );
    await screen.findByRole('heading', { name: 'Popular Local Performers' });
    fireEvent.click(screen.getByRole('button', { name: 'base' }));
    await waitFor(() => expect(layoutCalls(fetchMock)).toContain('/api/layout/home?home-layout=0'));
    const { userEvent } = await import('@testing-library/user-event');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Change location' }));
    await user.type(await screen.findByLabelText('ZIP code'), '90012');
    await user.click(screen.getByRole('button', { name: 'Show events' }));
    await waitFor(() => expect(layoutCalls(fetchMock)).toContain('/api/layout/home?zip=90012&home-layout=0'));
    fireEvent.click(screen.getByRole('button', { name: 'plain' }));
    await waitFor(() => expect(layoutCalls(fetchMock)).toContain('/api/layout/home?zip=90012'));
    expect(layoutCalls(fetchMock)[0]).toBe('/api/layout/home?gb_force=home-layout%3A1');
  });

  it("passes on everything but the layout API's own parameters and the tracking ones, in the page's order", () => {
    expect(layoutPageParams('')).toEqual([]);
    expect(layoutPageParams('?home-layout=1')).toEqual([['home-layout', '1']]);
    expect(layoutPageParams('?lat=1&lng=2&zip=10001&brand=x&lat=3')).toEqual([]);
    expect(
      queryText(layoutPageParams('?utm_campaign=spring&home-layout=abc&gclid=1&ab-search=1&UTM_ID=x+y&msclkid=2')),
    ).toBe('home-layout=abc&ab-search=1');
  });

  it("reads the gb_force alias for the client's own GrowthBook evaluations, ignoring what it cannot use", () => {
    expect(gbForceVariations('')).toEqual({});
    expect(gbForceVariations('?gb_force=home-layout:1,ab-search:0')).toEqual({ 'home-layout': 1, 'ab-search': 0 });
    expect(gbForceVariations('?gb_force=home-layout%3A1&x=1')).toEqual({ 'home-layout': 1 });
    expect(gbForceVariations('?gb_force=home-layout:x,:1,__proto__:1,ab-search:1')).toEqual({ 'ab-search': 1 });
  });
});

describe('first-party events', () => {
  it('sends the page view with the layout request, so the exposures the server records join the page', async () => {
    const pageView = newPageView();
    const fetchMock = mockFetch({ 'GET /api/layout/home': () => json(layout) });
    renderAt(<LayoutPage kind="home" />);
    await screen.findByRole('heading', { name: 'Popular Local Performers' });
    const [, init] = fetchMock.mock.calls.find(([u]) => String(u).startsWith('/api/layout/home'))!;
    expect(new Headers(init?.headers).get(PAGE_VIEW_HEADER)).toBe(pageView);
  });

  it('records the page view with the layout’s variation, and no exposure to an experiment it lists', async () => {
    const pageView = newPageView();
    const promos = {
      ...layout,
      experiments: [{ key: 'home-layout', variationId: '1' }],
      variation: 'promos',
      rows: layout.rows.map((r) => ({ ...r, source: { file: 'base/explore~promos.json', version: 3 } })),
    };
    const fetchMock = mockFetch({
      'GET /api/layout/home': () => json(promos),
      [`POST ${EVENTS_PATH}`]: () => new Response(null, { status: 204 }),
    });
    renderAt(<LayoutPage kind="home" />);
    await screen.findByRole('heading', { name: 'Popular Local Performers' });
    await waitFor(() => expect(sentEvents(fetchMock).map((e) => e.name)).toEqual(['page_view']));
    // GrowthBook in the page reports both: the layout's experiment is the server's to record.
    trackExperimentViewed('home-layout', '1');
    trackExperimentViewed('search-ab', '0');
    expect(sentEvents(fetchMock)).toEqual([
      expect.objectContaining({ name: 'page_view', pageView, page: '/', variation: 'promos' }),
      expect.objectContaining({ name: 'experiment_viewed', pageView, experimentId: 'search-ab', variationId: '0' }),
    ]);
  });

  it('records the page view of a layout that cannot be loaded as the base page', async () => {
    newPageView();
    const fetchMock = mockFetch({
      'GET /api/layout/category': () => apiError(404, 'not_found', 'No category "nope"'),
      [`POST ${EVENTS_PATH}`]: () => new Response(null, { status: 204 }),
    });
    renderAt(<LayoutPage kind="category" />, { route: '/category/nope', path: 'category/:slug' });
    await waitFor(() =>
      expect(sentEvents(fetchMock)).toEqual([expect.objectContaining({ name: 'page_view', variation: 'base' })]),
    );
  });
});

describe('a home page the server sent (rendered, or from a shared cache)', () => {
  const homeKey = callQueryKey({ call: 'layout', page: 'home', place: null, pageParams: [] });
  const reports = (fetchMock: ReturnType<typeof mockFetch>) =>
    fetchMock.mock.calls
      .filter(([u, init]) => String(u) === '/api/layout/exposures' && init?.method === 'POST')
      .map(([, init]) => ({
        body: JSON.parse(String(init!.body)) as unknown,
        auth: (init!.headers as Record<string, string>).Authorization,
      }));

  it('reports the variation it showed once, and keeps the assignment the server names for the next page', async () => {
    const fetchMock = mockFetch({
      'GET /api/layout/': () => json(layout),
      'POST /api/layout/exposures': () =>
        json({
          variation: 'base',
          experiments: [{ key: 'home-layout', variationId: '0' }],
          assignment: 'home-layout:0',
        }),
    });
    renderAt(<LayoutPage kind="home" />, { route: '/?utm_source=mail', served: [[homeKey, layout]] });
    await screen.findByRole('heading', { name: 'Popular Local Performers' });
    await waitFor(() => expect(reports(fetchMock)).toHaveLength(1));
    expect(reports(fetchMock)[0]).toEqual({
      body: { address: '/api/layout/home', assignment: null, shown: 'base' },
      auth: expect.stringMatching(/^Bearer /),
    });
    await waitFor(() => expect(document.cookie).toContain('homeLayout=home-layout%3A0'));
  });

  it('reports nothing for a page the client asked the API for, and keeps the assignment its answer names', async () => {
    const fetchMock = mockFetch({
      'GET /api/layout/': () =>
        json({ ...layout, experiments: [{ key: 'home-layout', variationId: '1' }], assignment: 'home-layout:1' }),
    });
    renderAt(<LayoutPage kind="home" />, { route: '/' });
    await screen.findByRole('heading', { name: 'Popular Local Performers' });
    await waitFor(() => expect(document.cookie).toContain('homeLayout=home-layout%3A1'));
    expect(reports(fetchMock)).toEqual([]);
  });
});
