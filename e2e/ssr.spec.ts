import { createHash } from 'node:crypto';
import { parsePageData } from '../client/src/app/page-data.js';
import { hallEvent, upsertEvents } from './catalog-operator.js';
import { expect, test, type APIRequestContext, type BrowserContext, type Page, type Request } from './fixtures.js';

// Server rendering of the landing pages: what the server's HTML holds before any script runs (markup, head
// tags, JSON-LD, page data, status codes), and that the client takes it over as it is: no hydration mismatch,
// no second request for an answer the page carried, no experiment variation switched, no CSP violation.

// ---- reading the server's HTML ---------------------------------------------------------------------------

function decodeEntities(text: string): string {
  return text
    .replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code)))
    .replace(/&#x([0-9a-f]+);/gi, (_m, code: string) => String.fromCharCode(parseInt(code, 16)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** The `<head>` of a page (everything before `</head>`): meta tags elsewhere (an SVG's `<title>`) do not count. */
function headOf(html: string): string {
  const end = html.indexOf('</head>');
  expect(end, 'the page has a </head>').toBeGreaterThan(0);
  return html.slice(0, end);
}

/** The content of every `<meta name|property="key">` in the head. */
function metaAll(html: string, key: string): string[] {
  const found: string[] = [];
  for (const tag of headOf(html).match(/<meta\b[^>]*>/g) ?? []) {
    const name = /\b(?:name|property)="([^"]*)"/.exec(tag)?.[1];
    const content = /\bcontent="([^"]*)"/.exec(tag)?.[1];
    if (name === key && content !== undefined) found.push(decodeEntities(content));
  }
  return found;
}

function meta(html: string, key: string): string | undefined {
  const all = metaAll(html, key);
  expect(all.length, `at most one ${key}`).toBeLessThanOrEqual(1);
  return all[0];
}

function titleOf(html: string): string | undefined {
  const titles = [...headOf(html).matchAll(/<title>([^<]*)<\/title>/g)].map((m) => decodeEntities(m[1]!));
  expect(titles.length, 'one <title> in the head').toBeLessThanOrEqual(1);
  return titles[0];
}

function canonicalOf(html: string): string[] {
  return [...headOf(html).matchAll(/<link\b[^>]*\brel="canonical"[^>]*>/g)].map((m) =>
    decodeEntities(/\bhref="([^"]*)"/.exec(m[0])?.[1] ?? ''),
  );
}

/** The rendered markup inside `<div id="root">`. */
function rootMarkup(html: string): string {
  const start = html.indexOf('<div id="root">');
  const end = html.indexOf('<script type="application/json" id="page-data">');
  expect(start, 'the page has its root element').toBeGreaterThan(0);
  expect(end, 'the page data follows the markup').toBeGreaterThan(start);
  return html.slice(start + '<div id="root">'.length, end);
}

/** The row ids (`data-row-id`) of the layout rows in the server's markup, in order. */
function serverRowIds(html: string): string[] {
  return [...rootMarkup(html).matchAll(/<section\b[^>]*\bclass="row\b[^"]*"[^>]*\bdata-row-id="([^"]*)"/g)].map(
    (m) => m[1]!,
  );
}

/** The row ids of the layout rows in the live page, in order. */
function pageRowIds(page: Page): Promise<string[]> {
  return page
    .locator('section.row[data-row-id]')
    .evaluateAll((sections) => sections.map((s) => s.getAttribute('data-row-id') ?? ''));
}

interface PageData {
  answers: { key: unknown[]; data: unknown }[];
  page: { origin: string; status: number };
}

function pageDataOf(html: string): PageData {
  const match = /<script type="application\/json" id="page-data">([\s\S]*?)<\/script>/.exec(html);
  expect(match, 'the page carries its data').not.toBeNull();
  return parsePageData(match![1]!) as unknown as PageData;
}

/** `$1,234.50` as dollars. */
const dollars = (text: string) => Number(text.replace(/[$,]/g, ''));

/** The schema.org Event of an event page, as far as these tests read it. */
interface EventJsonLd {
  '@context': string;
  '@type': string;
  name: string;
  startDate: string;
  eventAttendanceMode: string;
  description: string;
  image?: string[];
  offers: { '@type': string; lowPrice: number; highPrice: number; priceCurrency: string };
  location: { '@type': string; address: { postalCode: string } };
  performer: { '@type': string }[];
}

const HOUR_MS = 3_600_000;
const WEEK_MS = 7 * 24 * HOUR_MS;

// ---- finding pages in the generated catalog ------------------------------------------------------------

interface Suggestions {
  performers: { url: string; text: string }[];
  venues: { url: string; text: string }[];
  events: { url: string; text: string }[];
}

const suggestions = new Map<string, Promise<Suggestions>>();
/** The search box's suggestions for `q`, asked once per worker. */
function suggest(request: APIRequestContext, q: string): Promise<Suggestions> {
  let found = suggestions.get(q);
  if (!found) {
    found = (async () => {
      const answer = await request.get(`/api/suggest?q=${encodeURIComponent(q)}&extra=true`);
      expect(answer.ok()).toBe(true);
      return (await answer.json()) as Suggestions;
    })();
    suggestions.set(q, found);
  }
  return found;
}

/** The address of an upcoming Yankees game that has tickets on offer (its page shows a "from" price). */
async function eventWithPrice(request: APIRequestContext): Promise<string> {
  const { events } = await suggest(request, 'yank');
  for (const event of events) {
    const html = await (await request.get(event.url)).text();
    if (html.includes('See tickets from $')) return event.url;
  }
  throw new Error(`none of ${events.map((e) => e.url).join(', ')} has tickets on offer`);
}

async function performerUrl(request: APIRequestContext): Promise<string> {
  const { performers } = await suggest(request, 'yank');
  expect(performers[0]?.url).toMatch(/^\/performers\/new-york-yankees-\d+$/);
  return performers[0]!.url;
}

async function venueUrl(request: APIRequestContext): Promise<string> {
  const { venues } = await suggest(request, 'yank');
  expect(venues[0]?.url).toMatch(/^\/venues\/[a-z0-9-]+-\d+$/);
  return venues[0]!.url;
}

/** The addresses of each kind of landing page, found once per worker. */
const LANDING_KINDS = ['home', 'category', 'group', 'event', 'performer', 'venue', 'results', 'faq'] as const;
type Landing = Record<(typeof LANDING_KINDS)[number], string>;
let landingPages: Promise<Landing> | undefined;
function landing(request: APIRequestContext): Promise<Landing> {
  landingPages ??= (async () => ({
    home: '/',
    category: '/category/nfl',
    group: '/category/sports',
    event: await eventWithPrice(request),
    performer: await performerUrl(request),
    venue: await venueUrl(request),
    results: '/results-general?kwds=boston',
    faq: '/faq',
  }))();
  return landingPages;
}

// ---- a returning guest ---------------------------------------------------------------------------------------

let sharedToken: Promise<string> | undefined;

/**
 * Makes the context a returning guest: a token in localStorage and in its cookie, as the app keeps them. The
 * page then asks for no new session: sessions are limited per client per minute, and the whole e2e suite is
 * one client, so only the tests about a first visit make one. One token per worker.
 */
async function asReturningGuest(context: BrowserContext, request: APIRequestContext, baseURL: string): Promise<void> {
  sharedToken ??= (async () => {
    const answer = await request.post('/api/customers/session', { headers: { 'X-Client-Id': 'storefront-web' } });
    expect(answer.status()).toBe(201);
    return ((await answer.json()) as { sessionToken: string }).sessionToken;
  })();
  const token = await sharedToken;
  await context.addCookies([{ name: 'guestToken', value: token, url: baseURL }]);
  await context.addInitScript((t) => {
    if (!localStorage.getItem('guestToken')) localStorage.setItem('guestToken', t);
  }, token);
}

// ---- watching the browser --------------------------------------------------------------------------------

/** Console errors and warnings and uncaught page errors, from now on. */
function watchErrors(page: Page): { console: string[]; page: string[] } {
  const seen = { console: [] as string[], page: [] as string[] };
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning')
      seen.console.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => seen.page.push(`${error.name}: ${error.message}`));
  return seen;
}

const HYDRATION_WORDS = /hydrat|did not match|Minified React error #(418|423|425)/i;

/** The API GETs the browser makes from now on (path and query). */
function watchApi(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (req: Request) => {
    const url = new URL(req.url());
    if (url.pathname.startsWith('/api/') && req.method() === 'GET') seen.push(url.pathname + url.search);
  });
  return seen;
}

/**
 * Waits until React has taken over the element `selector` names: hydration gives each element it adopts its
 * fiber (`__reactFiber$…`), the markup the server wrote has none.
 */
async function hydrated(page: Page, selector: string): Promise<void> {
  await expect
    .poll(
      () =>
        page.evaluate((sel) => {
          const element = document.querySelector(sel);
          return element !== null && Object.keys(element).some((key) => key.startsWith('__reactFiber$'));
        }, selector),
      { message: `${selector} is hydrated` },
    )
    .toBe(true);
}

const guestToken = (page: Page) => page.evaluate(() => localStorage.getItem('guestToken'));

/** The CSP violations the browser reports, as smoke.spec.ts reads them (caught or not). */
async function recordCspViolations(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (e) =>
      seen.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`),
    );
  });
}
const cspViolations = (page: Page) =>
  page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);

// ---- 1. without JavaScript ---------------------------------------------------------------------------------

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the home page shows its rows, with headings and card links', async ({ page }) => {
    const response = await page.goto('/');
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1, name: 'Find tickets near you' })).toBeVisible();
    const rows = page.locator('section.row');
    expect(await rows.count()).toBeGreaterThanOrEqual(3);
    await expect(rows.first().getByRole('heading', { level: 2 })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: 'Local Events' })).toBeVisible();
    const card = page.locator('section.row a.card').first();
    await expect(card).toBeVisible();
    await expect(card).toHaveAttribute('href', /^\/(performers|events|venues|category)\//);
    // No skeletons: the rows are the real ones, not placeholders waiting for a script.
    await expect(page.locator('.row--skeleton')).toHaveCount(0);
  });

  test('an event page shows its name, its lowest price and the matching schema.org Event', async ({
    page,
    request,
  }) => {
    const url = (await landing(request)).event;
    expect((await page.goto(url))?.status()).toBe(200);
    const h1 = page.getByRole('heading', { level: 1 });
    await expect(h1).toBeVisible();
    const name = (await h1.textContent())!.trim();
    expect(name).toContain('Yankees');
    const cta = page.getByRole('link', { name: /^See tickets from \$[\d,]+\.\d{2}$/ });
    await expect(cta).toBeVisible();
    await expect(cta).toHaveAttribute('href', `/tickets/${url.split('/').at(-1)}`);
    const shown = dollars((await cta.textContent())!.replace('See tickets from', '').trim());

    const blocks = page.locator('script[type="application/ld+json"]');
    await expect(blocks).toHaveCount(1);
    const ld = JSON.parse((await blocks.textContent())!) as EventJsonLd;
    expect(ld['@context']).toBe('https://schema.org');
    expect(ld['@type']).toBe('Event');
    expect(ld.name).toBe(name);
    expect(ld.startDate).toMatch(/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2})?$/);
    expect(ld.eventAttendanceMode).toBe('https://schema.org/OfflineEventAttendanceMode');
    expect(ld.description).toEqual(expect.any(String));
    expect(ld.image?.[0]).toMatch(/^https?:\/\/.+\/media\/performers\/\d+\.svg$/);
    expect(ld.offers['@type']).toBe('AggregateOffer');
    expect(ld.offers.lowPrice).toBe(shown);
    expect(ld.offers.highPrice).toBeGreaterThanOrEqual(ld.offers.lowPrice);
    expect(ld.offers.priceCurrency).toBe('USD');
    expect(ld.location['@type']).toBe('Place');
    expect(ld.location.address.postalCode).toMatch(/^\d{5}$/);
    expect(ld.performer.map((p) => p['@type'])).toContain('SportsTeam');
  });

  test('a performer page shows the performer and their upcoming events', async ({ page, request }) => {
    expect((await page.goto(await performerUrl(request)))?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1, name: 'New York Yankees' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: /^Upcoming events \(\d+\)$/ })).toBeVisible();
    const events = page.locator('.event-list a');
    await expect(events.first()).toBeVisible();
    await expect(events.first()).toHaveAttribute('href', /^\/events\/[a-z0-9-]+-\d+$/);
  });

  test('the same performer page is rendered at its root address', async ({ page, request }) => {
    const root = (await performerUrl(request)).replace('/performers/', '/');
    expect((await page.goto(root))?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1, name: 'New York Yankees' })).toBeVisible();
    await expect(page.locator('.event-list a').first()).toBeVisible();
  });

  test('category and group pages show their heading and rows', async ({ page }) => {
    for (const [url, title] of [
      ['/category/nfl', 'NFL Football'],
      ['/category/sports', 'Sports'],
    ] as const) {
      expect((await page.goto(url))?.status(), url).toBe(200);
      await expect(page.getByRole('heading', { level: 1, name: title, exact: true })).toBeVisible();
      await expect(page.locator('section.row h2').first()).toBeVisible();
      expect(await page.locator('section.row').count(), url).toBeGreaterThanOrEqual(2);
    }
  });

  test('a card link leads to another rendered page', async ({ page }) => {
    await page.goto('/');
    const card = page.locator('section.row a.card[href^="/performers/"]').first();
    const href = (await card.getAttribute('href'))!;
    const title = (await card.locator('.card__title').textContent())!.trim();
    await card.click();
    await expect(page).toHaveURL(new RegExp(`${href.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
    await expect(page.getByRole('heading', { level: 1, name: title, exact: true })).toBeVisible();
    await expect(page.locator('.event-list a').first()).toBeVisible();
  });

  test('the not-found page searches without a script', async ({ page }) => {
    const response = await page.goto('/no/such/page');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
    const box = page.getByRole('searchbox', { name: 'Search for an artist, team or venue' });
    await box.fill('Boston');
    // The form's own button (the phone header has a "Search" button too).
    await page.getByRole('main').getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page).toHaveURL(/\/results-general\?kwds=Boston$/);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Boston');
    await expect(page.getByRole('heading', { name: /Performers \(\d+\)/ })).toBeVisible();
  });
});

// ---- 2. head tags and status codes --------------------------------------------------------------------------

test.describe('the server HTML', () => {
  test('landing pages carry a title, description, canonical address, Open Graph tags and a Twitter card', async ({
    request,
    baseURL,
  }) => {
    const origin = new URL(baseURL!).origin;
    const pages = await landing(request);
    for (const [kind, url] of Object.entries(pages)) {
      const answer = await request.get(url);
      expect(answer.status(), url).toBe(200);
      expect(answer.headers()['content-type'], url).toContain('text/html');
      const html = await answer.text();
      const title = titleOf(html);
      const description = meta(html, 'description');
      expect(title, url).toBeTruthy();
      expect(description, url).toBeTruthy();
      expect(meta(html, 'og:title'), url).toBe(title);
      expect(meta(html, 'og:description'), url).toBe(description);
      expect(meta(html, 'og:site_name'), url).toBeTruthy();
      expect(meta(html, 'og:type'), url).toMatch(/^(website|article)$/);
      // X takes the title, description and image from Open Graph; the page names only the card's kind.
      const image = meta(html, 'og:image');
      expect(meta(html, 'twitter:card'), url).toBe(image ? 'summary_large_image' : 'summary');
      for (const key of ['twitter:title', 'twitter:description', 'twitter:image'])
        expect(meta(html, key), `${url} ${key}`).toBeUndefined();
      if (kind === 'event' || kind === 'performer')
        expect(image, url).toMatch(new RegExp(`^${origin}/media/performers/\\d+\\.svg$`));

      if (kind === 'results') {
        // Internal search results are for people: noindex, no canonical.
        expect(metaAll(html, 'robots'), url).toEqual(['noindex']);
        expect(canonicalOf(html), url).toEqual([]);
        expect(meta(html, 'og:url'), url).toBe(`${origin}/results-general`);
      } else {
        expect(metaAll(html, 'robots'), url).toEqual([]);
        // The page's own absolute address, with no query.
        expect(canonicalOf(html), url).toEqual([`${origin}${new URL(url, origin).pathname}`]);
        expect(meta(html, 'og:url'), url).toBe(canonicalOf(html)[0]);
      }
    }
    const home = await (await request.get('/')).text();
    expect(titleOf(home)).toMatch(/^Tickets near /);
    expect(titleOf(await (await request.get(pages.event)).text())).toMatch(/Yankees.* tickets$/);
    expect(titleOf(await (await request.get(pages.performer)).text())).toBe('New York Yankees tickets');
  });

  test(
    'the canonical address leaves out queries and overrides, and what a ' + 'shopper typed is escaped in the head',
    async ({ request, baseURL }) => {
      const origin = new URL(baseURL!).origin;
      for (const [url, canonical] of [
        ['/?home-layout=1&utm_source=mail', `${origin}/`],
        ['/category/nfl?zip=60601&utm_campaign=x', `${origin}/category/nfl`],
      ] as const) {
        const html = await (await request.get(url)).text();
        expect(canonicalOf(html), url).toEqual([canonical]);
        expect(meta(html, 'og:url'), url).toBe(canonical);
      }
      const typed = '"><script>alert(1)</script>&';
      const answer = await request.get(`/results-general?kwds=${encodeURIComponent(typed)}`);
      expect(answer.status()).toBe(200);
      const html = await answer.text();
      expect(titleOf(html)).toBe(`Results for “${typed}”`);
      expect(meta(html, 'og:title')).toBe(`Results for “${typed}”`);
      expect(headOf(html)).not.toContain('<script>alert(1)');
      expect(html).not.toContain('<script>alert(1)');
      // The page data is JSON that no answer can end early.
      expect(JSON.stringify(pageDataOf(html))).toContain(typed);
    },
  );

  test("each rendered page's one inline stylesheet is allowed by its hash, and its data parses", async ({
    request,
  }) => {
    for (const url of Object.values(await landing(request))) {
      const answer = await request.get(url);
      const html = await answer.text();
      const styles = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]!);
      expect(styles.length, url).toBe(1);
      expect(styles[0]!.length, url).toBeGreaterThan(1000);
      expect(styles[0], url).toMatch(/:root\{--brand:#[0-9a-f]{6};/i);
      const hash = `'sha256-${createHash('sha256').update(styles[0]!).digest('base64')}'`;
      const csp = answer.headers()['content-security-policy'] ?? '';
      const styleSrc = /(?:^|;)\s*style-src ([^;]*)/.exec(csp)?.[1]?.split(/\s+/) ?? [];
      expect(styleSrc, url).toContain(hash);
      expect(styleSrc, url).not.toContain("'unsafe-inline'");
      expect(csp, url).not.toMatch(/script-src[^;]*'unsafe-inline'/);

      const data = pageDataOf(html);
      expect(data.page.status, url).toBe(200);
      const keys = data.answers.map((a) => JSON.stringify(a.key));
      expect(keys, url).toContain('["brand"]');
      // Each answer's key and data, none of TanStack Query's dehydration bookkeeping.
      expect(
        data.answers.every((a) => Object.keys(a).join() === 'key,data'),
        url,
      ).toBe(true);
      expect(rootMarkup(html).length, url).toBeGreaterThan(1000);
    }
  });

  test('an unknown address answers 404 with the not-found page: noindex, no canonical, a plain search form', async ({
    request,
  }) => {
    for (const url of [
      '/no/such/page',
      '/events/x/nope-999999',
      '/performers/nobody-999999',
      '/category/no-such-category',
    ]) {
      const answer = await request.get(url);
      expect(answer.status(), url).toBe(404);
      const html = await answer.text();
      expect(titleOf(html), url).toBe('Page not found');
      expect(metaAll(html, 'robots'), url).toEqual(['noindex']);
      expect(canonicalOf(html), url).toEqual([]);
      const markup = rootMarkup(html);
      // The not-found page's own form (the header's search is a form too).
      const form = /<form\b[^>]*class="search-form"[^>]*>[\s\S]*?<\/form>/.exec(markup)?.[0] ?? '';
      expect(form, url).toMatch(/^<form\b[^>]*\baction="\/results-general"/);
      expect(form, url).toMatch(/^<form\b[^>]*\bmethod="get"/);
      expect(form, url).toMatch(/<input\b[^>]*\bname="kwds"/);
      expect(form, url).toMatch(/<button type="submit">/);
    }
  });

  test('a renamed event moves permanently to its current address, keeping the query', async ({ request }) => {
    const current = (await landing(request)).event;
    const id = /-(\d+)$/.exec(current)![1];
    const moved = await request.get(`/events/an-old-name-${id}?utm_source=mail&quantity=2`, { maxRedirects: 0 });
    expect(moved.status()).toBe(301);
    expect(moved.headers().location).toBe(`${current}?utm_source=mail&quantity=2`);
    const performer = await performerUrl(request);
    const movedPerformer = await request.get(performer.replace('new-york-yankees', 'ny-yankees'), { maxRedirects: 0 });
    expect(movedPerformer.status()).toBe(301);
    expect(movedPerformer.headers().location).toBe(performer);
  });

  test('a cancelled or started event answers 410 Gone, out of search indexes', async ({ request }) => {
    // The operator cancels one event a week ahead; another started two hours ago.
    const now = Date.now();
    const cancelled = hallEvent(1, 'Nome Rodeo Finals', 'cancelled', new Date(now + WEEK_MS));
    const started = hallEvent(2, 'Nome Rodeo Opening Night', 'scheduled', new Date(now - 2 * HOUR_MS));
    await upsertEvents(request, [cancelled, started]);
    for (const [id, says, status] of [
      [cancelled.event_id, 'This event is cancelled', 'https://schema.org/EventCancelled'],
      [started.event_id, 'This event has already started', 'https://schema.org/EventScheduled'],
    ] as const) {
      // The id decides: any name leads to the event's current address.
      const moved = await request.get(`/events/any-name-${id}`, { maxRedirects: 0 });
      expect(moved.status()).toBe(301);
      const url = moved.headers().location!;
      expect(url).toMatch(new RegExp(`^/events/nome-rodeo-[a-z-]+-${id}$`));
      const answer = await request.get(url);
      expect(answer.status(), url).toBe(410);
      expect(answer.headers()['x-robots-tag'], url).toBe('noindex');
      const html = await answer.text();
      expect(metaAll(html, 'robots'), url).toEqual(['noindex']);
      expect(canonicalOf(html), url).toEqual([]);
      expect(rootMarkup(html), url).toContain(says);
      expect(rootMarkup(html), url).not.toContain('See tickets from');
      // Its JSON-LD says so, and offers nothing.
      const ld = JSON.parse(
        /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(rootMarkup(html))?.[1] ?? 'null',
      ) as { eventStatus?: string; offers?: unknown } | null;
      expect(ld?.eventStatus, url).toBe(status);
      expect(ld?.offers, url).toBeUndefined();
    }
  });

  test('tickets, checkout and order pages are the empty app shell, and the client draws them', async ({
    page,
    context,
    request,
    baseURL,
  }) => {
    await asReturningGuest(context, request, baseURL!);
    const event = (await landing(request)).event;
    const tickets = event.replace(/^\/events\//, '/tickets/');
    const answer = await request.get(tickets);
    expect(answer.status()).toBe(200);
    const html = await answer.text();
    expect(html).toContain('<div id="root"></div>');
    expect(html).not.toContain('id="page-data"');
    for (const url of ['/checkout/some-cart', '/orders/some-order']) {
      const shell = await request.get(url);
      expect(shell.status(), url).toBe(200);
      expect(await shell.text(), url).toContain('<div id="root"></div>');
    }

    const errors = watchErrors(page);
    expect((await page.goto(tickets))?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Tickets for');
    expect(errors.page).toEqual([]);
  });
});

// ---- 3 and 6. hydration, and the Content-Security-Policy ---------------------------------------------------

/**
 * The GET API addresses whose answers a rendered page carries: the client must not ask for them again. The menu's
 * links are not among them: no page carries them, and nothing asks for them until a panel or the drawer opens.
 */
const EMBEDDED_API = /^\/api\/(brand|menu|layout\/|events\/|performers\/|venues\/|Searches\/get)/;

/**
 * Besides the landing pages: the event page with listing filters in its address (the server reads the filtered listings
 * too) and the not-found page.
 */
const HYDRATED_PAGES = [...LANDING_KINDS, 'filtered event', 'not-found'] as const;

for (const kind of HYDRATED_PAGES) {
  test(
    `hydration: the ${kind} page is taken over without a mismatch, a CSP ` +
      `violation or a second request for what it carries`,
    async ({ page, context, request, baseURL }) => {
      await asReturningGuest(context, request, baseURL!);
      await recordCspViolations(page);
      const pages = await landing(request);
      const url =
        kind === 'filtered event'
          ? `${pages.event}?quantity=2&sort=price_desc&maxPrice=500`
          : kind === 'not-found'
            ? '/no/such/page'
            : pages[kind];
      const errors = watchErrors(page);
      const api = watchApi(page);
      const sessions: string[] = [];
      page.on('request', (req) => {
        if (req.method() === 'POST' && new URL(req.url()).pathname === '/api/customers/session')
          sessions.push(req.url());
      });
      const response = await page.goto(url);
      expect(response?.status()).toBe(kind === 'not-found' ? 404 : 200);
      const html = await response!.text();
      const data = pageDataOf(html);

      await hydrated(page, 'h1');
      await page.waitForLoadState('networkidle');

      const hydrationMessages = errors.console.filter((m) => HYDRATION_WORDS.test(m));
      expect(hydrationMessages).toEqual([]);
      expect(errors.page).toEqual([]);
      // The inline stylesheet (allowed by its hash), the markup and what hydration does all keep to the CSP.
      expect(await cspViolations(page)).toEqual([]);
      expect(api.filter((path) => EMBEDDED_API.test(path))).toEqual([]);
      // A returning guest keeps their session.
      expect(sessions).toEqual([]);
      // The page the client drew is the one the server sent.
      const servedH1 = /<h1\b[^>]*>([\s\S]*?)<\/h1>/.exec(rootMarkup(html))?.[1] ?? '';
      expect((await page.locator('h1').textContent())?.trim()).toBe(
        decodeEntities(servedH1.replace(/<[^>]*>/g, '')).trim(),
      );
      // The brand (the site's shell) and the page's own answers; not the menu's links (RULES 12.2).
      const carried = data.answers.map((a) => JSON.stringify(a.key));
      expect(carried.length).toBeGreaterThanOrEqual(kind === 'faq' || kind === 'not-found' ? 1 : 2);
      expect(carried.filter((key) => key.includes('/api/menu'))).toEqual([]);
    },
  );
}

test('hydration: a rendered page is interactive, and its links navigate within the app', async ({
  page,
  context,
  request,
  baseURL,
}, testInfo) => {
  await asReturningGuest(context, request, baseURL!);
  const errors = watchErrors(page);
  await page.goto('/faq');
  await hydrated(page, 'a.nav-header__logo');
  await page.evaluate(() => ((window as unknown as { landed: boolean }).landed = true));
  const documents: string[] = [];
  page.on('request', (req) => {
    if (req.resourceType() === 'document') documents.push(req.url());
  });

  // The logo goes home without loading a document: the router took the click.
  await page.locator('a.nav-header__logo').click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Find tickets near you' })).toBeVisible();
  await expect(page.locator('section.row').first()).toBeVisible();
  // A card, then, also within the app.
  const card = page.locator('section.row a.card[href^="/category/"]').first();
  const href = (await card.getAttribute('href'))!;
  await card.click();
  await expect(page).toHaveURL(new RegExp(`${href}$`));
  await expect(page.locator('section.row h2').first()).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { landed?: boolean }).landed)).toBe(true);
  expect(documents).toEqual([]);

  // A control that only a script drives: the phone's search overlay or the desktop's mega-menu.
  if (testInfo.project.name === 'phone') {
    await page
      .getByRole('button', { name: /search/i })
      .first()
      .click();
    await expect(page.getByRole('dialog')).toBeVisible();
  } else {
    const sports = page.getByRole('navigation', { name: 'Categories' }).getByRole('button', { name: 'Sports' });
    await sports.click();
    await expect(sports).toHaveAttribute('aria-expanded', 'true');
    await expect(page.getByRole('link', { name: 'Dallas Cowboys', exact: true })).toBeVisible();
  }
  expect(errors.page).toEqual([]);
});

// ---- 4. the home experiment --------------------------------------------------------------------------------

test('experiment: a forced variation (?home-layout=1) is rendered by the server and kept by the client', async ({
  page,
}) => {
  const errors = watchErrors(page);
  const api = watchApi(page);
  const response = await page.goto('/?home-layout=1');
  const served = serverRowIds(await response!.text());
  // Variation 1 is the Promos page (experiment-override.spec.ts): its rows, not the base's.
  expect(served).toContain('promos');
  expect(served).not.toContain('browse-by-category');
  await hydrated(page, 'section.row h2');
  expect(await pageRowIds(page)).toEqual(served);
  // Settled: the guest session made, nothing left to load, and a while longer for anything late.
  await expect.poll(() => guestToken(page)).toMatch(/^ey/);
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(2_000);
  expect(await pageRowIds(page)).toEqual(served);
  // The layout came with the page: the client never asked for it, so nothing could switch it.
  expect(api.filter((p) => p.startsWith('/api/layout/'))).toEqual([]);
  expect(errors.console.filter((m) => HYDRATION_WORDS.test(m))).toEqual([]);
  expect(errors.page).toEqual([]);
});

test(
  'experiment: a first visit keeps the rows the server drew once the guest session exists and reports what it ' +
    'showed; a return visit is drawn by the assignment the server named',
  async ({ page, context }) => {
    await context.clearCookies();
    await recordCspViolations(page);
    const errors = watchErrors(page);
    const api = watchApi(page);
    const reports: { address: string; shown: string }[] = [];
    page.on('request', (req) => {
      if (new URL(req.url()).pathname === '/api/layout/exposures')
        reports.push(JSON.parse(req.postData() ?? '{}') as { address: string; shown: string });
    });
    const first = await page.goto('/?utm_source=mail&utm_content=r42');
    const served = serverRowIds(await first!.text());
    expect(served.length).toBeGreaterThanOrEqual(3);
    // Drawn for no one: public for shared caches, never varied by Cookie (RULES 13.7).
    expect(first!.headers()['cache-control']).toMatch(/^public, max-age=0, s-maxage=\d+/);
    expect(first!.headers().vary ?? '').not.toMatch(/cookie/i);
    await hydrated(page, 'section.row h2');
    expect(await pageRowIds(page)).toEqual(served);
    await expect.poll(() => guestToken(page)).toMatch(/^ey/);
    // Once the session exists, the browser says what it showed: the base layout, at the address without the
    // tracking parameters (RULES 2.10), and the answer names the guest's assignment for the next page.
    await expect.poll(() => reports).toEqual([{ address: '/api/layout/home', assignment: null, shown: 'base' }]);
    await expect
      .poll(async () => (await context.cookies()).find((c) => c.name === 'homeLayout')?.value)
      .toMatch(/^home-layout%3A[01]$/);
    await page.waitForTimeout(1_000);
    expect(await pageRowIds(page)).toEqual(served);
    // The session's arrival did not make the client ask for the layout again (which might switch the variation).
    expect(api.filter((p) => p.startsWith('/api/layout/'))).toEqual([]);
    // The token's copy is Strict: no other site's request carries it.
    expect((await context.cookies()).find((c) => c.name === 'guestToken')?.sameSite).toBe('Strict');

    const assignment = decodeURIComponent((await context.cookies()).find((c) => c.name === 'homeLayout')!.value);
    const again = await page.goto('/');
    const servedAgain = serverRowIds(await again!.text());
    await hydrated(page, 'section.row h2');
    await page.waitForLoadState('networkidle');
    expect(await pageRowIds(page)).toEqual(servedAgain);
    // The return visit showed the guest's own variation: its exposure is recorded and pushed once.
    await expect.poll(() => reports.length).toBe(2);
    const exposures = await page.evaluate(() =>
      (window.dataLayer ?? [])
        .filter((e) => e.event === 'experiment_viewed')
        .map((e) => `${String(e.experiment_id)}:${String(e.variation_id)}`),
    );
    expect(exposures).toEqual([expect.stringMatching(/^home-layout:[01]$/)]);
    // The variation drawn is the one assigned, and the one counted: Promos is variation 1.
    expect(servedAgain.includes('promos')).toBe(assignment === 'home-layout:1');
    expect(servedAgain.includes('promos')).toBe(exposures[0] === 'home-layout:1');
    // Neither visit is a mismatch for React or breaks the CSP.
    expect(errors.console.filter((m) => HYDRATION_WORDS.test(m))).toEqual([]);
    expect(errors.page).toEqual([]);
    expect(await cspViolations(page)).toEqual([]);
  },
);

// ---- 5. the shopper's place ----------------------------------------------------------------------------------

test("location: the home page's head and its place are the shopper's cookie's (Chicago)", async ({
  page,
  context,
  request,
  baseURL,
}) => {
  await asReturningGuest(context, request, baseURL!);
  await context.addCookies([{ name: 'shopperLocation', value: '60601', url: baseURL! }]);
  const response = await page.goto('/');
  const html = await response!.text();
  expect(titleOf(html)).toBe('Tickets near Chicago');
  expect(meta(html, 'description')).toContain('near Chicago, IL');
  // The answer embedded for the client is the one for the cookie's place.
  const layout = pageDataOf(html).answers.find((a) => a.key[0] === 'layout');
  expect(layout?.key).toEqual(['layout', '/api/layout/home', 'zip=60601', '']);
  expect((layout?.data as { location: { city: string } }).location.city).toBe('Chicago');
  await expect(page.locator('.location-picker')).toContainText('Near Chicago, IL');
  await expect(page.locator('section.row h2').first()).toBeVisible();
  await page.waitForLoadState('networkidle');
  await expect(page.locator('.location-picker')).toContainText('Near Chicago, IL');
  await expect(page).toHaveTitle('Tickets near Chicago');
});

test(
  "location: the server draws the rows for the cookie's place, and the " + 'client takes them over without a mismatch',
  async ({ page, context, request, baseURL }) => {
    await asReturningGuest(context, request, baseURL!);
    const errors = watchErrors(page);
    await context.addCookies([{ name: 'shopperLocation', value: '60601', url: baseURL! }]);
    const response = await page.goto('/');
    const html = await response!.text();
    await hydrated(page, 'section.row h2');
    await page.waitForLoadState('networkidle');
    expect(errors.console.filter((m) => HYDRATION_WORDS.test(m))).toEqual([]);
    expect(rootMarkup(html)).toMatch(/<div class="location-picker"><span>Near <strong>Chicago, IL<\/strong>/);
    expect(serverRowIds(html)).toEqual(await pageRowIds(page));
  },
);

test('words typed into the rendered search box before the script runs are searched once it has', async ({
  context,
}, testInfo) => {
  test.skip(testInfo.project.name !== 'desktop', 'the search field is in the wide header');
  // A page of its own (not the fixture's, whose goto waits for the script): the app's script is held back
  // until the shopper has typed, as on a slow phone.
  const page = await context.newPage();
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/boot-[^/]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/', { waitUntil: 'domcontentloaded' });
  const box = page.getByRole('combobox', { name: 'Search' });
  await box.click();
  await box.pressSequentially('yank');
  expect(await page.evaluate(() => document.documentElement.dataset.ready)).toBeUndefined();
  release();
  await expect(page.getByRole('option', { name: /New York Yankees/ }).first()).toBeVisible();
  await expect(box).toHaveValue('yank');
});

/** The scripts a page loads that carry zod (it names its classes `$ZodType`), by path, from when it is watched. */
function watchZod(page: Page): () => Promise<string[]> {
  const scripts: { url: string; zod: Promise<boolean> }[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'script') return;
    scripts.push({ url: response.url(), zod: response.text().then((text) => text.includes('$ZodType')) });
  });
  return async () => {
    expect(scripts.length).toBeGreaterThan(1);
    const found = await Promise.all(scripts.map(async (s) => ((await s.zod) ? [new URL(s.url).pathname] : [])));
    return found.flat();
  };
}

test('a rendered home page hydrates without zod: the schemas load with the first fetch that needs them', async ({
  context,
}, testInfo) => {
  test.skip(testInfo.project.name !== 'desktop', 'the search field is in the wide header');
  // A new guest (the session is asked for and checked on the first screen), on a page of its own so that every
  // script the page loads is seen from the first.
  const page = await context.newPage();
  const zodScripts = watchZod(page);
  await page.goto('/');
  await hydrated(page, 'h1');
  await expect(page.locator('html[data-ready="true"]')).toHaveCount(1);
  await page.waitForLoadState('networkidle');
  expect(await page.evaluate(() => localStorage.getItem('guestToken'))).toBeTruthy();
  expect(await zodScripts()).toEqual([]);

  // The first suggestion parses its answer: zod comes now, with it.
  const box = page.getByRole('combobox', { name: 'Search' });
  await box.click();
  await box.pressSequentially('yank');
  await expect(page.getByRole('option', { name: /New York Yankees/ }).first()).toBeVisible();
  expect(await zodScripts()).not.toEqual([]);
});

test('a rendered event page hydrates without zod: the buying schemas load with the first call that needs them', async ({
  context,
  request,
}) => {
  const page = await context.newPage();
  const zodScripts = watchZod(page);
  await page.goto((await landing(request)).event);
  await hydrated(page, 'h1');
  await expect(page.locator('html[data-ready="true"]')).toHaveCount(1);
  await page.waitForLoadState('networkidle');
  expect(await zodScripts()).toEqual([]);

  // Choosing a listing asks for it: zod comes now, with its answer's schema.
  await page
    .getByRole('link', { name: /^Select / })
    .first()
    .click();
  await expect(page).toHaveURL(/\/tickets\//);
  await expect.poll(zodScripts).not.toEqual([]);
});
