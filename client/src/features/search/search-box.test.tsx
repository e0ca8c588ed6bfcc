// @vitest-environment happy-dom
import { GrowthBook, GrowthBookProvider } from '@growthbook/growthbook-react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { MemoryRouter, useLocation } from 'react-router';
import { reportClientError } from '../../lib/api.js';
import { ensureGuestSession, TOKEN_KEY } from '../../lib/session.js';
import { SearchBox } from './search-box.js';
import { moveActiveIndex } from './use-search.js';

vi.mock('../../lib/api.js', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../lib/api.js')>()),
  reportClientError: vi.fn(),
}));

type FetchArgs = [input: RequestInfo | URL, init?: RequestInit];
type Route = (url: string, init: RequestInit) => Response | Promise<Response>;

const SUGGEST = {
  query: 'yank',
  performers: [
    { id: 1, text: 'New York Yankees', url: '/performers/new-york-yankees-1' },
    { id: 2, text: 'Yankee Candle Tour', url: '/performers/yankee-candle-tour-2' },
  ],
  venues: [{ id: 7, text: 'Yankee Stadium', subtitle: 'Bronx, NY', url: '/venues/yankee-stadium-7' }],
};
const EMPTY = { query: 'zzqx', performers: [], venues: [] };
const RECENT = {
  data: [
    {
      type: 'performer',
      id: 5,
      name: 'Taylor Swift',
      url: '/performers/taylor-swift-5',
      image: null,
      viewedAt: '2026-01-01T00:00:00.000Z',
    },
  ],
};
const TRENDING = {
  performers: [
    {
      id: 9,
      name: 'Bad Bunny',
      eventCount: '12 Events',
      pathPicture: '',
      minPrice: 80,
      url: '/performers/bad-bunny-9',
    },
  ],
};

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

function guestToken(): string {
  const b64 = (v: unknown) => btoa(JSON.stringify(v)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  return `${b64({ alg: 'HS256' })}.${b64({ sub: 'guest-1', exp: Math.floor(Date.now() / 1000) + 3600 })}.sig`;
}

let fetchMock: Mock<(...args: FetchArgs) => Promise<Response>>;
let routes: Record<string, Route>;

function callsTo(prefix: string): FetchArgs[] {
  return fetchMock.mock.calls.filter(([input]) => String(input).startsWith(prefix));
}

function LocationProbe() {
  const location = useLocation();
  return <div data-testid="location">{location.pathname + location.search}</div>;
}

function renderSearch({
  variant = 'dropdown',
  flag = false,
}: { variant?: 'dropdown' | 'overlay'; flag?: boolean } = {}) {
  const growthbook = new GrowthBook({ features: { recent_trending_search: { defaultValue: flag } } });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
  const view = render(
    <GrowthBookProvider growthbook={growthbook}>
      <QueryClientProvider client={queryClient}>
        <MemoryRouter initialEntries={['/']}>
          <button type="button">outside</button>
          <SearchBox variant={variant} />
          <LocationProbe />
        </MemoryRouter>
      </QueryClientProvider>
    </GrowthBookProvider>,
  );
  return { user, view };
}

async function advance(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

const input = () => screen.getByRole('combobox');
const location = () => screen.getByTestId('location').textContent;

async function typeAndSettle(user: ReturnType<typeof userEvent.setup>, text: string) {
  await user.type(input(), text);
  await advance(500);
}

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  localStorage.clear();
  routes = {
    '/api/suggest': () => json(SUGGEST),
    '/api/trending': () => json(TRENDING),
    '/api/CustomerActivity/recent-activities': () => json(RECENT),
  };
  fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = String(input);
    const route = Object.keys(routes).find((prefix) => url.startsWith(prefix));
    if (!route) throw new Error(`unexpected fetch ${url}`);
    return routes[route]!(url, init);
  });
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.mocked(reportClientError).mockClear();
  document.documentElement.style.overflow = '';
});

describe('moveActiveIndex', () => {
  it('wraps in both directions and starts from the ends', () => {
    expect(moveActiveIndex(-1, 3, 1)).toBe(0);
    expect(moveActiveIndex(-1, 3, -1)).toBe(2);
    expect(moveActiveIndex(2, 3, 1)).toBe(0);
    expect(moveActiveIndex(0, 3, -1)).toBe(2);
    expect(moveActiveIndex(-1, 0, 1)).toBe(-1);
  });
});

describe('SearchBox (dropdown)', () => {
  it('renders an accessible combobox with the spec placeholder', () => {
    renderSearch();
    const box = input();
    expect(box.getAttribute('placeholder')).toBe('Search by artist, team');
    expect(box.getAttribute('aria-autocomplete')).toBe('list');
    expect(box.getAttribute('aria-expanded')).toBe('false');
    expect(box.getAttribute('aria-controls')).toBeTruthy();
  });

  it('debounces: "Yan" then "yank" within 500 ms sends one request, for "yank"', async () => {
    const { user } = renderSearch();
    await user.type(input(), 'Yan');
    await advance(300);
    await user.type(input(), 'k');
    await advance(300);
    expect(callsTo('/api/suggest')).toHaveLength(0);
    await advance(250);
    expect(callsTo('/api/suggest').map(([url]) => String(url))).toEqual(['/api/suggest?q=yank']);
    await screen.findByRole('option', { name: /New York Yankees/ });
  });

  it('lower-cases the query and trims it', async () => {
    const { user } = renderSearch();
    await typeAndSettle(user, '  YANK ');
    expect(callsTo('/api/suggest').map(([url]) => String(url))).toEqual(['/api/suggest?q=yank']);
  });

  it('sends nothing for a blank query', async () => {
    const { user } = renderSearch();
    await typeAndSettle(user, '   ');
    expect(callsTo('/api/suggest')).toHaveLength(0);
  });

  it('a new query aborts the one in flight and its late answer is ignored', async () => {
    const first = deferred<Response>();
    routes['/api/suggest'] = (url) =>
      url.endsWith('q=yan')
        ? first.promise
        : json({
            ...SUGGEST,
            performers: [{ id: 3, text: 'Newer Answer', url: '/performers/newer-answer-3' }],
            venues: [],
          });
    const { user } = renderSearch();
    await typeAndSettle(user, 'yan');
    const [, firstInit] = callsTo('/api/suggest')[0]!;
    expect(firstInit?.signal?.aborted).toBe(false);

    await typeAndSettle(user, 'k');
    expect(firstInit?.signal?.aborted).toBe(true);
    await screen.findByRole('option', { name: /Newer Answer/ });

    first.resolve(
      json({ ...SUGGEST, query: 'yan', performers: [{ id: 4, text: 'Stale Answer', url: '/performers/stale-4' }] }),
    );
    await advance(50);
    expect(screen.queryByRole('option', { name: /Stale Answer/ })).toBeNull();
    expect(screen.getByRole('option', { name: /Newer Answer/ })).toBeTruthy();
  });

  it('groups results as named role="group" elements inside the listbox and announces the count', async () => {
    const { user } = renderSearch();
    await typeAndSettle(user, 'yank');
    const listbox = await screen.findByRole('listbox');
    const performers = within(listbox).getByRole('group', { name: 'Performers' });
    const venues = within(listbox).getByRole('group', { name: 'Venues' });
    expect(within(performers).getAllByRole('option')).toHaveLength(2);
    expect(within(venues).getAllByRole('option')).toHaveLength(1);
    expect(input().getAttribute('aria-expanded')).toBe('true');
    expect(input().getAttribute('aria-controls')).toBe(listbox.id);
    const status = screen.getByRole('status');
    expect(status.getAttribute('aria-live')).toBe('polite');
    expect(status.textContent).toBe('3 results');
  });

  it(
    'shows the city a two-letter query names first, then its teams and venues ' +
      'with their pictures, and opens the city',
    async () => {
      routes['/api/suggest'] = () =>
        json({
          query: 'ny',
          performers: [
            {
              id: 1,
              text: 'New York Yankees',
              url: '/performers/new-york-yankees-1',
              pathPicture: '/media/performers/1.svg',
            },
          ],
          venues: [
            {
              id: 7,
              text: 'Madison Square Garden',
              subtitle: 'New York, NY',
              url: '/venues/madison-square-garden-7',
              pathPicture: '/media/venues/7.svg',
            },
          ],
          cities: [{ id: 1, text: 'New York, NY', url: '/results-general?kwds=new%20york' }],
        });
      const { user } = renderSearch();
      await typeAndSettle(user, 'ny');
      const listbox = await screen.findByRole('listbox');
      const city = within(within(listbox).getByRole('group', { name: 'Cities' })).getByRole('option', {
        name: /New York, NY/,
      });
      expect(listbox.querySelectorAll('[role="option"]')[0]).toBe(city);
      const venue = within(within(listbox).getByRole('group', { name: 'Venues' })).getByRole('option', {
        name: /Madison Square Garden/,
      });
      expect(venue.querySelector('img')?.getAttribute('src')).toBe('/media/venues/7.svg');
      await user.click(city);
      expect(location()).toBe('/results-general?kwds=new%20york');
    },
  );

  it('clearing the query resets the lists at once', async () => {
    const { user } = renderSearch();
    await typeAndSettle(user, 'yank');
    await screen.findByRole('listbox');
    await user.clear(input());
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(screen.getByRole('status').textContent).toBe('');
  });

  it('closes on a pointerdown outside and reopens on click', async () => {
    const { user } = renderSearch();
    await typeAndSettle(user, 'yank');
    await screen.findByRole('listbox');
    fireEvent.pointerDown(screen.getByRole('button', { name: 'outside' }));
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(input().getAttribute('aria-expanded')).toBe('false');
    await user.click(input());
    expect(screen.getByRole('listbox')).toBeTruthy();
  });

  it('a pointerdown inside does not close it', async () => {
    const { user } = renderSearch();
    await typeAndSettle(user, 'yank');
    fireEvent.pointerDown(await screen.findByRole('option', { name: /Yankee Stadium/ }));
    expect(screen.getByRole('listbox')).toBeTruthy();
  });

  it('Escape closes and keeps focus in the input', async () => {
    const { user } = renderSearch();
    await typeAndSettle(user, 'yank');
    await screen.findByRole('listbox');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(document.activeElement).toBe(input());
    expect((input() as HTMLInputElement).value).toBe('yank');
  });

  it('ArrowDown / ArrowUp move aria-activedescendant across groups, wrapping', async () => {
    const { user } = renderSearch();
    await typeAndSettle(user, 'yank');
    const options = await screen.findAllByRole('option');
    const active = () => input().getAttribute('aria-activedescendant');
    expect(active()).toBeNull();

    await user.keyboard('{ArrowDown}');
    expect(active()).toBe(options[0]!.id);
    expect(options[0]!.getAttribute('aria-selected')).toBe('true');
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(active()).toBe(options[2]!.id);
    expect(options[2]!.closest('[role="group"]')?.getAttribute('aria-labelledby')).toContain('venues');
    await user.keyboard('{ArrowDown}');
    expect(active()).toBe(options[0]!.id);
    await user.keyboard('{ArrowUp}');
    expect(active()).toBe(options[2]!.id);
    await user.keyboard('{ArrowUp}');
    expect(active()).toBe(options[1]!.id);
  });

  it('Enter on an active option navigates to its url', async () => {
    const { user } = renderSearch();
    await typeAndSettle(user, 'yank');
    await screen.findAllByRole('option');
    await user.keyboard('{ArrowUp}{Enter}');
    expect(location()).toBe('/venues/yankee-stadium-7');
    expect(screen.queryByRole('listbox')).toBeNull();
  });

  it('clicking a performer navigates to its url', async () => {
    const { user } = renderSearch();
    await typeAndSettle(user, 'yank');
    await user.click(await screen.findByRole('option', { name: /New York Yankees/ }));
    expect(location()).toBe('/performers/new-york-yankees-1');
  });

  it('Enter with no active option goes to the full search route with the encoded query', async () => {
    const { user } = renderSearch();
    await user.type(input(), 'New York+Mets');
    await user.keyboard('{Enter}');
    expect(location()).toBe('/results-general?kwds=new%20york%2Bmets');
  });

  it('NumpadEnter and keyCode 13 submit too', async () => {
    const { user } = renderSearch();
    await user.type(input(), 'mets');
    fireEvent.keyDown(input(), { key: 'Unidentified', code: 'NumpadEnter' });
    expect(location()).toBe('/results-general?kwds=mets');

    await user.clear(input());
    await user.type(input(), 'jets');
    fireEvent.keyDown(input(), { key: 'Unidentified', keyCode: 13 });
    expect(location()).toBe('/results-general?kwds=jets');
  });

  it('Enter on an empty query does nothing', async () => {
    const { user } = renderSearch();
    await user.click(input());
    await user.keyboard('{Enter}');
    expect(location()).toBe('/');
  });

  it('zero results show the illustration and the Enter prompt', async () => {
    routes['/api/suggest'] = () => json(EMPTY);
    const { user, view } = renderSearch();
    await typeAndSettle(user, 'zzqx');
    expect(await screen.findByText(/Press Enter to search for/)).toBeTruthy();
    expect(screen.getByText('“zzqx”')).toBeTruthy();
    expect(view.container.querySelector('svg.search-box__empty-art')?.getAttribute('aria-hidden')).toBe('true');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(screen.getByRole('status').textContent).toBe('No results, press Enter to search');
  });

  it('a search failure logs "SEARCH ERROR" and shows nothing extra', async () => {
    routes['/api/suggest'] = () => json({ error: { code: 'boom', message: 'down' } }, 500);
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { user } = renderSearch();
    await typeAndSettle(user, 'yank');
    await advance(50);
    expect(error).toHaveBeenCalledWith('SEARCH ERROR', expect.anything());
    expect(reportClientError).toHaveBeenCalledWith(expect.any(Error), 'SEARCH ERROR');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(screen.queryByText(/Press Enter/)).toBeNull();
  });
});

describe('SearchBox (overlay)', () => {
  it('opens a labelled modal dialog that locks page scrolling and restores it on close', async () => {
    document.documentElement.style.overflow = 'scroll';
    const { user } = renderSearch({ variant: 'overlay' });
    const trigger = screen.getByRole('button', { name: 'Search' });
    await user.click(trigger);

    const dialog = screen.getByRole('dialog', { name: 'Search' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(document.documentElement.style.overflow).toBe('hidden');
    expect(document.activeElement).toBe(within(dialog).getByRole('combobox'));

    await user.click(within(dialog).getByRole('button', { name: 'Close search' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.documentElement.style.overflow).toBe('scroll');
    expect(document.activeElement).toBe(trigger);
  });

  it('Escape closes the dialog; unmounting restores scrolling', async () => {
    const { user, view } = renderSearch({ variant: 'overlay' });
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.documentElement.style.overflow).toBe('');

    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(document.documentElement.style.overflow).toBe('hidden');
    view.unmount();
    expect(document.documentElement.style.overflow).toBe('');
  });

  it('shows results in the dialog and closes it on navigation', async () => {
    const { user } = renderSearch({ variant: 'overlay' });
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await typeAndSettle(user, 'yank');
    const dialog = screen.getByRole('dialog');
    const option = await within(dialog).findByRole('option', { name: /Yankee Stadium/ });
    expect(within(dialog).getByRole('group', { name: 'Venues' })).toBeTruthy();
    await user.click(option);
    expect(location()).toBe('/venues/yankee-stadium-7');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.documentElement.style.overflow).toBe('');
  });
});

describe('recent and trending searches', () => {
  it('with the flag on and an empty query, shows "Recent searches" and "Trending" groups', async () => {
    const token = guestToken();
    localStorage.setItem(TOKEN_KEY, token);
    const { user } = renderSearch({ flag: true });
    await user.click(input());

    const listbox = await screen.findByRole('listbox');
    const recent = within(listbox).getByRole('group', { name: 'Recent searches' });
    const trending = within(listbox).getByRole('group', { name: 'Trending' });
    expect(within(recent).getByRole('option', { name: /Taylor Swift/ })).toBeTruthy();
    expect(within(trending).getByRole('option', { name: /Bad Bunny/ })).toBeTruthy();
    const [, init] = callsTo('/api/CustomerActivity/recent-activities')[0]!;
    expect((init?.headers as Record<string, string>).Authorization).toBe(`Bearer ${token}`);

    await user.keyboard('{ArrowDown}{ArrowDown}{Enter}');
    expect(location()).toBe('/performers/bad-bunny-9');
  });

  it('is not shown with the flag off', async () => {
    localStorage.setItem(TOKEN_KEY, guestToken());
    const { user } = renderSearch({ flag: false });
    await user.click(input());
    await advance(100);
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(callsTo('/api/trending')).toHaveLength(0);
    expect(callsTo('/api/CustomerActivity')).toHaveLength(0);
  });

  it('gives way to suggestions once the user types', async () => {
    localStorage.setItem(TOKEN_KEY, guestToken());
    const { user } = renderSearch({ flag: true });
    await user.click(input());
    await screen.findByRole('group', { name: 'Trending' });
    await typeAndSettle(user, 'yank');
    await screen.findByRole('group', { name: 'Performers' });
    expect(screen.queryByRole('group', { name: 'Trending' })).toBeNull();
  });

  it('waits for the guest token through onGuestToken, then loads recent activity', async () => {
    routes['/api/customers/session'] = () =>
      json({ sessionToken: guestToken(), expiresAt: '2099-01-01T00:00:00.000Z' });
    const { user } = renderSearch({ flag: true });
    await user.click(input());
    await advance(100);
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(callsTo('/api/CustomerActivity')).toHaveLength(0);

    await act(async () => {
      await ensureGuestSession();
    });
    expect(await screen.findByRole('group', { name: 'Recent searches' })).toBeTruthy();
    expect(screen.getByRole('group', { name: 'Trending' })).toBeTruthy();
  });

  it('gives up on the token after 5 s and shows trending only', async () => {
    const info = vi.spyOn(console, 'info').mockImplementation(() => {});
    const { user } = renderSearch({ flag: true });
    await user.click(input());
    await advance(4_000);
    expect(screen.queryByRole('listbox')).toBeNull();
    await advance(1_000);
    expect(await screen.findByRole('group', { name: 'Trending' })).toBeTruthy();
    expect(screen.queryByRole('group', { name: 'Recent searches' })).toBeNull();
    expect(info).toHaveBeenCalledWith('No token in LocalStorage.');
    expect(callsTo('/api/CustomerActivity')).toHaveLength(0);
  });

  it('a typed query cancels the in-flight recent-activity request, logged quietly', async () => {
    localStorage.setItem(TOKEN_KEY, guestToken());
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => {});
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    routes['/api/CustomerActivity/recent-activities'] = (_url, init) =>
      new Promise((_resolve, reject) => {
        init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      });
    const { user } = renderSearch({ flag: true });
    await user.click(input());
    await advance(50);
    const [, init] = callsTo('/api/CustomerActivity/recent-activities')[0]!;
    expect(init?.signal?.aborted).toBe(false);

    await user.type(input(), 'y');
    await advance(50);
    expect(init?.signal?.aborted).toBe(true);
    expect(debug).toHaveBeenCalled();
    expect(warn).not.toHaveBeenCalledWith('Could not fetch customers latest performers', expect.anything());
  });

  it('other recent-activity failures warn and still show trending', async () => {
    localStorage.setItem(TOKEN_KEY, guestToken());
    routes['/api/CustomerActivity/recent-activities'] = () => json({ error: { code: 'x', message: 'down' } }, 503);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { user } = renderSearch({ flag: true });
    await user.click(input());
    expect(await screen.findByRole('group', { name: 'Trending' })).toBeTruthy();
    expect(warn).toHaveBeenCalledWith('Could not fetch customers latest performers', expect.anything());
  });
});
