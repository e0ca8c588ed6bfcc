import { useDeferredValue, useId, useMemo, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import {
  DEAL_MIN_COMPARABLE,
  DEAL_RATING_LABELS,
  DEAL_RATING_LIMITS,
  DELIVERY_LABELS,
  type Listing,
} from '../../../../shared/schemas/commerce.js';
import { seatMapTemplate } from '../../../../shared/schemas/seat-maps.js';
import { SORTS, type ListingSort, type ListingsFilter } from './buying-api.js';
import { formatCalendarDate, formatMoney, formatRate, seatLabel } from './money.js';
import { SeatMap } from './seat-map.js';
import { summarizeSections } from './seat-map-model.js';
import { useAllListings, useListings } from './use-buying.js';
import './buying.css';

export const QUANTITY_CHOICES = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] as const;
/** Most tickets are bought in pairs. */
export const DEFAULT_QUANTITY = 2;

const SORT_LABELS: Record<ListingSort, string> = {
  price_asc: 'Price: low to high',
  price_desc: 'Price: high to low',
  section: 'Section',
};

function readQuantity(text: string | null): number {
  const n = Number(text);
  return Number.isInteger(n) && n >= 1 && n <= QUANTITY_CHOICES.length ? n : DEFAULT_QUANTITY;
}

function readPrice(text: string | null): number | undefined {
  if (text === null || text.trim() === '') return undefined;
  const n = Number(text);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

function readSort(text: string | null): ListingSort {
  return (SORTS as readonly string[]).includes(text ?? '') ? (text as ListingSort) : 'price_asc';
}

type ActiveFilter = ListingsFilter & { quantity: number; sort: ListingSort };

/** The listing filters live in the address, so Back and a shared link keep them. */
export function readListingsFilter(params: URLSearchParams): ActiveFilter {
  const filter: ActiveFilter = { quantity: readQuantity(params.get('quantity')), sort: readSort(params.get('sort')) };
  const minPrice = readPrice(params.get('minPrice'));
  const maxPrice = readPrice(params.get('maxPrice'));
  if (minPrice !== undefined) filter.minPrice = minPrice;
  if (maxPrice !== undefined) filter.maxPrice = maxPrice;
  return filter;
}

export function ticketPageUrl(slug: string, listingId: number, quantity: number): string {
  return `/tickets/${slug}?listing=${listingId}&quantity=${quantity}`;
}

/**
 * What makes up one ticket's all-in price, as the server priced it (`shared/rules/all-in-price.ts`), and shipping
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

interface MapLink {
  /** The listing's section is on the map. */
  onMap: boolean;
  shown: boolean;
  onShow: () => void;
  onPreview: (section: string | null) => void;
}

function ListingItem({
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
        <p className="listing__meta">
          {DELIVERY_LABELS[listing.deliveryMethod]} · In hand by {formatCalendarDate(listing.inHandDate)}
        </p>
        {listing.sellerNotes.trim() !== '' && <p className="listing__notes">{listing.sellerNotes}</p>}
        {(listing.accessible || listing.obstructedView) && (
          <p className="listing__seating">
            {listing.accessible && (
              <span className="seating-mark">
                <span aria-hidden="true">♿</span> Accessible seating
              </span>
            )}
            {listing.obstructedView && (
              <span className="seating-mark">
                <span aria-hidden="true">⚠</span> Obstructed view
              </span>
            )}
          </p>
        )}
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

function PriceFilter({
  minPrice,
  maxPrice,
  onApply,
}: {
  minPrice?: number;
  maxPrice?: number;
  onApply: (min?: number, max?: number) => void;
}) {
  const [min, setMin] = useState(minPrice === undefined ? '' : String(minPrice));
  const [max, setMax] = useState(maxPrice === undefined ? '' : String(maxPrice));
  const [error, setError] = useState<string | null>(null);
  const errorId = useId();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const lo = readPrice(min);
    const hi = readPrice(max);
    if ((min.trim() !== '' && lo === undefined) || (max.trim() !== '' && hi === undefined)) {
      setError('Enter prices as positive numbers');
      return;
    }
    if (lo !== undefined && hi !== undefined && lo > hi) {
      setError('The minimum price is above the maximum');
      return;
    }
    setError(null);
    onApply(lo, hi);
  };
  const clear = () => {
    setMin('');
    setMax('');
    setError(null);
    onApply(undefined, undefined);
  };
  const describedBy = error ? errorId : undefined;
  return (
    <form className="price-filter" onSubmit={submit}>
      <fieldset>
        <legend>Price per ticket (fees included)</legend>
        <label>
          Min $
          <input
            type="number"
            inputMode="decimal"
            min={0}
            step="any"
            value={min}
            onChange={(e) => setMin(e.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={describedBy}
          />
        </label>
        <label>
          Max $
          <input
            type="number"
            inputMode="decimal"
            min={0}
            step="any"
            value={max}
            onChange={(e) => setMax(e.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={describedBy}
          />
        </label>
        <button type="submit" className="button button--secondary">
          Apply
        </button>
        {(minPrice !== undefined || maxPrice !== undefined) && (
          <button type="button" className="link-button" onClick={clear}>
            Clear price
          </button>
        )}
      </fieldset>
      {error && (
        <p className="field-error" id={errorId}>
          {error}
        </p>
      )}
    </form>
  );
}

const NO_LISTINGS: readonly never[] = [];
/** The address parameter of the sections chosen on the seat map. */
export const SECTION_PARAM = 'section';

/** Spec §3 listings: quantity, sort and an all-in price filter, each refetching from the server. */
export function ListingsPanel({
  slug,
  headingLevel = 2,
  withSeatMap = false,
}: {
  slug: string;
  headingLevel?: 2 | 3;
  withSeatMap?: boolean;
}) {
  const [params, setParams] = useSearchParams();
  const filter = readListingsFilter(params);
  // The sections chosen on the seat map live in the address too (`section`, repeated).
  const sectionKey = params.getAll(SECTION_PARAM).join('\n');
  const selected = useMemo(() => new Set(sectionKey === '' ? [] : sectionKey.split('\n')), [sectionKey]);
  const [shownListing, setShownListing] = useState<number | null>(null);
  const [previewSection, setPreviewSection] = useState<string | null>(null);
  const listings = useListings(slug, filter);
  const all = useAllListings(slug);
  const headingId = useId();
  const Heading = headingLevel === 2 ? 'h2' : 'h3';

  const update = (changes: Record<string, string | readonly string[] | undefined>) => {
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        for (const [key, value] of Object.entries(changes)) {
          next.delete(key);
          if (typeof value === 'string') next.set(key, value);
          else for (const v of value ?? []) next.append(key, v);
        }
        return next;
      },
      { replace: true },
    );
  };
  const toggleSection = (section: string) =>
    update({
      [SECTION_PARAM]: selected.has(section) ? [...selected].filter((s) => s !== section) : [...selected, section],
    });

  const serviceFeeRate = (listings.data ?? all.data)?.fees.serviceFeeRate;
  // Not on sale (started or cancelled): the server says why, and that is all the panel shows.
  const sale = (listings.data ?? all.data)?.sale;
  const closed = sale?.onSale === false ? sale.message : null;
  const dateToBeAnnounced = sale?.onSale === true && sale.dateToBeAnnounced;
  const soldOut = !closed && all.data !== undefined && !all.data.listings.some((l) => l.quantityAvailable > 0);
  const filtered = filter.minPrice !== undefined || filter.maxPrice !== undefined;
  // A new answer's rows render in a transition, so a long list never holds the main thread in one task;
  // until they are in, the panel still says it is finding tickets.
  const latest = listings.data?.listings ?? NO_LISTINGS;
  const shown = useDeferredValue(latest);
  const pending = listings.isPending || shown !== latest;
  const layout = (listings.data ?? all.data)?.seatMap.layout;
  const template = withSeatMap && layout ? seatMapTemplate(layout) : null;
  const sections = useMemo(() => (template ? summarizeSections(shown, template) : []), [shown, template]);
  const onMap = useMemo(() => new Set(template?.sections.map((s) => s.name)), [template]);
  const visible = selected.size === 0 || !template ? shown : shown.filter((l) => selected.has(l.section));
  const highlighted = shown.find((l) => l.id === shownListing && onMap.has(l.section))?.section ?? null;

  return (
    <section className="listings" id="listings" aria-labelledby={headingId}>
      <Heading id={headingId}>Tickets</Heading>
      {/* Nothing to choose among once the event is no longer on sale. */}
      {!closed && (
        <div className="listings__controls">
          <label className="control">
            <span>Tickets</span>
            <select value={filter.quantity} onChange={(e) => update({ quantity: e.target.value })}>
              {QUANTITY_CHOICES.map((n) => (
                <option key={n} value={n}>
                  {n} {n === 1 ? 'ticket' : 'tickets'}
                </option>
              ))}
            </select>
          </label>
          <label className="control">
            <span>Sort by</span>
            <select value={filter.sort} onChange={(e) => update({ sort: e.target.value })}>
              {SORTS.map((s) => (
                <option key={s} value={s}>
                  {SORT_LABELS[s]}
                </option>
              ))}
            </select>
          </label>
          <PriceFilter
            key={`${filter.minPrice ?? ''}-${filter.maxPrice ?? ''}`}
            minPrice={filter.minPrice}
            maxPrice={filter.maxPrice}
            onApply={(min, max) =>
              update({
                minPrice: min === undefined ? undefined : String(min),
                maxPrice: max === undefined ? undefined : String(max),
              })
            }
          />
        </div>
      )}
      {template && layout && !closed && !soldOut && !listings.isError && (
        <SeatMap
          layout={layout}
          sections={sections}
          selected={selected}
          highlighted={highlighted}
          preview={previewSection}
          onToggle={toggleSection}
          onClear={() => update({ [SECTION_PARAM]: undefined })}
        />
      )}
      {dateToBeAnnounced && (
        <p className="listings__note">Date to be announced: tickets bought now are good for the new date.</p>
      )}
      <div
        aria-busy={listings.isFetching}
        aria-live="polite"
        className={`listings__status${pending ? ' listings__status--pending' : ''}`}
      >
        {pending ? (
          <p>Finding tickets…</p>
        ) : listings.isError ? (
          <p role="alert">
            We could not load tickets right now.{' '}
            <button type="button" className="link-button" onClick={() => void listings.refetch()}>
              Try again
            </button>
          </p>
        ) : closed ? (
          <p className="listings__empty">{closed}.</p>
        ) : soldOut ? (
          <p className="listings__empty">
            This event is sold out right now. Sellers list tickets all the time, so check back soon.
          </p>
        ) : shown.length === 0 ? (
          <p className="listings__empty">
            No tickets for {filter.quantity} {filter.quantity === 1 ? 'ticket' : 'tickets'}
            {filtered ? ' in that price range' : ''}. Try a different number of tickets
            {filtered ? ' or clear the price filter' : ''}.
          </p>
        ) : visible.length < shown.length ? (
          <p className="listings__count">
            {visible.length} of {shown.length} listings for {filter.quantity}{' '}
            {filter.quantity === 1 ? 'ticket' : 'tickets'}, in the sections chosen
          </p>
        ) : (
          <p className="listings__count">
            {shown.length} {shown.length === 1 ? 'listing' : 'listings'} for {filter.quantity}{' '}
            {filter.quantity === 1 ? 'ticket' : 'tickets'}
          </p>
        )}
      </div>
      {!listings.isError && shown.length > 0 && !soldOut && !closed && (
        <>
          <p className="deal-rule">{DEAL_RULE_TEXT}</p>
          <ul className="listing-list">
            {visible.map((l) => (
              <ListingItem
                key={l.id}
                listing={l}
                slug={slug}
                quantity={filter.quantity}
                serviceFeeRate={serviceFeeRate}
                map={
                  template
                    ? {
                        onMap: onMap.has(l.section),
                        shown: shownListing === l.id,
                        onShow: () => setShownListing((id) => (id === l.id ? null : l.id)),
                        onPreview: setPreviewSection,
                      }
                    : undefined
                }
              />
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
