import type { Listing } from '../../../../shared/schemas/commerce.js';
import type { SeatMapTemplate } from '../../../../shared/schemas/seating.js';

/** What the map and the section list say about one section: its listings' lowest all-in price and count. */
export interface SectionSummary {
  name: string;
  /** The level it belongs to, or null for a section not on the map ("Other sections"). */
  zone: string | null;
  lowest: number;
  count: number;
  accessible: boolean;
  obstructedView: boolean;
}

/** Product decision: sections are coloured in four price bands, each a quarter of the sections with tickets. */
export const PRICE_BAND_COUNT = 4;

export interface PriceBand {
  from: number;
  to: number;
}

/** Every section with listings, map sections first in the map's order, then the others by name. */
export function summarizeSections(listings: readonly Listing[], template: SeatMapTemplate): SectionSummary[] {
  const by = new Map<string, SectionSummary>();
  for (const l of listings) {
    const s = by.get(l.section) ?? {
      name: l.section,
      zone: null,
      lowest: l.allInPricePerTicket,
      count: 0,
      accessible: false,
      obstructedView: false,
    };
    s.lowest = Math.min(s.lowest, l.allInPricePerTicket);
    s.count += 1;
    s.accessible ||= l.accessible;
    s.obstructedView ||= l.obstructedView;
    by.set(l.section, s);
  }
  const onMap: SectionSummary[] = [];
  for (const section of template.sections) {
    const s = by.get(section.name);
    if (!s) continue;
    onMap.push({ ...s, zone: section.zone });
    by.delete(section.name);
  }
  const others = [...by.values()].sort((a, b) => a.name.localeCompare(b.name, 'en', { numeric: true }));
  return [...onMap, ...others];
}

/**
 * Quantile bands of the sections' lowest prices: up to `count` bands, each holding about as many sections,
 * never splitting one price between two bands. Fewer distinct prices, fewer bands.
 */
export function priceBands(prices: readonly number[], count = PRICE_BAND_COUNT): PriceBand[] {
  const sorted = [...prices].sort((a, b) => a - b);
  if (sorted.length === 0) return [];
  const bands: PriceBand[] = [];
  let start = 0;
  for (let b = 1; b <= count && start < sorted.length; b++) {
    let end = Math.max(start + 1, Math.round((sorted.length * b) / count));
    // Equal prices stay in one band.
    while (end < sorted.length && sorted[end] === sorted[end - 1]) end++;
    if (b === count) end = sorted.length;
    bands.push({ from: sorted[start]!, to: sorted[end - 1]! });
    start = end;
  }
  return bands;
}

/** The band (0 cheapest) a price falls in. */
export function bandOf(bands: readonly PriceBand[], price: number): number {
  const i = bands.findIndex((b) => price <= b.to);
  return i === -1 ? bands.length - 1 : i;
}

/** The visible part of the map: its centre and how far it is zoomed in (1 the whole map). */
export interface MapView {
  zoom: number;
  cx: number;
  cy: number;
}

export const MIN_ZOOM = 1;
/** Product decision: four times is close enough to read the narrowest wedge's number on a phone. */
export const MAX_ZOOM = 4;
/** Product decision: one button press zooms by half again, or pans by a fifth of what is shown. */
export const ZOOM_STEP = 1.5;
export const PAN_STEP = 0.2;

export const wholeMap = (t: Pick<SeatMapTemplate, 'width' | 'height'>): MapView => ({
  zoom: 1,
  cx: t.width / 2,
  cy: t.height / 2,
});

/** Keeps the view inside the map. */
export function clampView(v: MapView, t: Pick<SeatMapTemplate, 'width' | 'height'>): MapView {
  const zoom = Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, v.zoom));
  const halfW = t.width / zoom / 2;
  const halfH = t.height / zoom / 2;
  return {
    zoom,
    cx: Math.min(t.width - halfW, Math.max(halfW, v.cx)),
    cy: Math.min(t.height - halfH, Math.max(halfH, v.cy)),
  };
}

export function zoomBy(v: MapView, factor: number, t: Pick<SeatMapTemplate, 'width' | 'height'>): MapView {
  return clampView({ ...v, zoom: v.zoom * factor }, t);
}

/** Pans by a share of what is shown (`dx`, `dy` in views: 0.2 is a fifth of the visible width or height). */
export function panBy(v: MapView, dx: number, dy: number, t: Pick<SeatMapTemplate, 'width' | 'height'>): MapView {
  return clampView({ ...v, cx: v.cx + (dx * t.width) / v.zoom, cy: v.cy + (dy * t.height) / v.zoom }, t);
}

export function viewBoxOf(v: MapView, t: Pick<SeatMapTemplate, 'width' | 'height'>): string {
  const w = t.width / v.zoom;
  const h = t.height / v.zoom;
  const r = (n: number) => Math.round(n * 10) / 10;
  return `${r(v.cx - w / 2)} ${r(v.cy - h / 2)} ${r(w)} ${r(h)}`;
}
