import { axeViolations } from './axe.js';
import { showTonight, upsertEvents } from './catalog-operator.js';
import { expect, test, type Locator, type Page } from './fixtures.js';

/**
 * RULES 10.15 and 10.16 with the keyboard only: a shopper ticks "Accessible seating only" on an event page, picks
 * the accessible listing, adds a companion seat to the wheelchair space, pays, and finds the companion ticket on the
 * order page; axe finds nothing on any page on the way.
 *
 * Each project has a show of its own tonight whose generated listings hold one accessible eTicket listing with a
 * companion seat per wheelchair space (event ids 990000706 and 990000732: the listings of an event are the same on
 * every run, seeded by its id).
 */
const SHOW = { desktop: 706, phone: 732 } as Record<string, number>;
const ACCESSIBLE_LISTING_INDEX = { 706: 5, 732: 6 } as Record<number, number>;

/** Presses Tab until `target` has the focus, as a keyboard user moves through the page. */
async function tabTo(page: Page, target: Locator, most = 150): Promise<void> {
  await expect(target).toBeVisible();
  for (let i = 0; i < most; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${target.toString()}`);
}

async function expectNoAxeViolations(page: Page) {
  expect(await axeViolations(page)).toEqual([]);
}

/** Fills the checkout form from the keyboard: Tab to each field and type, as a shopper in the Bronx would. */
async function fillCheckoutByKeyboard(page: Page) {
  const typed: [string, string][] = [
    ['Email', 'fan@example.com'],
    ['Full name', 'Pat Fan'],
    ['Street address', '1 E 161st St'],
    ['City', 'Bronx'],
    ['State or region', 'NY'],
    ['ZIP code', '10451'],
    ['Phone number', '+1 718 555 0100'],
    ['Card number', '4242 4242 4242 4242'],
  ];
  await expect(page.getByLabel('Country')).toHaveValue('US');
  for (const [label, value] of typed) {
    const field = page.getByLabel(label, { exact: true });
    await tabTo(page, field);
    await page.keyboard.type(value);
    await expect(field).toHaveValue(value);
  }
  // A closed select takes what is typed as the start of an option's text.
  const year = String(new Date().getFullYear() + 2);
  for (const [label, value, text] of [
    ['Expiry month', '12', '12'],
    ['Expiry year', year, year],
  ] as const) {
    const field = page.getByLabel(label);
    await tabTo(page, field);
    await page.keyboard.type(text);
    await expect(field).toHaveValue(value);
  }
  const cvc = page.getByLabel('Security code (CVC)');
  await tabTo(page, cvc);
  await page.keyboard.type('123');
  await expect(cvc).toHaveValue('123');
}

test('the accessible filter and a companion seat bought with the keyboard', async ({ page, request }, info) => {
  // A keyboard walk: a phone has none, and the phone's layout of these pages is walked in purchase.spec.ts.
  test.skip(info.project.name !== 'desktop', 'a keyboard walk, on the desktop project');
  // Four pages, each checked by axe, and a keyboard walk through each: longer than one page's test.
  test.slow();
  const n = SHOW[info.project.name] ?? 706;
  const show = showTonight(n, 'Nome Access Night');
  await upsertEvents(request, [show]);
  const listingId = show.event_id * 1000 + ACCESSIBLE_LISTING_INDEX[n]!;

  await page.goto(`/events/nome-access-night-${show.event_id}?quantity=1`);
  const tickets = page.getByRole('region', { name: 'Tickets' });
  await expect(tickets.getByText(/^\d+ listings? for 1 ticket$/)).toBeVisible();
  const before = await tickets.locator('.listing__title').count();
  expect(before).toBeGreaterThan(1);

  // The filter: Tab to the checkbox, Space to tick it; the address keeps it and the map follows.
  const accessibleOnly = tickets.getByRole('checkbox', { name: 'Accessible seating only' });
  await tabTo(page, accessibleOnly);
  await page.keyboard.press('Space');
  await expect(accessibleOnly).toBeChecked();
  await expect(page).toHaveURL(/[?&]accessible=1(&|$)/);
  await expect(tickets.getByText('1 listing for 1 ticket with accessible seating')).toBeVisible();
  await expect(tickets.locator('.seat-map__status')).toHaveText('Showing accessible seating only: 1 section has it.');
  await expect(tickets.locator('.seat-map__caption')).toContainText(
    'Only sections with accessible seating are offered',
  );
  await expect(tickets.locator('.seat-map__svg .seat-map__section:not(.seat-map__section--empty)')).toHaveCount(1);
  await expectNoAxeViolations(page);

  // The listing: Tab to its Select link, Enter to open it.
  const select = tickets.locator(`a[href*="listing=${listingId}&"]`);
  await expect(select).toHaveAccessibleName(/^Select .*, 1 ticket at \$/);
  await tabTo(page, select);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/tickets/.*listing=${listingId}`));

  // The ticket page asks for wheelchair spaces, then offers a companion seat.
  const spaces = page.getByRole('combobox', { name: 'Number of wheelchair spaces' });
  await expect(spaces).toHaveValue('1');
  await expect(spaces.locator('option:checked')).toHaveText('1 wheelchair space');
  const companion = page.getByRole('combobox', { name: 'Add a companion seat' });
  await expect(companion).toHaveAccessibleDescription(/at most one per space/);
  await expect(companion).toHaveValue('0');
  await tabTo(page, companion);
  await page.keyboard.press('ArrowDown');
  await expect(companion).toHaveValue('1');
  await expect(page.getByText(/^Total for 2 tickets \(1 wheelchair space and 1 companion\)/)).toBeVisible();
  await expectNoAxeViolations(page);
  await tabTo(page, page.getByRole('button', { name: 'Continue to checkout' }));
  await page.keyboard.press('Enter');

  // Checkout: both held in one cart, paid for together.
  await expect(page.getByRole('heading', { level: 1, name: 'Checkout' })).toBeVisible();
  await expect(page.getByText('2 tickets (1 companion seat)')).toBeVisible();
  await expect(page.getByText(/^Tickets \(2 × /)).toBeVisible();
  await expectNoAxeViolations(page);
  await fillCheckoutByKeyboard(page);
  await tabTo(page, page.getByRole('button', { name: /^Pay \$/ }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/orders\/ORD-[A-Z0-9]+\?code=[A-Z0-9]+$/, { timeout: 15_000 });

  // The order page says which ticket is the companion seat.
  const yours = page.getByRole('region', { name: 'Your tickets' }).last();
  const items = yours.getByRole('listitem');
  await expect(items).toHaveCount(2);
  await expect(items.nth(0)).not.toContainText('Companion seat');
  await expect(items.nth(1)).toContainText('Companion seat');
  await expectNoAxeViolations(page);
});
