import { useEffect } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import type { EventCard as EventCardData } from '../../../../shared/schemas/cards.js';
import { EventList, PerformerCard } from '../../components/cards.js';
import { eventWhen } from '../../features/buying/cart-summary.js';
import {
  eventJsonLd,
  eventPlace,
  eventStartDate,
  jsonLdText,
  ticketPrices,
} from '../../features/buying/event-jsonld.js';
import { ListingsPanel } from '../../features/buying/listings.js';
import { formatMoney } from '../../features/buying/money.js';
import { slugFromSplat, useAllListings, useEventPage } from '../../features/buying/use-buying.js';
import { useServedEntityView, useSiteOrigin } from '../page-context.js';
import { usePageAnswer } from './page-states.js';

const STATUS_NOTICES: Partial<Record<string, string>> = {
  postponed: 'This event is postponed. Tickets stay valid for the new date once it is announced.',
  rescheduled: 'This event has been rescheduled. Check the date and time above.',
  cancelled: 'This event is cancelled.',
};

/**
 * Back to where the shopper came from when that was a page of this site (the router keeps that entry); a shopper
 * who landed here from outside goes up to the event's category instead.
 */
function BackLink({ event }: { event: EventCardData }) {
  const { key } = useLocation();
  const navigate = useNavigate();
  const cameFromHere = key !== 'default';
  const category = event.detail?.category;
  return (
    <Link
      to={category ? `/category/${category}` : '/'}
      onClick={(e) => {
        if (!cameFromHere) return;
        e.preventDefault();
        void navigate(-1);
      }}
    >
      {cameFromHere ? '← Back' : category ? '← More events like this' : '← All events'}
    </Link>
  );
}

/** RULES 2.5: an /events/ page, shown without the site header and footer. */
export function EventPage() {
  const params = useParams();
  const slug = slugFromSplat(params['*']);
  const { search } = useLocation();
  const q = useEventPage(slug);
  useServedEntityView('event', slug, q.data !== undefined);
  const all = useAllListings(slug);
  const origin = useSiteOrigin();
  useEffect(() => {
    if (q.data) document.title = `${q.data.event.name} tickets`;
  }, [q.data]);
  const page = usePageAnswer(q);
  if (page.fallback) return page.fallback;
  const { event, venue, performers, morePerformerEvents, moreVenueEvents } = page.data;
  const start = eventStartDate(event);
  const notice = event.detail ? STATUS_NOTICES[event.detail.event_status] : undefined;
  // The "from" price and the JSON-LD offer read the same listings through the same function, so they agree.
  const lowest = all.data ? ticketPrices(all.data.listings)?.lowPrice : undefined;
  const jsonLd = eventJsonLd({ event, venue, performers, listings: all.data, origin });

  return (
    <article className="event-page buying-page">
      {jsonLd && <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: jsonLdText(jsonLd) }} />}
      <p className="back-link">
        <BackLink event={event} />
      </p>
      <header className="event-hero">
        <h1>{event.name}</h1>
        <p className="event-hero__when">
          {start ? <time dateTime={start}>{eventWhen(event)}</time> : eventWhen(event)}
          {event.date !== 'TBD' && <span className="event-hero__tz"> (venue local time)</span>}
        </p>
        <p className="event-hero__where">
          {venue ? <Link to={venue.url}>{venue.name}</Link> : <span>{event.detail?.venue_name ?? event.address}</span>}
          <span className="event-hero__place">{eventPlace(event)}</span>
        </p>
        {event.badges.length > 0 && (
          <p className="badges">
            {event.badges.map((b) => (
              <span key={b.type} className={`badge badge--${b.type}`}>
                {b.label}
              </span>
            ))}
          </p>
        )}
        {notice && (
          <p className="notice" role="note">
            {notice}
          </p>
        )}
        <Link className="button button--primary" to={`/tickets/${slug}${search}`}>
          {lowest !== undefined ? `See tickets from ${formatMoney(lowest)}` : 'See tickets'}
        </Link>
      </header>
      <ListingsPanel slug={slug} withSeatMap />
      {performers.length > 0 && (
        <section aria-labelledby="event-performers">
          <h2 id="event-performers">Performers</h2>
          <ul className="cards">
            {performers.map((p) => (
              <li key={p.id}>
                <PerformerCard card={p} />
              </li>
            ))}
          </ul>
        </section>
      )}
      <section aria-labelledby="more-performer">
        <h2 id="more-performer">More dates</h2>
        <EventList events={morePerformerEvents} empty="No other dates yet." />
      </section>
      {venue && (
        <section aria-labelledby="more-venue">
          <h2 id="more-venue">{`More at ${venue.name}`}</h2>
          <EventList events={moreVenueEvents} empty="Nothing else scheduled here yet." />
        </section>
      )}
    </article>
  );
}
