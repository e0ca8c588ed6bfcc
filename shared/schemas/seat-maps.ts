import type { LayoutName, SeatMapTemplate } from './seating.js';
import type { Builder } from './seat-map-drawing.js';
import { SEAT_MAP_BUILDERS } from './seat-map-layouts.js';
import { fitFeatureLabel, fitSectionLabel } from './seat-map-labels.js';

const TEMPLATES = new Map<LayoutName, SeatMapTemplate>();

/**
 * The steps of building a layout's seat map, one label fitted to its shape (`seat-map-labels.ts`) a step, the map
 * at the end: built in one go (`seatMapTemplate`) or a few milliseconds at a time (`prepareSeatMapTemplate`).
 */
function* templateSteps(layout: LayoutName): Generator<void, SeatMapTemplate, undefined> {
  const b: Builder = { zones: [], sections: [], features: [] };
  const size = SEAT_MAP_BUILDERS[layout](b);
  const sections = [];
  for (const section of b.sections) {
    sections.push(fitSectionLabel(section));
    yield;
  }
  const features = [];
  for (const feature of b.features) {
    features.push(fitFeatureLabel(feature));
    yield;
  }
  return { layout, ...size, zones: b.zones, sections, features };
}

/** The seat map of a layout (built once, then shared). */
export function seatMapTemplate(layout: LayoutName): SeatMapTemplate {
  let t = TEMPLATES.get(layout);
  if (!t) {
    const steps = templateSteps(layout);
    let step = steps.next();
    while (!step.done) step = steps.next();
    t = step.value;
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
  const steps = templateSteps(layout);
  let sliceStart = performance.now();
  for (let step = steps.next(); ; step = steps.next()) {
    if (step.done) {
      if (!TEMPLATES.has(layout)) TEMPLATES.set(layout, step.value);
      return;
    }
    if (performance.now() - sliceStart >= sliceMs) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      sliceStart = performance.now();
    }
  }
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
