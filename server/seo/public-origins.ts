import type { Request } from 'express';
import type { Env } from '../config/env.js';

/**
 * The origins the storefront gives absolute addresses on (canonical links, `og:url`, structured data, robots.txt,
 * sitemaps, preview links): only configured ones, never a `Host` a client made up. A page a shared cache keeps is
 * read by everyone, so a reflected host in it would be served to every shopper and crawler.
 */
export interface PublicOrigins {
  /** The origin given when the request's host is not a configured one: `PUBLIC_BASE_URL` or the first listed. */
  fallback: string;
  /** Each configured origin by its host (`shop.example.com`, `localhost:3000`). */
  byHost: ReadonlyMap<string, string>;
  /** Nothing configured (development, tests): a loopback host is named as asked, with its port. */
  loopback: boolean;
  /** The one origin every answer names, when it cannot depend on the request; undefined when it can. */
  single: string | undefined;
}

/** The origins `PUBLIC_BASE_URL` and `PUBLIC_ORIGINS` configure; with neither, the loopback origin of `PORT`. */
export function publicOrigins(env: Pick<Env, 'PUBLIC_BASE_URL' | 'PUBLIC_ORIGINS' | 'PORT'>): PublicOrigins {
  const listed = [...(env.PUBLIC_BASE_URL ? [env.PUBLIC_BASE_URL] : []), ...env.PUBLIC_ORIGINS];
  const byHost = new Map<string, string>();
  // The first origin of a host wins: PUBLIC_BASE_URL's scheme over a listed one's.
  for (const origin of listed) if (!byHost.has(new URL(origin).host)) byHost.set(new URL(origin).host, origin);
  const fallback = listed[0] ?? (env.PORT > 0 ? `http://localhost:${env.PORT}` : 'http://localhost');
  return {
    fallback,
    byHost,
    loopback: listed.length === 0,
    single: listed.length > 0 && byHost.size === 1 ? fallback : undefined,
  };
}

/** The ports a URL leaves out: a `Host` of `shop.example.com:443` is the host `shop.example.com`. */
const DEFAULT_PORT = /:(?:80|443)$/;

/** `localhost`, `127.x.x.x` or `[::1]`: a name only this machine answers to. */
function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(?:\.\d{1,3}){3}$/.test(hostname);
}

/**
 * The origin a request's absolute addresses are given on: the configured origin of its host (as Express reads it,
 * through the proxies `TRUST_PROXY` believes), else the fallback. With nothing configured, a loopback host is
 * named as asked (`http://127.0.0.1:5173` in development); any other host gets the fallback.
 */
export function originOf(req: Request, origins: PublicOrigins): string {
  if (origins.single) return origins.single;
  const host = String(req.host ?? '').toLowerCase();
  const listed = origins.byHost.get(host) ?? origins.byHost.get(host.replace(DEFAULT_PORT, ''));
  if (listed) return listed;
  if (origins.loopback && host) {
    try {
      const url = new URL(`${req.protocol}://${host}`);
      if (url.host === host.replace(DEFAULT_PORT, '') && isLoopback(url.hostname)) return url.origin;
    } catch {
      // not a host: the fallback
    }
  }
  return origins.fallback;
}
