import { expect, whenLive, type APIRequestContext, type Page } from './fixtures.js';

/**
 * Fills the checkout form as a shopper in the Bronx would, paying with `card`; confirms having read the notice of
 * tickets the seller does not have yet when the listing has one (RULES 20.3), unless told not to.
 */
export async function fillCheckout(page: Page, card = '4242 4242 4242 4242', { confirmNotice = true } = {}) {
  // The summary's disclosures are drawn once the listing is in: then the form shows the notice or not.
  await expect(page.getByRole('link', { name: 'Covered by our 100% Money Back Guarantee' })).toBeVisible();
  const notice = page.getByRole('checkbox', { name: 'I have read that the seller does not have these tickets yet' });
  if (confirmNotice && (await notice.count()) > 0) await notice.check();
  await page.getByLabel('Email').fill('fan@example.com');
  await page.getByLabel('Full name').fill('Pat Fan');
  await page.getByLabel('Street address').fill('1 E 161st St');
  await page.getByLabel('City').fill('Bronx');
  await page.getByLabel('State or region').fill('NY');
  await page.getByLabel('Country').selectOption('US');
  await page.getByLabel('ZIP code').fill('10451');
  await page.getByLabel('Phone number').fill('+1 718 555 0100');
  await page.getByLabel('Card number').fill(card);
  await page.getByLabel('Expiry month').selectOption('12');
  await page.getByLabel('Expiry year').selectOption(String(new Date().getFullYear() + 2));
  await page.getByLabel('Security code (CVC)').fill('123');
}

const SITE = { 'X-Site-Id': '22791' };

/** An eTicket listing of an event, with the quantity it sells (2, else 1) as the event page will ask (`?quantity=`). */
export async function eTicketListing(
  request: APIRequestContext,
  slug: string,
): Promise<{ eventUrl: string; listingId: number; quantity: number }> {
  for (const quantity of [2, 1]) {
    const body = await (
      await request.get(`/api/events/${slug}/listings?quantity=${quantity}`, { headers: SITE })
    ).json();
    const listing = body.listings.find((l: { deliveryMethod: string }) => l.deliveryMethod === 'eticket');
    if (listing) return { eventUrl: `/events/${slug}`, listingId: listing.id, quantity };
  }
  throw new Error(`no eTicket listing for ${slug}`);
}

/** Takes `quantity` eTickets of a listing from its event page to the checkout, as a shopper does. */
export async function toCheckout(
  page: Page,
  { eventUrl, listingId, quantity }: { eventUrl: string; listingId: number; quantity: number },
): Promise<void> {
  const tickets = page.getByRole('region', { name: 'Tickets' });
  await page.goto(eventUrl);
  // A page of a context of its own goes live without the fixture's wait.
  await whenLive(page);
  await tickets.getByRole('combobox', { name: 'Tickets', exact: true }).selectOption(String(quantity));
  const link = page.locator(`a[href*="listing=${listingId}&"]`);
  const item = tickets.getByRole('listitem').filter({ has: link });
  await expect(item).toContainText('eTicket · In hand by');
  await item.locator(link).click();
  await page.getByRole('button', { name: 'Continue to checkout' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Checkout' })).toBeVisible();
}

/**
 * Buys `quantity` eTickets of a listing from its event page as a shopper does (with `email` when given), and returns
 * the order's id once the order page shows.
 */
export async function buyETickets(
  page: Page,
  listing: { eventUrl: string; listingId: number; quantity: number },
  email?: string,
): Promise<string> {
  await toCheckout(page, listing);
  await fillCheckout(page);
  if (email) await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: /^Pay \$/ }).click();
  await expect(page).toHaveURL(/\/orders\/ORD-[A-Z0-9]+\?code=[A-Z0-9]+$/, { timeout: 15_000 });
  return /\/orders\/(ORD-[A-Z0-9]+)/.exec(page.url())![1]!;
}
