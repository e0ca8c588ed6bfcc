import { AxeBuilder } from '@axe-core/playwright';
import { eTicketListing, toCheckout } from './checkout-form.js';
import { expect, test, type Locator, type Page } from './fixtures.js';

const isPhone = (name: string) => name === 'phone';

async function noAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  expect(
    results.violations.map(
      (v) =>
        `${v.id}: ${v.help} (${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join('; ')})`,
    ),
  ).toEqual([]);
}

/** The tops of a list's visible items, grouped into lines: how many items each line holds. */
async function lineCounts(list: Locator): Promise<number[]> {
  const tops = await list.evaluate((ul) =>
    [...ul.children]
      .filter((li) => (li as HTMLElement).offsetParent !== null)
      .map((li) => Math.round(li.getBoundingClientRect().top)),
  );
  const lines = new Map<number, number>();
  for (const top of tops) lines.set(top, (lines.get(top) ?? 0) + 1);
  return [...lines.values()];
}

test('layout rows fill their lines on a desktop and scroll sideways on a phone, never leaving a lone card', async ({
  page,
}, testInfo) => {
  await page.goto('/');
  await expect(page.locator('section.row:not(.row--skeleton)').first()).toBeVisible();
  const lists = page.locator('section.row:not(.row--skeleton) :is(ul.cards, ul.venue-list)');
  await expect(lists.first()).toBeVisible();
  const count = await lists.count();
  expect(count).toBeGreaterThan(1);
  for (let i = 0; i < count; i++) {
    const lines = await lineCounts(lists.nth(i));
    if (isPhone(testInfo.project.name)) {
      // One line, scrolled sideways when it holds more than the screen.
      expect(lines).toHaveLength(1);
    } else {
      // Every line as full as the first.
      expect(new Set(lines).size, `row ${i}: ${lines.join(', ')}`).toBe(1);
    }
  }
  await noAxeViolations(page);
});

test('the mega-menu keeps the open panel while the mouse crosses another category on its way into it', async ({
  page,
}, testInfo) => {
  test.skip(isPhone(testInfo.project.name), 'the mega-menu is the desktop navigation');
  await page.goto('/');
  const nav = page.getByRole('navigation', { name: 'Categories' });
  const sports = nav.getByRole('button', { name: 'Sports' });
  const concerts = nav.getByRole('button', { name: 'Concerts' });
  await concerts.hover();
  await expect(concerts).toHaveAttribute('aria-expanded', 'true');
  // From Concerts, diagonally down and to the left, across Sports, into the Concerts panel.
  const from = (await concerts.boundingBox())!;
  const over = (await sports.boundingBox())!;
  const panel = (await page.locator('.mega-menu__panel:not([hidden])').boundingBox())!;
  await page.mouse.move(from.x + from.width / 2, from.y + 4);
  const target = { x: over.x + over.width / 2 - 40, y: panel.y + 40 };
  await page.mouse.move(target.x, target.y, { steps: 12 });
  await expect(concerts).toHaveAttribute('aria-expanded', 'true');
  await page.waitForTimeout(400);
  await expect(concerts).toHaveAttribute('aria-expanded', 'true');
  await expect(sports).toHaveAttribute('aria-expanded', 'false');
  // Resting on Sports opens it.
  await page.mouse.move(over.x + over.width / 2, over.y + over.height / 2, { steps: 4 });
  await expect(sports).toHaveAttribute('aria-expanded', 'true');
});

test('an unknown ZIP code is named and the page stays where it was', async ({ page }) => {
  await page.goto('/');
  const near = page.locator('.location-picker strong');
  await expect(near).toBeVisible();
  const before = await near.textContent();
  await page.getByRole('button', { name: 'Change location' }).click();
  await page.getByLabel('ZIP code').fill('00000');
  await page.getByRole('button', { name: 'Show events' }).click();
  await expect(page.getByText(`We don’t know ZIP code 00000. Still showing events near ${before}.`)).toBeVisible();
  await expect(near).toHaveText(before!);
  await page.getByLabel('ZIP code').fill('60614');
  await page.getByRole('button', { name: 'Show events' }).click();
  await expect(near).toHaveText('Chicago, IL');
});

test('"ny" suggests New York, its teams and its venues, with pictures', async ({ page }, testInfo) => {
  await page.goto('/');
  if (isPhone(testInfo.project.name))
    await page
      .getByRole('button', { name: /search/i })
      .first()
      .click();
  await page.getByRole('combobox').fill('ny');
  const listbox = page.getByRole('listbox');
  await expect(
    listbox.getByRole('group', { name: 'Cities' }).getByRole('option', { name: /New York, NY/ }),
  ).toBeVisible();
  await expect(listbox.getByRole('group', { name: 'Performers' }).getByRole('option').first()).toContainText(
    'New York',
  );
  const venue = listbox.getByRole('group', { name: 'Venues' }).getByRole('option').first();
  await expect(venue).toContainText('New York, NY');
  const picture = venue.locator('img');
  await expect(picture).toHaveAttribute('src', /^\/media\/venues\/\d+\.svg$/);
  await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
});

test(
  'a venue page shows its address and its whole schedule a page at a time; ' + 'back returns there from an event',
  async ({ page, request }) => {
    // The venue with the most upcoming events.
    const suggestions = await (await request.get('/api/suggest?q=madison')).json();
    const msg = suggestions.venues[0].url as string;
    await page.goto(msg);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.locator('address')).toContainText(/New York, NY \d{5}/);
    await expect(page.getByRole('link', { name: /Map and directions/ })).toHaveAttribute('href', /openstreetmap\.org/);
    const heading = page.getByRole('heading', { level: 2, name: /Upcoming events/ });
    await expect(heading).toBeVisible();
    // Paged when the venue has more than 50 upcoming dates (the e2e catalog is small; see the performer test).
    const later = page.getByRole('link', { name: 'Later dates →' });
    if (await later.count()) {
      const firstEvent = await page.locator('.event-list a').first().getAttribute('href');
      await later.click();
      await expect(page).toHaveURL(/\?page=2$/);
      await expect(heading).toContainText(/\(51–/);
      await expect(page.locator('.event-list a').first()).not.toHaveAttribute('href', firstEvent!);
    }
    await noAxeViolations(page);
    const here = page.url();
    await page.locator('.event-list a').first().click();
    await expect(page).toHaveURL(/\/events\//);
    await page.getByRole('link', { name: '← Back' }).click();
    await expect(page).toHaveURL(here);
  },
);

test('a performer with more dates than a page holds shows them all, page by page', async ({ page, request }) => {
  // The e2e catalog is small, so this performer's schedule is stretched to 120 dates: each page of the
  // answer repeats the real first dates under new ids (the paging itself is covered against a 5,000-event
  // catalog in server/entities/api.test.ts).
  const suggestions = await (await request.get('/api/suggest?q=yank')).json();
  const url = suggestions.performers[0].url as string;
  const real = await (await request.get(`/api${url}`)).json();
  const TOTAL = 120;
  await page.route(`**/api${url}*`, async (route) => {
    const n = Number(new URL(route.request().url()).searchParams.get('page') ?? '1');
    const count = Math.max(0, Math.min(50, TOTAL - (n - 1) * 50));
    const events = Array.from({ length: count }, (_, i) => ({
      ...real.events[i % real.events.length],
      id: 900_000 + (n - 1) * 50 + i,
    }));
    await route.fulfill({ json: { ...real, events, eventsFound: TOTAL, page: n, perPage: 50 } });
  });
  // A landing is drawn by the server from the real answer; the stretched schedule is the client's, so the page
  // is reached within the app, as from a link.
  await page.goto('/faq');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.evaluate((to) => {
    history.pushState({}, '', to);
    dispatchEvent(new PopStateEvent('popstate'));
  }, url);
  const heading = page.getByRole('heading', { level: 2, name: /Upcoming events/ });
  await expect(heading).toHaveText('Upcoming events (1–50 of 120)');
  await expect(page.getByText('Page 1 of 3')).toBeVisible();
  let seen = await page.locator('.event-list .event-card').count();
  const later = page.getByRole('link', { name: 'Later dates →' });
  for (let shown = 2; await later.count(); shown++) {
    await later.click();
    // Counted once the next page is drawn: the earlier-dates link is there from page 2 on, so it says nothing.
    await expect(page.getByText(`Page ${shown} of 3`)).toBeVisible();
    seen += await page.locator('.event-list .event-card').count();
  }
  expect(seen).toBe(TOTAL);
  await expect(heading).toHaveText('Upcoming events (101–120 of 120)');
  await page.getByRole('link', { name: '← Earlier dates' }).click();
  await expect(heading).toHaveText('Upcoming events (51–100 of 120)');
  await noAxeViolations(page);
});

test('an event opened from outside goes up to its category', async ({ page, request }) => {
  const suggestions = await (await request.get('/api/suggest?q=yank&extra=true')).json();
  await page.goto(suggestions.events[0].url);
  const up = page.getByRole('link', { name: '← More events like this' });
  await expect(up).toHaveAttribute('href', /^\/category\/[a-z-]+$/);
  await up.click();
  await expect(page).toHaveURL(/\/category\//);
});

/** Where the sticky header ends, in the viewport's pixels. */
const headerEnd = async (page: Page) => {
  const box = (await page.locator('.nav-header').boundingBox())!;
  return box.y + box.height;
};

test('the footer’s privacy links land on their part of the policies page, clear of the sticky header', async ({
  page,
}) => {
  for (const [name, part] of [
    ['Do Not Sell or Share My Info', 'optout'],
    ['Privacy Policy', 'privacy'],
  ] as const) {
    await page.goto('/');
    await page.getByRole('contentinfo').getByRole('link', { name }).click();
    await expect(page).toHaveURL(new RegExp(`/policies#${part}$`));
    const heading = page.locator(`#${part} h2`);
    await expect(heading).toBeInViewport();
    // Below the header that stays on top, not under it.
    expect((await heading.boundingBox())!.y, name).toBeGreaterThanOrEqual(await headerEnd(page));
  }
});

test('after the skip link, the next control the keyboard reaches is not hidden under the sticky header', async ({
  page,
}, testInfo) => {
  test.skip(isPhone(testInfo.project.name), 'a keyboard walk, on a desktop');
  await page.goto('/');
  // Far enough down that the header covers what is above it.
  await page.mouse.wheel(0, 600);
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  const focused = page.locator(':focus');
  await expect(focused).toBeInViewport();
  expect((await focused.boundingBox())!.y).toBeGreaterThanOrEqual(await headerEnd(page));
});

test('the phone’s search button is a target of at least 44 by 44 px', async ({ page }, testInfo) => {
  test.skip(!isPhone(testInfo.project.name), 'the button of the phone header');
  await page.goto('/');
  const box = (await page.getByRole('banner').getByRole('button', { name: 'Search', exact: true }).boundingBox())!;
  expect([box.width, box.height].map(Math.round)).toEqual([44, 44]);
});

test('a long searched word breaks: the results page never scrolls sideways; the box takes no longer search', async ({
  page,
}, testInfo) => {
  await page.goto(`/results-general?kwds=${'x'.repeat(199)}`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Results for');
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(
    0,
  );
  if (!isPhone(testInfo.project.name))
    await expect(page.getByRole('banner').getByRole('combobox', { name: 'Search' })).toHaveAttribute(
      'maxlength',
      '200',
    );
});

test('a search page with nothing searched, or nothing found, offers a search of its own', async ({ page }) => {
  await page.goto('/results-general?kwds=');
  const box = page.getByRole('main').getByRole('searchbox', { name: 'Artist, team or venue' });
  // No longer than a search is (RULES 8.3).
  await expect(box).toHaveAttribute('maxlength', '200');
  await box.fill('boston');
  await box.press('Enter');
  await expect(page).toHaveURL(/\/results-general\?kwds=boston$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Results for “boston”');

  await page.goto('/results-general?kwds=zzqqxx');
  await expect(page.getByText('No results. Try a shorter or different spelling.')).toBeVisible();
  await expect(page.getByRole('main').getByRole('searchbox', { name: 'Search again' })).toHaveValue('zzqqxx');
});

test('each question of the FAQ shows that it opens, and turns its mark once open', async ({ page }) => {
  await page.goto('/faq');
  const question = page.locator('.prose summary').first();
  const mark = () => question.evaluate((summary) => getComputedStyle(summary, '::after').transform);
  const closed = await mark();
  expect(closed).not.toBe('none');
  await question.click();
  await expect(page.locator('.prose details').first()).toHaveAttribute('open', '');
  expect(await mark()).not.toBe(closed);
});

test('a row with fewer cards than its columns keeps its cards as wide as a full row’s', async ({ page }, testInfo) => {
  test.skip(isPhone(testInfo.project.name), 'columns from 641 px');
  await page.goto('/');
  const grid = page.locator('section.row:not(.row--skeleton) ul.row__grid').first();
  await expect(grid).toBeVisible();
  // The same list with one card, then two, beside it: each card as wide as one of the full row's.
  const widths = await grid.evaluate((ul) => {
    const full = ul.querySelector('li')!.getBoundingClientRect().width;
    return [1, 2].map((n) => {
      const few = ul.cloneNode(false) as HTMLElement;
      for (const li of [...ul.children].slice(0, n)) few.append(li.cloneNode(true));
      ul.after(few);
      const width = few.querySelector('li')!.getBoundingClientRect().width;
      few.remove();
      return Math.round(width - full);
    });
  });
  expect(widths).toEqual([0, 0]);
});

test('a checkout sent with fields missing brings the first one into view, clear of the sticky header', async ({
  page,
  request,
}, testInfo) => {
  await page.goto('/');
  // An event on the home page that sells eTickets, from the end of the page: the purchase tests buy from its start, and
  // a hold here would change the list they read. The last for one project, the one before for the other, so that the
  // two, run at once, never hold the same tickets.
  const slugs = (await page.locator('a.event-card').evaluateAll((cards) => cards.map((a) => a.getAttribute('href'))))
    .filter((href): href is string => href !== null)
    .map((href) => href.split('/').at(-1)!)
    .reverse();
  const found = [];
  for (const slug of slugs) {
    const listing = await eTicketListing(request, slug).catch(() => undefined);
    if (listing) found.push(listing);
    if (found.length === 2) break;
  }
  await toCheckout(page, found[isPhone(testInfo.project.name) ? 1 : 0]!);
  await page.getByRole('button', { name: /^Pay \$/ }).click();
  const focused = page.locator(':focus');
  await expect(focused).toHaveAttribute('aria-invalid', 'true');
  await expect(focused).toBeInViewport();
  expect((await focused.boundingBox())!.y).toBeGreaterThanOrEqual(await headerEnd(page));
  // Its cart released, as a shopper releases one: every test's browser shares one client address, and so its open
  // carts (RULES 8.1).
  const [released] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'DELETE' && r.url().includes('/api/cart/')),
    page.getByRole('button', { name: 'Release these tickets and choose others' }).click(),
  ]);
  expect(released.status()).toBe(204);
});

test('a listing shipped by mail shows its fee breakdown with room for every name', async ({ page, request }) => {
  await page.goto('/');
  const slugs = (await page.locator('a.event-card').evaluateAll((cards) => cards.map((a) => a.getAttribute('href'))))
    .filter((href): href is string => href !== null)
    .map((href) => href.split('/').at(-1)!);
  // A listing whose delivery adds a line of its own ("$2.50 shipping per ticket, added at checkout").
  let shipped: { slug: string; id: number; quantity: number } | undefined;
  for (const slug of slugs) {
    const { listings } = (await (
      await request.get(`/api/events/${slug}/listings?quantity=2`, { headers: { 'X-Site-Id': '22791' } })
    ).json()) as { listings: { id: number; deliveryMethod: string }[] };
    const listing = listings.find((l) => l.deliveryMethod === 'physical_mail');
    if ((shipped = listing && { slug, id: listing.id, quantity: 2 })) break;
  }
  expect(shipped, 'an event on the home page with a listing shipped by mail').toBeDefined();
  await page.goto(`/events/${shipped!.slug}?quantity=${shipped!.quantity}`);
  const listing = page
    .getByRole('region', { name: 'Tickets' })
    .getByRole('listitem')
    .filter({ has: page.locator(`a[href*="listing=${shipped!.id}&"]`) });
  await listing.getByRole('button', { name: 'See fees' }).click();
  const names = listing.locator('.fee-list dt');
  await expect(names.filter({ hasText: /^Delivery/ })).toBeVisible();
  for (const box of await names.evaluateAll((dts) => dts.map((dt) => dt.getBoundingClientRect().width)))
    expect(box).toBeGreaterThanOrEqual(100);
});
