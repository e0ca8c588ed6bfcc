/**
 * What crawlers are asked to leave alone: the API, and the pages of one shopper's purchase (checkout, orders,
 * tickets) or of the merchandisers (the studio). Everything else (home, categories, performers, venues, events,
 * search results, information pages) is the storefront's to index.
 */
export const DISALLOWED_PATHS = ['/api/', '/checkout/', '/orders/', '/tickets/', '/studio'] as const;

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
