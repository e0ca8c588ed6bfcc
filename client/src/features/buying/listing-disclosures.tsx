import { Link } from 'react-router';
import type { ListingTerms } from '../../../../shared/schemas/commerce.js';
import { GUARANTEE_PATH, listingDisclosures, type DisclosureKind } from '../../../../shared/rules/disclosures.js';
import { companionSeatsNote } from './companion-seats.js';
import { formatCalendarDate, formatMoney } from './money.js';

const MARKS: Partial<Record<DisclosureKind, string>> = { accessible: '♿', restriction: '⚠' };

/**
 * RULES 20.1: what a listing tells a shopper before they pay, the same lines on the event page, the ticket page, the
 * checkout and the order: restrictions, face value, delivery and in-hand date, the notice when the seller does not
 * have the tickets yet (RULES 20.3), the seller's own note when it says something new, and the guarantee (RULES
 * 20.4). `withSeats`: the seat location too, where no heading above says it.
 */
export function ListingDisclosures({
  terms,
  withSeats = false,
  without = [],
}: {
  terms: ListingTerms & { companionSeats?: number };
  withSeats?: boolean;
  /** Lines another part of the page says (the checkout's form says the notice beside its confirmation). */
  without?: readonly DisclosureKind[];
}) {
  const lines = listingDisclosures(terms, { money: formatMoney, date: formatCalendarDate });
  // RULES 10.16: companion seats left beside the wheelchair spaces, said with the accessible seating.
  const companions =
    terms.companionSeats === undefined ? null : companionSeatsNote({ ...terms, companionSeats: terms.companionSeats });
  return (
    <ul className="disclosures">
      {lines
        .filter((l) => (withSeats || l.kind !== 'seats') && !without.includes(l.kind))
        .map((l) =>
          l.kind === 'not_held' ? (
            <li key={l.kind} className="disclosure disclosure--not_held">
              <strong>Notice:</strong> {l.text}
            </li>
          ) : (
            <li key={`${l.kind}-${l.text}`} className={`disclosure disclosure--${l.kind}`}>
              {MARKS[l.kind] && <span aria-hidden="true">{MARKS[l.kind]} </span>}
              {l.text}
              {l.kind === 'accessible' && companions && `: ${companions}`}
            </li>
          ),
        )}
      <li className="disclosure disclosure--guarantee">
        <Link to={GUARANTEE_PATH}>Covered by our 100% Money Back Guarantee</Link>
      </li>
    </ul>
  );
}
