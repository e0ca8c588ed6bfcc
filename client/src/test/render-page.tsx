import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, vi } from 'vitest';
import { discardEvents } from '../lib/analytics.js';
import { TOKEN_KEY } from '../lib/session.js';

export function storeGuestToken(): void {
  const b64 = (v: unknown) => btoa(JSON.stringify(v)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  localStorage.setItem(
    TOKEN_KEY,
    `${b64({ alg: 'HS256' })}.${b64({ sub: 'guest-1', exp: Math.floor(Date.now() / 1000) + 3600 })}.sig`,
  );
}

function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname + location.search}</output>;
}

/** Renders `ui` at `route`; `from` puts a page of the site before it in the history, as following a link would. */
export function renderAt(
  ui: ReactElement,
  { route = '/', path = '*', from }: { route?: string; path?: string; from?: string } = {},
) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, gcTime: Infinity } } });
  const view = render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={from ? [from, route] : [route]}>
        <Routes>
          <Route path={path} element={ui} />
          <Route path="*" element={<p>elsewhere</p>} />
        </Routes>
        <LocationProbe />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { ...view, queryClient };
}

/** Each page test starts with a guest token and leaves no DOM, stubs or storage behind. */
export function setUpPageTests(): void {
  beforeEach(storeGuestToken);
  afterEach(() => {
    cleanup();
    // Events a page queued are not sent into the next test.
    discardEvents();
    vi.unstubAllGlobals();
    localStorage.clear();
    // The cookies the page keeps (the place, the token's copy) go too.
    for (const part of document.cookie.split(';')) {
      const name = part.split('=')[0]!.trim();
      if (name) document.cookie = `${name}=; Path=/; Max-Age=0`;
    }
  });
}
