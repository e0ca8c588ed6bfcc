import { prepareSeatMapTemplate } from '../../../../shared/schemas/seat-maps.js';
import { LAYOUT_NAMES, type LayoutName } from '../../../../shared/schemas/seating.js';

/** The seat map layouts a rendered page's answers name (a listings answer's `seatMap.layout`). */
export function seatMapLayouts(answers: readonly { data: unknown }[]): LayoutName[] {
  const named = answers.map(({ data }) => (data as { seatMap?: { layout?: unknown } } | null)?.seatMap?.layout);
  return [...new Set(named)].filter((l): l is LayoutName => (LAYOUT_NAMES as readonly unknown[]).includes(l));
}

/**
 * Builds the seat maps a rendered page shows, in slices, before it is hydrated: the listings panel then finds
 * them built, and its first render holds the main thread no longer than any other component's.
 */
export async function prepareSeatMaps(answers: readonly { data: unknown }[]): Promise<void> {
  for (const layout of seatMapLayouts(answers)) await prepareSeatMapTemplate(layout);
}
