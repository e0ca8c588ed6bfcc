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

/** Each element of the page's markup (but those `leftOut` matches) with the values of `PROPERTIES`, in order. */
function computedStyles(page: Page, leftOut = ':not(*)'): Promise<string[]> {
  return page.evaluate(
    ({ properties, leftOut }) => {
      return [...document.querySelectorAll('#root *')]
        .filter((element) => !element.matches(leftOut))
        .map((element) => {
          const style = getComputedStyle(element);
          const values = properties.map((name) => `${name}:${style.getPropertyValue(name)}`).join(';');
          return `${element.tagName.toLowerCase()}.${element.getAttribute('class') ?? ''} ${values}`;
        });
    },
    { properties: PROPERTIES, leftOut },
  );
}

/** The site footer and everything in it. */
const FOOTER = 'footer.nav-footer, footer.nav-footer *';
/** The height of a tall desktop window, which a footer whose rules are not inline starts below (RULES 13.9). */
const TALL_WINDOW_PX = 1_300;

test.describe('the first paint without the linked stylesheets', () => {
  // The markup as the server sent it: no script redraws it.
  test.use({ javaScriptEnabled: false });

  for (const path of ['/', '/category/nfl']) {
    test(`looks as with them: ${path}`, async ({ page, browserName }, testInfo) => {
      test.skip(testInfo.project.name !== 'desktop' || browserName !== 'chromium', 'one layout is enough');
      // The mouse away from every element: a hover rule waits for the whole stylesheet.
      await page.mouse.move(0, 0);
      const first = await page.goto(path);
      // A footer below enough rows is off the first screen: its rules wait for the linked stylesheets, and it is
      // left out of the comparison, once it is seen to start below a tall window.
      const footerInline = /<style>[^<]*\.nav-footer__guarantee\{/.test(await first!.text());
      const leftOut = footerInline ? undefined : FOOTER;
      if (!footerInline) {
        const top = await page.locator('footer.nav-footer').evaluate((f) => f.getBoundingClientRect().top + scrollY);
        expect(top).toBeGreaterThan(TALL_WINDOW_PX);
      }
      const whole = await computedStyles(page, leftOut);
      expect(whole.length).toBeGreaterThan(100);
      // The same page with its linked stylesheets refused: the inline part alone.
      await page.route('**/assets/*.css', (route) => route.abort());
      const answer = await page.goto(path);
      expect(await answer!.text()).toMatch(/<link rel="stylesheet" crossorigin href="\/assets\/[^"]+\.css" \/>/);
      expect(await page.evaluate(() => document.styleSheets.length)).toBeGreaterThan(0);
      const inline = await computedStyles(page, leftOut);
      expect(inline).toEqual(whole);
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
