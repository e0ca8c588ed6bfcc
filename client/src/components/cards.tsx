import type {
  EventCard as EventCardData,
  PerformerCard as PerformerCardData,
  VenueCard as VenueCardData,
} from '../../../shared/schemas/cards.js';
import type { CategoryTile as CategoryTileData, PromoCard as PromoCardData } from '../../../shared/schemas/layout.js';
import { imageSrcSet } from '../lib/images.js';
import { Fragment } from 'react';
import { AppLink } from './app-link.js';
import { formatPrice } from '../../../shared/rules/format.js';

/**
 * Cards from the display-ready items of the layout: no formatting rules live here (RULES 5.5–5.7 are server-side).
 * Each card's link names what it shows in `data-item` (`event:7`, `category:nfl`): what a click on it records.
 */

const sizes = '(max-width: 640px) 80vw, 280px';

function Picture({ src, eager }: { src: string | null; eager?: boolean }) {
  if (!src) return <div className="card__image card__image--empty" aria-hidden="true" />;
  const srcSet = imageSrcSet(src);
  return (
    <img
      className="card__image"
      src={src}
      srcSet={srcSet}
      sizes={srcSet && sizes}
      alt=""
      // No width and height of its own: its box is the stylesheet's (`.card__image`, its card's width at 16:9),
      // which every page that draws one inlines (RULES 13.9), so the card keeps its size before the picture comes.
      // Eager is a picture's default. The first row's pictures are usually the largest paint: fetch them first.
      loading={eager ? undefined : 'lazy'}
      fetchPriority={eager ? 'high' : undefined}
      decoding="async"
    />
  );
}

/**
 * A card's lowest price. Its words are one string, so the server writes them as one text node: adjacent text
 * parts in JSX would each be separated by `<!-- -->` in the markup, on every card of the page.
 */
function FromPrice({ className, price }: { className: string; price: number }) {
  return (
    <span className={className}>
      {`From $${formatPrice(price)} `}
      <small>incl. fees</small>
    </span>
  );
}

export function PerformerCard({ card, eager }: { card: PerformerCardData; eager?: boolean }) {
  return (
    <AppLink className="card" to={card.url} data-item={`performer:${card.id}`}>
      <Picture src={card.pathPicture} eager={eager} />
      <span className="card__body">
        <span className="card__title">{card.name}</span>
        <span className="card__meta">{card.eventCount}</span>
        {card.minPrice > 0 && <FromPrice className="card__price" price={card.minPrice} />}
      </span>
    </AppLink>
  );
}

export function EventCard({ card }: { card: EventCardData }) {
  return (
    <AppLink className="event-card" to={card.url} data-item={`event:${card.id}`}>
      <span className="event-card__date" aria-hidden={card.date === 'TBD' ? undefined : true}>
        <span>{card.day}</span>
        <strong>{card.date}</strong>
        <span>{card.time}</span>
      </span>
      <span className="event-card__body">
        <span className="card__title">{card.name}</span>
        <span className="sr-only">{[card.day, card.date, card.year, card.time].filter(Boolean).join(' ')}</span>
        <span className="card__meta">{card.address}</span>
        {card.badges.length > 0 && (
          <span className="badges">
            {card.badges.map((b) => (
              <span key={b.type} className={`badge badge--${b.type}`}>
                {b.label}
              </span>
            ))}
          </span>
        )}
      </span>
      {card.minPrice !== undefined && <FromPrice className="event-card__price" price={card.minPrice} />}
      {card.unavailable && <span className="event-card__price event-card__price--none">{card.unavailable}</span>}
    </AppLink>
  );
}

export function VenueCard({ card }: { card: VenueCardData }) {
  return (
    <AppLink className="venue-card" to={card.url} data-item={`venue:${card.id}`}>
      <span className="card__title">{card.name}</span>
      <span className="card__meta">{card.address}</span>
    </AppLink>
  );
}

export function CategoryTile({ card, eager }: { card: CategoryTileData; eager?: boolean }) {
  return (
    <AppLink className="card tile" to={card.url} data-item={`category:${card.slug}`}>
      <Picture src={card.image} eager={eager} />
      <span className="card__body">
        <span className="card__title">{card.title}</span>
        <span className="card__meta">
          {card.eventCount === 1 ? '1 event' : `${card.eventCount.toLocaleString('en-US')} events`}
        </span>
      </span>
    </AppLink>
  );
}

export function PromoCard({ card, eager }: { card: PromoCardData; eager?: boolean }) {
  return (
    <AppLink className="card promo" to={card.url} data-item={`promo:${card.id}`}>
      <Picture src={card.image} eager={eager} />
      <span className="card__body">
        <span className="card__title">{card.title}</span>
        <span className="card__meta">{card.subtitle}</span>
      </span>
    </AppLink>
  );
}

/**
 * A card shows its month and day. A list in date order that spans more than one year sets each year above the first
 * card of it (a screen reader hears each card's year, and no extra item); a list in another order (by relevance, by
 * popularity) or within one year sets none. Cards with no date yet have no year. The year to set above each card, or
 * undefined.
 */
function yearHeadings(events: readonly EventCardData[]): (string | undefined)[] {
  const years = events.map(({ year }) => year).filter((year) => year !== '');
  const inOrder = years.every((year, i) => i === 0 || year >= years[i - 1]!);
  if (!inOrder || new Set(years).size < 2) return events.map(() => undefined);
  let before = '';
  return events.map(({ year }) => {
    const heading = year !== '' && year !== before ? year : undefined;
    if (year !== '') before = year;
    return heading;
  });
}

/** Events as a list of cards; `empty` says so in words when there are none. */
export function EventList({
  events,
  empty,
  emptyClassName,
}: {
  events: readonly EventCardData[];
  empty: string;
  emptyClassName?: string;
}) {
  if (events.length === 0) return <p className={emptyClassName}>{empty}</p>;
  const headings = yearHeadings(events);
  return (
    <ul className="event-list">
      {events.map((card, i) => {
        const heading = headings[i];
        return (
          <Fragment key={card.id}>
            {heading && (
              <li className="event-list__year" aria-hidden="true">
                {heading}
              </li>
            )}
            <li>
              <EventCard card={card} />
            </li>
          </Fragment>
        );
      })}
    </ul>
  );
}
