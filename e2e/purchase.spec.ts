import { expect, test, type Page } from './fixtures.js';
import { fillCheckout } from './checkout-form.js';

const isPhone = (name: string) => name === 'phone';

async function snapshot(page: Page, name: string) {
  await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });
}

/** From the home page: search "Yank", pick the Yankees, and collect their events' links. */
async function yankeesEvents(page: Page, projectName: string): Promise<string[]> {
  await page.goto('/');
  if (isPhone(projectName)) {
    await page
      .getByRole('button', { name: /search/i })
      .first()
      .click();
    await expect(page.getByRole('dialog')).toBeVisible();
  }
  await page.getByRole('combobox').fill('Yank');
  const option = page.getByRole('option', { name: /New York Yankees/ });
  await expect(option).toBeVisible();
  await option.click();
  await expect(page).toHaveURL(/\/performers\/new-york-yankees-\d+$/);
  const events = page.getByRole('region', { name: /Upcoming events/ }).getByRole('link');
  await expect(events.first()).toBeVisible();
  const hrefs = await events.evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
  return hrefs.filter((h) => h.startsWith('/events/'));
}

/**
 * Opens events in turn until one has tickets for 2 (else 1), and returns how many were chosen. The first event
 * is clicked as a shopper would; later ones are opened directly when an earlier one is sold out.
 */
async function openEventWithTickets(
  page: Page,
  projectName: string,
  sort: 'Price: low to high' | 'Price: high to low',
): Promise<number> {
  const hrefs = await yankeesEvents(page, projectName);
  for (const [i, href] of hrefs.slice(0, 8).entries()) {
    if (i === 0)
      await page
        .getByRole('region', { name: /Upcoming events/ })
        .getByRole('link')
        .first()
        .click();
    else await page.goto(href);
    await expect(page).toHaveURL(/\/events\/[a-z0-9-]+-\d+/);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const tickets = page.getByRole('region', { name: 'Tickets' });
    await tickets.getByRole('combobox', { name: 'Sort by' }).selectOption({ label: sort });
    for (const quantity of [2, 1]) {
      await tickets.getByRole('combobox', { name: 'Tickets', exact: true }).selectOption(String(quantity));
      const select = tickets.getByRole('link', { name: new RegExp(`^Select .*, ${quantity} tickets? at`) }).first();
      const none = tickets.getByText(/No tickets for|sold out/);
      await expect(select.or(none).first()).toBeVisible();
      if (await select.isVisible()) return quantity;
      if (await tickets.getByText(/sold out/).isVisible()) break;
    }
  }
  throw new Error('no Yankees event with tickets');
}

/**
 * Selects the first listing shown (the cheapest under the low-to-high sort) and holds it; if another shopper took it,
 * tries the next one: the listings may still show a taken listing for as long as they are fresh.
 */
async function holdFirstListing(page: Page, quantity: number) {
  for (let attempt = 0; attempt < 3; attempt++) {
    const tickets = page.getByRole('region', { name: 'Tickets' });
    await tickets
      .getByRole('link', { name: new RegExp(`^Select .*, ${quantity} tickets? at`) })
      .nth(attempt)
      .click();
    await expect(page).toHaveURL(/\/tickets\/[a-z0-9-]+-\d+\?listing=\d+&quantity=\d+/);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Tickets for');
    const taken = page.getByText('Those tickets were just taken');
    // Another shopper (the other project's run of this test) may have taken it before the page opened.
    const proceed = page.getByRole('button', { name: 'Continue to checkout' });
    await expect(proceed.or(taken).first()).toBeVisible();
    // Or it bought part of the listing, and what is left no longer sells this many: try another.
    const resplit = page.getByText(new RegExp(`^This seller does not sell ${quantity} tickets? from this listing`));
    if (await resplit.isVisible()) {
      await page.getByRole('link', { name: '← All tickets for this event' }).click();
      continue;
    }
    if (await proceed.isVisible()) {
      await proceed.click();
      // Or it bought part of the listing while this page was open: the hold names the quantities left.
      const split = page.getByRole('alert').filter({ hasText: 'This seller sells these tickets in quantities of' });
      await expect(page.getByRole('heading', { level: 1, name: 'Checkout' }).or(taken).or(split)).toBeVisible();
      if (await split.isVisible()) {
        await page.getByRole('link', { name: '← All tickets for this event' }).click();
        continue;
      }
    }
    if (!(await taken.isVisible())) return;
    await page.getByRole('link', { name: 'See other tickets for this event' }).click();
  }
  throw new Error('every listing tried was taken');
}

const dataLayerEvents = (page: Page) => page.evaluate(() => (window.dataLayer ?? []).map((e) => ({ ...e })));

test('a shopper goes from the home page to a confirmed order', async ({ page }, testInfo) => {
  const quantity = await openEventWithTickets(page, testInfo.project.name, 'Price: low to high');
  // RULES 2.5, layout rule: no site header or footer on event pages.
  await expect(page.getByText(/We are a resale marketplace/i)).toHaveCount(0);
  await expect(page.getByText('100% Money Back Guarantee', { exact: true })).toHaveCount(0);
  const jsonLd = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? '{}');
  expect(jsonLd).toMatchObject({ '@type': 'Event', offers: { '@type': 'AggregateOffer', priceCurrency: 'USD' } });
  await snapshot(page, 'event');

  // The first listing (the seat map's legend and section list are lists of the same region too).
  const firstListing = page
    .getByRole('region', { name: 'Tickets' })
    .getByRole('listitem')
    .filter({ has: page.getByRole('link', { name: /^Select / }) })
    .first();
  await firstListing.getByRole('button', { name: 'See fees' }).click();
  await expect(firstListing.getByText(/Service fee \(\d+(\.\d+)?%\)/)).toBeVisible();

  await holdFirstListing(page, quantity);
  await expect(page).toHaveURL(/\/checkout\/[0-9a-f-]{36}$/);
  const summary = page.getByRole('region', { name: 'Your tickets' });
  await expect(summary.getByText('Service Fee', { exact: true })).toBeVisible();
  await expect(summary.getByText(/^\d\d:\d\d$/)).toBeVisible();
  await fillCheckout(page, '4242 4242 4242 4242');
  await snapshot(page, 'checkout');
  await page.getByRole('button', { name: /^Pay \$/ }).click();

  await expect(page).toHaveURL(/\/orders\/ORD-[A-Z0-9]+\?code=[A-Z0-9]+$/, { timeout: 15_000 });
  await expect(page.getByRole('heading', { level: 1, name: 'Your order' })).toBeVisible();
  const purchases = (await dataLayerEvents(page)).filter((e) => e.event === 'purchase');
  expect(purchases).toHaveLength(1);
  expect(purchases[0]?.phet).toBeGreaterThan(0);
  await expect(page.getByRole('row', { name: /^Order Status/ })).toContainText(/Confirmed|Delivered/, {
    timeout: 20_000,
  });
  await expect(page.getByRole('heading', { name: 'Event Location' })).toBeVisible();
  await snapshot(page, 'order');

  // The access code in the address opens the order again.
  await page.reload();
  await expect(page.getByRole('row', { name: /^Order Id/ })).toContainText(/ORD-/);
});

test('a declined card shows why and keeps the shopper on checkout', async ({ page }, testInfo) => {
  // The most expensive listing, so this test does not race the purchase test for the cheapest one.
  const quantity = await openEventWithTickets(page, testInfo.project.name, 'Price: high to low');
  await holdFirstListing(page, quantity);
  await expect(page).toHaveURL(/\/checkout\/[0-9a-f-]{36}$/);
  await fillCheckout(page, '4000 0000 0000 0002');
  await page.getByRole('button', { name: /^Pay \$/ }).click();
  const alert = page.getByRole('alert').filter({ hasText: 'Payment not completed' });
  await expect(alert).toContainText(/declined/i);
  await expect(page).toHaveURL(/\/checkout\/[0-9a-f-]{36}$/);
  await expect(page.getByLabel('Email')).toHaveValue('fan@example.com');
  await expect(page.getByRole('button', { name: /^Pay \$/ })).toBeEnabled();
  expect((await dataLayerEvents(page)).filter((e) => e.event === 'card_failed')).toHaveLength(1);
  await snapshot(page, 'checkout-declined');
});

const money = (text: string) => Number(/\$([\d,]+(?:\.\d{1,2})?)/.exec(text)?.[1]?.replace(/,/g, '') ?? NaN);

test(
  'the all-in price per ticket on a card is the price on the event page, ' +
    'the listing, the Pay button and the order',
  async ({ page }, testInfo) => {
    await yankeesEvents(page, testInfo.project.name);
    // Later dates than the other purchase tests take, one set per project, so no other test buys these tickets first.
    const cards = page.getByRole('region', { name: /Upcoming events/ }).getByRole('link');
    const first = isPhone(testInfo.project.name) ? 6 : 3;
    const candidates: { href: string; from: number }[] = [];
    for (let i = first; i < first + 3; i++) {
      // A card sold out (another test may buy one out) has no price to follow.
      const price = cards.nth(i).locator('.event-card__price:not(.event-card__price--none)');
      if ((await price.count()) === 0) continue;
      await expect(price).toContainText('incl. fees');
      candidates.push({
        href: (await cards.nth(i).getAttribute('href')) ?? '',
        from: money((await price.textContent()) ?? ''),
      });
    }
    for (const { href, from } of candidates) {
      await page.goto(href);
      // The event page's first price is the card's.
      const seeTickets = page.getByRole('link', { name: /^See tickets from / });
      await expect(seeTickets).toBeVisible();
      expect(money((await seeTickets.textContent()) ?? '')).toBe(from);
      const tickets = page.getByRole('region', { name: 'Tickets' });
      await tickets.getByRole('combobox', { name: 'Sort by' }).selectOption({ label: 'Price: low to high' });
      // The cheapest listing is that price each; take it in a quantity its seller sells.
      let quantity = 0;
      for (const q of [1, 2, 3, 4]) {
        await tickets.getByRole('combobox', { name: 'Tickets', exact: true }).selectOption(String(q));
        const select = tickets.getByRole('link', { name: new RegExp(`^Select .*, ${q} tickets? at`) }).first();
        await expect(select.or(tickets.getByText(/No tickets for/)).first()).toBeVisible();
        if ((await select.isVisible()) && money((await select.getAttribute('aria-label')) ?? '') === from) {
          quantity = q;
          await select.click();
          break;
        }
      }
      if (quantity === 0) continue;

      await expect(page.getByRole('heading', { level: 1 })).toContainText('Tickets for');
      const shipping = (await page.getByText(/shipping per ticket, added at checkout/).count()) > 0 ? 2.5 : 0;
      const total = Math.round((from + shipping) * 100 * quantity) / 100;
      expect(money((await page.locator('.ticket-total strong').textContent()) ?? '')).toBe(total);
      await page.getByRole('button', { name: 'Continue to checkout' }).click();
      await expect(page).toHaveURL(/\/checkout\/[0-9a-f-]{36}$/);
      const pay = page.getByRole('button', { name: /^Pay \$/ });
      await expect(pay).toBeVisible();
      expect(money((await pay.textContent()) ?? '')).toBe(total);

      // A promo code changes the summary and the Pay button before paying, and the order charges exactly that.
      await fillCheckout(page, '4242 4242 4242 4242');
      await page.getByLabel('Promo code (optional)').fill('ff20');
      await page.getByRole('button', { name: 'Apply' }).click();
      await expect(page.getByText(/^Code FF20 applied: your total is now \$/)).toBeVisible();
      const summary = page.getByRole('region', { name: 'Your tickets' });
      await expect(summary.getByText('Promo FF20')).toBeVisible();
      const discounted = money((await summary.locator('.line-items__row--total dd').textContent()) ?? '');
      expect(discounted).toBeLessThan(total);
      expect(money((await pay.textContent()) ?? '')).toBe(discounted);
      await pay.click();
      await expect(page).toHaveURL(/\/orders\/ORD-[A-Z0-9]+\?code=[A-Z0-9]+$/, { timeout: 15_000 });
      expect(money((await page.locator('.line-items__row--total dd').textContent()) ?? '')).toBe(discounted);
      return;
    }
    throw new Error('no Yankees event whose cheapest listing could be bought');
  },
);
