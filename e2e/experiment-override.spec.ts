import { expect, renderedPageData, test, type Page } from './fixtures.js';

// GrowthBook's own override, `?<experiment-key>=<variation index>`, from the page URL through to the layout:
// the home-layout experiment's variation 1 is the Promos page (segments/base/explore~promos.json: the Promos and
// Top Categories rows, no Browse By Category), variation 0 the base Explore page. As in GrowthBook's SDK, a
// forced view is no exposure: nothing reaches window.dataLayer for it, while a plain view is counted once.

const exposures = (page: Page) =>
  page.evaluate(() =>
    (window.dataLayer ?? [])
      .filter((e) => e.event === 'experiment_viewed')
      .map((e) => `${String(e.experiment_id)}:${String(e.variation_id)}`),
  );
const rowHeading = (page: Page, name: string) =>
  page.locator('.layout-page').getByRole('heading', { level: 2, name, exact: true });

/**
 * Opens a page and gives the layout address it was drawn from: the server renders the page with the layout the
 * client would ask for, and embeds it under the client's key (`['layout', path, place, page query]`).
 */
async function open(page: Page, url: string) {
  await page.goto(url);
  const key = (await renderedPageData(page))?.answers.find((a) => a.key[0] === 'layout')?.key as string[] | undefined;
  expect(key, 'the page carries the layout it was drawn from').toBeDefined();
  return new URL(`${key![1]}?${[key![2], key![3]].filter(Boolean).join('&')}`, 'http://layout.invalid');
}

test('/?home-layout=1 shows the Promos variation, and the forced view is no exposure', async ({ page }) => {
  const request = await open(page, '/?home-layout=1');
  expect(request.searchParams.get('home-layout')).toBe('1');
  await expect(rowHeading(page, 'Top Categories')).toBeVisible();
  await expect(rowHeading(page, 'Promos')).toBeVisible();
  await expect(rowHeading(page, 'Local Events')).toBeVisible();
  await expect(rowHeading(page, 'Browse By Category')).toHaveCount(0);
  await expect.poll(() => page.evaluate(() => localStorage.getItem('guestToken'))).toMatch(/^ey/);
  await page.waitForLoadState('networkidle');
  expect(await exposures(page)).toEqual([]);

  // Back home through the header, within the app: the page URL has no override now, so neither has the
  // layout request, and the guest sees their own variation, counted once.
  const plain = page.waitForRequest((req) => new URL(req.url()).pathname === '/api/layout/home');
  await page.locator('a.nav-header__logo').click();
  await expect(page).toHaveURL(/\/$/);
  expect(new URL((await plain).url()).searchParams.has('home-layout')).toBe(false);
  await expect.poll(() => exposures(page)).toEqual([expect.stringMatching(/^home-layout:[01]$/)]);
  const variation = (await exposures(page))[0]!.endsWith(':1') ? 'Top Categories' : 'Browse By Category';
  await expect(rowHeading(page, variation)).toBeVisible();

  // A page load without the override counts the view again (a new page view), and only once.
  await open(page, '/');
  await expect(rowHeading(page, variation)).toBeVisible();
  await expect.poll(() => exposures(page)).toEqual([expect.stringMatching(/^home-layout:[01]$/)]);
});

test('/?home-layout=0 shows the base rows, and no exposure', async ({ page }) => {
  const request = await open(page, '/?home-layout=0');
  expect(request.searchParams.get('home-layout')).toBe('0');
  await expect(rowHeading(page, 'Browse By Category')).toBeVisible();
  await expect(rowHeading(page, 'Popular Local Performers')).toBeVisible();
  await expect(rowHeading(page, 'Top Categories')).toHaveCount(0);
  await expect(rowHeading(page, 'Promos')).toHaveCount(0);
  await page.waitForLoadState('networkidle');
  expect(await exposures(page)).toEqual([]);
});

test('GrowthBook starts as the search box opens, evaluates remotely with the page URL, is never sent a rule', async ({
  page,
}, testInfo) => {
  const evaluations: { url: string; body: string }[] = [];
  const payloadFetches: string[] = [];
  page.on('request', (req) => {
    const { pathname } = new URL(req.url());
    if (pathname.startsWith('/api/features/')) payloadFetches.push(pathname);
  });
  page.on('response', async (res) => {
    const req = res.request();
    if (req.method() !== 'POST' || !new URL(res.url()).pathname.startsWith('/api/eval/')) return;
    evaluations.push({ url: String((req.postDataJSON() as { url?: unknown }).url), body: await res.text() });
  });
  await open(page, '/?home-layout=1');
  await expect(rowHeading(page, 'Promos')).toBeVisible();
  await page.waitForLoadState('networkidle');
  // The first screen carries no GrowthBook: a visitor who never searches costs no evaluation.
  expect(evaluations).toEqual([]);
  if (testInfo.project.name === 'phone')
    await page
      .getByRole('button', { name: /search/i })
      .first()
      .click();
  await page.getByRole('combobox').click();
  await expect.poll(() => evaluations.length).toBeGreaterThan(0);
  expect(evaluations[0]!.url).toMatch(/\?home-layout=1$/);
  for (const { body } of evaluations) {
    expect(body).toContain('"recent_trending_search"');
    expect(body).not.toMatch(/weights|coverage|condition|"rules":\[\{"(id|key|variations)"/);
  }
  expect(payloadFetches).toEqual([]);
});
