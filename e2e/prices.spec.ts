import { checkoutBody } from '../server/test/documents.js';
import { axeViolations } from './axe.js';
import { hallEvent, upsertEvents } from './catalog-operator.js';
import { expect, test, type APIRequestContext, type Page } from './fixtures.js';

// Prices that hold (RULES 3.9, 5.5, 8.1): a card's "From" is a price a shopper can buy, a sold-out event says so, the
// event page shows the card's price without the shopper changing anything, a quantity chosen before the page's
// script runs is kept, and the per-event limit is said before checkout.

const DAY_MS = 86_400_000;

// Prices, limits and what a list says are the same on every screen: checked once, on the desktop project (the
// phone's layout of these pages is walked in purchase.spec.ts and ssr.spec.ts).
test.skip(({ isMobile }) => isMobile, 'the same on every screen, on the desktop project');
/** Events of the operator's own for this spec, one per project, so no other spec's shopper buys them. */
const SOLD_OUT_EVENT = { desktop: 61, phone: 62 } as Record<string, number>;

const money = (text: string) => Number(/\$([\d,]+(?:\.\d{1,2})?)/.exec(text)?.[1]?.replace(/,/g, '') ?? NaN);

interface ListingJson {
  id: number;
  quantityAvailable: number;
  splits: number[];
  allInPricePerTicket: number;
}

/** Buys every ticket of an event through the API, one guest per listing, as shoppers would. */
async function buyOut(request: APIRequestContext, slug: string): Promise<void> {
  const { listings } = (await (await request.get(`/api/events/${slug}/listings`)).json()) as {
    listings: ListingJson[];
  };
  expect(listings.length).toBeGreaterThan(0);
  for (const listing of listings) {
    expect(listing.splits, 'the listing sells all its seats at once').toContain(listing.quantityAvailable);
    const session = (await (await request.post('/api/customers/session')).json()) as { sessionToken: string };
    const headers = { Authorization: `Bearer ${session.sessionToken}` };
    const cart = await request.post('/api/cart', {
      headers,
      data: { listingId: listing.id, quantity: listing.quantityAvailable },
    });
    expect(cart.status(), await cart.text()).toBe(201);
    const { id } = (await cart.json()) as { id: string };
    // As a buyer through the API, confirming the notice of tickets the seller does not hold yet (RULES 20.3).
    const order = await request.post('/api/checkout', { headers, data: checkoutBody(id, 'sold-out@example.com') });
    expect(order.status(), await order.text()).toBe(201);
  }
}

async function expectNoAxeViolations(page: Page) {
  expect(await axeViolations(page)).toEqual([]);
}

test('a sold-out event says "Sold out" on its card instead of a "From" price', async ({ page, request }, testInfo) => {
  test.slow();
  const doc = {
    ...hallEvent(
      SOLD_OUT_EVENT[testInfo.project.name] ?? 63,
      `Nome Sellout Night ${testInfo.project.name}`,
      'scheduled',
      new Date(Date.now() + 40 * DAY_MS),
    ),
    // One small group: a few shoppers buy the event out.
    tickets_available: 4,
    ticket_groups_available: 1,
  };
  await upsertEvents(request, [doc]);
  const slug = `${doc.event_name.toLowerCase().replace(/ /g, '-')}-${doc.event_id}`;
  const search = `/api/Searches/get?q=${encodeURIComponent(doc.event_name)}&page=1`;
  const card = async () =>
    (
      (await (await request.get(search)).json()) as { events: { items: { id: number; minPrice?: number }[] } }
    ).events.items.find((c) => c.id === doc.event_id);
  await expect.poll(async () => (await card())?.minPrice, { timeout: 20_000 }).toBeGreaterThan(0);

  await buyOut(request, slug);
  // The demand signals follow the sale within a few seconds.
  await expect.poll(card, { timeout: 30_000 }).toMatchObject({ unavailable: 'Sold out' });
  expect(await card()).not.toHaveProperty('minPrice');

  await page.goto(`/results-general?kwds=${encodeURIComponent(doc.event_name)}`);
  const link = page.locator(`a[data-item="event:${doc.event_id}"]`);
  await expect(link).toBeVisible();
  await expect(link).toContainText('Sold out');
  await expect(link).not.toContainText('From');
  await expectNoAxeViolations(page);

  // Its page agrees: no "from" price, and its structured data offers it as sold out, with no price.
  await link.click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(doc.event_name);
  await expect(page.getByRole('link', { name: 'See tickets', exact: true })).toBeVisible();
  await expect(page.getByText(/This event is sold out right now/)).toBeVisible();
  const jsonLd = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? '{}') as {
    offers?: { availability?: string; lowPrice?: number };
  };
  expect(jsonLd.offers).toMatchObject({ availability: 'https://schema.org/SoldOut' });
  expect(jsonLd.offers).not.toHaveProperty('lowPrice');
  await expectNoAxeViolations(page);
});

test('the price on a home card is on the event page it opens, with nothing changed by the shopper', async ({
  page,
}) => {
  await page.goto('/');
  const cards = page.locator('a.event-card').filter({ has: page.locator('.event-card__price', { hasText: 'From' }) });
  await expect(cards.first()).toBeVisible();
  const card = cards.first();
  const from = money((await card.locator('.event-card__price').textContent()) ?? '');
  expect(from).toBeGreaterThan(0);
  await card.click();
  await expect(page).toHaveURL(/\/events\//);
  const seeTickets = page.getByRole('link', { name: /^See tickets from / });
  await expect(seeTickets).toBeVisible();
  expect(money((await seeTickets.textContent()) ?? '')).toBe(from);
  // The JSON-LD offer names the same figure.
  const jsonLd = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? '{}') as {
    offers?: { lowPrice?: number };
  };
  expect(jsonLd.offers?.lowPrice).toBe(from);
  // The panel shows it as opened: the cheapest row at the quantity it opens at, or where that price is sold.
  const tickets = page.getByRole('region', { name: 'Tickets' });
  await expect(tickets.locator('.listings__count, .listings__offer').first()).toBeVisible();
  const offer = tickets.locator('.listings__offer');
  if ((await offer.count()) > 0) {
    expect(money((await offer.textContent()) ?? '')).toBe(from);
    const [, n] = /for (\d+) tickets?/.exec((await offer.textContent()) ?? '') ?? [];
    await offer.getByRole('button').click();
    await expect(tickets.getByText(new RegExp(`listings? for ${n} tickets?$`))).toBeVisible();
  }
  const first = tickets.getByRole('link', { name: /^Select / }).first();
  await expect(first).toBeVisible();
  expect(money((await first.getAttribute('aria-label')) ?? '')).toBe(from);
  await expectNoAxeViolations(page);
});

test('a quantity chosen before the page’s script runs is kept, and the list follows it', async ({
  context,
  request,
}) => {
  const home = (await (await request.get('/api/layout/home')).json()) as {
    rows: { type: string; items?: { url: string; minPrice?: number }[] }[];
  };
  const url = home.rows.flatMap((r) => (r.type === 'events' ? (r.items ?? []) : [])).find((c) => c.minPrice)?.url;
  expect(url).toBeTruthy();
  // A page of its own, without the wait for the script the `page` fixture adds.
  const page = await context.newPage();
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(
    (u) => u.pathname.endsWith('.js') && u.pathname.startsWith('/assets/'),
    async (route) => {
      await held;
      await route.continue();
    },
  );
  await page.goto(url!, { waitUntil: 'commit' });
  const picker = page.getByRole('combobox', { name: 'Tickets', exact: true });
  await expect(picker).toBeVisible();
  await expect(page.locator('html[data-ready="true"]')).toHaveCount(0);
  await picker.selectOption('3');
  await page.getByLabel('Max $').fill('5000');
  release();
  await expect(page.locator('html[data-ready="true"]')).toHaveCount(1, { timeout: 15_000 });
  await expect(picker).toHaveValue('3');
  await expect(page).toHaveURL(/[?&]quantity=3\b/);
  // A price typed then stays in its field, to be applied.
  await expect(page.getByLabel('Max $')).toHaveValue('5000');
  const tickets = page.getByRole('region', { name: 'Tickets' });
  await expect(tickets.getByText(/(listings? for 3 tickets|No tickets for 3 tickets)/)).toBeVisible();
  const select = tickets.getByRole('link', { name: /^Select / });
  if ((await select.count()) > 0) await expect(select.first()).toHaveAttribute('aria-label', /, 3 tickets at/);
  await page.close();
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the quantity and sort are a form that asks the server again', async ({ page, request }) => {
    const home = (await (await request.get('/api/layout/home')).json()) as {
      rows: { type: string; items?: { url: string; minPrice?: number }[] }[];
    };
    const url = home.rows.flatMap((r) => (r.type === 'events' ? (r.items ?? []) : [])).find((c) => c.minPrice)?.url;
    await page.goto(url!);
    const tickets = page.getByRole('region', { name: 'Tickets' });
    await tickets.getByRole('combobox', { name: 'Tickets', exact: true }).selectOption('4');
    await tickets.getByRole('button', { name: 'Show tickets' }).click();
    await expect(page).toHaveURL(/[?&]quantity=4\b/);
    await expect(tickets.getByText(/(listings? for 4 tickets|No tickets for 4 tickets)/)).toBeVisible();
    // The price range too, keeping the quantity.
    await tickets.getByLabel('Max $').fill('5000');
    await tickets.getByRole('button', { name: 'Apply' }).click();
    await expect(page).toHaveURL(/[?&]maxPrice=5000\b/);
    await expect(page).toHaveURL(/[?&]quantity=4\b/);
    await expect(
      tickets.getByText(/(listings? for 4 tickets|No tickets for 4 tickets in that price range)/),
    ).toBeVisible();
  });
});

test('the per-event limit is said beside the quantity picker and on the ticket page before checkout', async ({
  page,
}) => {
  await page.goto('/');
  const card = page
    .locator('a.event-card')
    .filter({ has: page.locator('.event-card__price', { hasText: 'From' }) })
    .first();
  await card.click();
  const tickets = page.getByRole('region', { name: 'Tickets' });
  const picker = tickets.getByRole('combobox', { name: 'Tickets', exact: true });
  await expect(picker).toBeVisible();
  expect(await picker.locator('option').allTextContents()).toEqual([
    '1 ticket',
    '2 tickets',
    '3 tickets',
    '4 tickets',
    '5 tickets',
    '6 tickets',
    '7 tickets',
    '8 tickets',
  ]);
  await expect(picker).toHaveAccessibleDescription('Up to 8 tickets per shopper for an event');
  await picker.selectOption('1');
  const select = tickets.getByRole('link', { name: /^Select .*, 1 ticket at/ }).first();
  await expect(select).toBeVisible();
  await select.click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Tickets for');
  const note = page.getByRole('note').filter({ hasText: 'per shopper' });
  await expect(note).toHaveText(
    /^Up to 8 tickets per shopper for an event, and 32 from one internet connection: you can add up to \d+/,
  );
  const continueButton = page.getByRole('button', { name: 'Continue to checkout' });
  // Said before the button that would meet it.
  const [noteBox, buttonBox] = [await note.boundingBox(), await continueButton.boundingBox()];
  expect(noteBox!.y).toBeLessThan(buttonBox!.y);
  await expectNoAxeViolations(page);
});
