import { describe, expect, it } from 'vitest';
import type { Brand } from '../../shared/schemas/brand-registry.js';
import { escapeHtml, type MailBrand } from './brand-layout.js';
import { mailOfEveryKind, shippedBrands, testLinks } from './mail.cases.js';
import type { OutgoingMail } from './mail-kinds.js';
import { calendarDayInWords, instantInWords, money, renderMail } from './messages.js';

const mailBrand = (b: Brand, fallback = 'orders@tickets.example'): MailBrand => ({
  name: b.name,
  theme: b.theme,
  supportEmail: b.supportEmail ?? fallback,
});
const render = (mail: OutgoingMail, brand: Brand) => renderMail(mail, mailBrand(brand), testLinks);
/** The HTML's visible text, roughly: tags out, entities back. */
const visible = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');

describe('money and dates', () => {
  it('shows cents as dollars with two decimals and thousands separators', () => {
    expect([0, 5, 1234, 123456, -500].map(money)).toEqual(['$0.00', '$0.05', '$12.34', '$1,234.56', '-$5.00']);
  });

  it('writes days and instants in words', () => {
    expect(calendarDayInWords('2026-12-01')).toBe('Tuesday, December 1, 2026');
    expect(instantInWords('2027-01-11T03:30:00Z')).toBe('Monday, January 11, 2027 at 3:30 AM UTC');
    expect(instantInWords('2026-11-28T15:30:00Z', false)).toBe('Saturday, November 28, 2026');
  });
});

describe.each(shippedBrands())('every mail for $name', (brand) => {
  const mails = mailOfEveryKind(brand.id);

  it.each(mails.map((m) => [m.kind, m] as const))('%s: brand name, colours and support address', (_kind, mail) => {
    const { html, text, subject } = render(mail, brand);
    expect(subject.length).toBeGreaterThan(10);
    expect(html).toContain(`>${brand.name}</td>`);
    expect(html).toContain(`background:${brand.theme.primary}`);
    expect(html).toContain(`color:${brand.theme.ink}`);
    expect(html).toContain(`background:${brand.theme.surface}`);
    expect(html).toContain(`href="mailto:${brand.supportEmail}"`);
    expect(text).toContain(brand.name);
    expect(text).toContain(brand.supportEmail!);
    // Inline styles only: no style sheet, no script, no external resource.
    expect(html).not.toMatch(/<style|<script|<link|<img/i);
    // The order's facts, in both parts.
    for (const fact of ['The Midnight Owls', 'Lakeside Hall, 12 Harbor Rd, Portland, OR', 'Section 104', 'Row F']) {
      expect(visible(html)).toContain(fact);
      expect(text).toContain(fact);
    }
    // Every button's link is in the text part too.
    for (const [, href] of html.matchAll(/<a href="(https:[^"]+)"/g))
      expect(text).toContain(href!.replace(/&amp;/g, '&'));
  });

  it('order confirmation: thanks, line items, total, ready date, order and tickets buttons', () => {
    const { html, text, subject } = render(mails[0]!, brand);
    expect(subject).toBe('Order confirmed: The Midnight Owls (ORD-7KQ2M9)');
    for (const part of [visible(html), text]) {
      expect(part).toContain('Thank you, Ada Lovelace!');
      expect(part).toMatch(/Service fee:? \$35\.28/);
      expect(part).toMatch(/Promo FF20:? -\$10\.00/);
      expect(part).toMatch(/Total:? \$254\.70/);
      expect(part).toContain('ready by Tuesday, December 1, 2026');
      expect(part).toContain('View your order');
      expect(part).toContain('Download your tickets');
    }
    expect(html).toContain(`href="https://shop.example/${brand.id}/order/ORD-7KQ2M9?sig=order-signature"`);
    const noETicket = renderMail(
      { ...mails[0]!, data: { ...(mails[0]!.data as object), delivery: 'Will call', readyBy: null } } as OutgoingMail,
      mailBrand(brand),
      testLinks,
    );
    expect(noETicket.text).not.toContain('Download your tickets');
    expect(noETicket.text).toContain('We will email you as soon as your tickets are ready.');
  });

  it('refund: amount, reason, date and the total refunded of the total', () => {
    const { html, text } = render(mails[2]!, brand);
    for (const part of [visible(html), text]) {
      expect(part).toMatch(/Refund:? \$127\.35/);
      expect(part).toMatch(/Reason:? One ticket returned/);
      expect(part).toMatch(/Date:? Saturday, November 28, 2026/);
      expect(part).toMatch(/Refunded so far:? \$127\.35 of \$254\.70/);
    }
  });

  it('event cancelled: the full refund with fees to the original payment method, tickets void', () => {
    const { html, text } = render(mails[3]!, brand);
    for (const part of [visible(html), text]) {
      expect(part).toContain('The Midnight Owls is cancelled');
      expect(part).toContain('full refund of $254.70 (fees included) to your original payment method');
      expect(part).toContain('tickets for this event are void');
    }
  });

  it('event changed: the new date, tickets valid, a refund on the order page until a date in words', () => {
    const { html, text, subject } = render(mails[4]!, brand);
    expect(subject).toBe('New date: The Midnight Owls');
    for (const part of [visible(html), text]) {
      expect(part).toMatch(/New date:? Sun, Jan 10, 2027 · 7:30 PM/);
      expect(part).toMatch(/Was:? Sat, Dec 5, 2026 · 8:00 PM/);
      expect(part).toContain('tickets stay valid');
      expect(part).toContain('full refund on your order page until Monday, January 11, 2027 at 3:30 AM UTC');
    }
    const postponed = renderMail(
      {
        ...mails[4]!,
        data: { ...(mails[4]!.data as object), status: 'postponed', when: 'Date to be announced' },
      } as OutgoingMail,
      mailBrand(brand),
      testLinks,
    );
    expect(postponed.subject).toBe('Postponed: The Midnight Owls');
    expect(postponed.text).toMatch(/New date: Date to be announced/);
  });
});

describe('hostile values', () => {
  const brand = shippedBrands()[0]!;
  const hostile = '<script>alert("x")</script> & <img src=x onerror=alert(1)>';

  it('escapes every value in the HTML, while the text part carries it as written', () => {
    for (const mail of mailOfEveryKind('base', { eventName: hostile, buyerName: `O'Brien <b>`, section: '"1"' })) {
      const { html, text } = render(mail, brand);
      expect(html).not.toContain('<script');
      expect(html).not.toContain('<img');
      expect(html).not.toContain('<b>');
      expect(html).toContain(escapeHtml(hostile));
      expect(text).toContain(hostile);
    }
  });

  it('repeats in the confirmation what the listing told the buyer (RULES 20.1)', () => {
    const { html, text } = render(mailOfEveryKind('base')[0]!, brand);
    const said = 'What the listing told you: Obstructed or limited view. Face value $80 per ticket.';
    expect(text).toContain(said);
    expect(visible(html)).toContain(said);
    // RULES 20.4: and links to the guarantee.
    expect(html).toContain('href="https://shop.example/base/guarantee"');
    expect(text).toContain('https://shop.example/base/guarantee');
  });

  it('leaves out a button whose link is not a web address', () => {
    const links = {
      order: () => 'javascript:alert(1)',
      tickets: () => 'javascript:alert(2)',
      guarantee: () => 'javascript:alert(3)',
    };
    const { html } = renderMail(mailOfEveryKind('base')[0]!, mailBrand(brand), links);
    expect(html).not.toContain('javascript:');
  });

  it('names the sender address in the footer of a brand without a support address', () => {
    const { supportEmail: _, ...bare } = brand;
    const { html, text } = renderMail(
      mailOfEveryKind('base')[1]!,
      mailBrand(bare, 'orders@tickets.example'),
      testLinks,
    );
    expect(html).toContain('href="mailto:orders@tickets.example"');
    expect(text).toContain('Questions? Write to orders@tickets.example.');
  });
});
