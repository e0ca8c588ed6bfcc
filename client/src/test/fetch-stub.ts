import { vi, type Mock } from 'vitest';

export type FetchArgs = [input: RequestInfo | URL, init?: RequestInit];
export type Handler = (url: URL, init: RequestInit) => Response | Promise<Response>;

export function json(body: unknown, status = 200): Response {
  return new Response(status === 204 ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

export function apiError(status: number, code: string, message: string, details: unknown[] = []): Response {
  return json({ error: { code, message, details } }, status);
}

/** A fetch stub answering by `METHOD /path` (first match on the longest prefix wins); anything else is a 404. */
export function mockFetch(routes: Record<string, Handler>): Mock<(...args: FetchArgs) => Promise<Response>> {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://localhost');
    const method = (init.method ?? 'GET').toUpperCase();
    const key = Object.keys(routes)
      .filter((k) => {
        const [m, p] = k.split(' ') as [string, string];
        return m === method && url.pathname.startsWith(p);
      })
      .sort((a, b) => b.length - a.length)[0];
    return key ? routes[key]!(url, init) : apiError(404, 'not_found', `no route for ${method} ${url.pathname}`);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

export function urlsOf(fetchMock: Mock<(...args: FetchArgs) => Promise<Response>>, prefix: string): URL[] {
  return fetchMock.mock.calls
    .map(([input]) => new URL(String(input), 'http://localhost'))
    .filter((u) => u.pathname.startsWith(prefix));
}
