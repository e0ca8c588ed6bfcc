import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import type { Cart } from '../../../../shared/schemas/commerce.js';
import { buyingApi, BuyingApiError } from '../../features/buying/buying-api.js';
import { CartSummary } from '../../features/buying/cart-summary.js';
import { CheckoutForm } from '../../features/buying/checkout-form.js';
import { HoldCountdown, HoldEnded } from '../../features/buying/hold-countdown.js';
import { PageLoading } from './page-states.js';
import '../../features/buying/buying.css';

/** /checkout/:cartId, inside the site layout: the held cart, the hold's countdown and the checkout form. */
export function CheckoutPage() {
  const { cartId = '' } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [holdEnded, setHoldEnded] = useState(false);
  const [releasing, setReleasing] = useState(false);
  // The cart priced with the promo code the shopper applied: what the summary and the Pay button show.
  const [priced, setPriced] = useState<Cart | null>(null);
  const cart = useQuery({
    queryKey: ['cart', cartId],
    queryFn: ({ signal }) => buyingApi.cart(cartId, signal),
    staleTime: 0,
    retry: false,
  });
  const listingId = cart.data?.listingId;
  const detail = useQuery({
    queryKey: ['listing', listingId],
    queryFn: ({ signal }) => buyingApi.listing(listingId!, signal),
    enabled: listingId !== undefined,
  });
  useEffect(() => {
    document.title = 'Checkout';
  }, []);

  if (cart.isPending) return <PageLoading />;
  if (cart.isError) {
    const missing =
      cart.error instanceof BuyingApiError &&
      (cart.error.status === 404 || cart.error.status === 400 || cart.error.status === 403);
    return (
      <section className="checkout-page buying-page">
        <h1>Checkout</h1>
        <p role="alert">
          {missing
            ? 'We could not find these tickets. The hold may belong to another browser.'
            : 'We could not load your tickets. Please try again.'}
        </p>
        <Link to="/">Find tickets</Link>
      </section>
    );
  }

  const data = cart.data;
  const shown =
    priced && priced.id === data.id
      ? { ...data, lineItems: priced.lineItems, totalPrice: priced.totalPrice, promoCode: priced.promoCode }
      : data;
  const event = detail.data?.event;
  // The listings are asked for by the listing's own seats: companion seats come with them (RULES 10.16).
  const backTo = event ? `${event.url}?quantity=${data.quantitySelected - data.companions}` : '/';
  const ended = holdEnded || data.status === 'expired' || data.status === 'released';

  const release = async () => {
    setReleasing(true);
    try {
      await buyingApi.releaseCart(data.id);
    } catch {
      // The hold ends on its own at expiresAt; leaving must not depend on this call.
    }
    queryClient.removeQueries({ queryKey: ['cart', data.id] });
    void queryClient.invalidateQueries({ queryKey: ['listings'] });
    void navigate(backTo);
  };

  if (data.status === 'purchased') {
    return (
      <section className="checkout-page buying-page">
        <h1>Checkout</h1>
        <p>These tickets are already paid for. Your order confirmation was sent to your email.</p>
        <Link to="/">Find more events</Link>
      </section>
    );
  }

  return (
    <section className="checkout-page buying-page" aria-labelledby="checkout-title">
      <h1 id="checkout-title">Checkout</h1>
      <div className="checkout-layout">
        <div className="checkout-layout__summary">
          <CartSummary
            quantity={data.quantitySelected}
            companions={data.companions}
            lineItems={shown.lineItems}
            total={shown.totalPrice.value}
            event={event}
            listing={detail.data?.listing}
          >
            {ended ? (
              <HoldEnded backTo={backTo} />
            ) : (
              <HoldCountdown expiresAt={data.expiresAt} onEnd={() => setHoldEnded(true)} backTo={backTo} />
            )}
            {!ended && (
              <button type="button" className="link-button" onClick={() => void release()} disabled={releasing}>
                Release these tickets and choose others
              </button>
            )}
          </CartSummary>
        </div>
        <div className="checkout-layout__form">
          <CheckoutForm cart={shown} disabled={ended} onHoldEnded={() => setHoldEnded(true)} onPriced={setPriced} />
        </div>
      </div>
    </section>
  );
}
