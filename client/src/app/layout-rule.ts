/**
 * RULES 2.5, layout rule: pages whose path contains /events/ (but not the category-in-city, category-in-state,
 * city or state listing variants) and pages containing /tickets/ show no site header or footer.
 */
const EVENT_LISTING_VARIANTS = /\/events\/(?:category-in-city|category-in-state|city|state)(?:\/|$)/;

export function isBarePage(pathname: string): boolean {
  if (pathname.includes('/tickets/')) return true;
  return pathname.includes('/events/') && !EVENT_LISTING_VARIANTS.test(pathname);
}
