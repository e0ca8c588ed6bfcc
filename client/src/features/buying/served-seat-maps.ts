import { prepareSeatMapTemplate } from '../../../../shared/schemas/seat-maps.js';
import { LAYOUT_NAMES, type LayoutName } from '../../../../shared/schemas/seating.js';

/** Each seat map layout of those a page names (`seatMapsNamed`) that exists, once. */
export function knownLayouts(named: readonly unknown[]): LayoutName[] {
  return [...new Set(named)].filter((l): l is LayoutName => (LAYOUT_NAMES as readonly unknown[]).includes(l));
}

/**
 * Builds the seat maps a rendered page shows, in slices, before it is hydrated: the listings panel then finds
 * them built, and its first render holds the main thread no longer than any other component's.
 */
export async function prepareSeatMaps(named: readonly unknown[]): Promise<void> {
  for (const layout of knownLayouts(named)) await prepareSeatMapTemplate(layout);
}
