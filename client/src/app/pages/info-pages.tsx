import { useEffect } from 'react';
import { Link } from 'react-router';
import { CLAIM_WINDOW_DAYS, GUARANTEE_PATH, REFUND_WINDOW_DAYS } from '../../../../shared/rules/disclosures.js';
import { OptOutControl } from '../../features/privacy/opt-out.js';
import { YourData } from '../../features/privacy/your-data.js';

export function ContactPage() {
  useEffect(() => {
    document.title = 'Contact us';
  }, []);
  return (
    <article className="prose">
      <h1>Contact us</h1>
      <p>Our customer care team answers every day from 8 am to midnight Eastern time.</p>
      <h2>Questions about an order</h2>
      <p>
        Have your order id at hand (it is in your confirmation). Write to support@tickets.example or call
        1-800-555-0199.
      </p>
      <h2>Selling tickets</h2>
      <p>Sellers list through our partner marketplace; listing questions go to sellers@tickets.example.</p>
    </article>
  );
}

const FAQ: [string, string][] = [
  [
    'Is this the box office?',
    'No. We are a resale marketplace: tickets are listed by other fans and ' +
      'ticket holders, and prices may be above or below face value.',
  ],
  [
    'Are my tickets guaranteed?',
    'Yes. Every order is covered by our 100% money back guarantee: valid ' +
      'tickets in time for the event, or your money back.',
  ],
  [
    'When will I get my tickets?',
    'Each listing shows its delivery method (eTicket, mobile transfer…) and ' +
      'the date the seller has the tickets in hand.',
  ],
  [
    'What if the event is cancelled?',
    'A cancelled event is refunded in full. A postponed or rescheduled event ' +
      'keeps your tickets valid for the new date.',
  ],
  [
    'Why is the price different from the face value?',
    'Prices on a resale marketplace are set by the sellers and follow demand. The price shown first includes all fees.',
  ],
];

export function FaqPage() {
  useEffect(() => {
    document.title = 'Frequently asked questions';
  }, []);
  return (
    <article className="prose">
      <h1>Frequently asked questions</h1>
      {FAQ.map(([q, a]) => (
        <details key={q}>
          <summary>{q}</summary>
          <p>{a}</p>
        </details>
      ))}
    </article>
  );
}

export function PoliciesPage() {
  useEffect(() => {
    document.title = 'Policies';
  }, []);
  return (
    <article className="prose">
      <h1>Policies</h1>
      <section id="terms" aria-labelledby="terms-title">
        <h2 id="terms-title">Terms of use</h2>
        <p>This is a resale marketplace. Tickets are sold by third parties; prices may be above face value.</p>
      </section>
      <section id="guarantee" aria-labelledby="guarantee-title">
        <h2 id="guarantee-title">100% Money Back Guarantee</h2>
        <p>
          If your event is cancelled and not rescheduled, or your tickets are not valid for entry, you receive a full
          refund. <Link to={GUARANTEE_PATH}>What the guarantee covers and how to claim</Link>.
        </p>
      </section>
      <section id="privacy" aria-labelledby="privacy-title">
        <h2 id="privacy-title">Privacy policy</h2>
        <p>
          We use a random guest identifier, kept in your browser, to remember what you viewed and to keep the site
          consistent between visits. We do not ask for an account.
        </p>
        <YourData />
      </section>
      <section id="optout" aria-labelledby="optout-title">
        <h2 id="optout-title">Do Not Sell or Share My Info</h2>
        <p>
          You may opt out of the sale or sharing of your personal information at any time. Clearing this site's storage
          in your browser also removes the guest identifier.
        </p>
        <p>
          Opted out, or with Global Privacy Control on in your browser, we record no site events about you and pass
          nothing to advertising or analytics tags.
        </p>
        <OptOutControl />
      </section>
    </article>
  );
}

/**
 * RULES 20.4: the guarantee every listing, the checkout and every order link to: what it covers, what it does not,
 * and how to claim.
 */
export function GuaranteePage() {
  useEffect(() => {
    document.title = '100% Money Back Guarantee';
  }, []);
  return (
    <article className="prose">
      <h1>100% Money Back Guarantee</h1>
      <p>
        Every order is covered: valid tickets for the seats you bought, in time for the event, or your money back. The
        guarantee is ours, whoever the seller is.
      </p>
      <section aria-labelledby="guarantee-covered">
        <h2 id="guarantee-covered">What is covered</h2>
        <ul>
          <li>
            <strong>A cancelled event</strong> is refunded in full, fees included, without your asking. The money goes
            back to the card you paid with.
          </li>
          <li>
            <strong>A postponed or moved event</strong>: your tickets stay valid for the new date. If you cannot go, you
            may ask for a full refund from your order page for {REFUND_WINDOW_DAYS} days after we tell you of the
            change.
          </li>
          <li>
            <strong>Tickets that do not arrive in time</strong> for the event: we find you comparable or better seats at
            no extra cost, or refund you in full.
          </li>
          <li>
            <strong>Tickets that are not valid for entry</strong>, or seats that are not those the listing described:
            comparable or better seats, or a full refund.
          </li>
          <li>
            <strong>A seller who cannot supply the tickets</strong> (a listing that said the seller did not have them
            yet): a full refund within 10 business days of the seller failing to supply them.
          </li>
        </ul>
      </section>
      <section aria-labelledby="guarantee-not-covered">
        <h2 id="guarantee-not-covered">What is not covered</h2>
        <ul>
          <li>Changing your mind, or not being able to go to an event that takes place as planned.</li>
          <li>What the listing told you before you paid: an obstructed view, an age limit, the delivery method.</li>
        </ul>
      </section>
      <section aria-labelledby="guarantee-claim">
        <h2 id="guarantee-claim">How to claim</h2>
        <ol>
          <li>Open your order from the link in your confirmation email; it shows your tickets and any refund.</li>
          <li>
            Write to support@tickets.example or call 1-800-555-0199 with your order id, within {CLAIM_WINDOW_DAYS} days
            after the event date, and tell us what went wrong (a photo of a refused ticket helps).
          </li>
          <li>
            We answer within one business day. A refund goes back to the card you paid with and shows on your order
            page.
          </li>
        </ol>
      </section>
    </article>
  );
}
