import { useId, type ReactNode } from 'react';
import { Link } from 'react-router';
import type { EventCard } from '../../../../shared/schemas/cards.js';
import type { Listing } from '../../../../shared/schemas/commerce.js';
import { ListingDisclosures } from './listing-disclosures.js';
import { formatMoney, seatLabel } from './money.js';

const TOTAL_KEY = 'Total';

export function eventWhen(event: Pick<EventCard, 'day' | 'date' | 'year' | 'time'>): string {
  if (event.date === 'TBD') return 'Date to be announced';
  const time = event.time === '(TBD)' ? 'time to be announced' : event.time;
  return [event.day, `${event.date}, ${event.year}`, time].filter(Boolean).join(' · ');
}

/** RULES 3.5 line items, key and value exactly as the API gives them; the total from totalPrice when none is listed. */
export function LineItems({ lineItems, total }: { lineItems: { key: string; value: string }[]; total: number }) {
  const hasTotal = lineItems.some((li) => li.key === TOTAL_KEY);
  return (
    <dl className="line-items">
      {lineItems.map((li, i) => (
        <div
          key={`${li.key}-${i}`}
          className={li.key === TOTAL_KEY ? 'line-items__row line-items__row--total' : 'line-items__row'}
        >
          <dt>{li.key}</dt>
          <dd>{li.value}</dd>
        </div>
      ))}
      {!hasTotal && (
        <div className="line-items__row line-items__row--total">
          <dt>{TOTAL_KEY}</dt>
          <dd>{formatMoney(total)}</dd>
        </div>
      )}
    </dl>
  );
}

export interface CartSummaryProps {
  quantity: number;
  /** How many of the `quantity` tickets are companion seats (RULES 10.16). */
  companions?: number;
  lineItems: { key: string; value: string }[];
  total: number;
  event?: EventCard | undefined;
  listing?: Listing | undefined;
  children?: ReactNode;
}

export function CartSummary({
  quantity,
  companions = 0,
  lineItems,
  total,
  event,
  listing,
  children,
}: CartSummaryProps) {
  const headingId = useId();
  return (
    <section className="cart-summary" aria-labelledby={headingId}>
      <h2 id={headingId}>Your tickets</h2>
      {event && (
        <p className="cart-summary__event">
          <Link to={event.url}>{event.name}</Link>
          <span>{eventWhen(event)}</span>
          <span>{event.address}</span>
        </p>
      )}
      <p className="cart-summary__seats">
        {quantity} {quantity === 1 ? 'ticket' : 'tickets'}
        {companions > 0 && ` (${companions} companion ${companions === 1 ? 'seat' : 'seats'})`}
        {listing && <> · {seatLabel(listing)}</>}
      </p>
      {/* RULES 20.1, 20.3: the notice is said once on the checkout, beside the box that confirms it (the form). */}
      {listing && <ListingDisclosures terms={listing} without={['not_held']} />}
      <LineItems lineItems={lineItems} total={total} />
      {children}
    </section>
  );
}
