/**
 * What crawlers are asked to leave alone: the pages and API calls of one shopper's purchase (cart, checkout,
 * orders, tickets), the merchandisers' studio and the operators' API. The API calls the storefront's pages are
 * drawn from (layouts, performers, venues, events, menus, search) stay open: a crawler that renders pages asks
 * them too, and a page whose data it may not fetch is an empty page to it.
 */
export const DISALLOWED_PATHS = [
  '/checkout/',
  '/orders/',
  '/tickets/',
  '/studio',
  '/api/cart',
  '/api/checkout',
  '/api/orders',
  '/api/tickets',
  '/api/studio',
  '/api/admin',
  '/api/customers',
] as const;

export const SITEMAP_INDEX_PATH = '/sitemap.xml';

/** robots.txt (RFC 9309) for the storefront at `origin`, with the sitemap index's absolute address. */
export function robotsTxt(origin: string): string {
  return [
    'User-agent: *',
    'Allow: /',
    ...DISALLOWED_PATHS.map((path) => `Disallow: ${path}`),
    '',
    `Sitemap: ${origin}${SITEMAP_INDEX_PATH}`,
    '',
  ].join('\n');
}
