import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import type { EventCard } from '../../../../shared/schemas/cards.js';
import { buyingApi, BuyingApiError } from '../../features/buying/buying-api.js';
import { holdTickets } from '../../features/buying/cart-attempt.js';
import { eventWhen } from '../../features/buying/cart-summary.js';
import { CompanionSeats, companionsWithin, spacesText } from '../../features/buying/companion-seats.js';
import { FeeDetails } from '../../features/buying/fee-details.js';
import { ListingsPanel } from '../../features/buying/listings.js';
import { ListingDisclosures } from '../../features/buying/listing-disclosures.js';
import { allowedQuantities, formatMoney, seatLabel } from '../../features/buying/money.js';
import { trackAddToCart } from '../../features/buying/tracking.js';
import { allowanceText, slugFromSplat, useEventPage, usePurchaseAllowance } from '../../features/buying/use-buying.js';
import { PageFailed, PageLoading, usePageAnswer } from './page-states.js';
import '../../features/buying/buying.css';

function EventLine({ event }: { event: EventCard }) {
  return (
    <p className="ticket-event">
      <span>{eventWhen(event)}</span>
      <span>{event.address}</span>
    </p>
  );
}

/** /tickets/<slug> without a listing: the event's listings to choose from. */
function TicketPicker({ slug }: { slug: string }) {
  const q = useEventPage(slug);
  useEffect(() => {
    if (q.data) document.title = `Tickets: ${q.data.event.name}`;
  }, [q.data]);
  const page = usePageAnswer(q);
  if (page.fallback) return page.fallback;
  const { event } = page.data;
  return (
    <article className="ticket-page buying-page">
      <p className="back-link">
        <Link to={event.url}>← Back to the event</Link>
      </p>
      <h1>Tickets for {event.name}</h1>
      <EventLine event={event} />
      <ListingsPanel slug={slug} />
    </article>
  );
}

function ListingTickets({ slug, listingId, requested }: { slug: string; listingId: number; requested: number }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const selectId = useId();
  const q = useQuery({
    queryKey: ['listing', listingId],
    queryFn: ({ signal }) => buyingApi.listing(listingId, signal),
    staleTime: 0,
  });
  const [chosen, setChosen] = useState<number | null>(null);
  // RULES 8.1: the shopper's allowance of this event, said before "Continue to checkout"; more is not offered.
  const allowance = usePurchaseAllowance(q.data?.listing.eventId).data;
  const withinLimit = (n: number) => allowance === undefined || n <= allowance.left;
  const [needQuantity, setNeedQuantity] = useState(false);
  const [companionsChosen, setCompanionsChosen] = useState(0);
  const hold = useMutation({
    // RULES 10.6: sent under one key however often it is retried, so a lost answer never holds twice.
    mutationFn: ({ id, quantity, companions }: { id: number; quantity: number; companions: number }) =>
      holdTickets(
        { listingId: id, quantity, companions },
        { send: (r, key) => buyingApi.createCart(r.listingId, r.quantity, r.companions, key) },
      ),
    onSuccess: (cart, { id }) => {
      trackAddToCart(id);
      void navigate(`/checkout/${cart.id}`);
    },
    onError: (err) => {
      if (err instanceof BuyingApiError && err.status === 409) {
        void queryClient.invalidateQueries({ queryKey: ['listings'] });
        // RULES 10.16: the companion seats left, as they stand now.
        if (err.code === 'not_enough_companion_seats')
          void queryClient.invalidateQueries({ queryKey: ['listing', listingId] });
      }
    },
  });
  useEffect(() => {
    if (q.data) document.title = `Tickets: ${q.data.event.name}`;
  }, [q.data]);
  useEffect(() => {
    // Picking from /tickets/<slug> keeps the path, so the shell's scroll reset on a new path does not run.
    window.scrollTo(0, 0);
  }, []);

  if (q.isPending) return <PageLoading />;
  if (q.isError) {
    if (q.error instanceof BuyingApiError && q.error.status === 404) {
      return (
        <article className="ticket-page buying-page">
          <h1>These tickets are no longer listed</h1>
          <p>
            <Link className="button" to={`/events/${slug}`}>
              See other tickets for this event
            </Link>
          </p>
        </article>
      );
    }
    return <PageFailed error={q.error} />;
  }

  const { listing, event } = q.data;
  const allowed = allowedQuantities(listing);
  const quantity = chosen ?? (allowed.includes(requested) && withinLimit(requested) ? requested : null);
  const backToListings = `${event.url}?quantity=${quantity ?? (requested || 1)}`;
  const taken =
    (hold.error instanceof BuyingApiError && hold.error.code === 'not_enough_tickets') || allowed.length === 0;
  // The all-in price and any shipping, per ticket: what the cart charges (`shared/rules/pricing.ts`).
  const perTicketCents = Math.round(listing.allInPricePerTicket * 100) + Math.round(listing.shippingPerTicket * 100);
  // RULES 10.16: an accessible listing's seats are wheelchair spaces, and companion seats may come with them.
  // RULES 8.1: companion seats count towards the limit too.
  const companions = Math.min(companionsChosen, companionsWithin(listing, quantity, allowance?.left));
  const ticketCount = (quantity ?? 0) + companions;

  const submit = () => {
    if (quantity === null) {
      setNeedQuantity(true);
      document.getElementById(selectId)?.focus();
      return;
    }
    hold.mutate({ id: listing.id, quantity, companions });
  };

  return (
    <article className="ticket-page buying-page">
      <p className="back-link">
        <Link to={backToListings}>← All tickets for this event</Link>
      </p>
      <h1>Tickets for {event.name}</h1>
      <EventLine event={event} />
      <section className="ticket-card" aria-labelledby={`${selectId}-title`}>
        <h2 id={`${selectId}-title`}>{seatLabel(listing)}</h2>
        <ListingDisclosures terms={listing} />

        {taken ? (
          <div className="form-alert" role="alert">
            <p>
              <strong>Those tickets were just taken.</strong>{' '}
              {hold.error instanceof BuyingApiError ? hold.error.message : 'Another fan got them first.'}
            </p>
            <Link className="button" to={backToListings}>
              See other tickets for this event
            </Link>
          </div>
        ) : (
          <>
            <div className={`field${needQuantity && quantity === null ? ' field--invalid' : ''}`}>
              <label htmlFor={selectId}>
                {listing.accessible ? 'Number of wheelchair spaces' : 'Number of tickets'}
              </label>
              {!allowed.includes(requested) && chosen === null && (
                <p className="field-hint" id={`${selectId}-hint`}>
                  {requested > 0
                    ? `This seller does not sell ${requested} ${requested === 1 ? 'ticket' : 'tickets'} ` +
                      `from this listing. `
                    : ''}
                  Choose {allowed.length === 1 ? `${allowed[0]}` : `one of ${allowed.join(', ')}`}.
                </p>
              )}
              <select
                id={selectId}
                value={quantity ?? ''}
                onChange={(e) => {
                  setChosen(e.target.value === '' ? null : Number(e.target.value));
                  setNeedQuantity(false);
                  hold.reset();
                }}
                aria-invalid={needQuantity && quantity === null ? true : undefined}
                aria-describedby={
                  [
                    !allowed.includes(requested) && chosen === null ? `${selectId}-hint` : '',
                    needQuantity && quantity === null ? `${selectId}-error` : '',
                  ]
                    .filter(Boolean)
                    .join(' ') || undefined
                }
              >
                {quantity === null && <option value="">Choose</option>}
                {allowed.map((n) => (
                  <option key={n} value={n} disabled={!withinLimit(n)}>
                    {listing.accessible ? spacesText(n) : `${n} ${n === 1 ? 'ticket' : 'tickets'}`}
                    {withinLimit(n) ? '' : ' (over your limit)'}
                  </option>
                ))}
              </select>
              {needQuantity && quantity === null && (
                <p className="field-error" id={`${selectId}-error`}>
                  Choose how many tickets you want
                </p>
              )}
            </div>
            <CompanionSeats
              listing={listing}
              spaces={quantity}
              value={companions}
              allowance={allowance?.left}
              onChange={(n) => {
                setCompanionsChosen(n);
                hold.reset();
              }}
            />
            <h3 className="price-heading">Price per ticket</h3>
            <FeeDetails listing={listing} serviceFeeRate={q.data?.fees.serviceFeeRate} id={`${selectId}-fees`} />
            {quantity !== null && (
              <p className="ticket-total">
                Total for {ticketCount} {ticketCount === 1 ? 'ticket' : 'tickets'}
                {companions > 0 ? ` (${spacesText(quantity)} and ${companions} companion)` : ''}:{' '}
                <strong>{formatMoney((perTicketCents * ticketCount) / 100)}</strong>
                <span className="ticket-total__note">
                  {listing.shippingPerTicket > 0 ? 'Fees and shipping included.' : 'Fees included.'} Add a promo code at
                  checkout.
                </span>
              </p>
            )}
            {hold.isError && (
              <p className="form-alert" role="alert">
                {/* The server's sentence names the rule (a limit per event, an event already started, a moment's
                    outage). */}
                {hold.error instanceof BuyingApiError && (hold.error.status < 500 || hold.error.status === 503)
                  ? hold.error.message
                  : 'We could not hold these tickets. Please try again.'}
              </p>
            )}
            {allowance && (
              <p className="ticket-limit" role="note">
                {allowanceText(allowance)}
              </p>
            )}
            <button
              type="button"
              className="button button--primary button--wide"
              onClick={submit}
              disabled={hold.isPending || allowance?.left === 0}
            >
              {hold.isPending ? 'Holding your tickets…' : 'Continue to checkout'}
            </button>
          </>
        )}
      </section>
    </article>
  );
}

/** RULES 2.5: a /tickets/ page, shown without the site header and footer. */
export function TicketPage() {
  const params = useParams();
  const slug = slugFromSplat(params['*']);
  const [search] = useSearchParams();
  const listingId = Number(search.get('listing'));
  const requested = Number(search.get('quantity'));
  if (!Number.isInteger(listingId) || listingId <= 0) return <TicketPicker slug={slug} />;
  return (
    <ListingTickets
      key={listingId}
      slug={slug}
      listingId={listingId}
      requested={Number.isInteger(requested) ? requested : 0}
    />
  );
}
