import { useId, useMemo, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import {
  LAYOUT_LABELS,
  type LayoutName,
  type SeatMapTemplate,
  type SeatSection,
} from '../../../../shared/schemas/seating.js';
import { seatMapTemplate } from '../../../../shared/schemas/seat-maps.js';
import { LABEL_SIZES } from '../../../../shared/schemas/seat-map-labels.js';
import { formatMoney } from './money.js';
import {
  bandOf,
  panBy,
  PAN_STEP,
  priceBands,
  viewBoxOf,
  wholeMap,
  zoomBy,
  ZOOM_STEP,
  type MapView,
  type PriceBand,
  type SectionSummary,
} from './seat-map-model.js';

/**
 * Band colours, cheapest first. Each is at least 3:1 against the white map (WCAG 1.4.11; about 5:1 to 6:1)
 * and carries white text at 4.5:1 or more; the price is also written in each section's name in the list.
 */
/**
 * The price bands' colours are classes (`.price-band--0` onwards, in buying.css), never inline styles: the CSP forbids
 * those.
 */
const bandClass = (band: number) => `price-band--${band}`;

/** Product decision: a list of up to this many sections starts open. */
export const LIST_OPEN_MAX = 8;

const accessibleSections = (n: number) => `${n} ${n === 1 ? 'section has' : 'sections have'} it`;
const listingsText = (n: number) => `${n} ${n === 1 ? 'listing' : 'listings'}`;

/** The label's size class: roomy, the usual, or the smaller sizes a narrow section needs (`seat-map-labels.ts`). */
function labelClass(s: SeatSection): string {
  if (s.roomy) return 'seat-map__label seat-map__label--roomy';
  if (s.labelSize === LABEL_SIZES.small) return 'seat-map__label seat-map__label--small';
  if (s.labelSize === LABEL_SIZES.tiny) return 'seat-map__label seat-map__label--tiny';
  return 'seat-map__label';
}

/** A label turned along a narrow wedge turns about its own point. */
const turn = (s: Pick<SeatSection, 'labelAngle' | 'labelX' | 'labelY'>) =>
  s.labelAngle ? `rotate(${s.labelAngle} ${s.labelX} ${s.labelY})` : undefined;

/** A section's name in the list and on the map: its name, lowest all-in price, listing count and marks. */
export function sectionLabel(s: SectionSummary): string {
  return [
    s.name,
    `from ${formatMoney(s.lowest)}`,
    listingsText(s.count),
    s.accessible ? 'accessible seating' : '',
    s.obstructedView ? 'obstructed view' : '',
  ]
    .filter(Boolean)
    .join(', ');
}

function bandText(b: PriceBand): string {
  return b.from === b.to ? formatMoney(b.from) : `${formatMoney(b.from)} – ${formatMoney(b.to)}`;
}

interface MapProps {
  template: SeatMapTemplate;
  sections: ReadonlyMap<string, SectionSummary>;
  bands: readonly PriceBand[];
  selected: ReadonlySet<string>;
  highlighted: string | null;
  onToggle: (section: string) => void;
  onPreview: (section: string | null) => void;
}

/** Drags shorter than this (px) are clicks. */
const DRAG_THRESHOLD = 4;

/**
 * The drawing: sections with tickets coloured by price band, clickable with a pointer; hidden from assistive
 * technology, whose path is the section list beside it (the same choices, as buttons).
 */
function MapDrawing({ template, sections, bands, selected, highlighted, onToggle, onPreview }: MapProps) {
  const [view, setView] = useState<MapView>(() => wholeMap(template));
  const drag = useRef<{ x: number; y: number; start: MapView; moved: boolean } | null>(null);
  const svgRef = useRef<SVGSVGElement>(null);

  const onPointerDown = (e: ReactPointerEvent<SVGSVGElement>) => {
    if (view.zoom === 1) return;
    drag.current = { x: e.clientX, y: e.clientY, start: view, moved: false };
  };
  const onPointerMove = (e: ReactPointerEvent<SVGSVGElement>) => {
    const d = drag.current;
    const box = svgRef.current?.getBoundingClientRect();
    if (!d || !box || box.width === 0) return;
    const dx = e.clientX - d.x;
    const dy = e.clientY - d.y;
    if (!d.moved && Math.hypot(dx, dy) < DRAG_THRESHOLD) return;
    if (!d.moved) svgRef.current?.setPointerCapture(e.pointerId);
    d.moved = true;
    setView(panBy(d.start, -dx / box.width, -dy / box.height, template));
  };
  // Cleared after the click that ends a drag, so that click does not also select the section under it.
  const endDrag = () => {
    setTimeout(() => {
      drag.current = null;
    });
  };

  return (
    <>
      <div className="seat-map__tools" role="group" aria-label="Map zoom and pan">
        <button type="button" className="seat-map__tool" onClick={() => setView((v) => zoomBy(v, ZOOM_STEP, template))}>
          Zoom in
        </button>
        <button
          type="button"
          className="seat-map__tool"
          onClick={() => setView((v) => zoomBy(v, 1 / ZOOM_STEP, template))}
        >
          Zoom out
        </button>
        <button type="button" className="seat-map__tool" onClick={() => setView(wholeMap(template))}>
          Reset
        </button>
        <button
          type="button"
          className="seat-map__tool"
          aria-label="Pan left"
          onClick={() => setView((v) => panBy(v, -PAN_STEP, 0, template))}
        >
          <span aria-hidden="true">←</span>
        </button>
        <button
          type="button"
          className="seat-map__tool"
          aria-label="Pan up"
          onClick={() => setView((v) => panBy(v, 0, -PAN_STEP, template))}
        >
          <span aria-hidden="true">↑</span>
        </button>
        <button
          type="button"
          className="seat-map__tool"
          aria-label="Pan down"
          onClick={() => setView((v) => panBy(v, 0, PAN_STEP, template))}
        >
          <span aria-hidden="true">↓</span>
        </button>
        <button
          type="button"
          className="seat-map__tool"
          aria-label="Pan right"
          onClick={() => setView((v) => panBy(v, PAN_STEP, 0, template))}
        >
          <span aria-hidden="true">→</span>
        </button>
      </div>
      <svg
        ref={svgRef}
        className={`seat-map__svg${view.zoom > 1 ? ' seat-map__svg--zoomed' : ''}`}
        viewBox={viewBoxOf(view, template)}
        aria-hidden="true"
        data-zoom={view.zoom}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={endDrag}
        onPointerCancel={endDrag}
      >
        {template.features.map((f) => (
          <g key={f.label} className={`seat-map__feature seat-map__feature--${f.kind}`}>
            <path d={f.d} fillRule="evenodd" />
            <text x={f.labelX} y={f.labelY} transform={turn(f)}>
              {f.label}
            </text>
          </g>
        ))}
        {template.sections.map((s) => {
          const summary = sections.get(s.name);
          if (!summary) {
            return (
              <g key={s.name} className="seat-map__section seat-map__section--empty" data-section={s.name}>
                <path d={s.d} fillRule="evenodd" />
              </g>
            );
          }
          const isSelected = selected.has(s.name);
          const classes = [
            'seat-map__section',
            isSelected ? 'seat-map__section--selected' : '',
            highlighted === s.name ? 'seat-map__section--highlighted' : '',
          ]
            .filter(Boolean)
            .join(' ');
          const marks = `${summary.accessible ? '♿' : ''}${summary.obstructedView ? '⚠' : ''}`;
          return (
            <g
              key={s.name}
              className={classes}
              data-section={s.name}
              data-selected={isSelected}
              onClick={() => {
                if (!drag.current?.moved) onToggle(s.name);
              }}
              onPointerEnter={() => onPreview(s.name)}
              onPointerLeave={() => onPreview(null)}
            >
              <title>{sectionLabel(summary)}</title>
              <path d={s.d} fillRule="evenodd" className={bandClass(bandOf(bands, summary.lowest))} />
              <text x={s.labelX} y={s.labelY} className={labelClass(s)} transform={turn(s)}>
                {s.shortLabel}
                {s.roomy && (
                  <tspan x={s.labelX} dy="1.2em">
                    {formatMoney(summary.lowest)}
                  </tspan>
                )}
              </text>
              {marks && (
                <text
                  x={s.labelX}
                  y={s.labelY}
                  dy={s.roomy ? '-1.3em' : '-1.1em'}
                  className="seat-map__marks"
                  transform={turn(s)}
                >
                  {marks}
                </text>
              )}
            </g>
          );
        })}
      </svg>
    </>
  );
}

export interface SeatMapProps {
  layout: LayoutName;
  /** Every section with listings (`summarizeSections`), map sections first. */
  sections: readonly SectionSummary[];
  selected: ReadonlySet<string>;
  /** The section of the listing shown on the map, outlined and announced. */
  highlighted: string | null;
  /** A section outlined while a pointer rests on one of its listings. */
  preview?: string | null;
  onToggle: (section: string) => void;
  onClear: () => void;
  /**
   * "Accessible seating only" is on (RULES 10.15): `sections` are those with accessible seating, the others are
   * drawn as having none, and the caption, the list and the status say so.
   */
  accessibleOnly?: boolean;
}

/**
 * The event's seat map and its list of sections (RULES 3.10; listings filtered by section): selecting a section
 * on either filters the listings to it. The list is the keyboard and screen reader path (as seats.io's
 * "choose from a list" is); the drawing repeats it for the eye and the pointer.
 */
export function SeatMap({
  layout,
  sections,
  selected,
  highlighted,
  preview: listingPreview = null,
  onToggle,
  onClear,
  accessibleOnly = false,
}: SeatMapProps) {
  const template = seatMapTemplate(layout);
  const [preview, setPreview] = useState<string | null>(null);
  const captionId = useId();
  const listHeadingId = useId();
  const onMap = useMemo(() => sections.filter((s) => s.zone !== null), [sections]);
  const others = sections.filter((s) => s.zone === null);
  const byName = useMemo(() => new Map(onMap.map((s) => [s.name, s])), [onMap]);
  const bands = useMemo(() => priceBands(onMap.map((s) => s.lowest)), [onMap]);
  const zones = useMemo(() => {
    const groups = new Map<string, SectionSummary[]>();
    for (const s of onMap) groups.set(s.zone!, [...(groups.get(s.zone!) ?? []), s]);
    return [...groups];
  }, [onMap]);
  const outlined = highlighted ?? listingPreview ?? preview;
  // A long list would push the tickets far down a phone's screen: it starts closed, one press away.
  const [listOpen, setListOpen] = useState(sections.length <= LIST_OPEN_MAX);

  const sectionButton = (s: SectionSummary) => (
    <li key={s.name}>
      <button
        type="button"
        className="section-choice"
        aria-pressed={selected.has(s.name)}
        onClick={() => onToggle(s.name)}
        onMouseEnter={() => setPreview(s.name)}
        onMouseLeave={() => setPreview(null)}
        onFocus={() => setPreview(s.name)}
        onBlur={() => setPreview(null)}
      >
        {s.zone !== null && (
          <span className={`section-choice__swatch ${bandClass(bandOf(bands, s.lowest))}`} aria-hidden="true" />
        )}
        <span className="section-choice__text">
          {s.name}, from {formatMoney(s.lowest)}, {listingsText(s.count)}
          {s.accessible && (
            <>
              , <span aria-hidden="true">♿ </span>accessible seating
            </>
          )}
          {s.obstructedView && (
            <>
              , <span aria-hidden="true">⚠ </span>obstructed view
            </>
          )}
        </span>
      </button>
    </li>
  );

  return (
    <div className="seat-map">
      <figure className="seat-map__figure" aria-labelledby={captionId}>
        <figcaption id={captionId} className="seat-map__caption">
          Seat map ({LAYOUT_LABELS[layout]}): sections are coloured by their lowest price per ticket, fees included.
          Select sections on the map or in the list to see their tickets.
          {accessibleOnly &&
            ' Only sections with accessible seating are offered; the others are shown without tickets.'}
        </figcaption>
        <div className="seat-map__canvas">
          <MapDrawing
            template={template}
            sections={byName}
            bands={bands}
            selected={selected}
            highlighted={outlined}
            onToggle={onToggle}
            onPreview={setPreview}
          />
        </div>
        <ul className="seat-map__legend" aria-label="Price bands">
          {bands.map((b, i) => (
            <li key={i}>
              <span className={`seat-map__swatch ${bandClass(i)}`} aria-hidden="true" />
              {bandText(b)}
            </li>
          ))}
          <li>
            <span className="seat-map__swatch seat-map__swatch--empty" aria-hidden="true" />
            {accessibleOnly ? 'No accessible seating' : 'No tickets'}
          </li>
          <li>
            <span aria-hidden="true">♿ </span>Accessible seating
          </li>
          <li>
            <span aria-hidden="true">⚠ </span>Obstructed view
          </li>
        </ul>
      </figure>
      <p className="seat-map__status" aria-live="polite">
        {highlighted ? `${highlighted} is outlined on the map. ` : ''}
        {selected.size > 0
          ? `Showing ${accessibleOnly ? 'accessible seating' : 'tickets'} in ${[...selected].join(', ')}.`
          : accessibleOnly
            ? `Showing accessible seating only: ${accessibleSections(sections.length)}.`
            : 'Showing tickets in every section.'}
        {selected.size > 0 && (
          <>
            {' '}
            <button type="button" className="link-button" onClick={onClear}>
              Clear sections
            </button>
          </>
        )}
      </p>
      <details className="section-list" open={listOpen} onToggle={(e) => setListOpen(e.currentTarget.open)}>
        <summary id={listHeadingId}>
          Choose sections from a list ({sections.length} {sections.length === 1 ? 'section' : 'sections'} with{' '}
          {accessibleOnly ? 'accessible seating' : 'tickets'})
        </summary>
        {zones.map(([zone, list]) => (
          <div key={zone} className="section-list__zone">
            <p className="section-list__zone-name">{zone}</p>
            <ul aria-label={zone}>{list.map(sectionButton)}</ul>
          </div>
        ))}
        {others.length > 0 && (
          <div className="section-list__zone">
            <p className="section-list__zone-name">Other sections</p>
            <p className="section-list__note">
              These sellers name sections that are not on this map; their tickets are listed, but not drawn.
            </p>
            <ul aria-label="Other sections">{others.map(sectionButton)}</ul>
          </div>
        )}
      </details>
    </div>
  );
}
