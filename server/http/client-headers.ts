import type { IncomingHttpHeaders } from 'node:http';
import { AppError } from './errors.js';

export const SITE_ID_HEADER = 'x-site-id';
export const CLIENT_ID_HEADER = 'x-client-id';
const CLIENT_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const SITE_ID_FORMAT = /^\d{1,9}$/;

/** What a site id names (a brand of the registry), or undefined for a site id nothing has. */
export type SiteLookup<Site> = (siteId: number) => Site | undefined;

/** The 400 for a site id that names no site, naming where it was sent (the header, or a beacon's `site`). */
export function unknownSiteId(site: string | readonly string[], where: string = SITE_ID_HEADER): AppError {
  return new AppError(400, 'unknown_site_id', `Unknown site id in ${where}: "${String(site).slice(0, 20)}"`);
}

/**
 * RULES 1.4: every backend request may carry the fixed client id and the site id. A site id must name a site
 * and a client id must be a short plain token; anything else is a 400 before any work is done. Says what the site
 * id names (undefined without one), or throws the 400.
 */
export function readClientHeaders<Site>(headers: IncomingHttpHeaders, lookup: SiteLookup<Site>): Site | undefined {
  const site = siteNamed(headers[SITE_ID_HEADER], lookup);
  const client = headers[CLIENT_ID_HEADER];
  if (client !== undefined && !(typeof client === 'string' && CLIENT_ID.test(client))) {
    throw new AppError(
      400,
      'invalid_client_id',
      `${CLIENT_ID_HEADER} must be 1–128 letters, digits, '.', '_', ':' or '-'`,
    );
  }
  return site;
}

/**
 * What an `X-Site-Id` header names: undefined without one, the 400 for a site id that names nothing. `where` names
 * where it came from in that 400 (the header, by default).
 */
export function siteNamed<Site>(
  header: string | string[] | undefined,
  lookup: SiteLookup<Site>,
  where: string = SITE_ID_HEADER,
): Site | undefined {
  if (header === undefined) return undefined;
  const site = typeof header === 'string' && SITE_ID_FORMAT.test(header) ? lookup(Number(header)) : undefined;
  if (site === undefined) throw unknownSiteId(header, where);
  return site;
}

/** Whether a request's client headers pass `readClientHeaders`. */
export function clientHeadersPass(headers: IncomingHttpHeaders, lookup: SiteLookup<unknown>): boolean {
  try {
    readClientHeaders(headers, lookup);
    return true;
  } catch {
    return false;
  }
}
