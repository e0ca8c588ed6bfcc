import type { IncomingHttpHeaders } from 'node:http';
import type { RequestHandler } from 'express';
import type { SegmentRepository } from '../segments/segment-repository.js';
import { AppError } from './errors.js';

export const SITE_ID_HEADER = 'x-site-id';
export const CLIENT_ID_HEADER = 'x-client-id';
const CLIENT_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Spec §6: every backend request may carry the fixed client id and the site id. A site id must name a brand
 * and a client id must be a short plain token; anything else is a 400 before any work is done.
 */
export function clientHeadersProblem(headers: IncomingHttpHeaders, segments: SegmentRepository): AppError | undefined {
  const site = headers[SITE_ID_HEADER];
  if (
    site !== undefined &&
    !(typeof site === 'string' && /^\d{1,9}$/.test(site) && segments.brandBySiteId(Number(site)))
  ) {
    return new AppError(400, 'unknown_site_id', `Unknown site id in ${SITE_ID_HEADER}: "${String(site).slice(0, 20)}"`);
  }
  const client = headers[CLIENT_ID_HEADER];
  if (client !== undefined && !(typeof client === 'string' && CLIENT_ID.test(client))) {
    return new AppError(
      400,
      'invalid_client_id',
      `${CLIENT_ID_HEADER} must be 1–128 letters, digits, '.', '_', ':' or '-'`,
    );
  }
  return undefined;
}

export function clientHeaders(segments: SegmentRepository): RequestHandler {
  return (req, _res, next) => {
    const problem = clientHeadersProblem(req.headers, segments);
    if (problem) throw problem;
    next();
  };
}
