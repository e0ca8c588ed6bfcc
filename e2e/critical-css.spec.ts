import { expect, test, type Page } from './fixtures.js';

// RULES 13.9: a rendered page inlines the part of the stylesheets its markup uses, and links the whole ones at the
// end of the body. The first paint must look as it would with the whole stylesheets, and what the client draws
// later (an opened menu panel) is styled by the linked ones.

/** Properties that place and paint an element: the ones a missing rule would change. */
const PROPERTIES = [
  'display',
  'position',
  'visibility',
  'width',
  'height',
  'margin-top',
  'margin-left',
  'padding-top',
  'padding-left',
  'color',
  'background-color',
  'border-top-width',
  'font-size',
  'font-weight',
  'flex-direction',
  'grid-template-columns',
  'text-decoration-line',
  'overflow-x',
];

/** The height of a tall desktop window, below which a long page's rest may wait for the linked stylesheets. */
const TALL_WINDOW_PX = 1_300;

/**
 * Each element of the page's markup, in document order, with the values of `PROPERTIES` and where it starts on the
 * page (an element not displayed, where its nearest displayed ancestor does).
 */
function computedStyles(page: Page): Promise<{ style: string; top: number }[]> {
  return page.evaluate((properties) => {
    const top = (element: Element | null): number => {
      for (let e = element; e; e = e.parentElement)
        if (e.getClientRects().length > 0) return e.getBoundingClientRect().top + scrollY;
      return 0;
    };
    return [...document.querySelectorAll('#root *')].map((element) => {
      const style = getComputedStyle(element);
      const values = properties.map((name) => `${name}:${style.getPropertyValue(name)}`).join(';');
      return {
        style: `${element.tagName.toLowerCase()}.${element.getAttribute('class') ?? ''} ${values}`,
        top: top(element),
      };
    });
  }, PROPERTIES);
}

test.describe('the first paint without the linked stylesheets', () => {
  // The markup as the server sent it: no script redraws it.
  test.use({ javaScriptEnabled: false });

  for (const path of ['/', '/?home-layout=1', '/category/nfl']) {
    test(`looks as with them: ${path}`, async ({ page, browserName }, testInfo) => {
      test.skip(testInfo.project.name !== 'desktop' || browserName !== 'chromium', 'one layout is enough');
      // The mouse away from every element: a hover rule waits for the whole stylesheet.
      await page.mouse.move(0, 0);
      const html = await (await page.goto(path))!.text();
      const whole = await computedStyles(page);
      expect(whole.length).toBeGreaterThan(100);
      // The same page with its linked stylesheets refused: the inline part alone.
      await page.route('**/assets/*.css', (route) => route.abort());
      const answer = await page.goto(path);
      expect(await answer!.text()).toMatch(/<link rel="stylesheet" crossorigin href="\/assets\/[^"]+\.css" \/>/);
      expect(await page.evaluate(() => document.styleSheets.length)).toBeGreaterThan(0);
      const inline = await computedStyles(page);
      expect(inline.map((e) => e.style.split(' ')[0])).toEqual(whole.map((e) => e.style.split(' ')[0]));
      // A page with more rows than a first screen holds leaves what follows them to the linked stylesheets (RULES
      // 13.9): everything that starts within a tall window looks the same, and the rest is there, below it. Any
      // other page looks the same whole.
      const restLinked = !/<style>[^<]*\.nav-footer__guarantee\{/.test(html);
      const seen = (list: { style: string; top: number }[]) =>
        list.filter((_, i) => !restLinked || whole[i]!.top < TALL_WINDOW_PX).map((e) => e.style);
      expect(seen(inline)).toEqual(seen(whole));
      if (restLinked) expect(whole.some((e) => e.top >= TALL_WINDOW_PX)).toBe(true);
    });
  }
});

test('an opened mega-menu panel is styled by the linked stylesheet, which the inline part leaves out', async ({
  page,
  request,
}, testInfo) => {
  test.skip(testInfo.project.name !== 'desktop', 'the mega-menu is the desktop navigation');
  const html = await (await request.get('/')).text();
  const inline = /<style>([\s\S]*?)<\/style>/.exec(html)![1]!;
  // A panel is drawn by the client when it opens: neither it nor its rules are in the page (RULES 12.2, 13.9).
  expect(inline).not.toContain('.mega-menu__panel');
  expect(html).not.toContain('mega-menu__panel');
  // The full stylesheets come last in the body.
  const body = html.slice(html.indexOf('id="page-data"'));
  expect(body).toMatch(/<link rel="stylesheet" crossorigin href="\/assets\/[^"]+\.css" \/>\s*<\/body>/);

  await page.goto('/');
  const sports = page.getByRole('navigation', { name: 'Categories' }).getByRole('button', { name: 'Sports' });
  await sports.click();
  await expect(sports).toHaveAttribute('aria-expanded', 'true');
  const inner = page.locator('.mega-menu__panel .mega-menu__panel-inner');
  await expect(inner).toBeVisible();
  // `.mega-menu__panel-inner{max-width:var(--max-width);margin:0 auto;padding:1rem 1rem 1.5rem}`
  await expect(inner).toHaveCSS('padding-bottom', '24px');
  await expect(inner).toHaveCSS('max-width', '1200px');
});
