import { createContext, useContext, useId, useState, type ComponentType, type KeyboardEvent } from 'react';
import type { LayoutRow } from '../../../../shared/schemas/layout.js';
import { CategoryTile, EventList, PerformerCard, PromoCard, VenueCard } from '../../components/cards.js';
import { KeptMarkup } from '../../components/kept-markup.js';
import { useRowEvents } from './row-events.js';

type RowOf<T extends LayoutRow['type']> = Extract<LayoutRow, { type: T }>;
export interface RowProps<T extends LayoutRow['type']> {
  row: RowOf<T>;
  /** The first row is above the fold: its images load at once, the rest lazily. */
  eager: boolean;
}

/**
 * The id of a heading that names a whole set of rows, where one page shows several sets of the same rows (the
 * studio's variations side by side): each row is then named by both, so no two rows share a name.
 */
export const RowSetLabel = createContext<string | undefined>(undefined);

/**
 * A row's section: its heading (`id` is the heading's, and the start of any other id inside) and its items, or a
 * note. What it holds is drawn from the row, `id` and `eager` alone, so the server writes a row it drew before as
 * text (RULES 13.13).
 */
function RowFrame({
  row,
  id: headingId,
  eager = false,
  children,
}: {
  row: LayoutRow;
  id: string;
  eager?: boolean;
  children: React.ReactNode;
}) {
  const setLabel = useContext(RowSetLabel);
  const failed = row.status === 'timeout' || row.status === 'error';
  // A row that failed still shows what it had; a row drawn as a note only is no impression.
  const showsItems = failed ? row.items.length > 0 : row.status !== 'empty';
  const ref = useRowEvents(row, showsItems);
  return (
    <KeptMarkup
      as="section"
      cacheKey={() => `${headingId} ${eager ? 1 : 0} ${JSON.stringify(row)}`}
      ref={ref}
      className={`row row--${row.type}`}
      aria-labelledby={setLabel ? `${setLabel} ${headingId}` : headingId}
      data-row-id={row.id}
    >
      <h2 id={headingId}>{row.title}</h2>
      {showsItems ? (
        children
      ) : failed ? (
        <p className="row__note">This list is taking a moment. Please try again shortly.</p>
      ) : (
        <p className="row__note">Nothing here yet near you. Try another date or category.</p>
      )}
    </KeptMarkup>
  );
}

function PerformersRow({ row, eager }: RowProps<'performers'>) {
  const id = useId();
  return (
    <RowFrame row={row} id={id} eager={eager}>
      <ul className="cards row__grid">
        {row.items.map((card) => (
          <li key={card.id}>
            <PerformerCard card={card} eager={eager} />
          </li>
        ))}
      </ul>
    </RowFrame>
  );
}

function RowEvents({ items }: { items: RowOf<'events'>['items'] }) {
  return <EventList events={items} empty="No events in this range yet." emptyClassName="row__note" />;
}

/** Tabs follow the WAI-ARIA tabs pattern: arrow keys move between tabs, one tab stop. */
function EventsRow({ row }: RowProps<'events'>) {
  // The server names the tab to open on (a league in season); the merchandiser's order is kept.
  const [active, setActive] = useState(() => Math.max(0, row.tabs?.findIndex((t) => t.id === row.defaultTab) ?? 0));
  const base = useId();
  const tabs = row.tabs;
  if (!tabs || tabs.length === 0) {
    return (
      <RowFrame row={row} id={base}>
        <RowEvents items={row.items} />
      </RowFrame>
    );
  }
  const onKey = (e: KeyboardEvent) => {
    const delta = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
    if (!delta) return;
    e.preventDefault();
    const next = (active + delta + tabs.length) % tabs.length;
    setActive(next);
    document.getElementById(`${base}-tab-${next}`)?.focus();
  };
  return (
    <RowFrame row={{ ...row, status: row.status === 'empty' ? 'ok' : row.status }} id={base}>
      <div role="tablist" aria-label={row.title} className="tabs" onKeyDown={onKey}>
        {tabs.map((tab, i) => (
          <button
            key={tab.id}
            id={`${base}-tab-${i}`}
            role="tab"
            type="button"
            aria-selected={i === active}
            aria-controls={`${base}-panel`}
            tabIndex={i === active ? 0 : -1}
            onClick={() => setActive(i)}
          >
            {tab.title}
          </button>
        ))}
      </div>
      <div id={`${base}-panel`} role="tabpanel" aria-labelledby={`${base}-tab-${active}`}>
        <RowEvents items={tabs[active]!.items} />
      </div>
    </RowFrame>
  );
}

function VenuesRow({ row }: RowProps<'venues'>) {
  const id = useId();
  return (
    <RowFrame row={row} id={id}>
      <ul className="venue-list row__grid">
        {row.items.map((card) => (
          <li key={card.id}>
            <VenueCard card={card} />
          </li>
        ))}
      </ul>
    </RowFrame>
  );
}

function CategoriesRow({ row, eager }: RowProps<'categories'>) {
  const id = useId();
  return (
    <RowFrame row={row} id={id} eager={eager}>
      <ul className="cards cards--tiles">
        {row.items.map((card) => (
          <li key={card.slug}>
            <CategoryTile card={card} eager={eager} />
          </li>
        ))}
      </ul>
    </RowFrame>
  );
}

function PromosRow({ row, eager }: RowProps<'promos'>) {
  const id = useId();
  return (
    <RowFrame row={row} id={id} eager={eager}>
      <ul className="cards cards--promos row__grid">
        {row.items.map((card) => (
          <li key={card.id}>
            <PromoCard card={card} eager={eager} />
          </li>
        ))}
      </ul>
    </RowFrame>
  );
}

/** The row registry: the client draws whatever rows the layout lists, by type (DESIGN "The one idea"). */
export const ROW_COMPONENTS: { [T in LayoutRow['type']]: ComponentType<RowProps<T>> } = {
  performers: PerformersRow,
  events: EventsRow,
  venues: VenuesRow,
  categories: CategoriesRow,
  promos: PromosRow,
};

export function RowSkeleton() {
  return (
    <section className="row row--skeleton" aria-hidden="true">
      <div className="skeleton skeleton--heading" />
      <ul className="cards row__grid">
        {[0, 1, 2, 3].map((i) => (
          <li key={i}>
            <div className="skeleton skeleton--card" />
          </li>
        ))}
      </ul>
    </section>
  );
}
