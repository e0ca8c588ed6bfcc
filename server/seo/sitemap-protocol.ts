/**
 * The sitemaps.org protocol (https://www.sitemaps.org/protocol.html), as far as the storefront uses it: UTF-8
 * XML, absolute and entity-escaped `<loc>`s, `<lastmod>` in W3C Datetime, and an index over files of bounded size.
 */

/** sitemaps.org: "Each Sitemap file that you provide must have no more than 50,000 URLs". */
export const MAX_URLS_PER_SITEMAP = 50_000;
/** sitemaps.org: a sitemap file "must be no larger than 50MB (52,428,800 bytes)" uncompressed. */
export const MAX_SITEMAP_BYTES = 52_428_800;
/** sitemaps.org: a sitemap index "can only specify … no more than 50,000 Sitemaps". */
export const MAX_SITEMAPS_PER_INDEX = 50_000;

export const SITEMAP_NAMESPACE = 'http://www.sitemaps.org/schemas/sitemap/0.9';
export const XML_CONTENT_TYPE = 'application/xml; charset=utf-8';
const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** sitemaps.org: data values must use entity escape codes for `& ' " < >`. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** W3C Datetime (https://www.w3.org/TR/NOTE-datetime), to the second, in UTC: `2026-11-26T04:40:00Z`. */
export function w3cDatetime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export const URLSET_OPEN = `${XML_DECLARATION}<urlset xmlns="${SITEMAP_NAMESPACE}">\n`;
export const URLSET_CLOSE = '</urlset>\n';

/** One `<url>` entry: `loc` absolute, `lastmod` in milliseconds since the epoch. */
export function urlEntry(loc: string, lastmod: number): string {
  return `<url><loc>${escapeXml(loc)}</loc><lastmod>${w3cDatetime(lastmod)}</lastmod></url>\n`;
}

/** A sitemap index listing the given absolute sitemap addresses. */
export function sitemapIndex(locs: readonly string[]): string {
  const entries = locs.map((loc) => `<sitemap><loc>${escapeXml(loc)}</loc></sitemap>\n`).join('');
  return `${XML_DECLARATION}<sitemapindex xmlns="${SITEMAP_NAMESPACE}">\n${entries}</sitemapindex>\n`;
}
