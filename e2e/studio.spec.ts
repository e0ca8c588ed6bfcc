import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { axeViolations } from './axe.js';
import { expect, test, type Browser, type Page } from './fixtures.js';

const STUDIO_KEY = process.env.E2E_STUDIO_KEY!;

/**
 * The live home page's row headings, as a new shopper (no cache, no stored guest) sees them in the base
 * variation (forced, so the experiment's split does not decide).
 */
async function liveRowTitles(browser: Browser): Promise<string[]> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto('/?home-layout=0');
  await expect(page.locator('section.row h2').first()).toBeVisible();
  const titles = await page.locator('section.row h2').allTextContents();
  await context.close();
  return titles;
}

/**
 * Puts the caret just inside the closing quote of the first `text` in the editor, found as a person finds it:
 * the editor's search (Ctrl+F), Enter, Escape.
 */
async function caretBeforeClosingQuote(page: Page, text: string) {
  await page.locator('.cm-content').click();
  await page.keyboard.press('Control+f');
  const find = page.getByRole('textbox', { name: 'Find' });
  await expect(find).toBeFocused();
  await page.keyboard.type(text);
  await find.press('Enter');
  await find.press('Escape');
  // The match is selected: step to its end, then back over its closing quote.
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowLeft');
}

/** The row ids the preview's base page shows, top to bottom. */
const previewRowIds = (page: Page) =>
  page.getByRole('article', { name: 'Base page' }).locator('.preview-row__meta > code:first-child').allTextContents();

/** Opens the studio with a key (the single admin's unless given), on the base explore page's draft. */
async function openStudio(page: Page, key = STUDIO_KEY) {
  await page.goto('/studio');
  await page.getByLabel('Studio key').fill(key);
  await page.getByRole('button', { name: 'Open the studio' }).click();
  await expect(page.getByRole('heading', { name: 'Segment studio' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'base/explore.json' })).toHaveAttribute('aria-current', 'true');
}

/** A studio user added as an operator adds one (`npm run studio -- users add`), on the e2e server's data; their key. */
function addStudioUser(name: string, role: string, brand: string): string {
  const out = execFileSync(
    process.execPath,
    ['--import', 'tsx', 'server/cli/studio.ts', 'users', 'add', '--name', name, '--role', role, '--brand', brand],
    { env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR!, NODE_ENV: 'test', LOG_LEVEL: 'silent' } },
  ).toString();
  return /(sk_[A-Za-z0-9_-]+)/.exec(out)![1]!;
}

test.describe('the studio', () => {
  // One merchandiser at a time, in order: the flows change the one draft set, and publish to the live set.
  test.describe.configure({ mode: 'default' });
  test.beforeEach(() => {
    test.skip(test.info().project.name !== 'desktop', 'the studio flow runs once, on the desktop project');
  });

  test(
    'a merchandiser breaks a row, sees the error with its line and a fix, ' +
      'repairs it, previews both variations in another city, publishes and ' +
      'rolls back',
    async ({ page, browser }) => {
      test.setTimeout(120_000);
      const before = await liveRowTitles(browser);
      expect(before).toContain('Local Venues');

      // The studio asks for its key in production.
      await openStudio(page);
      const editor = page.getByRole('textbox', { name: 'Draft of base/explore.json' });
      await expect(editor).toBeVisible();
      await expect(page.getByRole('heading', { name: 'No problems: the drafts can be published' })).toBeVisible();
      expect(await axeViolations(page)).toEqual([]);

      // Break a row: "venues" becomes "venue". One problem, at its line and column, with the fix offered.
      await caretBeforeClosingQuote(page, '"kind": "venues"');
      await page.keyboard.press('Backspace');
      const problems = page.getByRole('region', { name: /problem/ });
      await expect(problems.getByRole('heading', { name: '1 problem' })).toBeVisible();
      const problem = problems.getByRole('button', { name: /base\/explore\.json:\d+:\d+/ });
      await expect(problem).toContainText(
        '"venue" is not a row kind. Allowed kinds: performers, events, venues, ' +
          'categories, promos. Did you mean "venues"?',
      );
      const [, line] = /base\/explore\.json:(\d+):\d+/.exec((await problem.textContent()) ?? '')!;
      // The line it names is the broken one: the editor shows it as the line the caret is on.
      await problem.click();
      await expect(page.locator('.cm-lineNumbers .cm-activeLineGutter')).toHaveText(line!);
      await expect(page.locator('.cm-activeLine')).toContainText('"kind": "venue"');
      // The page that extends it is skipped, not reported as a second error.
      await expect(problems).toContainText('encore/explore.json is skipped because base/explore.json has problems');
      // Marked in the editor too, and nothing can be published.
      await expect(page.locator('.cm-lintRange-error').first()).toBeVisible();
      await expect(page.getByRole('button', { name: 'Publish' })).toBeDisabled();
      expect(await axeViolations(page)).toEqual([]);

      // Repair it with the fix the editor offers.
      await page.locator('.cm-lintRange-error').first().hover();
      await page.getByRole('button', { name: 'Use "venues"' }).click();
      await expect(page.getByRole('heading', { name: 'No problems: the drafts can be published' })).toBeVisible();

      // A change shoppers will see: the venues row gets a new title.
      await caretBeforeClosingQuote(page, '"title": "Local Venues"');
      await page.keyboard.type(' Near You');
      await expect(page.getByRole('status').filter({ hasText: 'Draft saved' })).toBeVisible();
      await expect(page.getByRole('button', { name: /base\/explore\.json.*changed/ })).toBeVisible();

      // Preview the home page for a Chicago ZIP, both variations side by side.
      await page.getByLabel('Place by').selectOption('zip');
      await page.getByLabel('ZIP code').fill('60601');
      await page.getByRole('button', { name: 'Show this place' }).click();
      await page.getByLabel('Variation').selectOption('all');
      const base = page.getByRole('article', { name: /^Variation 0: base/ });
      const promos = page.getByRole('article', { name: /^Variation 1: promos/ });
      for (const column of [base, promos]) {
        await expect(column).toContainText('near Chicago, IL');
        await expect(column.getByRole('heading', { name: 'Local Venues Near You' })).toBeVisible();
      }
      await expect(promos.getByRole('heading', { name: 'Top Categories' })).toBeVisible();
      await expect(base.getByRole('heading', { name: 'Top Categories' })).toHaveCount(0);
      // Beside each row: its status, count, time and where it came from.
      await expect(promos.getByText('from base/explore~promos.json by insertBefore')).toBeVisible();
      await expect(base.locator('.preview-row__meta').first()).toHaveText(
        /^popular-local-performers (shown|hidden: found nothing) · \d+ items? · [\d.]+ ms · from base\/explore\.json$/,
      );
      expect(await axeViolations(page)).toEqual([]);
      // Shoppers still see the live set.
      expect(await liveRowTitles(browser)).toEqual(before);

      // Publish: live at once.
      await page.getByLabel('What this publish changes (one line, required)').fill('Venues row: Local Venues Near You');
      await page.getByRole('button', { name: 'Publish' }).click();
      await expect(page.getByText(/Published version \d+\. Shoppers see it now\./)).toBeVisible();
      expect(await liveRowTitles(browser)).toContain('Local Venues Near You');

      // Roll back to the version before, in one step.
      const history = page.getByRole('list').filter({ has: page.getByText(/Venues row: Local Venues Near You/) });
      const previous = history.getByRole('button', { name: /^Restore version \d+$/ }).first();
      const n = (await previous.textContent())!.replace('Restore version ', '');
      await previous.click();
      // It asks once more before shoppers see it.
      await page.getByRole('button', { name: `Yes, restore version ${n}` }).click();
      await expect(page.getByText(/Restored version \d+ as version \d+\. Shoppers see it now\./)).toBeVisible();
      expect(await liveRowTitles(browser)).toEqual(before);
      expect(await axeViolations(page)).toEqual([]);

      // The drafts held only what was live, so they follow the restore: the next publish cannot undo it.
      await expect(page.getByRole('button', { name: /base\/explore\.json.*changed/ })).toHaveCount(0);
      await expect(page.locator('.cm-content')).not.toContainText('Local Venues Near You');

      // Completion from the schema: a performers row is offered the one field it lacks, with what it does.
      await caretBeforeClosingQuote(page, '"empty": "widen"');
      await page.keyboard.press('ArrowRight');
      await page.keyboard.type(',');
      await page.keyboard.press('Enter');
      await page.keyboard.type('"fi');
      await page.keyboard.press('Control+Space');
      const options = page.locator('.cm-tooltip-autocomplete li');
      await expect(options).toHaveText(['"filter"']);
      await options.first().click();
      await expect(page.locator('.cm-activeLine')).toHaveText(/^\s*"filter": \{\}$/);

      // New work is kept until discarded, and discarding asks first.
      await expect(page.getByRole('button', { name: /base\/explore\.json.*changed/ })).toBeVisible();
      await page.getByRole('button', { name: 'Discard drafts' }).click();
      await page.getByRole('button', { name: 'Cancel' }).click();
      await expect(page.getByRole('button', { name: /base\/explore\.json.*changed/ })).toBeVisible();
      await page.getByRole('button', { name: 'Discard drafts' }).click();
      await page.getByRole('button', { name: 'Yes, discard the drafts' }).click();
      await expect(page.getByRole('button', { name: /base\/explore\.json.*changed/ })).toHaveCount(0);
      await expect(page.getByText('The drafts are the live set again.')).toBeVisible();
    },
  );

  test('a version scheduled 10 seconds ahead reaches the home page within 2 seconds of its time', async ({
    page,
    browser,
  }) => {
    test.setTimeout(90_000);
    await openStudio(page, STUDIO_KEY);
    // The draft: the venues row renamed (through the API, as any editor saving a file would).
    const api = page.request;
    const headers = { 'X-Studio-Key': STUDIO_KEY };
    await api.post('/api/studio/discard', { headers, data: {} });
    const state = await (await api.get('/api/studio/state', { headers })).json();
    const text = state.files.find((f: { path: string }) => f.path === 'base/explore.json').text as string;
    const renamed = text.replace('"title": "Local Venues"', '"title": "Venues At Ten"');
    expect(renamed).not.toBe(text);
    const saved = await api.put('/api/studio/files/base/explore.json', { headers, data: { text: renamed } });
    expect(saved.status()).toBe(200);
    await page.reload();

    // Ten seconds ahead, in the browser's own zone, to the second.
    const due = Math.ceil((Date.now() + 10_000) / 1000) * 1000;
    const local = await page.evaluate((t) => {
      const d = new Date(t);
      const pad = (n: number) => String(n).padStart(2, '0');
      return (
        `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T` +
        `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`
      );
    }, due);
    await page.getByLabel('What this publish changes').fill('Venues at ten');
    await page.getByLabel('When').selectOption('later');
    await page.getByLabel(/Date and time/).fill(local);
    await page.getByRole('button', { name: 'Schedule' }).click();
    await expect(page.getByText(/Scheduled as number \d+/)).toBeVisible();

    // The studio's preview of the site as of that time shows it; the live home page does not, yet.
    await page.getByLabel('The site as of').fill(local);
    await expect(page.getByRole('heading', { name: /^The site as of / })).toBeVisible();
    await expect(page.locator('.preview').getByRole('heading', { name: 'Venues At Ten' }).first()).toBeVisible();
    expect(Date.now()).toBeLessThan(due);
    expect(await liveRowTitles(browser)).not.toContain('Venues At Ten');

    // Within 2 seconds of its time, a new shopper's home page has it.
    await page.waitForTimeout(Math.max(0, due - Date.now()));
    const layoutTitles = async () =>
      ((await (await api.get('/api/layout/home?home-layout=0')).json()).rows as { title: string }[]).map(
        (r) => r.title,
      );
    await expect.poll(layoutTitles, { intervals: [100], timeout: 2_000 }).toContain('Venues At Ten');
    expect(await liveRowTitles(browser)).toContain('Venues At Ten');
    await expect(page.getByText(/Published as version \d+/)).toBeVisible({ timeout: 10_000 });

    // Back to the shipped files for the other tests.
    await api.post('/api/studio/discard', { headers, data: {} });
    const restored = await api.post('/api/studio/versions/1/restore', { headers, data: {} });
    expect(restored.status()).toBe(201);
  });

  test('an editor saves drafts but cannot publish: no Publish button, and the API refuses', async ({ page }) => {
    const key = addStudioUser(`Editor ${Date.now()}`, 'editor', 'base');
    await openStudio(page, key);
    await expect(page.getByText(/Signed in as Editor \d+/)).toBeVisible();
    await expect(page.getByText('publishing needs the publisher role')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Publish' })).toHaveCount(0);
    const refused = await page.request.post('/api/studio/publish', {
      headers: { 'X-Studio-Key': key },
      data: { note: 'not mine to publish', brand: 'base' },
    });
    expect(refused.status()).toBe(403);
    expect((await refused.json()).error.message).toContain('publisher');
    expect(await axeViolations(page)).toEqual([]);
  });

  test('a merchandiser reorders rows in the form with the keyboard alone and sees the preview follow', async ({
    page,
  }) => {
    await openStudio(page);
    await expect(page.getByRole('article', { name: 'Base page' }).locator('.preview-row').first()).toBeVisible();
    const before = await previewRowIds(page);
    expect(before.slice(0, 2)).toEqual(['popular-local-performers', 'local-events']);

    await page.getByRole('button', { name: 'Form', exact: true }).click();
    const form = page.getByRole('region', { name: 'Form for base/explore.json' });
    await expect(form.getByRole('textbox', { name: 'Title' })).toHaveValue('Explore');
    // A row opened, its controls drawn from the schema: axe finds nothing wrong with any of them.
    await form.getByRole('button', { name: 'Edit “Local Events”' }).click();
    await expect(form.getByRole('combobox', { name: 'Sort (optional)' })).toHaveValue('soonest');
    expect(await axeViolations(page)).toEqual([]);

    // From the switch, Tab to the second row's handle, and move the row up with Alt+Arrow Up.
    await page.getByRole('button', { name: 'Form', exact: true }).focus();
    const handle = form.getByRole('button', { name: 'Reorder “Local Events”, row 2 of 6' });
    for (let i = 0; i < 12 && !(await handle.evaluate((el) => el === document.activeElement)); i++)
      await page.keyboard.press('Tab');
    await expect(handle).toBeFocused();
    await page.keyboard.press('Alt+ArrowUp');
    await expect(form.getByRole('button', { name: 'Reorder “Local Events”, row 1 of 6' })).toBeFocused();
    await expect(form.getByRole('status')).toHaveText('Moved “Local Events” up: row 1 of 6.');

    // Saved as a draft, the preview draws the rows in their new order.
    await expect(page.getByRole('button', { name: /base\/explore\.json.*changed/ })).toBeVisible();
    await expect.poll(() => previewRowIds(page)).toEqual([before[1], before[0], ...before.slice(2)]);

    // Undone by the keyboard too: the draft is the live page again.
    await page.keyboard.press('Control+z');
    await expect(form.getByRole('status')).toHaveText('Undone: moving “Local Events” up.');
    await expect(page.getByRole('button', { name: /base\/explore\.json.*changed/ })).toHaveCount(0);
  });

  test('a merchandiser shares a preview: the link opens without the key, and is revoked', async ({ page, browser }) => {
    await openStudio(page);
    // The sports page: the other studio test's broken and repaired drafts are the home page's.
    await page.getByLabel('Page', { exact: true }).selectOption('sports');
    await page.getByLabel('Place by').selectOption('zip');
    await page.getByLabel('ZIP code').fill('60601');
    await page.getByRole('button', { name: 'Show this place' }).click();
    await expect(page.getByRole('article', { name: 'Base page' })).toContainText('near Chicago, IL');
    await page.getByRole('button', { name: 'Share preview' }).click();
    const url = await page.getByRole('textbox', { name: /^Preview link to sports near ZIP 60601/ }).inputValue();
    expect(new URL(url).pathname).toMatch(/^\/preview\/[\w-]+\.[\w-]+\.[\w-]+$/);

    // Someone else, with no key and nothing stored: the rows, drawn by the storefront's own components.
    const guest = await browser.newContext();
    const shared = await guest.newPage();
    const opened = await shared.goto(url);
    expect(opened?.headers()['x-robots-tag']).toBe('noindex');
    await expect(shared.getByText('Drafts not yet published')).toBeVisible();
    await expect(shared.getByText(/near Chicago, IL/)).toBeVisible();
    await expect(shared.locator('section.row h2').first()).toBeVisible();
    expect(await axeViolations(shared)).toEqual([]);

    // Revoked in the studio: the link opens nothing any more.
    await page.getByText(/^Preview links of this brand/).click();
    await page
      .getByRole('button', { name: /^Revoke the link to sports near ZIP 60601/ })
      .first()
      .click();
    await expect(page.getByText(/^revoked /).first()).toBeVisible();
    expect((await shared.goto(url))?.status()).toBe(404);
    await expect(shared.getByRole('heading', { name: 'This preview link is not valid' })).toBeVisible();
    await guest.close();
  });

  test("the storefront's pages load nothing of the studio", async ({ page }) => {
    // Every script the shopper's page can reach, statically or on demand, from its entry in index.html.
    const dist = path.resolve('dist/client');
    const seen = new Set<string>();
    const queue = [...readFileSync(path.join(dist, 'index.html'), 'utf8').matchAll(/\/assets\/([^"]+\.js)/g)].map(
      (m) => m[1]!,
    );
    while (queue.length > 0) {
      const file = queue.pop()!;
      if (seen.has(file)) continue;
      seen.add(file);
      const code = readFileSync(path.join(dist, 'assets', file), 'utf8');
      for (const m of code.matchAll(/["'`(/]\.?\/?([A-Za-z0-9_-]+-[A-Za-z0-9_-]{8}\.js)/g)) queue.push(m[1]!);
    }
    expect(seen.size).toBeGreaterThan(5);
    for (const file of seen) {
      const code = readFileSync(path.join(dist, 'assets', file), 'utf8');
      expect(code, file).not.toMatch(/cm-editor|@codemirror|Segment studio|X-Studio-Key/);
    }
    // And in the browser: the home page asks for no studio file.
    const requested: string[] = [];
    page.on('request', (r) => requested.push(r.url()));
    await page.goto('/');
    await expect(page.locator('section.row h2').first()).toBeVisible();
    expect(requested.filter((u) => /studio|json-editor/.test(u))).toEqual([]);
  });
});
