import { useId, useState } from 'react';
import { Link } from 'react-router';
import {
  DEAL_MIN_COMPARABLE,
  DEAL_RATING_LABELS,
  DEAL_RATING_LIMITS,
} from '../../../../shared/schemas/commerce-terms.js';
import type { Listing } from '../../../../shared/schemas/commerce.js';
import { FeeDetails } from './fee-details.js';
import { ListingDisclosures } from './listing-disclosures.js';
import { formatMoney, seatLabel } from './money.js';

export function ticketPageUrl(slug: string, listingId: number, quantity: number): string {
  return `/tickets/${slug}?listing=${listingId}&quantity=${quantity}`;
}

const percent = (share: number) => `${Math.round(share * 100)}%`;

/** The deal rating rule as the page states it, from the same limits the server rates with. */
export const DEAL_RULE_TEXT =
  `Deal ratings compare each listing's price per ticket, fees included, ` +
  `with the median price of this event's listings in the same level ` +
  `(or of the whole event when a level has fewer than ${DEAL_MIN_COMPARABLE}): ` +
  `${percent(DEAL_RATING_LIMITS.great)} of it or less is a great deal, up ` +
  `to ${percent(DEAL_RATING_LIMITS.good)} a good deal, ` +
  `up to ${percent(DEAL_RATING_LIMITS.fair)} a fair price, and above that priced high.`;

function dealBasis(listing: Listing): string {
  const { median, comparedWith } = listing.dealRating;
  const diff = Math.round((listing.allInPricePerTicket / median - 1) * 100);
  // A level's name ("Upper Level"), or "the whole event" when the level had too few listings.
  const against = comparedWith.startsWith('the ')
    ? `${comparedWith}'s median (${formatMoney(median)})`
    : `the ${comparedWith} median (${formatMoney(median)})`;
  return diff === 0 ? `at ${against}` : `${Math.abs(diff)}% ${diff < 0 ? 'below' : 'above'} ${against}`;
}

export interface MapLink {
  /** The listing's section is on the map. */
  onMap: boolean;
  shown: boolean;
  onShow: () => void;
  onPreview: (section: string | null) => void;
}

/** One listing: where the seats are, its deal rating, its all-in price with the fees behind it, and Select. */
export function ListingItem({
  listing,
  slug,
  quantity,
  serviceFeeRate,
  map,
}: {
  listing: Listing;
  slug: string;
  quantity: number;
  serviceFeeRate: number | undefined;
  map?: MapLink;
}) {
  const [showFees, setShowFees] = useState(false);
  const feesId = useId();
  const titleId = useId();
  const title = seatLabel(listing);
  const rating = listing.dealRating.rating;
  return (
    <li
      className={`listing${map?.shown ? ' listing--shown' : ''}`}
      aria-labelledby={titleId}
      onMouseEnter={map?.onMap ? () => map.onPreview(listing.section) : undefined}
      onMouseLeave={map?.onMap ? () => map.onPreview(null) : undefined}
    >
      <div className="listing__where">
        <h3 className="listing__title" id={titleId}>
          {title}
        </h3>
        <ListingDisclosures terms={listing} />
        <div className="listing__extras">
          <p className="listing__deal">
            <span className={`deal deal--${rating}`}>{DEAL_RATING_LABELS[rating]}</span>{' '}
            <span className="listing__deal-basis">{dealBasis(listing)}</span>
          </p>
          {map &&
            (map.onMap ? (
              <button type="button" className="link-button listing__map" aria-pressed={map.shown} onClick={map.onShow}>
                Show {listing.section} on the map
              </button>
            ) : (
              <span className="listing__off-map">Other section: not on the map</span>
            ))}
        </div>
      </div>
      <div className="listing__price">
        <p className="listing__all-in">
          <strong>{formatMoney(listing.allInPricePerTicket)}</strong> <span>each, fees included</span>
          {listing.shippingPerTicket > 0 && (
            <span className="listing__shipping"> + {formatMoney(listing.shippingPerTicket)} shipping</span>
          )}
        </p>
        <button
          type="button"
          className="link-button"
          aria-expanded={showFees}
          aria-controls={feesId}
          onClick={() => setShowFees((v) => !v)}
        >
          {showFees ? 'Hide fees' : 'See fees'}
        </button>
      </div>
      <Link
        className="button listing__select"
        to={ticketPageUrl(slug, listing.id, quantity)}
        aria-label={
          `Select ${title}, ${quantity} ${quantity === 1 ? 'ticket' : 'tickets'} at ` +
          `${formatMoney(listing.allInPricePerTicket)} each`
        }
      >
        Select
      </Link>
      <div className="listing__fees" hidden={!showFees}>
        <FeeDetails listing={listing} serviceFeeRate={serviceFeeRate} id={feesId} />
      </div>
    </li>
  );
}
