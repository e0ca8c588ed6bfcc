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

/** How long a slice of `prepareSeatMapTemplate` runs before it lets the browser do something else, in ms. */
const SLICE_MS = 5;

/**
 * Builds a layout's seat map as `seatMapTemplate` does, a few labels at a time, letting the browser run other work
 * between slices: fitting a stadium's labels is tens of milliseconds of arithmetic on a phone, which the listings
 * panel's first render would otherwise do in one long task. `seatMapTemplate` then returns the same template.
 */
export async function prepareSeatMapTemplate(layout: LayoutName, sliceMs = SLICE_MS): Promise<void> {
  if (TEMPLATES.has(layout)) return;
  const b: Builder = { zones: [], sections: [], features: [] };
  const size = SEAT_MAP_BUILDERS[layout](b);
  let sliceStart = performance.now();
  const fitted = async <T>(items: readonly T[], fit: (item: T) => T): Promise<T[]> => {
    const out: T[] = [];
    for (const item of items) {
      out.push(fit(item));
      if (performance.now() - sliceStart >= sliceMs) {
        await new Promise((resolve) => setTimeout(resolve, 0));
        sliceStart = performance.now();
      }
    }
    return out;
  };
  const sections = await fitted(b.sections, fitSectionLabel);
  const features = await fitted(b.features, fitFeatureLabel);
  if (!TEMPLATES.has(layout)) TEMPLATES.set(layout, { layout, ...size, zones: b.zones, sections, features });
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
