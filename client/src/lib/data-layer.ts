import { sharingAllowed } from './privacy.js';

/**
 * RULES 9.3: experiment exposure goes to the tag manager's data layer, once per experiment per page view. RULES 21.4:
 * the data layer is what the site shares (a tag manager sends on what it reads there): nothing is pushed once the
 * shopper opted out, by Global Privacy Control or by their choice.
 */
declare global {
  interface Window {
    dataLayer?: Record<string, unknown>[];
  }
}

/** Pushes an entry to the data layer unless the shopper opted out; says whether it went. */
export function pushToDataLayer(entry: Record<string, unknown>): boolean {
  if (!sharingAllowed()) return false;
  (window.dataLayer ??= []).push(entry);
  return true;
}

export function pushExposures(experiments: { key: string; variationId: string }[], pushed: Set<string>): void {
  for (const e of experiments) {
    if (pushed.has(e.key)) continue;
    pushed.add(e.key);
    pushToDataLayer({ event: 'experiment_viewed', experiment_id: e.key, variation_id: e.variationId });
  }
}
