import { createHash } from 'node:crypto';

/** The headers a shared cache reads a page's tags from: Varnish's xkey, and Fastly's (and others') Surrogate-Key. */
export const SURROGATE_KEY_HEADERS = ['xkey', 'Surrogate-Key'] as const;

/** The header a purge names its tags in (`deploy/varnish/storefront.vcl`). */
export const PURGE_KEY_HEADER = 'xkey-purge';

/** A tag spelled as it goes into a header: a short token without spaces or commas, which both caches split on. */
const PLAIN_TOKEN = /^[A-Za-z0-9:._/-]{1,64}$/;

/**
 * The surrogate key of a cache tag (RULES 13.7): the tag itself when it is a short plain token
 * (`collection:Event`), else a digest of it, so the page that carries it and the purge that names it agree on
 * every node without sharing anything but this function.
 */
export function surrogateKey(tag: string): string {
  return PLAIN_TOKEN.test(tag) ? tag : `k:${createHash('sha1').update(tag).digest('base64url').slice(0, 22)}`;
}

/** A page's tags as one header value: each once, space-separated. */
export function surrogateKeyHeader(tags: Iterable<string>): string {
  return [...new Set([...tags].map(surrogateKey))].join(' ');
}
