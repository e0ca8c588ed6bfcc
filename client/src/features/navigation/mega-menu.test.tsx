// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MegaMenu } from './mega-menu.js';
import { MENU_CLOSE_DELAY_MS } from './menu-data.js';
import { mockMenuFetch, renderWithProviders } from './test-utils.js';

async function renderMenu() {
  renderWithProviders(<MegaMenu />);
  return {
    sports: await screen.findByRole('button', { name: 'Sports' }),
    concerts: screen.getByRole('button', { name: 'Concerts' }),
  };
}

/** The panel a category's button names; a closed one is not built, and the button names none. */
const panelOf = (button: HTMLElement) => document.getElementById(button.getAttribute('aria-controls') ?? '')!;

describe('MegaMenu', () => {
  let fetchMock: ReturnType<typeof mockMenuFetch>;
  beforeEach(() => {
    fetchMock = mockMenuFetch();
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('draws a disclosure button per category and fetches nothing until the bar is reached', async () => {
    const user = userEvent.setup();
    const { sports } = await renderMenu();
    expect(screen.getAllByRole('button').map((b) => b.textContent)).toEqual(['Sports', 'Concerts', 'Theater', 'Other']);
    expect(sports.getAttribute('aria-expanded')).toBe('false');
    expect(panelOf(sports)).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();

    await user.hover(sports);
    await within(panelOf(sports)).findByRole('link', { name: 'See all Sports' });
    await user.hover(screen.getByRole('button', { name: 'Theater' }));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(String((fetchMock.mock.calls[0] as unknown[])[0])).toBe('/api/menu');
  });

  it('says the links are loading in a panel opened before the menu arrives, and fills it in', async () => {
    let answer: (() => void) | undefined;
    const later = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation(
      () =>
        new Promise((resolve) => {
          answer = () => resolve(later());
        }),
    );
    const { sports } = await renderMenu();
    fireEvent.click(sports);
    expect(sports.getAttribute('aria-expanded')).toBe('true');
    expect(within(panelOf(sports)).getByRole('status').textContent).toBe('Loading Sports…');
    await vi.waitFor(() => expect(answer).toBeDefined());
    await act(async () => answer!());
    expect(await within(panelOf(sports)).findByText('NFL')).toBeTruthy();
    expect(within(panelOf(sports)).queryByRole('status')).toBeNull();
  });

  it('opens one category at a time on hover', async () => {
    const user = userEvent.setup();
    const { sports, concerts } = await renderMenu();
    await user.hover(sports);
    expect(sports.getAttribute('aria-expanded')).toBe('true');
    expect(panelOf(sports)).not.toBeNull();

    await user.hover(concerts);
    expect(concerts.getAttribute('aria-expanded')).toBe('true');
    expect(sports.getAttribute('aria-expanded')).toBe('false');
    expect(panelOf(sports)).toBeNull();
    expect(screen.getAllByRole('button', { expanded: true })).toHaveLength(1);
  });

  describe('menu aim', () => {
    // The bar is 48 px high; every open panel spans 1200 px under it.
    beforeEach(() => {
      vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
        return this.classList.contains('mega-menu__panel')
          ? ({ left: 0, right: 1200, top: 48, bottom: 600, width: 1200, height: 552, x: 0, y: 48 } as DOMRect)
          : new DOMRect();
      });
    });
    afterEach(() => vi.restoreAllMocks());

    const move = (x: number, y: number) =>
      fireEvent.mouseMove(screen.getByRole('navigation'), { clientX: x, clientY: y });

    it(
      'keeps the open panel while the pointer crosses another category on its ' +
        'way down into it, then lets that one open if the pointer rests',
      async () => {
        vi.useFakeTimers({ shouldAdvanceTime: true });
        const { sports, concerts } = await renderMenu();
        move(500, 20);
        fireEvent.mouseEnter(concerts.parentElement!);
        expect(concerts.getAttribute('aria-expanded')).toBe('true');
        // Down and to the left, across Sports, toward the panel.
        move(460, 30);
        fireEvent.mouseLeave(concerts.parentElement!);
        move(420, 40);
        fireEvent.mouseEnter(sports.parentElement!);
        expect(concerts.getAttribute('aria-expanded')).toBe('true');
        expect(sports.getAttribute('aria-expanded')).toBe('false');
        // Into the panel (it belongs to Concerts' item): Concerts stays open for good.
        fireEvent.mouseLeave(sports.parentElement!);
        fireEvent.mouseEnter(concerts.parentElement!);
        await act(async () => {
          await vi.advanceTimersByTimeAsync(1000);
        });
        expect(concerts.getAttribute('aria-expanded')).toBe('true');
        expect(sports.getAttribute('aria-expanded')).toBe('false');

        // The same crossing, but the pointer stops on Sports: it opens after the aim delay.
        for (const [x, y] of [
          [420, 6],
          [410, 12],
          [400, 18],
          [380, 30],
        ] as const)
          move(x, y);
        fireEvent.mouseLeave(concerts.parentElement!);
        fireEvent.mouseEnter(sports.parentElement!);
        expect(sports.getAttribute('aria-expanded')).toBe('false');
        await act(async () => {
          await vi.advanceTimersByTimeAsync(300);
        });
        expect(sports.getAttribute('aria-expanded')).toBe('true');
        expect(concerts.getAttribute('aria-expanded')).toBe('false');
      },
    );

    it('switches at once when the pointer moves along the bar', async () => {
      const { sports, concerts } = await renderMenu();
      move(500, 24);
      fireEvent.mouseEnter(concerts.parentElement!);
      move(300, 24);
      fireEvent.mouseLeave(concerts.parentElement!);
      fireEvent.mouseEnter(sports.parentElement!);
      expect(sports.getAttribute('aria-expanded')).toBe('true');
      expect(concerts.getAttribute('aria-expanded')).toBe('false');
    });
  });

  it('closes 200 ms after the mouse leaves, not before', async () => {
    const { sports } = await renderMenu();
    vi.useFakeTimers();
    fireEvent.mouseEnter(sports);
    expect(sports.getAttribute('aria-expanded')).toBe('true');

    fireEvent.mouseLeave(sports);
    act(() => vi.advanceTimersByTime(MENU_CLOSE_DELAY_MS - 1));
    expect(sports.getAttribute('aria-expanded')).toBe('true');
    act(() => vi.advanceTimersByTime(1));
    expect(sports.getAttribute('aria-expanded')).toBe('false');
    expect(MENU_CLOSE_DELAY_MS).toBe(200);
  });

  it('re-entering within 200 ms cancels the close', async () => {
    const { sports } = await renderMenu();
    vi.useFakeTimers();
    fireEvent.mouseEnter(sports);
    fireEvent.mouseLeave(sports);
    act(() => vi.advanceTimersByTime(150));
    fireEvent.mouseEnter(panelOf(sports));
    act(() => vi.advanceTimersByTime(1000));
    expect(sports.getAttribute('aria-expanded')).toBe('true');
  });

  it('keeps a hover-opened panel open when its button is clicked', async () => {
    const user = userEvent.setup();
    const { sports } = await renderMenu();
    await user.click(sports);
    expect(sports.getAttribute('aria-expanded')).toBe('true');
    await user.click(sports);
    expect(sports.getAttribute('aria-expanded')).toBe('false');
  });

  it(
    'builds no closed panel and lists NFL, MLB, NHL and NBA in the open ' + 'Sports panel, each with "All" first',
    async () => {
      const user = userEvent.setup();
      const { sports } = await renderMenu();
      expect(sports.hasAttribute('aria-controls')).toBe(false);
      expect(document.querySelector('.mega-menu__panel')).toBeNull();
      expect(screen.queryAllByRole('link', { hidden: true })).toEqual([]);
      await user.click(sports);
      const panel = panelOf(sports);
      const leagues = within(panel).getAllByRole('list');
      expect(
        leagues.map(
          (l) =>
            l.getAttribute('aria-labelledby') &&
            document.getElementById(l.getAttribute('aria-labelledby')!)?.textContent,
        ),
      ).toEqual(['NFL', 'MLB', 'NHL', 'NBA']);
      for (const league of leagues) {
        const links = within(league).getAllByRole('link');
        expect(links[0]?.textContent).toBe('All');
      }
      const nfl = within(panel).getByRole('list', { name: 'NFL' });
      expect(
        within(nfl)
          .getAllByRole('link')
          .map((a) => a.textContent),
      ).toEqual(['All', 'Arizona Cardinals', 'Atlanta Falcons', 'Baltimore Ravens']);
      expect(within(nfl).getByRole('link', { name: 'All' }).getAttribute('href')).toBe('/category/nfl');
      expect(within(panel).getByRole('link', { name: 'See all Sports' }).getAttribute('href')).toBe('/category/sports');
    },
  );

  it('opens with Enter, closes with Escape and returns focus to the button', async () => {
    const user = userEvent.setup();
    const { sports } = await renderMenu();
    sports.focus();
    await user.keyboard('{Enter}');
    expect(sports.getAttribute('aria-expanded')).toBe('true');

    await user.tab();
    expect(document.activeElement?.textContent).toBe('See all Sports');
    await user.tab();
    expect(document.activeElement?.textContent).toBe('All');

    await user.keyboard('{Escape}');
    expect(sports.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(sports);

    await user.keyboard(' ');
    expect(sports.getAttribute('aria-expanded')).toBe('true');
    await user.keyboard(' ');
    expect(sports.getAttribute('aria-expanded')).toBe('false');
  });

  it('closes when focus leaves the open category', async () => {
    const user = userEvent.setup();
    const { sports } = await renderMenu();
    const other = screen.getByRole('button', { name: 'Other' });
    other.focus();
    await user.keyboard('{Enter}');
    expect(other.getAttribute('aria-expanded')).toBe('true');
    await user.tab();
    expect(document.activeElement?.textContent).toBe('Boxing');
    await user.tab();
    expect(other.getAttribute('aria-expanded')).toBe('false');
    expect(sports.getAttribute('aria-expanded')).toBe('false');
  });

  it('closes and navigates when a link is clicked', async () => {
    const user = userEvent.setup();
    const { concerts } = await renderMenu();
    await user.hover(concerts);
    await user.click(within(panelOf(concerts)).getByRole('link', { name: 'Pop & Rock' }));
    expect(concerts.getAttribute('aria-expanded')).toBe('false');
    expect(screen.getByTestId('location').textContent).toBe('/category/pop');
  });
});
