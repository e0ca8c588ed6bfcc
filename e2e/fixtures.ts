import { test as base, type Page } from '@playwright/test';
import { parsePageData, type PageData } from '../client/src/app/page-data.js';

export * from '@playwright/test';

/** The data the server rendered the open page with, read back as the client reads it; null on a page it did not. */
export async function renderedPageData(page: Page): Promise<PageData | null> {
  const text = await page
    .locator('#page-data')
    .textContent({ timeout: 1_000 })
    .catch(() => null);
  return text ? parsePageData(text) : null;
}

/**
 * Waits until the storefront's script has taken the open page over (`<html data-ready>`) when the server rendered it
 * (it carries its data): such a page is readable at once, but its buttons and links answer only once hydrated.
 */
export async function whenLive(page: Page): Promise<void> {
  await page.waitForFunction(
    () => document.documentElement.dataset.ready === 'true' || !document.getElementById('page-data'),
    undefined,
    { timeout: 15_000 },
  );
}

/**
 * Playwright's `test`, with `page.goto` waiting until the storefront's script has taken the page over
 * (`<html data-ready>`) on a page the server rendered: such a page is readable at once, but its buttons and the search
 * box answer
 * only once hydrated, and these tests are about what they do then. The page without script is tested in
 * e2e/ssr.spec.ts, with JavaScript off (where there is nothing to wait for).
 */
export const test = base.extend({
  page: async ({ page, javaScriptEnabled }, use) => {
    if (javaScriptEnabled !== false) {
      const goto = page.goto.bind(page);
      page.goto = async (url, options) => {
        const response = await goto(url, options);
        await whenLive(page);
        return response;
      };
    }
    await use(page);
  },
});
