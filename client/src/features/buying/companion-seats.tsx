import { useId } from 'react';
import { companionsAllowed } from '../../../../shared/schemas/commerce-terms.js';
import type { Listing } from '../../../../shared/schemas/commerce.js';
import { formatMoney } from './money.js';

/** An accessible listing's seats are wheelchair spaces (RULES 10.16): how a count of them reads. */
export function spacesText(n: number): string {
  return `${n} wheelchair ${n === 1 ? 'space' : 'spaces'}`;
}

export function companionsText(n: number): string {
  return n === 0 ? 'No companion seat' : `${n} companion ${n === 1 ? 'seat' : 'seats'}`;
}

/** Whether a listing offers companion seats at all (an accessible listing whose seller listed some that are left). */
export function offersCompanions(listing: Pick<Listing, 'accessible' | 'companionSeats'>): boolean {
  return listing.accessible && listing.companionSeats > 0;
}

/**
 * What a listing row says of its companion seats (RULES 10.16), or null for a listing without any: for the
 * listing's seating marks, beside "Accessible seating".
 */
export function companionSeatsNote(listing: Pick<Listing, 'accessible' | 'companionSeats'>): string | null {
  if (!offersCompanions(listing)) return null;
  const n = listing.companionSeats;
  return `${n} companion ${n === 1 ? 'seat' : 'seats'} can come with the wheelchair spaces, one per space`;
}

/**
 * The most companion seats the shopper may add: one per space, as many as are left, and (RULES 8.1) no more than their
 * limit for the event leaves beside the spaces (`allowance`, when known).
 */
export function companionsWithin(
  listing: Pick<Listing, 'accessible' | 'companionSeats'>,
  spaces: number | null,
  allowance: number | undefined,
): number {
  const most = companionsAllowed(listing, spaces);
  return allowance === undefined || spaces === null ? most : Math.max(0, Math.min(most, allowance - spaces));
}

/**
 * RULES 10.16: "Add a companion seat" on the ticket page of an accessible listing, once the number of wheelchair
 * spaces is chosen: none up to one per space, at the listing's price per ticket. A native select, so the keyboard
 * and screen readers use it as they use the spaces' own.
 */
export function CompanionSeats({
  listing,
  spaces,
  value,
  onChange,
  allowance,
}: {
  listing: Listing;
  /** The wheelchair spaces chosen, or null while none are. */
  spaces: number | null;
  value: number;
  onChange: (companions: number) => void;
  /** RULES 8.1: how many more tickets the shopper's limit leaves beside the spaces, when known. */
  allowance?: number | undefined;
}) {
  const id = useId();
  if (!offersCompanions(listing)) return null;
  const most = companionsWithin(listing, spaces, allowance);
  const capped = allowance !== undefined && most < companionsAllowed(listing, spaces);
  const left = listing.companionSeats;
  return (
    <div className="field companion-seats">
      <label htmlFor={id}>Add a companion seat</label>
      <p className="field-hint" id={`${id}-hint`}>
        A seat beside a wheelchair space for someone who comes with you: at most one per space, at{' '}
        {formatMoney(listing.allInPricePerTicket)} like the space, fees included.{' '}
        {left === 1 ? '1 is left.' : `${left} are left.`}
        {spaces === null ? ' Choose the number of wheelchair spaces first.' : ''}
        {capped ? ` Your limit for this event leaves room for ${most} with these spaces.` : ''}
      </p>
      <select
        id={id}
        value={Math.min(value, most)}
        disabled={spaces === null}
        aria-describedby={`${id}-hint`}
        onChange={(e) => onChange(Number(e.target.value))}
      >
        {Array.from({ length: most + 1 }, (_, n) => (
          <option key={n} value={n}>
            {companionsText(n)}
          </option>
        ))}
      </select>
    </div>
  );
}
