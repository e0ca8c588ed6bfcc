import type { RequestHandler } from 'express';
import { EDGE_CACHE_SECONDS } from '../../shared/rules/constants.js';

/** Browsers keep a cacheable answer a minute; the CDN edge an hour (RULES 13.2: 3600 s). */
export const EDGE_CACHE_CONTROL = `public, max-age=60, s-maxage=${EDGE_CACHE_SECONDS}`;

export const edgeCacheable: RequestHandler = (_req, res, next) => {
  res.set('Cache-Control', EDGE_CACHE_CONTROL);
  next();
};
