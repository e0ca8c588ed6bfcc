import { readFile } from 'node:fs/promises';
import { AxeBuilder } from '@axe-core/playwright';
import { expect, test, type APIRequestContext } from './fixtures.js';
import { showTonight, upsertEvents } from './catalog-operator.js';
import { buyETickets, eTicketListing } from './checkout-form.js';
import { readTicketsPdf } from '../server/test/ticket-pdf-reader.js';

const SITE = { 'X-Site-Id': '22791' };

/** A show of the operator's own for each project, so no other spec's shopper buys its tickets first. */
const GATE_EVENT = { desktop: 41, phone: 42 } as Record<string, number>;

/** A scanner key for the hall's door, added through the operators' API as a venue's operator would. */
async function scannerKeyFor(request: APIRequestContext, venueId: number): Promise<string> {
  const answer = await request.post('/api/admin/scanners', {
    headers: { 'X-TYPESENSE-API-KEY': process.env.E2E_CATALOG_ADMIN_KEY! },
    data: { label: 'Hall door', scope: { venueId } },
  });
  expect(answer.status(), await answer.text()).toBe(201);
  return ((await answer.json()) as { key: string }).key;
}

const scan = (request: APIRequestContext, key: string, barcode: string, event: number) =>
  request.post('/api/tickets/scan', { headers: { ...SITE, 'X-Scanner-Key': key }, data: { barcode, event } });

test('a shopper buys eTickets, downloads the PDF from the order page, and the venue admits each ticket once', async ({
  page,
  request,
}) => {
  const show = showTonight(GATE_EVENT[test.info().project.name] ?? 43, 'Nome Gate Night');
  await upsertEvents(request, [show]);
  const key = await scannerKeyFor(request, show.venue_id);
  const listing = await eTicketListing(request, `nome-gate-night-${show.event_id}`);
  const { quantity } = listing;
  const orderId = await buyETickets(page, listing);

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
