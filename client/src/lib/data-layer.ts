/** RULES 9.3: experiment exposure goes to the tag manager's data layer, once per experiment per page view. */
declare global {
  interface Window {
    dataLayer?: Record<string, unknown>[];
  }
}

export function pushExposures(experiments: { key: string; variationId: string }[], pushed: Set<string>): void {
  for (const e of experiments) {
    if (pushed.has(e.key)) continue;
    pushed.add(e.key);
    (window.dataLayer ??= []).push({ event: 'experiment_viewed', experiment_id: e.key, variation_id: e.variationId });
  }
}
