import { httpGet } from './children.js';
import { PAGE_REQUEST_HEADERS } from './load-plan.js';

/** How long one checked page may take. */
const PAGE_TIMEOUT_MS = 30_000;
/** Characters of a wrong answer shown in the error. */
const BODY_SHOWN = 300;

/**
 * Before the page runs are measured: the home page must come back as a browser asks for it (200, HTML, rendered
 * with its page data), a repeat must be replayed from the page cache (only a kept page carries an ETag), and a
 * shopper place in the cookie must reach the layout the page is drawn from. Otherwise the rows would measure
 * something else (the app shell, or a render each time), so the run stops here.
 */
export async function checkPages(base: string, [lat, lng]: [number, number]): Promise<void> {
  const page = async (what: string, p: string, headers: Record<string, string> = {}, mustInclude?: string) => {
    const r = await httpGet(base + p, PAGE_TIMEOUT_MS, { ...PAGE_REQUEST_HEADERS, ...headers });
    const type = String(r.headers['content-type'] ?? '');
    const problem =
      r.status !== 200
        ? `answered ${r.status}`
        : !type.startsWith('text/html')
          ? `answered ${type || 'no content type'}, not text/html`
          : !r.body.includes('id="page-data"')
            ? 'has no id="page-data" (not a server-rendered page: the app shell?)'
            : mustInclude && !r.body.includes(mustInclude)
              ? `does not include ${mustInclude}`
              : undefined;
    if (problem)
      throw new Error(
        `GET ${p} (${what}, ` +
          `${JSON.stringify({ ...PAGE_REQUEST_HEADERS, ...headers })}) ${problem}: ${r.body.slice(0, BODY_SHOWN)}`,
      );
    return r;
  };
  await page('home page, first request', '/');
  const repeat = await page('home page, repeated', '/');
  if (!repeat.headers.etag)
    throw new Error(
      'GET / repeated came back without an ETag: it was rendered again, not ' +
        'replayed from the page cache, so pageCached would not measure a cached ' +
        'page',
    );
  await page('home page at another address', '/?v=check');
  await page(
    'home page for a shopper place',
    '/',
    { cookie: `shopperLocation=${lat},${lng}` },
    `lat=${lat.toFixed(2)}&lng=${lng.toFixed(2)}`,
  );
}
