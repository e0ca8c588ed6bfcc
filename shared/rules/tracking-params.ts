import { percentDecoded } from './percent-decoding.js';

/**
 * RULES 2.10: the query parameters that say where a visit came from (a campaign, an ad click, a mail) and never
 * what a page shows. They are dropped before a page is looked up or drawn, by the server's page cache, by the
 * layout call a page embeds, and by the shared cache in front (`deploy/varnish/storefront.vcl`, whose pattern a
 * test holds to this list): a per-recipient `utm_content` costs no render and splits no cache. Analytics still
 * sees them, in the browser's own address.
 */

/** Every parameter whose name starts with one of these. */
export const TRACKING_PARAM_PREFIXES = ['utm_'] as const;

/** And these, by name. */
export const TRACKING_PARAMS = [
  // Google Ads, Analytics and search (`srsltid`: one per click on an organic result)
  'gclid',
  'gclsrc',
  'gbraid',
  'wbraid',
  'dclid',
  'gad_source',
  'gad_campaignid',
  'srsltid',
  '_ga',
  '_gl',
  // Meta, Microsoft, TikTok, X, LinkedIn, Yandex, Instagram, Reddit, Snapchat, Pinterest
  'fbclid',
  'msclkid',
  'ttclid',
  'twclid',
  'li_fat_id',
  'yclid',
  'igshid',
  'rdt_cid',
  'sccid',
  'epik',
  // Adobe, Impact
  's_kwcid',
  'ef_id',
  'irclickid',
  // Mailchimp, HubSpot, Marketo, Klaviyo
  'mc_cid',
  'mc_eid',
  '_hsenc',
  '_hsmi',
  'mkt_tok',
  '_kx',
] as const;

const NAMES = new Set<string>(TRACKING_PARAMS);

/** Whether a query parameter (by its name as sent) only tracks the visit. */
export function isTrackingParam(name: string): boolean {
  const lower = name.toLowerCase();
  return NAMES.has(lower) || TRACKING_PARAM_PREFIXES.some((prefix) => lower.startsWith(prefix));
}

/** A name as it may be spelled in a query string: `utm_source`, or percent-encoded. */
function decodedName(part: string): string {
  const eq = part.indexOf('=');
  const raw = (eq < 0 ? part : part.slice(0, eq)).replace(/\+/g, ' ');
  return percentDecoded(raw) ?? raw;
}

/**
 * A query string (without its `?`) with the tracking parameters taken out, the rest untouched and in order;
 * empty parts (`a=1&&b=2`) are dropped too, so `?utm_source=x` and no query at all are the same page.
 */
export function withoutTrackingParams(search: string): string {
  if (search === '') return search;
  return search
    .split('&')
    .filter((part) => part !== '' && !isTrackingParam(decodedName(part)))
    .join('&');
}

/** An address (path and query) with the tracking parameters taken out; no `?` when nothing is left. */
export function addressWithoutTracking(address: string): string {
  const q = address.indexOf('?');
  if (q < 0) return address;
  const search = withoutTrackingParams(address.slice(q + 1));
  return search ? `${address.slice(0, q)}?${search}` : address.slice(0, q);
}

/**
 * The same list as one POSIX extended regular expression over a query string's parts, for the shared cache's
 * configuration: a part (after `?` or `&`) whose name is a tracking parameter, with its value.
 */
export function trackingParamPattern(): string {
  const names = [...TRACKING_PARAM_PREFIXES.map((p) => `${p}[^=&]*`), ...TRACKING_PARAMS];
  return `(${names.join('|')})(=[^&]*)?`;
}
