import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, vi } from 'vitest';
import { PageContext } from '../app/page-context.js';
import { discardEvents } from '../lib/analytics.js';
import { noteServedEntry } from '../lib/served-entry.js';
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

/**
 * Renders `ui` at `route`; `from` puts a page of the site before it in the history, as following a link would.
 * `served` makes it a page the server sent: its answers in the cache under their keys, as a hydrated page has them.
 */
export function renderAt(
  ui: ReactElement,
  {
    route = '/',
    path = '*',
    from,
    served,
  }: { route?: string; path?: string; from?: string; served?: [readonly unknown[], unknown][] } = {},
) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, gcTime: Infinity } } });
  for (const [key, data] of served ?? []) queryClient.setQueryData(key, data);
  if (served) noteServedEntry();
  const routes = (
    <MemoryRouter initialEntries={from ? [from, route] : [route]}>
      <Routes>
        <Route path={path} element={ui} />
        <Route path="*" element={<p>elsewhere</p>} />
      </Routes>
      <LocationProbe />
    </MemoryRouter>
  );
  const view = render(
    <QueryClientProvider client={queryClient}>
      {served ? <PageContext value={{ origin: 'http://localhost', status: 200 }}>{routes}</PageContext> : routes}
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
