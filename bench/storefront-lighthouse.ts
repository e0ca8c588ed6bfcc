import path from 'node:path';
import { httpGet } from './children.js';
import { CHROMIUM, lighthousePages, type PageScore } from './lighthouse-pages.js';
import { PAGE_REQUEST_HEADERS } from './load-plan.js';

const PER_RUN_TIMEOUT_MS = 120_000;
const WARM_TIMEOUT_MS = 30_000;
/** A search whose suggestions hold an event, whose page is the third one measured. */
const EVENT_SUGGESTION = '/api/suggest?q=yank&extra=true';

/** Lighthouse on the storefront's home, category and event pages; each run's report goes to bench/out/lighthouse/. */
export async function lighthouseStorefront(
  base: string,
  runs: number,
  log: (message: string) => void,
): Promise<PageScore[]> {
  log('Lighthouse: home, category, event…');
  const suggestion = await httpGet(`${base}${EVENT_SUGGESTION}`).then(
    (r) => JSON.parse(r.body) as { events?: { url: string }[] },
    () => null,
  );
  const eventPath = suggestion?.events?.[0]?.url;
  const pages = [
    { name: 'home', path: '/' },
    { name: 'category', path: '/category/nfl' },
    ...(eventPath ? [{ name: 'event', path: eventPath }] : []),
  ];
  const lighthouse = await lighthousePages(base, pages, CHROMIUM, {
    runs,
    perRunTimeoutMs: PER_RUN_TIMEOUT_MS,
    saveDir: path.resolve('bench/out/lighthouse'),
    // Each page asked for once just before its runs, as a browser asks: the load runs above may have pushed it
    // out of the page cache, and Lighthouse should measure the page as shoppers mostly get it (kept), not its
    // first render (the load rows measure that).
    warm: (page) =>
      httpGet(base + page.path, WARM_TIMEOUT_MS, PAGE_REQUEST_HEADERS).then(
        () => undefined,
        () => undefined,
      ),
  });
  if (!eventPath)
    lighthouse.push({
      name: 'event',
      path: '(none)',
      error: `${EVENT_SUGGESTION} returned no event to open`,
    });
  return lighthouse;
}
