import { readFile } from 'node:fs/promises';
import { AxeBuilder } from '@axe-core/playwright';
import { expect, test, type APIRequestContext } from './fixtures.js';
import type { EventDocument } from '../shared/schemas/documents.js';
import { hallEvent, upsertEvents } from './catalog-operator.js';
import { fillCheckout } from './checkout-form.js';
import { readTicketsPdf } from '../server/test/ticket-pdf-reader.js';

const SITE = { 'X-Site-Id': '22791' };
const HOUR_MS = 3_600_000;

/** A show of the operator's own for each project, so no other spec's shopper buys its tickets first. */
const GATE_EVENT = { desktop: 41, phone: 42 } as Record<string, number>;

/**
 * A show tonight at a hall of its own (RULES 19.6: a ticket scans on its event's day at the venue). The hall's clock
 * reads about noon whenever the test runs, so the show, six hours on, is today there and not started; every eTicket
 * listing of a show today is ready today (RULES 10.11), once the seller confirms.
 */
function showTonight(n: number): EventDocument {
  const now = Date.now();
  const offset = 12 - new Date(now).getUTCHours();
  const startsAt = now + 6 * HOUR_MS;
  const doc = hallEvent(n, 'Nome Gate Night', 'scheduled', new Date(startsAt));
  return {
    ...doc,
    venue_id: doc.event_id,
    venue_name: `Nome Gate Hall ${n}`,
    venue_time_zone_offset: offset,
    event_local_timestamp: new Date(startsAt + offset * HOUR_MS).toISOString().slice(0, 'YYYY-MM-DDTHH:mm:ss'.length),
    tickets_available: 40,
    ticket_groups_available: 8,
  };
}

/** An eTicket listing of the show, checked for its quantity as the page will ask (`?quantity=`). */
async function eTicketListing(request: APIRequestContext, slug: string): Promise<Candidate> {
  for (const quantity of [2, 1]) {
    const body = await (
      await request.get(`/api/events/${slug}/listings?quantity=${quantity}`, { headers: SITE })
    ).json();
    const listing = body.listings.find((l: { deliveryMethod: string }) => l.deliveryMethod === 'eticket');
    if (listing) return { eventUrl: `/events/${slug}`, listingId: listing.id, quantity };
  }
  throw new Error(`no eTicket listing for ${slug}`);
}

/** A scanner key for the hall's door, added through the operators' API as a venue's operator would. */
async function scannerKeyFor(request: APIRequestContext, venueId: number): Promise<string> {
  const answer = await request.post('/api/admin/scanners', {
    headers: { 'X-TYPESENSE-API-KEY': process.env.E2E_CATALOG_ADMIN_KEY! },
    data: { label: 'Hall door', scope: { venueId } },
  });
  expect(answer.status(), await answer.text()).toBe(201);
  return ((await answer.json()) as { key: string }).key;
}

interface Candidate {
  eventUrl: string;
  listingId: number;
  quantity: number;
}

const scan = (request: APIRequestContext, key: string, barcode: string, event: number) =>
  request.post('/api/tickets/scan', { headers: { ...SITE, 'X-Scanner-Key': key }, data: { barcode, event } });

test('a shopper buys eTickets, downloads the PDF from the order page, and the venue admits each ticket once', async ({
  page,
  request,
}) => {
  const show = showTonight(GATE_EVENT[test.info().project.name] ?? 43);
  await upsertEvents(request, [show]);
  const key = await scannerKeyFor(request, show.venue_id);
  const { eventUrl, listingId, quantity } = await eTicketListing(request, `nome-gate-night-${show.event_id}`);

  const tickets = page.getByRole('region', { name: 'Tickets' });
  await page.goto(eventUrl);
  await tickets.getByRole('combobox', { name: 'Tickets', exact: true }).selectOption(String(quantity));
  const link = page.locator(`a[href*="listing=${listingId}&"]`);
  const item = tickets.getByRole('listitem').filter({ has: link });
  await expect(item).toContainText('eTicket · In hand by');
  await item.locator(link).click();
  await page.getByRole('button', { name: 'Continue to checkout' }).click();
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

  // The hall's door scans for tonight's show: each ticket admitted once.
  const barcode = pages[0]!.barcode!;
  const first = await (await scan(request, key, barcode, show.event_id)).json();
  expect(first).toMatchObject({
    result: 'valid',
    ticket: { id: barcode.split('.')[0], eventId: show.event_id, event: 'Nome Gate Night' },
  });
  expect(await (await scan(request, key, barcode, show.event_id)).json()).toMatchObject({
    result: 'already_used',
    firstScannedAt: first.firstScannedAt,
    reason: expect.stringMatching(/^Already scanned at /),
  });
  const forged = `${barcode.slice(0, -2)}${barcode.endsWith('AA') ? 'BB' : 'AA'}`;
  expect(await (await scan(request, key, forged, show.event_id)).json()).toMatchObject({ result: 'unknown' });
  // The key admits to its hall's events only: not to the generated catalog's first event, elsewhere.
  const elsewhere = await scan(request, key, barcode, 100_001);
  expect(elsewhere.status()).toBe(403);

  // The order page shows the scanned ticket as used.
  await page.reload();
  await expect(page.getByRole('region', { name: 'Your tickets' }).getByRole('listitem').first()).toContainText('Used');
});
