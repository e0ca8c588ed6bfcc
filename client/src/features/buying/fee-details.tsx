import { DELIVERY_LABELS } from '../../../../shared/schemas/commerce-terms.js';
import type { Listing } from '../../../../shared/schemas/commerce.js';
import { formatMoney, formatRate } from './money.js';

/**
 * What makes up one ticket's all-in price, as the server priced it (`shared/rules/pricing.ts`), and shipping
 * beside it.
 */
export function FeeDetails({
  listing,
  serviceFeeRate,
  id,
}: {
  listing: Listing;
  serviceFeeRate: number | undefined;
  id: string;
}) {
  return (
    <dl className="fee-list" id={id}>
      <dt>Ticket price</dt>
      <dd>{formatMoney(listing.pricePerTicket)}</dd>
      <dt>Service fee{serviceFeeRate === undefined ? '' : ` (${formatRate(serviceFeeRate)})`}</dt>
      <dd>{formatMoney(listing.serviceFeePerTicket)}</dd>
      <dt>All-in per ticket</dt>
      <dd>{formatMoney(listing.allInPricePerTicket)}</dd>
      <dt>Delivery ({DELIVERY_LABELS[listing.deliveryMethod]})</dt>
      <dd>
        {listing.shippingPerTicket > 0
          ? `${formatMoney(listing.shippingPerTicket)} shipping per ticket, added at checkout`
          : 'Free'}
      </dd>
    </dl>
  );
}
