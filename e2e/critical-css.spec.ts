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

/** The height of a tall desktop window, below which a page's rest may wait for the linked stylesheets. */
const TALL_WINDOW_PX = 1_300;

/**
 * Each element of the page's markup with the values of `PROPERTIES`, in document order; with `firstScreen`, only
 * those before the rest RULES 13.9 reads as off the first screen (the rows after the five that draw items once
 * they hold 25 items, and the footer), and the top of that rest (Infinity when the page has none).
 */
function computedStyles(page: Page, firstScreen: boolean): Promise<{ styles: string[]; restTop: number }> {
  return page.evaluate(
    ({ properties, firstScreen }) => {
      const rest = new Set<Element>();
      if (firstScreen) {
        let rows = 0;
        let items = 0;
        const below: Element[] = [];
        for (const section of document.querySelectorAll('#root section[data-row-id]')) {
          if (rows >= 5 && items >= 25) below.push(section);
          const held = section.querySelectorAll('[data-item]').length;
          if (held > 0) rows++;
          items += held;
        }
        if (rows >= 5 && items >= 25) below.push(...document.querySelectorAll('#root footer.nav-footer'));
        for (const element of below) [element, ...element.querySelectorAll('*')].forEach((e) => rest.add(e));
      }
      // Where the rest starts, of what is drawn (an element not displayed has no box).
      const tops = [...rest]
        .filter((e) => e.getClientRects().length > 0)
        .map((e) => e.getBoundingClientRect().top + scrollY);
      return {
        styles: [...document.querySelectorAll('#root *')]
          .filter((element) => !rest.has(element))
          .map((element) => {
            const style = getComputedStyle(element);
            const values = properties.map((name) => `${name}:${style.getPropertyValue(name)}`).join(';');
            return `${element.tagName.toLowerCase()}.${element.getAttribute('class') ?? ''} ${values}`;
          }),
        restTop: Math.min(Infinity, ...tops),
      };
    },
    { properties: PROPERTIES, firstScreen },
  );
}

test.describe('the first paint without the linked stylesheets', () => {
  // The markup as the server sent it: no script redraws it.
  test.use({ javaScriptEnabled: false });

  for (const path of ['/', '/category/nfl']) {
    test(`looks as with them: ${path}`, async ({ page, browserName }, testInfo) => {
      test.skip(testInfo.project.name !== 'desktop' || browserName !== 'chromium', 'one layout is enough');
      // The mouse away from every element: a hover rule waits for the whole stylesheet.
      await page.mouse.move(0, 0);
      const first = await page.goto(path);
      // A page whose rows fill more than a tall window leaves the rest (the rows after them, the footer) to the
      // linked stylesheets: the comparison is of what is above it, once the rest is seen to start below the window.
      const restLinked = !/<style>[^<]*\.nav-footer__guarantee\{/.test(await first!.text());
      const whole = await computedStyles(page, restLinked);
      if (restLinked) expect(whole.restTop).toBeGreaterThan(TALL_WINDOW_PX);
      expect(whole.styles.length).toBeGreaterThan(100);
      // The same page with its linked stylesheets refused: the inline part alone.
      await page.route('**/assets/*.css', (route) => route.abort());
      const answer = await page.goto(path);
      expect(await answer!.text()).toMatch(/<link rel="stylesheet" crossorigin href="\/assets\/[^"]+\.css" \/>/);
      expect(await page.evaluate(() => document.styleSheets.length)).toBeGreaterThan(0);
      const inline = await computedStyles(page, restLinked);
      expect(inline.styles).toEqual(whole.styles);
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
