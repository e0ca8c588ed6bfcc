import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter, useLocation } from 'react-router';
import { vi } from 'vitest';
import type { Menu } from '../../lib/schemas.js';

const league = (name: string, slug: string, teams: string[]) => ({
  name,
  url: `/category/${slug}`,
  links: [
    { name: 'All', url: `/category/${slug}` },
    ...teams.map((t, i) => ({ name: t, url: `/performers/${t.toLowerCase().replace(/ /g, '-')}-${i + 1}` })),
  ],
});

export const MENU_FIXTURE: Menu = {
  categories: [
    {
      name: 'Sports',
      url: '/category/sports',
      sections: [
        league('NFL', 'nfl', ['Arizona Cardinals', 'Atlanta Falcons', 'Baltimore Ravens']),
        league('MLB', 'mlb', ['Arizona Diamondbacks', 'Atlanta Braves']),
        league('NHL', 'nhl', ['Anaheim Ducks', 'Boston Bruins']),
        league('NBA', 'nba', ['Atlanta Hawks', 'Boston Celtics']),
      ],
    },
    {
      name: 'Concerts',
      url: '/category/concerts',
      links: [
        { name: 'Alternative', url: '/category/alternative' },
        { name: 'Pop & Rock', url: '/category/pop' },
      ],
    },
    {
      name: 'Theater',
      url: '/category/theater',
      links: [
        { name: 'Broadway', url: '/category/broadway' },
        { name: 'Opera', url: '/category/opera' },
      ],
    },
    { name: 'Other', links: [{ name: 'Boxing', url: '/category/boxing' }] },
  ],
};

export function mockMenuFetch(menu: Menu = MENU_FIXTURE) {
  const fetchMock = vi.fn(
    async () => new Response(JSON.stringify(menu), { status: 200, headers: { 'Content-Type': 'application/json' } }),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname + location.hash}</output>;
}

export function renderWithProviders(ui: ReactElement, { route = '/' }: { route?: string } = {}) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[route]}>
        {ui}
        <LocationProbe />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}
