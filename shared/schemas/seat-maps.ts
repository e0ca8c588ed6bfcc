import type { LayoutName, SeatMapTemplate } from './seating.js';
import type { Builder } from './seat-map-drawing.js';
import { SEAT_MAP_BUILDERS } from './seat-map-layouts.js';
import { fitFeatureLabel, fitSectionLabel } from './seat-map-labels.js';

const TEMPLATES = new Map<LayoutName, SeatMapTemplate>();

/** The seat map of a layout (built once, then shared). */
export function seatMapTemplate(layout: LayoutName): SeatMapTemplate {
  let t = TEMPLATES.get(layout);
  if (!t) {
    const b: Builder = { zones: [], sections: [], features: [] };
    const size = SEAT_MAP_BUILDERS[layout](b);
    // Every label fits its shape (`seat-map-labels.ts`).
    t = {
      layout,
      ...size,
      zones: b.zones,
      sections: b.sections.map(fitSectionLabel),
      features: b.features.map(fitFeatureLabel),
    };
    TEMPLATES.set(layout, t);
  }
  return t;
}

/** The section names of one zone of a layout, for the listing generator; throws on an unknown zone. */
export function zoneSections(layout: LayoutName, zoneId: string): readonly string[] {
  const z = seatMapTemplate(layout).zones.find((x) => x.id === zoneId);
  if (!z) throw new Error(`layout ${layout} has no zone ${zoneId}`);
  return z.sections;
}

/** The zone (level) a section belongs to in a layout, or undefined when the section is not on its map. */
export function zoneOfSection(layout: LayoutName, section: string): string | undefined {
  return seatMapTemplate(layout).sections.find((s) => s.name === section)?.zone;
}
