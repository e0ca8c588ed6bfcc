// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LayoutRows, parseRows } from './layout-rows.js';

const performers = {
  id: 'popular',
  type: 'performers',
  title: 'Popular Local Performers',
  status: 'ok',
  items: [
    {
      id: 1,
      name: 'Dallas Cowboys',
      eventCount: '9 Events',
      pathPicture: '/media/performers/1.svg',
      minPrice: 64,
      url: '/performers/dallas-cowboys-1',
    },
  ],
};
const events = {
  id: 'local-events',
  type: 'events',
  title: 'Local Events',
  status: 'ok',
  items: [],
  tabs: [
    {
      id: 'all',
      title: 'All Events',
      status: 'ok',
      items: [
        {
          id: 7,
          name: 'Knicks at Nets',
          badges: [{ type: 'hotEvent', label: 'Selling fast' }],
          address: 'Barclays Center, Brooklyn, NY',
          day: 'SAT',
          date: 'Jan 2',
          time: '07:30 PM',
          year: '2027',
          url: '/events/knicks-at-nets-7',
          minPrice: 89,
        },
      ],
    },
    { id: 'week', title: 'This Week', status: 'empty', items: [] },
  ],
};

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('the row registry', () => {
  it('renders each known row type and skips an unknown one, reporting it', () => {
    const beacon = vi.fn(() => true);
    Object.defineProperty(navigator, 'sendBeacon', { value: beacon, configurable: true });
    render(
      <MemoryRouter>
        <LayoutRows
          rows={[performers, { id: 'x', type: 'carousel3d', title: 'Future row', status: 'ok', items: [] }, events]}
        />
      </MemoryRouter>,
    );
    expect(screen.getByRole('heading', { name: 'Popular Local Performers' })).toBeTruthy();
    expect(screen.getByRole('link', { name: /Dallas Cowboys/ }).getAttribute('href')).toBe(
      '/performers/dallas-cowboys-1',
    );
    expect(screen.queryByText('Future row')).toBeNull();
    expect(screen.getByRole('tab', { name: 'All Events' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByText('Selling fast')).toBeTruthy();
    expect(beacon).toHaveBeenCalledTimes(1);
    expect((beacon.mock.calls[0] as unknown[])[0]).toBe('/api/client-errors');
  });

  it('keeps the valid rows when one is malformed', () => {
    const { rows, skipped } = parseRows([performers, { ...performers, id: 'bad', items: 'nope' }, null]);
    expect(rows.map((r) => r.id)).toEqual(['popular']);
    expect(skipped).toEqual(['performers', 'unknown']);
  });

  it('switches event tabs from the keyboard', async () => {
    const { userEvent } = await import('@testing-library/user-event');
    const user = userEvent.setup();
    render(
      <MemoryRouter>
        <LayoutRows rows={[events]} />
      </MemoryRouter>,
    );
    screen.getByRole('tab', { name: 'All Events' }).focus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'This Week' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByText('No events in this range yet.')).toBeTruthy();
  });

  it('opens on the tab the server names as the default, keeping the tab order', () => {
    render(
      <MemoryRouter>
        <LayoutRows rows={[{ ...events, tabs: [events.tabs[1], events.tabs[0]], defaultTab: 'all' }]} />
      </MemoryRouter>,
    );
    const tabs = screen.getAllByRole('tab');
    expect(tabs.map((t) => t.textContent)).toEqual(['This Week', 'All Events']);
    expect(screen.getByRole('tab', { name: 'All Events' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tab', { name: 'All Events' }).tabIndex).toBe(0);
    expect(screen.getByText('Selling fast')).toBeTruthy();
  });
});
