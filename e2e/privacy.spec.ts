import { readFile } from 'node:fs/promises';
import { axeViolations } from './axe.js';
import { showTonight, upsertEvents } from './catalog-operator.js';
import { buyETickets, eTicketListing } from './checkout-form.js';
import { expect, test } from './fixtures.js';

/** A show of the operator's own for each project, so no other spec's shopper buys its tickets first. */
const PRIVACY_EVENT = { desktop: 71, phone: 73 } as Record<string, number>;

// RULES 21: a shopper's own data. That an erasure made on one node is what another node reads is proven with two
// server processes on one PostgreSQL, in the browser (privacy-nodes.spec.ts) and through the API
// (server/commerce/customer-data.nodes.test.ts): the e2e server is one process on embedded PGlite.
test('a shopper downloads their data, erases it, sees the order without their details, and opts out', async ({
  page,
  request,
}) => {
  // A purchase, a download, an erasure and an opt-out, each page checked with axe: a long journey.
  test.slow();
  const buyer = `privacy-${test.info().project.name}@example.com`;
  const show = showTonight(PRIVACY_EVENT[test.info().project.name] ?? 74, 'Nome Privacy Night');
  await upsertEvents(request, [show]);
  const events: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/api/events') events.push(r.url());
  });

  const listing = await eTicketListing(request, `nome-privacy-night-${show.event_id}`);
  const orderId = await buyETickets(page, listing, buyer);
  const orderUrl = page.url();
  // Before the opt-out the site does record this shopper's page views (so the check after it can fail).
  await expect.poll(() => events.length).toBeGreaterThan(0);
  // Back to the event as a returning guest: the view is kept in their recent activity.
  await page.goto(listing.eventUrl);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();

  await page.goto('/policies#privacy');
  const yours = page.getByRole('region', { name: 'Your data' });
  await expect(yours).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);

  // The download: a file holding the order with the email the shopper gave, and the event they viewed.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    yours.getByRole('button', { name: 'Download my data' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('my-data.json');
  const data = JSON.parse(await readFile((await download.path())!, 'utf8')) as {
    orders: { id: string; buyer: { email: string; billing: Record<string, string> } }[];
    recentActivity: { type: string; id: number }[];
  };
  expect(data.orders.find((o) => o.id === orderId)?.buyer).toMatchObject({
    email: buyer,
    billing: { name: 'Pat Fan', city: 'Bronx' },
  });
  expect(data.recentActivity).toContainEqual(expect.objectContaining({ type: 'event', id: show.event_id }));
  await expect(yours.getByRole('status')).toHaveText('Your data was downloaded as my-data.json.');

  // The erasure, in two steps; the first can be taken back.
  await yours.getByRole('button', { name: 'Erase my data' }).click();
  const confirm = yours.getByRole('group', { name: /Erase your personal data\?/ });
  await expect(confirm.getByRole('button', { name: 'Yes, erase my data' })).toBeFocused();
  await confirm.getByRole('button', { name: 'Keep my data' }).click();
  await expect(confirm).toBeHidden();
  await yours.getByRole('button', { name: 'Erase my data' }).click();
  expect(await axeViolations(page)).toEqual([]);
  await confirm.getByRole('button', { name: 'Yes, erase my data' }).click();
  await expect(yours.getByRole('status')).toContainText('Your personal data was erased.');

  // The order still opens from its link, without the buyer's details.
  await page.goto(orderUrl);
  await expect(page.getByRole('heading', { level: 1, name: 'Your order' })).toBeVisible();
  await expect(page.getByText(/^Personal details erased on /)).toBeVisible();
  await expect(page.locator('body')).not.toContainText(buyer);
  expect(await axeViolations(page)).toEqual([]);

  // The opt-out: recorded, shown again on the next visit, and from then on nothing is recorded or shared.
  await page.goto('/policies#optout');
  const optOut = page.getByRole('checkbox', { name: 'Do Not Sell or Share My Info' });
  await expect(optOut).toBeEnabled();
  await expect(optOut).not.toBeChecked();
  await expect(page.getByText('You have not opted out.')).toBeVisible();
  await optOut.check();
  await expect(page.getByText('Saved: you are opted out.', { exact: false })).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);
  await page.reload();
  await expect(optOut).toBeChecked();
  await expect(page.getByText('You are opted out of the sale or sharing of your personal information.')).toBeVisible();

  // The event page (a page view, maybe an experiment's exposure), then away from it (the queue goes by beacon).
  events.length = 0;
  await page.goto(listing.eventUrl);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Tickets' }).getByRole('listitem').first()).toBeVisible();
  expect(await page.evaluate(() => window.dataLayer ?? [])).toEqual([]);
  await page.goto('/policies');
  await expect(page.getByRole('heading', { level: 1, name: 'Policies' })).toBeVisible();
  expect(events).toEqual([]);
});

test.describe('with Global Privacy Control on', () => {
  test.use({ extraHTTPHeaders: { 'Sec-GPC': '1' } });

  test('the opt-out says the browser opted the shopper out, and the page is axe clean', async ({ page }) => {
    await page.addInitScript(() =>
      Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true }),
    );
    await page.goto('/policies#optout');
    await expect(page.getByText('Your browser sends Global Privacy Control: you are opted out.')).toBeVisible();
    const optOut = page.getByRole('checkbox', { name: 'Do Not Sell or Share My Info' });
    await expect(optOut).toBeChecked();
    await expect(optOut).toBeDisabled();
    await expect(page.getByRole('link', { name: 'Do Not Sell or Share My Info' }).first()).toHaveAttribute(
      'href',
      '/policies#optout',
    );
    expect(await axeViolations(page)).toEqual([]);
  });
});
