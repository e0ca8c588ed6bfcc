import { readFile } from 'node:fs/promises';
import { AxeBuilder } from '@axe-core/playwright';
import { expect, test, type APIRequestContext } from './fixtures.js';
import { fillCheckout } from './checkout-form.js';
import { readTicketsPdf } from '../server/test/ticket-pdf-reader.js';

/** The scanner key playwright.config.ts gives the server. */
const SCANNER_KEY = 'e2e-only-scanner-key';
const SITE = { 'X-Site-Id': '22791' };

interface Candidate {
  eventUrl: string;
  listingId: number;
  quantity: number;
}

/**
 * eTicket listings of soon events near the shopper whose sellers already have the tickets: each shows today's date
 * (venue-local) as its in-hand date, so its tickets are ready as soon as the seller confirms. Each is checked for
 * its quantity as the page will ask (`?quantity=`), and several are offered: the other browser tests buy tickets
 * near the same shopper at the same time, so the first may be gone by the time the page shows its listings.
 */
async function readyETicketListings(request: APIRequestContext): Promise<Candidate[]> {
  const layout = await (await request.get('/api/layout/home', { headers: SITE })).json();
  const row = layout.rows.find((r: { id: string }) => r.id === 'local-events');
  const urls: string[] = [...new Set<string>((row?.items ?? []).map((e: { url: string }) => e.url))];
  for (const tab of row?.tabs ?? []) for (const e of tab.items ?? []) urls.push(e.url);
  const found: Candidate[] = [];
  for (const url of [...new Set(urls)].slice(0, 20)) {
    const slug = url.replace('/events/', '');
    const page = await (await request.get(`/api/events/${slug}`, { headers: SITE })).json();
    const detail = page.event?.detail;
    // On sale for a while yet, so the purchase does not race the event's start.
    if (!detail?.event_timestamp || detail.event_timestamp * 1000 < Date.now() + 3 * 3_600_000) continue;
    const venueToday = new Date(Date.now() + detail.venue_time_zone_offset * 3_600_000).toISOString().slice(0, 10);
    for (const quantity of [2, 1]) {
      const body = await (
        await request.get(`/api/events/${slug}/listings?quantity=${quantity}`, { headers: SITE })
      ).json();
      const listing = body.listings.find(
        (l: { deliveryMethod: string; inHandDate: string }) =>
          l.deliveryMethod === 'eticket' && l.inHandDate === venueToday,
      );
      if (listing) {
        found.push({ eventUrl: url, listingId: listing.id, quantity });
        break;
      }
    }
  }
  if (found.length === 0) throw new Error('no eTicket listing ready today among the local events');
  return found;
}

const ok = () => true;
const gone = () => false;

const scan = (request: APIRequestContext, barcode: string) =>
  request.post('/api/tickets/scan', { headers: { ...SITE, 'X-Scanner-Key': SCANNER_KEY }, data: { barcode } });

test('a shopper buys eTickets, downloads the PDF from the order page, and the venue admits each ticket once', async ({
  page,
  request,
}) => {
  const tickets = page.getByRole('region', { name: 'Tickets' });
  const candidates = await readyETicketListings(request);
  // The phone and desktop runs of this test go at once: each starts from its own end of the list.
  if (test.info().project.name === 'phone') candidates.reverse();
  let quantity = 0;
  for (const candidate of candidates) {
    await page.goto(candidate.eventUrl);
    await tickets.getByRole('combobox', { name: 'Tickets', exact: true }).selectOption(String(candidate.quantity));
    const link = page.locator(`a[href*="listing=${candidate.listingId}&"]`);
    const item = tickets.getByRole('listitem').filter({ has: link });
    // Another test's shopper may have just taken these tickets: then the next listing.
    if (!(await item.waitFor({ timeout: 5_000 }).then(ok, gone))) continue;
    await expect(item).toContainText('eTicket · In hand by');
    await item.locator(link).click();
    const checkout = page.getByRole('button', { name: 'Continue to checkout' });
    const taken = page.getByText('Those tickets were just taken.');
    await expect(checkout.or(taken)).toBeVisible();
    if (await taken.isVisible()) continue;
    await checkout.click();
    quantity = candidate.quantity;
    break;
  }
  if (quantity === 0) throw new Error('every ready eTicket listing was taken before this shopper could hold it');
  await expect(page.getByRole('heading', { level: 1, name: 'Checkout' })).toBeVisible();
  await fillCheckout(page);
  await page.getByRole('button', { name: /^Pay \$/ }).click();
  await expect(page).toHaveURL(/\/orders\/ORD-[A-Z0-9]+\?code=[A-Z0-9]+$/, { timeout: 15_000 });
  const orderId = /\/orders\/(ORD-[A-Z0-9]+)/.exec(page.url())![1]!;

  const yours = page.getByRole('region', { name: 'Your tickets' });
  await expect(yours.getByRole('listitem')).toHaveCount(quantity);
  await expect(yours.getByText(/never before the day you ordered/)).toBeVisible();
  const download = yours.getByRole('button', { name: /^Download eTickets/ });
  await expect(download).toBeVisible({ timeout: 20_000 });
  await expect(yours.getByRole('listitem').first()).toContainText('Ready');

  const axe = await new AxeBuilder({ page }).analyze();
  expect(
    axe.violations.map(
      (v) =>
        `${v.id}: ${v.help} (${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join('; ')})`,
    ),
  ).toEqual([]);

  const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
  expect(file.suggestedFilename()).toBe(`tickets-${orderId}.pdf`);
  const pages = await readTicketsPdf(new Uint8Array(await readFile((await file.path())!)));
  expect(pages).toHaveLength(quantity);
  for (const p of pages) {
    expect(p.text).toContain(`Order: ${orderId}`);
    expect(p.text).toContain('Holder: Pat Fan');
    expect(p.barcode).toMatch(/^T[A-Z0-9]{14}\.[A-Za-z0-9_-]{22}$/);
  }

  const barcode = pages[0]!.barcode!;
  const first = await (await scan(request, barcode)).json();
  expect(first).toMatchObject({ result: 'valid', ticket: { id: barcode.split('.')[0] } });
  expect(await (await scan(request, barcode)).json()).toMatchObject({
    result: 'already_used',
    firstScannedAt: first.firstScannedAt,
  });
  const forged = `${barcode.slice(0, -2)}${barcode.endsWith('AA') ? 'BB' : 'AA'}`;
  expect(await (await scan(request, forged)).json()).toEqual({ result: 'unknown' });

  // The order page shows the scanned ticket as used.
  await page.reload();
  await expect(page.getByRole('region', { name: 'Your tickets' }).getByRole('listitem').first()).toContainText('Used');
});
