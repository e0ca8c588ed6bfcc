import { readFile } from 'node:fs/promises';
import { entitySlug } from '../shared/rules/slug.js';
import { pickListings, startStack, type Stack } from '../server/test/stack.js';
import { buyETickets } from './checkout-form.js';
import { expect, test, whenLive } from './fixtures.js';

/**
 * RULES 21.3: an erasure made on one node is what every node shows. Two storefront nodes on one PostgreSQL of their
 * own (the e2e server is one process on embedded PGlite): the shopper buys and erases on node A, and the order's link
 * opened on node B shows the order without their details. One project proves it.
 */
test.describe('a shopper’s erasure on two nodes', () => {
  test.describe.configure({ timeout: 300_000 });
  let stack: Stack | undefined;

  test.beforeAll(async () => {
    if (test.info().project.name !== 'desktop') return;
    // A PostgreSQL and two nodes to start: on two busy cores that can take longer than a hook's 30 s.
    test.setTimeout(120_000);
    stack = await startStack({ nodes: 2 });
  });
  test.afterAll(() => stack?.stop());

  test('is read back on the second node', async ({ browser }, info) => {
    test.skip(info.project.name !== 'desktop', 'one project proves it');
    const [a, b] = stack!.nodes;
    const { event, listing } = pickListings(
      stack!.catalog,
      1,
      (l) => l.deliveryMethod === 'eticket' && l.splits.includes(1) && l.ticketsHeld,
    )[0]!;
    const onA = await (await browser.newContext({ baseURL: a!.url, acceptDownloads: true })).newPage();
    const onB = await (await browser.newContext({ baseURL: b!.url })).newPage();
    const buyer = 'two-nodes@example.com';
    const eventUrl = `/events/${entitySlug(event.event_name, event.event_id)}`;
    const orderId = await buyETickets(onA, { eventUrl, listingId: listing.id, quantity: 1 }, buyer);
    const orderLink = new URL(onA.url());

    // Node B opens the order from its link (the access code), with the shopper's details kept.
    await onB.goto(`${orderLink.pathname}${orderLink.search}`);
    await whenLive(onB);
    await expect(onB.getByRole('heading', { level: 1, name: 'Your order' })).toBeVisible();
    await expect(onB.getByText(orderId).first()).toBeVisible();
    await expect(onB.getByText(/^Personal details erased on /)).toHaveCount(0);

    // On node A: the download holds the order with the email given; then the erasure.
    await onA.goto('/policies#privacy');
    // Pages of contexts of its own: the fixture's wait for the script to take the page over is not theirs.
    await whenLive(onA);
    const yours = onA.getByRole('region', { name: 'Your data' });
    const [download] = await Promise.all([
      onA.waitForEvent('download'),
      yours.getByRole('button', { name: 'Download my data' }).click(),
    ]);
    const data = JSON.parse(await readFile((await download.path())!, 'utf8')) as {
      orders: { id: string; buyer: { email: string } }[];
    };
    expect(data.orders.find((o) => o.id === orderId)?.buyer.email).toBe(buyer);
    await yours.getByRole('button', { name: 'Erase my data' }).click();
    await yours.getByRole('button', { name: 'Yes, erase my data' }).click();
    await expect(yours.getByRole('status')).toContainText('Your personal data was erased.');

    // Node B, on the next read: the order without the shopper's details.
    await onB.reload();
    await whenLive(onB);
    await expect(onB.getByRole('heading', { level: 1, name: 'Your order' })).toBeVisible();
    await expect(onB.getByText(/^Personal details erased on /)).toBeVisible();
    await expect(onB.locator('body')).not.toContainText(buyer);
  });
});
