import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import type { Order } from '../../../../shared/schemas/commerce.js';
import { GUARANTEE_PATH } from '../../../../shared/rules/disclosures.js';
import { buyingApi, BuyingApiError } from '../../features/buying/buying-api.js';
import { LineItems } from '../../features/buying/cart-summary.js';
import { ORDER_STATUS_LABELS } from '../../../../shared/schemas/commerce.js';
import { RefundList, RefundOffer } from '../../features/buying/order-refunds.js';
import { formatInstant, OrderDetail, TicketList, Timeline } from '../../features/buying/order-view.js';
import { orderQueryKey } from '../../features/buying/use-buying.js';
import { PageLoading } from './page-states.js';
import '../../features/buying/buying.css';

/** The sandbox seller answers within seconds, and a refund is made on the next tick: the page follows by itself. */
export const PENDING_POLL_MS = 2_000;

/** Something about to change by itself: the seller's answer, or money on its way back (RULES 19.1–19.3). */
const settling = (order: Order | undefined) =>
  order?.status === 'pending_seller_confirmation' || (order?.refunds ?? []).some((r) => r.status === 'pending');

const STATUS_MESSAGES: Partial<Record<Order['status'], string>> = {
  pending_seller_confirmation:
    'Payment received. We are waiting for the seller to confirm your tickets; this page updates by itself.',
  confirmed: 'Your order is confirmed. We will send your tickets before the event.',
  delivered: 'Your tickets have been delivered.',
  completed: 'Enjoy the event!',
  rejected: 'The seller could not fill this order. Your payment is being refunded.',
  refunded: 'This order was refunded.',
  cancelled: 'This order was cancelled.',
  expired: 'This order expired before it was paid.',
};

/** /orders/:id, inside the site layout; `?code=` is the guest's way back to an order (see the checkout). */
export function OrderPage() {
  const { id = '' } = useParams();
  const [search] = useSearchParams();
  const code = search.get('code');
  const q = useQuery({
    queryKey: orderQueryKey(id, code),
    queryFn: ({ signal }) => buyingApi.order(id, code, signal),
    staleTime: 0,
    refetchInterval: (query) => (settling(query.state.data) ? PENDING_POLL_MS : false),
  });
  useEffect(() => {
    document.title = 'Your order';
  }, []);

  if (q.isPending) return <PageLoading />;
  if (q.isError) {
    const missing = q.error instanceof BuyingApiError && [400, 401, 403, 404].includes(q.error.status);
    return (
      <section className="order-page buying-page">
        <h1>Your order</h1>
        <p role="alert">
          {missing
            ? 'We could not find this order. Open it from the link in your confirmation email.'
            : 'We could not load this order. Please try again.'}
        </p>
        <Link to="/">Back to the home page</Link>
      </section>
    );
  }
  const order = q.data;
  return (
    <section className="order-page buying-page" aria-labelledby="order-title">
      <h1 id="order-title">Your order</h1>
      <p className="order-event">
        <strong>{order.eventName}</strong> · {order.quantity} {order.quantity === 1 ? 'ticket' : 'tickets'}
      </p>
      <p className={`order-status order-status--${order.status}`} role="status">
        <strong>{ORDER_STATUS_LABELS[order.status]}.</strong> {STATUS_MESSAGES[order.status] ?? ''}
      </p>
      {order.erasedAt && (
        // RULES 21.3: the buyer's name, address, phone and email are gone; the order, its amounts and tickets stay.
        <p className="order-erased">
          Personal details erased on <time dateTime={order.erasedAt}>{formatInstant(order.erasedAt)}</time>.
        </p>
      )}
      <RefundOffer order={order} code={code} />
      <TicketList order={order} code={code} />
      <RefundList refunds={order.refunds} />
      <div className="order-layout">
        <OrderDetail entries={order.detail} />
        <div>
          <section className="cart-summary" aria-labelledby="order-payment">
            <h2 id="order-payment">Payment</h2>
            <LineItems lineItems={order.lineItems} total={order.totalPrice.value} />
          </section>
          <Timeline timeline={order.timeline} />
        </div>
      </div>
      <p className="order-guarantee">
        {/* RULES 20.4 */}
        <Link to={GUARANTEE_PATH}>
          Your order is covered by our 100% Money Back Guarantee: what it covers and how to claim
        </Link>
      </p>
      {code && <p className="order-keep">Bookmark this page to come back to your order.</p>}
    </section>
  );
}
