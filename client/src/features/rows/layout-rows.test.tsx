// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LayoutAnswerSchema } from '../../lib/schemas.js';
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

  it('skips a row of a known type its component cannot draw, without a schema', () => {
    const card = events.tabs[0]!.items[0]!;
    const { rows, skipped } = parseRows([
      { ...performers, id: 'no-url', items: [{ ...performers.items[0], url: undefined }] },
      { ...events, id: 'no-badges', items: [{ ...card, badges: undefined }] },
      { ...events, id: 'bad-tab', tabs: [{ ...events.tabs[0], items: null }] },
      { ...events, id: 'tabs-not-a-list', tabs: 'all' },
      { ...performers, id: 'bad-status', status: 'late' },
      { ...performers, id: 7 },
      { ...performers, title: undefined },
      { type: 'toString', id: 'inherited', title: 'Not a row type', status: 'ok', items: [] },
      { ...performers, id: 'fine' },
      events,
    ]);
    expect(rows.map((r) => r.id)).toEqual(['fine', 'local-events']);
    expect(skipped).toEqual([
      'performers',
      'events',
      'events',
      'events',
      'performers',
      'performers',
      'performers',
      'toString',
    ]);
  });

  it('keeps the rows of a fetched layout that pass the schema, and skips the one that does not', () => {
    const answer = LayoutAnswerSchema.parse({
      page: 'home',
      title: 'Home',
      brand: { id: 'b', name: 'Tickets' },
      location: { lat: 40.7, lng: -74, city: 'New York', state: 'NY', country: 'US', source: 'default' },
      experiments: [],
      // The structural check would draw this row: its card has what the component reads, but not a name.
      rows: [performers, { ...performers, id: 'nameless', items: [{ ...performers.items[0], name: '' }] }, events],
    });
    const { rows, skipped } = parseRows(answer.rows);
    expect(rows.map((r) => r.id)).toEqual(['popular', 'local-events']);
    expect(skipped).toEqual(['performers']);
    expect(
      parseRows([{ ...performers, id: 'nameless', items: [{ ...performers.items[0], name: '' }] }]).skipped,
    ).toEqual([]);
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
