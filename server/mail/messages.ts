import { layoutMail, type MailBlock, type MailBrand, type RenderedMail } from './brand-layout.js';
import type { MailData, MailKind, MailLinks, OrderMailFacts, OutgoingMail } from './mail-kinds.js';

const dollars = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** An amount in cents as mail shows it: `$12.34`, `$1,234.00`, `-$5.00`. */
export function money(cents: number): string {
  return `${cents < 0 ? '-' : ''}$${dollars.format(Math.abs(cents) / 100)}`;
}

const dayInWords = new Intl.DateTimeFormat('en-US', {
  weekday: 'long',
  year: 'numeric',
  month: 'long',
  day: 'numeric',
  timeZone: 'UTC',
});
const timeInWords = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' });

/** A calendar day (`YYYY-MM-DD`, already the venue's) in words: "Friday, November 27, 2026". */
export function calendarDayInWords(day: string): string {
  const at = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(at.getTime()) ? day : dayInWords.format(at);
}

/** An instant (ISO time) in words, on UTC's clock: "Saturday, December 5, 2026 at 8:00 PM UTC". */
export function instantInWords(iso: string, withTime = true): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  return withTime ? `${dayInWords.format(at)} at ${timeInWords.format(at)} UTC` : dayInWords.format(at);
}

/** What every order mail lists of the order. */
function orderFacts(d: OrderMailFacts): MailBlock {
  return {
    facts: [
      { label: 'Event', value: d.eventName },
      { label: 'When', value: d.when },
      { label: 'Venue', value: d.venue },
      { label: 'Tickets', value: `${d.quantity} × Section ${d.section}, Row ${d.row}, ${d.seats}` },
      { label: 'Order', value: d.orderId },
    ],
  };
}

type Renderer<K extends MailKind> = (
  data: MailData[K],
  brand: MailBrand,
  links: MailLinks,
  brandId: string,
) => { subject: string; preheader: string; heading: string; blocks: MailBlock[] };

const orderButton = (links: MailLinks, d: OrderMailFacts, brandId: string): MailBlock => ({
  button: { label: 'View your order', href: links.order(d.orderId, brandId) },
});
const ticketsButton = (links: MailLinks, d: OrderMailFacts, brandId: string): MailBlock => ({
  button: { label: 'Download your tickets', href: links.tickets(d.orderId, brandId) },
});

const RENDERERS: { [K in MailKind]: Renderer<K> } = {
  order_confirmation: (d, brand, links, brandId) => ({
    subject: `Order confirmed: ${d.eventName} (${d.orderId})`,
    preheader: `${d.quantity} ticket${d.quantity === 1 ? '' : 's'} to ${d.eventName}, ${money(d.totalCents)} in all.`,
    heading: `Thank you, ${d.buyerName}!`,
    blocks: [
      { paragraph: `Your order with ${brand.name} is confirmed. Here is what you bought.` },
      orderFacts(d),
      {
        facts: [
          ...d.lineItems.map((item) => ({ label: item.label, value: money(item.cents) })),
          { label: 'Total', value: money(d.totalCents), emphasis: true },
        ],
      },
      ...(d.terms && d.terms.length > 0
        ? [{ paragraph: `What the listing told you: ${d.terms.map((t) => t.replace(/\.$/, '')).join('. ')}.` }]
        : []),
      {
        paragraph:
          `Delivery: ${d.delivery}. ` +
          (d.readyBy
            ? `Your tickets will be ready by ${calendarDayInWords(d.readyBy)}; we will email you when they are.`
            : 'We will email you as soon as your tickets are ready.'),
      },
      orderButton(links, d, brandId),
      ...(/^e-?ticket$/i.test(d.delivery.trim()) ? [ticketsButton(links, d, brandId)] : []),
      // RULES 20.4: every order is covered by the guarantee, and says where it is explained.
      { paragraph: 'Your order is covered by our 100% Money Back Guarantee.' },
      { button: { label: 'What the guarantee covers', href: links.guarantee(brandId) } },
    ],
  }),
  tickets_ready: (d, _brand, links, brandId) => ({
    subject: `Your tickets are ready: ${d.eventName}`,
    preheader: `Your tickets for ${d.eventName} are ready.`,
    heading: 'Your tickets are ready',
    blocks: [
      {
        paragraph:
          `Hi ${d.buyerName}, your tickets for ${d.eventName} are ready. They are attached to this mail as a PDF, ` +
          'and you can download them again at any time.',
      },
      orderFacts(d),
      ticketsButton(links, d, brandId),
      orderButton(links, d, brandId),
    ],
  }),
  refund: (d, _brand, links, brandId) => ({
    subject: `Refund of ${money(d.amountCents)} for order ${d.orderId}`,
    preheader: `${money(d.amountCents)} is on its way back to you.`,
    heading: `We refunded ${money(d.amountCents)}`,
    blocks: [
      {
        paragraph:
          `Hi ${d.buyerName}, we refunded ${money(d.amountCents)} for your order ${d.orderId} to your original ` +
          'payment method. It may take a few business days to show on your statement.',
      },
      {
        facts: [
          { label: 'Refund', value: money(d.amountCents), emphasis: true },
          { label: 'Reason', value: d.reason },
          { label: 'Date', value: instantInWords(d.at, false) },
          { label: 'Refunded so far', value: `${money(d.refundedCents)} of ${money(d.totalCents)}` },
        ],
      },
      orderFacts(d),
      orderButton(links, d, brandId),
    ],
  }),
  event_cancelled: (d, _brand, links, brandId) => ({
    subject: `Cancelled: ${d.eventName}. Your full refund of ${money(d.amountCents)} is on its way`,
    preheader: `${d.eventName} is cancelled; you get ${money(d.amountCents)} back, fees included.`,
    heading: `${d.eventName} is cancelled`,
    blocks: [
      { paragraph: `Hi ${d.buyerName}, we are sorry: ${d.eventName} has been cancelled.` },
      {
        paragraph:
          `You get a full refund of ${money(d.amountCents)} (fees included) to your original payment method; ` +
          `we started it on ${instantInWords(d.at, false)}. There is nothing you need to do.`,
        strong: true,
      },
      { paragraph: 'Your tickets for this event are void and will not be admitted.' },
      orderFacts(d),
      orderButton(links, d, brandId),
    ],
  }),
  event_changed: (d, _brand, links, brandId) => {
    const postponed = d.status === 'postponed';
    const until = instantInWords(d.refundUntil);
    return {
      subject: postponed ? `Postponed: ${d.eventName}` : `New date: ${d.eventName}`,
      preheader: postponed
        ? `${d.eventName} is postponed; your tickets stay valid.`
        : `${d.eventName} moves to ${d.when}; your tickets stay valid.`,
      heading: postponed ? `${d.eventName} is postponed` : `${d.eventName} has a new date`,
      blocks: [
        {
          paragraph: postponed
            ? `Hi ${d.buyerName}, ${d.eventName} has been postponed. The new date is to be announced; we will ` +
              'email you when it is set.'
            : `Hi ${d.buyerName}, ${d.eventName} has been rescheduled.`,
        },
        {
          facts: [
            { label: 'New date', value: postponed ? 'Date to be announced' : d.when, emphasis: true },
            { label: 'Was', value: d.previousWhen },
          ],
        },
        { paragraph: 'Your tickets stay valid for the new date: there is nothing you need to do.' },
        {
          paragraph: `If you cannot go, you may ask for a full refund on your order page until ${until}.`,
        },
        orderFacts(d),
        orderButton(links, d, brandId),
      ],
    };
  },
};

/** RULES 19.11: a queued mail as its recipient reads it: subject, HTML and plain text, in the brand's layout. */
export function renderMail(mail: OutgoingMail, brand: MailBrand, links: MailLinks): RenderedMail {
  const render = RENDERERS[mail.kind] as Renderer<MailKind>;
  return layoutMail(render(mail.data, brand, links, mail.brand), brand);
}
