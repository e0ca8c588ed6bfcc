import { useDeferredValue, useId, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { seatMapTemplate } from '../../../../shared/schemas/seat-maps.js';
import { SORTS, type ListingSort } from './buying-api.js';
import { ListingItem, DEAL_RULE_TEXT } from './listing-item.js';
import { ACCESSIBLE_PARAM, QUANTITY_CHOICES, readListingsFilter } from './listings-filter.js';
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
  // Rows of an earlier answer (the last one kept while a new quantity or sort loads, or the one still on screen while
  // the new rows render): their Select would name the new quantity for a listing that may not sell it.
  const stale = listings.isPlaceholderData || shown !== latest;
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
          {/* RULES 10.15: kept in the address like the other filters; the seat map follows it. */}
          <label className="control control--check">
            <input
              type="checkbox"
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
            {filter.accessible ? ' with accessible seating' : ''}
            {filtered ? ' in that price range' : ''}. Try a different number of tickets
            {filtered ? ' or clear the price filter' : ''}
            {filter.accessible ? ', or show every seat' : ''}.
          </p>
        ) : visible.length < shown.length ? (
          <p className="listings__count">
            {visible.length} of {shown.length} listings for {filter.quantity}{' '}
            {filter.quantity === 1 ? 'ticket' : 'tickets'}
            {filter.accessible ? ' with accessible seating' : ''}, in the sections chosen
          </p>
        ) : (
          <p className="listings__count">
            {shown.length} {shown.length === 1 ? 'listing' : 'listings'} for {filter.quantity}{' '}
            {filter.quantity === 1 ? 'ticket' : 'tickets'}
            {filter.accessible ? ' with accessible seating' : ''}
          </p>
        )}
      </div>
      {!listings.isError && shown.length > 0 && !soldOut && !closed && (
        <>
          <p className="deal-rule">{DEAL_RULE_TEXT}</p>
          {/* Stale rows stay in view but cannot be chosen. */}
          <ul className="listing-list" inert={stale}>
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
