import { useDeferredValue, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { seatMapTemplate } from '../../../../shared/schemas/seat-maps.js';
import { MAX_TICKETS_PER_EVENT } from '../../../../shared/rules/constants.js';
import { cheapestOffer, offerQuantity } from '../../../../shared/rules/offer.js';
import { SORTS, type ListingSort } from './buying-api.js';
import { ListingItem, DEAL_RULE_TEXT } from './listing-item.js';
import { ACCESSIBLE_PARAM, QUANTITY_CHOICES, readListingsFilter } from './listings-filter.js';
import { formatMoney } from './money.js';
import { takeInputBeforeScript } from '../../lib/input-before-script.js';
import { PriceFilter } from './price-filter.js';
import { SeatMap } from './seat-map.js';
import { summarizeSections } from './seat-map-model.js';
import { useAllListings, useListings } from './use-buying.js';
import './buying.css';

const SORT_LABELS: Record<ListingSort, string> = {
  price_asc: 'Price: low to high',
  price_desc: 'Price: high to low',
  section: 'Section',
};

const NO_LISTINGS: readonly never[] = [];
/** The listings panel's fields whose choice before the script ran is kept. */
const QUANTITY_INPUT = 'listings-quantity';
const SORT_INPUT = 'listings-sort';
const tickets = (n: number) => `${n} ${n === 1 ? 'ticket' : 'tickets'}`;
/** RULES 8.1: the per-event limit, said beside the quantity picker, which offers no more. */
export const QUANTITY_LIMIT_TEXT = `Up to ${MAX_TICKETS_PER_EVENT} tickets per shopper for an event`;
/** The address parameter of the sections chosen on the seat map. */
export const SECTION_PARAM = 'section';

/** Listings (RULES 8.4, 3.2): quantity, sort and an all-in price filter, each refetching from the server. */
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
  const choicesId = useId();
  const limitId = useId();
  const quantityId = useId();
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
  // A quantity or sort chosen before the script ran (the selects work as a plain GET form until then) is read from
  // the page before hydration resets it (`lib/input-before-script.ts`), and applied once the panel is live.
  const apply = useRef(update);
  useEffect(() => {
    const changes: Record<string, string> = {};
    const quantity = takeInputBeforeScript(QUANTITY_INPUT);
    const sort = takeInputBeforeScript(SORT_INPUT);
    if (quantity !== undefined) changes['quantity'] = quantity;
    if (sort !== undefined) changes['sort'] = sort;
    if (Object.keys(changes).length > 0) apply.current(changes);
  }, []);
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
  // A new answer's rows render in a transition, so a long list never holds the main thread in one task;
  // until they are in, the panel still says it is finding tickets.
  const latest = listings.data;
  const shownAnswer = useDeferredValue(latest);
  const shown = shownAnswer?.listings ?? NO_LISTINGS;
  const pending = listings.isPending || (shownAnswer === undefined && latest !== undefined);
  // Rows of an earlier answer (the last one kept while a new quantity or sort loads, or the one still on screen while
  // the new rows render) stay in view, dimmed and not to be chosen, and are labelled with their own answer's
  // quantity and price range, never the one asked for since (the count line and each Select alike).
  const stale = listings.isPlaceholderData || shownAnswer !== latest;
  const answered = shownAnswer?.query ?? (stale ? undefined : filter);
  const answeredQuantity = answered?.quantity;
  const answeredFiltered = answered?.minPrice !== undefined || answered?.maxPrice !== undefined;
  const answeredAccessible = answered?.accessible === true;
  // RULES 3.9: the cheapest listing a shopper can buy (the "From" of the cards, the button and the JSON-LD). When
  // it does not sell the quantity chosen, the panel says at which quantity it is, with a button to switch to it.
  // With accessible seating only, the note names the cheapest accessible listing (RULES 10.15).
  const offer =
    all.data && !stale
      ? cheapestOffer(
          all.data.listings.filter((l) => !filter.accessible || l.accessible),
          (l) => l.allInPricePerTicket,
        )
      : undefined;
  const offerAt =
    offer && !offer.quantities.includes(filter.quantity) ? offerQuantity(offer.quantities, filter.quantity) : null;
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
          {/* Without the script the quantity and sort are a plain GET form (the address is the filter). */}
          <form id={choicesId} method="get" className="listings__choices" onSubmit={(e) => e.preventDefault()}>
            {[...selected].map((section) => (
              <input key={section} type="hidden" name={SECTION_PARAM} value={section} />
            ))}
            {filter.minPrice !== undefined && <input type="hidden" name="minPrice" value={filter.minPrice} />}
            {filter.maxPrice !== undefined && <input type="hidden" name="maxPrice" value={filter.maxPrice} />}
            <span className="control">
              <label htmlFor={quantityId}>Tickets</label>
              <select
                id={quantityId}
                name="quantity"
                data-keep-input={QUANTITY_INPUT}
                value={filter.quantity}
                aria-describedby={limitId}
                onChange={(e) => update({ quantity: e.target.value })}
              >
                {QUANTITY_CHOICES.map((n) => (
                  <option key={n} value={n}>
                    {tickets(n)}
                  </option>
                ))}
              </select>
              <small className="listings__limit" id={limitId}>
                {QUANTITY_LIMIT_TEXT}
              </small>
            </span>
            <label className="control">
              <span>Sort by</span>
              <select
                name="sort"
                data-keep-input={SORT_INPUT}
                value={filter.sort}
                onChange={(e) => update({ sort: e.target.value })}
              >
                {SORTS.map((s) => (
                  <option key={s} value={s}>
                    {SORT_LABELS[s]}
                  </option>
                ))}
              </select>
            </label>
            <noscript>
              <button type="submit" className="button button--secondary">
                Show tickets
              </button>
            </noscript>
          </form>
          <PriceFilter
            key={`${filter.minPrice ?? ''}-${filter.maxPrice ?? ''}`}
            minPrice={filter.minPrice}
            maxPrice={filter.maxPrice}
            keep={{
              quantity: String(filter.quantity),
              sort: filter.sort,
              [SECTION_PARAM]: [...selected],
              ...(filter.accessible ? { [ACCESSIBLE_PARAM]: '1' } : {}),
            }}
            onApply={(min, max) =>
              update({
                minPrice: min === undefined ? undefined : String(min),
                maxPrice: max === undefined ? undefined : String(max),
              })
            }
          />
          {/* RULES 10.15: kept in the address like the other filters; the seat map follows it. */}
          <label className="control control--check">
            {/* Part of the quantity and sort form, so it is sent with them before the script runs. */}
            <input
              type="checkbox"
              form={choicesId}
              name={ACCESSIBLE_PARAM}
              value="1"
              checked={filter.accessible === true}
              onChange={(e) => update({ [ACCESSIBLE_PARAM]: e.target.checked ? '1' : undefined })}
            />
            <span>Accessible seating only</span>
          </label>
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
          accessibleOnly={filter.accessible === true}
        />
      )}
      {offerAt !== null && offer && !closed && !soldOut && (
        <p className="listings__offer">
          From {formatMoney(offer.price)} for {tickets(offerAt)}.{' '}
          <button type="button" className="link-button" onClick={() => update({ quantity: String(offerAt) })}>
            Show {tickets(offerAt)}
          </button>
        </p>
      )}
      {dateToBeAnnounced && (
        <p className="listings__note">Date to be announced: tickets bought now are good for the new date.</p>
      )}
      <div
        aria-busy={listings.isFetching || stale}
        aria-live="polite"
        className={`listings__status${pending ? ' listings__status--pending' : ''}`}
      >
        {pending ? (
          <p>Finding tickets…</p>
        ) : stale && !listings.isError ? (
          <p className="listings__updating">Finding tickets for {tickets(filter.quantity)}…</p>
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
            No tickets{answeredQuantity !== undefined ? ` for ${tickets(answeredQuantity)}` : ''}
            {answeredAccessible ? ' with accessible seating' : ''}
            {answeredFiltered ? ' in that price range' : ''}. Try a different number of tickets
            {answeredFiltered ? ' or clear the price filter' : ''}
            {answeredAccessible ? ', or show every seat' : ''}.
          </p>
        ) : visible.length < shown.length ? (
          <p className="listings__count">
            {visible.length} of {shown.length} listings
            {answeredQuantity !== undefined ? ` for ${tickets(answeredQuantity)}` : ''}
            {answeredAccessible ? ' with accessible seating' : ''}, in the sections chosen
          </p>
        ) : (
          <p className="listings__count">
            {shown.length} {shown.length === 1 ? 'listing' : 'listings'}
            {answeredQuantity !== undefined ? ` for ${tickets(answeredQuantity)}` : ''}
            {answeredAccessible ? ' with accessible seating' : ''}
          </p>
        )}
      </div>
      {!listings.isError && shown.length > 0 && !soldOut && !closed && (
        <>
          <p className="deal-rule">{DEAL_RULE_TEXT}</p>
          {/* Stale rows stay in view but cannot be chosen. */}
          <ul className="listing-list" inert={stale} aria-busy={stale || undefined}>
            {visible.map((l) => (
              <ListingItem
                key={l.id}
                listing={l}
                slug={slug}
                quantity={answeredQuantity ?? filter.quantity}
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
