import { randomUUID } from 'node:crypto';
import type { ReceivedMail } from '../server/test/smtp-server.js';
import { readTicketsPdf } from '../server/test/ticket-pdf-reader.js';
import { axeViolations } from './axe.js';
import { showTonight, upsertEvents } from './catalog-operator.js';
import { buyETickets, eTicketListing } from './checkout-form.js';
import { expect, test, whenLive, type Browser, type Page } from './fixtures.js';
import { receivedMail } from './mail-server.js';

// The emails of an order (RULES 19.4) as its buyer gets them: sent by the storefront under test over SMTP to a real
// SMTP server process (e2e/mail-server.ts), read back here, and their links followed in a browser that has never
// seen the buyer's session.

const DAY_S = 86_400;
/** Shows of the operator's own per project and test, so no other spec's shopper buys their tickets. */
const SHOWS = { desktop: { mail: 51, moved: 52 }, phone: { mail: 53, moved: 54 } } as Record<
  string,
  { mail: number; moved: number }
>;
const showsOfProject = () => SHOWS[test.info().project.name] ?? { mail: 55, moved: 56 };
/** The mail code of an order's links: 20 characters of RFC 4648 base32. */
const MAIL_LINK = (label: string, path: string) =>
  new RegExp(`${label}: (http://[^\\s]+${path}\\?code=[A-Z2-7]{20})(?=\\s|$)`);

/** A buyer address no other test uses, so the mails of this test are told apart from everyone else's. */
const buyerAddress = () => `buyer-${randomUUID().slice(0, 8)}@example.com`;

/** Waits for the one mail to `to` whose subject starts so, and returns it. */
async function mailTo(to: string, subjectStart: string): Promise<ReceivedMail> {
  let found: ReceivedMail[] = [];
  await expect
    .poll(
      async () => {
        found = (await receivedMail()).filter((m) => m.envelopeTo.includes(to) && m.subject.startsWith(subjectStart));
        return found.length;
      },
      { message: `a mail to ${to} "${subjectStart}…"`, timeout: 30_000 },
    )
    .toBe(1);
  return found[0]!;
}

function linkOf(mail: ReceivedMail, label: string, path: string): string {
  const match = MAIL_LINK(label, path).exec(mail.text);
  expect(match, `"${label}" in:\n${mail.text}`).not.toBeNull();
  // The HTML part carries the same address behind its button.
  expect(mail.html).toContain(`href="${match![1]!}"`);
  return match![1]!;
}

/**
 * Opens a mail's link in a browser context of its own (no guest token, no cookies, nothing of the buyer's session),
 * as e2e/fixtures.ts's pages open theirs: once the storefront's script has taken the page over.
 */
async function openInNewBrowser(browser: Browser, url: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(url);
  await whenLive(page);
  return page;
}

test.describe('order emails', () => {
  test('the confirmation names the order, and its links open the order and its tickets without the session', async ({
    page,
    request,
    browser,
    baseURL,
  }) => {
    // Mail is the same on every device: each flow runs once, the confirmation on the desktop project.
    test.skip(test.info().project.name !== 'desktop', 'the confirmation flow runs once, on the desktop project');
    const show = showTonight(showsOfProject().mail, 'Nome Mail Night');
    await upsertEvents(request, [show]);
    const listing = await eTicketListing(request, `nome-mail-night-${show.event_id}`);
    const buyer = buyerAddress();
    const orderId = await buyETickets(page, listing, buyer);

    const confirmation = await mailTo(buyer, 'Order confirmed:');
    expect(confirmation.subject).toBe(`Order confirmed: Nome Mail Night (${orderId})`);
    expect(confirmation.to).toContain(buyer);
    for (const part of [confirmation.text, confirmation.html]) {
      expect(part).toContain('Nome Mail Night');
      expect(part).toContain(orderId);
      expect(part).toContain('Pat Fan');
    }
    expect(confirmation.html).toMatch(/^<!doctype html>/i);
    expect(confirmation.attachments).toEqual([]);

    const orderLink = linkOf(confirmation, 'View your order', `/orders/${orderId}`);
    const ticketsLink = linkOf(confirmation, 'Download your tickets', `/api/orders/${orderId}/tickets.pdf`);
    expect(orderLink.startsWith(`${baseURL}/`)).toBe(true);
    expect(new URL(ticketsLink).searchParams.get('code')).toBe(new URL(orderLink).searchParams.get('code'));

    // The order page, opened from the mail by a browser that never had the buyer's session.
    const reader = await openInNewBrowser(browser, orderLink);
    await expect(reader.getByRole('heading', { level: 1, name: 'Your order' })).toBeVisible();
    await expect(reader.getByText('Nome Mail Night', { exact: true })).toBeVisible();
    await expect(reader.getByRole('row', { name: new RegExp(`^Order Id ${orderId}$`) })).toBeVisible();
    await expect(reader.getByRole('region', { name: 'Your tickets' }).getByRole('listitem')).toHaveCount(
      listing.quantity,
    );

    // The tickets' link, asked for as a mail client would, is the PDF once the seller has confirmed (RULES 10.14).
    await expect
      .poll(async () => (await request.get(ticketsLink)).status(), { timeout: 20_000, intervals: [500] })
      .toBe(200);
    const pdf = await request.get(ticketsLink);
    expect(pdf.headers()['content-type']).toBe('application/pdf');
    const bytes = await pdf.body();
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    // A code changed by one character opens nothing.
    const code = new URL(ticketsLink).searchParams.get('code')!;
    const forged = ticketsLink.replace(code, `${code.slice(0, -1)}${code.endsWith('A') ? 'B' : 'A'}`);
    expect((await request.get(forged)).status()).toBeGreaterThanOrEqual(400);

    // "Your tickets are ready", with the tickets attached, once the seller confirms.
    const ready = await mailTo(buyer, 'Your tickets are ready:');
    expect(ready.subject).toBe('Your tickets are ready: Nome Mail Night');
    expect(ready.text).toContain(orderId);
    const attached = ready.attachments.filter((a) => a.contentType === 'application/pdf');
    expect(attached).toHaveLength(1);
    expect(attached[0]!.content.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const pages = await readTicketsPdf(new Uint8Array(attached[0]!.content));
    expect(pages).toHaveLength(listing.quantity);
    for (const p of pages) expect(p.text).toContain(`Order: ${orderId}`);

    // An operator's goodwill refund (RULES 19.3): the page opened from the mail lists it, and it reads well.
    const refund = await request.post(`/api/admin/orders/${orderId}/refunds`, {
      headers: { 'X-TYPESENSE-API-KEY': process.env.E2E_CATALOG_ADMIN_KEY! },
      data: { amount: 1, reason: 'Goodwill' },
    });
    expect(refund.status(), await refund.text()).toBe(202);
    await reader.reload();
    const refunds = reader.getByRole('region', { name: 'Refunds' });
    await expect(refunds.getByRole('row', { name: /^\$1 Goodwill Refunded on / })).toBeVisible({ timeout: 20_000 });
    expect(await axeViolations(reader)).toEqual([]);
    const refundMail = await mailTo(buyer, 'Refund of $1.00');
    expect(refundMail.subject).toBe(`Refund of $1.00 for order ${orderId}`);
    await reader.context().close();
  });

  test('the mail of a moved event leads to the order page, where the buyer asks for the full refund', async ({
    page,
    request,
    browser,
  }) => {
    test.skip(test.info().project.name !== 'phone', 'the moved-event flow runs once, on the phone project');
    const show = showTonight(showsOfProject().moved, 'Nome Moving Night');
    await upsertEvents(request, [show]);
    const listing = await eTicketListing(request, `nome-moving-night-${show.event_id}`);
    const buyer = buyerAddress();
    const orderId = await buyETickets(page, listing, buyer);
    await mailTo(buyer, 'Order confirmed:');

    // The show moves two weeks on (RULES 19.2): the buyer is told by mail, and may ask for a full refund.
    const later = show.event_timestamp! + 14 * DAY_S;
    const local = new Date((later + show.venue_time_zone_offset * 3600) * 1000).toISOString().slice(0, 19);
    await upsertEvents(request, [
      { ...show, event_status: 'rescheduled', event_timestamp: later, event_local_timestamp: local },
    ]);
    const moved = await mailTo(buyer, 'New date:');
    expect(moved.subject).toBe('New date: Nome Moving Night');
    expect(moved.text).toContain('you may ask for a full refund on your order page until');

    const reader = await openInNewBrowser(browser, linkOf(moved, 'View your order', `/orders/${orderId}`));
    const offer = reader.getByRole('region', { name: 'Your event has moved' });
    await expect(offer).toContainText(/Your tickets stay valid\. If you can’t go, you can ask for a full refund of \$/);
    expect(await axeViolations(reader)).toEqual([]);

    await offer.getByRole('button', { name: 'Ask for a full refund' }).click();
    const question = offer.getByRole('group', { name: /^Ask for a full refund of \$[\d,.]+\?/ });
    await expect(question.getByRole('button', { name: 'Yes, refund my order' })).toBeFocused();
    // Keyboard only: Escape steps back; Enter asks again and confirms.
    await reader.keyboard.press('Escape');
    await expect(offer.getByRole('button', { name: 'Ask for a full refund' })).toBeFocused();
    await reader.keyboard.press('Enter');
    await expect(question.getByRole('button', { name: 'Yes, refund my order' })).toBeFocused();
    await reader.keyboard.press('Enter');

    await expect(reader.getByRole('status').filter({ hasText: /^Your order is called off/ })).toBeVisible();
    await expect(offer).toHaveCount(0);
    // The page follows the refund until it is made.
    const refunds = reader.getByRole('region', { name: 'Refunds' });
    await expect(
      refunds.getByRole('row', { name: /^\$[\d,.]+ You asked for a refund after the event moved Refunded on / }),
    ).toBeVisible({ timeout: 20_000 });
    await expect(reader.getByText('Refunded.', { exact: true })).toBeVisible();
    expect(await axeViolations(reader)).toEqual([]);
    await reader.context().close();

    // The buyer's own page says so too, and offers nothing more.
    await page.reload();
    await expect(page.getByRole('region', { name: 'Refunds' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Your event has moved' })).toHaveCount(0);
  });
});
